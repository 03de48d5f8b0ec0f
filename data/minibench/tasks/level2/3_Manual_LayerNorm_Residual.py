"""Layer normalisation over the last dimension written step by step (mean, variance,
normalise, learned affine) followed by a residual addition of a second input."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, dim, eps):
        super().__init__()
        self.eps = eps
        self.gamma = nn.Parameter(1.0 + 0.2 * torch.randn(dim))
        self.beta = nn.Parameter(0.2 * torch.randn(dim))

    def forward(self, x, residual):
        mean = x.mean(dim=-1, keepdim=True)
        centered = x - mean
        var = (centered * centered).mean(dim=-1, keepdim=True)
        x_hat = centered / torch.sqrt(var + self.eps)
        y = x_hat * self.gamma + self.beta
        return y + residual


rows = 4096
dim = 768
eps = 1e-5


def get_inputs():
    return [torch.randn(rows, dim) * 2.0 + 0.5, torch.randn(rows, dim)]


def get_init_inputs():
    return [dim, eps]
