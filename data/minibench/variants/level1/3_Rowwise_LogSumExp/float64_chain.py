"""Same max / exp / sum / log chain as the reference but in float64, cast back to float32."""
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        xd = x.double()
        m = xd.max(dim=1, keepdim=True).values
        return (torch.log(torch.exp(xd - m).sum(dim=1)) + m.squeeze(1)).float()
