"""Fused multiply-and-reduce as a batched GEMM, v^T A^T via torch.bmm (no (B, M, N) product tensor), then in-place affine, tanh and F.normalize."""
import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class ModelNew(nn.Module):
    def __init__(self, rows, eps):
        super().__init__()
        self.bias = nn.Parameter(0.5 * torch.randn(rows))
        self.eps = eps
        self.radius = math.sqrt(rows)

    def forward(self, A, v):
        y = torch.bmm(v.unsqueeze(1), A.transpose(1, 2)).squeeze(1)
        y = torch.tanh(y.mul_(0.05).add_(self.bias))
        return F.normalize(y, p=2.0, dim=-1, eps=self.eps).mul_(self.radius)
