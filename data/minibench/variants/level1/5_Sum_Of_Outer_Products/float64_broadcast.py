"""Same materialised K x N x M outer-product tensor as the reference, but in float64 (twice the memory), cast back."""
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self, k, out_cols):
        super().__init__()
        self.b = nn.Parameter(torch.randn(k, out_cols))

    def forward(self, a):
        outer = a.double()[:, :, None] * self.b.double()[:, None, :]
        return outer.sum(dim=0).float()
