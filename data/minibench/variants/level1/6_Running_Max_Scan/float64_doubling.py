"""Same log-step doubling scan as the reference, but in float64 (twice the memory traffic), cast back."""
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        out = x.double()
        shift = 1
        n = x.shape[1]
        while shift < n:
            prev = torch.full_like(out, float("-inf"))
            prev[:, shift:] = out[:, :-shift]
            out = torch.maximum(out, prev)
            shift *= 2
        return out.float()
