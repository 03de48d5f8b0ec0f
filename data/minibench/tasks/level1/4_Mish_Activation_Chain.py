"""Mish activation x * tanh(softplus(x)) applied elementwise, written as a chain of
separate tensor operations."""
import torch
import torch.nn as nn
import torch.nn.functional as F

batch = 128
features = 16384


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        sp = F.softplus(x)
        t = torch.tanh(sp)
        return x * t


def get_inputs():
    return [torch.randn(batch, features) * 2.0]


def get_init_inputs():
    return []
