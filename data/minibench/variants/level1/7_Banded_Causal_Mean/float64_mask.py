"""Same materialised band-mask multiply as the reference, but in float64 (twice the memory traffic), cast back."""
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.width = width

    def forward(self, x):
        n = x.shape[-1]
        i = torch.arange(n, device=x.device)[:, None]
        j = torch.arange(n, device=x.device)[None, :]
        mask = ((j <= i) & (j > i - self.width)).to(torch.float64)
        return ((x.double() * mask).sum(-1) / mask.sum(-1)).float()
