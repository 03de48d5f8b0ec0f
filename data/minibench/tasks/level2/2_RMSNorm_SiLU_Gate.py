"""RMS normalisation of x over the last dimension with a learned gain, multiplied by
SiLU of a second input g (a gated-unit output): rmsnorm(x) * g * sigmoid(g)."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, dim, eps):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(1.0 + 0.2 * torch.randn(dim))

    def forward(self, x, g):
        ms = x.pow(2).mean(dim=-1, keepdim=True)
        rms = torch.sqrt(ms + self.eps)
        x_norm = x / rms
        x_norm = x_norm * self.weight
        gate = g * torch.sigmoid(g)
        return x_norm * gate


batch_size = 16
seq_len = 512
dim = 512
eps = 1e-6


def get_inputs():
    return [torch.randn(batch_size, seq_len, dim), torch.randn(batch_size, seq_len, dim)]


def get_init_inputs():
    return [dim, eps]
