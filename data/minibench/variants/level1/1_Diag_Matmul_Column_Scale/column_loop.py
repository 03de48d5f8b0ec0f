"""Python loop over columns: scale each column separately and stack them (no dense matmul, but many small ops)."""
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self, num_cols):
        super().__init__()
        self.scale = nn.Parameter(torch.randn(num_cols))

    def forward(self, x):
        cols = [x[:, j] * self.scale[j] for j in range(x.shape[1])]
        return torch.stack(cols, dim=1)
