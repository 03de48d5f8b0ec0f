"""Library call torch.logsumexp along the rows (ATen's own reduction instead of the hand-written op chain)."""
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return torch.logsumexp(x, dim=1)
