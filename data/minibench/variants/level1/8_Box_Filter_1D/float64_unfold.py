"""Same unfold-and-mean as the reference, but reading a float64 copy (twice the memory traffic), cast back."""
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self, k):
        super().__init__()
        self.k = k

    def forward(self, x):
        return x.double().unfold(-1, self.k, 1).mean(-1).float()
