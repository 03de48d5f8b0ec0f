"""Python loop over (example, query row): each row's scores, hand-written softmax and weighted sum of V as small vector-matrix ops."""
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
        scale = 1.0 / math.sqrt(self.head_dim)
        out = torch.empty_like(q)
        for b in range(x.shape[0]):
            kt, vb = k[b].t(), v[b]
            for i in range(x.shape[1]):
                s = (q[b, i] @ kt) * scale
                e = torch.exp(s - s.max())
                out[b, i] = (e / e.sum()) @ vb
        return out
