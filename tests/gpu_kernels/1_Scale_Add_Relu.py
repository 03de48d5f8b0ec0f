"""GPU test task: y = relu(x * s + b) over a large float32 tensor, written as three separate ops."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.s = nn.Parameter(torch.randn(n))
        self.b = nn.Parameter(torch.randn(n))

    def forward(self, x):
        y = x * self.s
        y = y + self.b
        return torch.relu(y)


rows, n = 8192, 4096


def get_inputs():
    return [torch.randn(rows, n)]


def get_init_inputs():
    return [n]
