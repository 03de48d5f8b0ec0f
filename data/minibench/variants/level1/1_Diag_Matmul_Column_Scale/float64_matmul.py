"""Same dense X @ diag(s) product, but computed in float64 and cast back (slower GEMM, twice the memory)."""
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self, num_cols):
        super().__init__()
        self.scale = nn.Parameter(torch.randn(num_cols))

    def forward(self, x):
        d = torch.diag(self.scale.double())
        return (x.double() @ d).float()
