"""Single-head self-attention: learned Q/K/V projections of x, scores Q K^T / sqrt(d),
a softmax written by hand (subtract max, exp, divide by sum), then weights times V."""
import math
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, dim, head_dim):
        super().__init__()
        self.q = nn.Linear(dim, head_dim, bias=False)
        self.k = nn.Linear(dim, head_dim, bias=False)
        self.v = nn.Linear(dim, head_dim, bias=False)
        self.head_dim = head_dim

    def forward(self, x):
        q = self.q(x)
        k = self.k(x)
        v = self.v(x)
        scores = torch.bmm(q, k.transpose(1, 2)) / math.sqrt(self.head_dim)
        scores = scores - scores.max(dim=-1, keepdim=True).values
        e = torch.exp(scores)
        p = e / e.sum(dim=-1, keepdim=True)
        return torch.bmm(p, v)


batch_size = 8
seq_len = 512
dim = 64
head_dim = 16


def get_inputs():
    return [3.0 * torch.randn(batch_size, seq_len, dim)]


def get_init_inputs():
    return [dim, head_dim]
