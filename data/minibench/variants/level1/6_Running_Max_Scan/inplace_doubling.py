"""Log-step doubling scan done in place on one buffer (no -inf padding tensor; only the shifted slice is copied per step)."""
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        out = x.clone()
        shift = 1
        n = x.shape[1]
        while shift < n:
            # right-to-left dependency: the source slice must be read before it is overwritten
            torch.maximum(out[:, shift:], out[:, :-shift].clone(), out=out[:, shift:])
            shift *= 2
        return out
