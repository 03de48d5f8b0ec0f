"""Gated residual block: y = x + sigmoid(W1 x + b1) * tanh(W2 x + b2), with the
sigmoid written out as 1 / (1 + exp(-z))."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.w1 = nn.Linear(dim, dim)
        self.w2 = nn.Linear(dim, dim)

    def forward(self, x):
        z1 = self.w1(x)
        z2 = self.w2(x)
        gate = 1.0 / (1.0 + torch.exp(-z1))
        cand = torch.tanh(z2)
        return x + gate * cand


batch_size = 16384
dim = 64


def get_inputs():
    return [torch.randn(batch_size, dim)]


def get_init_inputs():
    return [dim]
