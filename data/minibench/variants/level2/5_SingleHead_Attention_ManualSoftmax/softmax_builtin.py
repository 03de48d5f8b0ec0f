"""Scale folded into Q (a small tensor) and one call to the fused ATen softmax, replacing the five-pass hand-written softmax."""
import math
import torch
import torch.nn as nn


class ModelNew(nn.Module):
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
        scores = torch.bmm(q.mul_(1.0 / math.sqrt(self.head_dim)), k.transpose(1, 2))
        p = torch.softmax(scores, dim=-1)
        return torch.bmm(p, v)
