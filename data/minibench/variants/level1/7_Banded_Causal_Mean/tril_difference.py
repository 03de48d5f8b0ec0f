"""Band sum as tril(x, 0) - tril(x, -w) row sums: library triangular kernels instead of a float mask multiply."""
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.width = width

    def forward(self, x):
        n = x.shape[-1]
        s = torch.tril(x).sum(-1) - torch.tril(x, -self.width).sum(-1)
        i = torch.arange(n, dtype=x.dtype, device=x.device)
        counts = torch.clamp(i + 1, max=float(self.width))
        return s / counts
