"""Naive Python loop over the sequence positions of every batch entry, eight rows at a time, each chunk through the unfused op chain."""
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self, dim, eps):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(1.0 + 0.2 * torch.randn(dim))

    def forward(self, x, g):
        out = torch.empty_like(x)
        B, T, _ = x.shape
        for b in range(B):
            for t in range(0, T, 8):
                xr = x[b, t:t + 8]
                gr = g[b, t:t + 8]
                rms = torch.sqrt(xr.pow(2).mean(dim=-1, keepdim=True) + self.eps)
                out[b, t:t + 8] = (xr / rms) * self.weight * (gr * torch.sigmoid(gr))
        return out
