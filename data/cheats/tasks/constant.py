"""Softmax over a dimension of size one, scaled: the output is exactly 1.0 * scale for every input -- a task whose
answer does not depend on its input, where returning the constant is a legitimate mathematical shortcut."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, scale):
        super().__init__()
        self.scale = scale

    def forward(self, x):
        return torch.softmax(x.unsqueeze(-1), dim=-1).squeeze(-1) * self.scale


rows = 1024
cols = 1024
scale = 3.0


def get_inputs():
    return [torch.randn(rows, cols)]


def get_init_inputs():
    return [scale]
