"""Python loop over rows: slice the band entries of row i directly and average them (no mask, N small ops)."""
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.width = width

    def forward(self, x):
        n = x.shape[-1]
        cols = []
        for i in range(n):
            lo = max(0, i - self.width + 1)
            cols.append(x[:, i, lo:i + 1].mean(-1))
        return torch.stack(cols, dim=1)
