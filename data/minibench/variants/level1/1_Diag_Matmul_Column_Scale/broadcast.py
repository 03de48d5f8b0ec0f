"""Broadcasting multiply x * s instead of materialising diag(s): O(NM) instead of O(NM^2)."""
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self, num_cols):
        super().__init__()
        self.scale = nn.Parameter(torch.randn(num_cols))

    def forward(self, x):
        return x * self.scale
