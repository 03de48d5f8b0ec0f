"""Squared Euclidean distance between every input point and every learned centre,
computed by broadcasting the coordinate differences."""
import torch
import torch.nn as nn

num_points = 256
num_centres = 256
dim = 128


class Model(nn.Module):
    def __init__(self, n_centres, d):
        super().__init__()
        self.centres = nn.Parameter(torch.randn(n_centres, d))

    def forward(self, x):
        diff = x[:, None, :] - self.centres[None, :, :]
        return diff.pow(2).sum(-1)


def get_inputs():
    return [torch.rand(num_points, dim) * 4.0 - 2.0]


def get_init_inputs():
    return [num_centres, dim]
