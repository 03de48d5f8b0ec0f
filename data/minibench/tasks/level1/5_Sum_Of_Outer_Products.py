"""Sum over k of the outer products a_k b_k^T between input vectors a_k and learned
vectors b_k, built by materialising every outer product and reducing over k."""
import torch
import torch.nn as nn

num_terms = 128
n = 256
m = 256


class Model(nn.Module):
    def __init__(self, k, out_cols):
        super().__init__()
        self.b = nn.Parameter(torch.randn(k, out_cols))

    def forward(self, a):
        outer = a[:, :, None] * self.b[:, None, :]
        return outer.sum(dim=0)


def get_inputs():
    return [torch.rand(num_terms, n) * 2.0 - 1.0]


def get_init_inputs():
    return [num_terms, m]
