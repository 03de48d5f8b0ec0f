"""Algebraic rewrite tanh(softplus(x)) = 1 - 2 / ((1 + e^x)^2 + 1): a single exp and plain arithmetic, no log1p or tanh."""
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        # with s = (1 + e^x)^2 + 1: mish(x) = x - 2x / s  (e^x -> inf gives s = inf and mish(x) = x, as it should)
        s = torch.exp(x).add_(1.0)
        s = s * s + 1.0
        return x - 2.0 * x / s
