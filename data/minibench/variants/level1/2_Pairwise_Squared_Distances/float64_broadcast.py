"""Same broadcast difference tensor as the reference but in float64 (twice the memory traffic), cast back."""
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self, n_centres, d):
        super().__init__()
        self.centres = nn.Parameter(torch.randn(n_centres, d))

    def forward(self, x):
        xd = x.double()
        cd = self.centres.double()
        diff = xd[:, None, :] - cd[None, :, :]
        return diff.pow(2).sum(-1).float()
