"""Python loop over the columns of A: the products accumulated as y += A[:, :, j] * v[:, j] from strided column slices, then the same tail."""
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
        y = A[:, :, 0] * v[:, 0:1]
        for j in range(1, A.shape[2]):
            y = y + A[:, :, j] * v[:, j:j + 1]
        y = torch.tanh(y * 0.05 + self.bias)
        norm = torch.sqrt((y * y).sum(dim=-1, keepdim=True))
        return y / torch.clamp(norm, min=self.eps) * self.radius
