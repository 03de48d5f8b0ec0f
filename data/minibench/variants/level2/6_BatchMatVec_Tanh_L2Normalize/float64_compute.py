"""The same materialised broadcast product A * v, reduced and post-processed in float64, cast back to float32."""
import math
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self, rows, eps):
        super().__init__()
        self.bias = nn.Parameter(0.5 * torch.randn(rows))
        self.eps = eps
        self.radius = math.sqrt(rows)

    def forward(self, A, v):
        A = A.double()
        v = v.double()
        y = (A * v.unsqueeze(1)).sum(dim=-1)
        y = torch.tanh(y * 0.05 + self.bias.double())
        norm = torch.sqrt((y * y).sum(dim=-1, keepdim=True))
        return (y / torch.clamp(norm, min=self.eps) * self.radius).float()
