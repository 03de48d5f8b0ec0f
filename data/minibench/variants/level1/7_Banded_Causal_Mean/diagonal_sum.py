"""Band sum as the sum of its w diagonals (strided diagonal views, w in-place slice adds): O(B*N*w) reads, no mask."""
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.width = width

    def forward(self, x):
        n = x.shape[-1]
        w = min(self.width, n)
        s = x.diagonal(0, -2, -1).clone()                  # (B, N): x[:, i, i]
        for k in range(1, w):
            s[..., k:] += x.diagonal(-k, -2, -1)          # x[:, i, i - k] for rows i >= k
        counts = torch.clamp(torch.arange(1, n + 1, dtype=x.dtype, device=x.device), max=float(w))
        return s / counts
