"""A batch of matrix-vector products (each example has its own matrix), plus a learned
bias, tanh, and finally L2 normalisation of each resulting vector onto the sphere of
radius sqrt(rows) (so entries have unit root-mean-square)."""
import math
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, rows, eps):
        super().__init__()
        self.bias = nn.Parameter(0.5 * torch.randn(rows))
        self.eps = eps
        self.radius = math.sqrt(rows)

    def forward(self, A, v):
        y = (A * v.unsqueeze(1)).sum(dim=-1)
        y = torch.tanh(y * 0.05 + self.bias)
        norm = torch.sqrt((y * y).sum(dim=-1, keepdim=True))
        return y / torch.clamp(norm, min=self.eps) * self.radius


batch_size = 32
rows = 512
cols = 512
eps = 1e-12


def get_inputs():
    return [torch.randn(batch_size, rows, cols), torch.randn(batch_size, cols)]


def get_init_inputs():
    return [rows, eps]
