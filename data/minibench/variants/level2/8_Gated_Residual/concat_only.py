"""Only the matmul rewrite: one concatenated [W1; W2] addmm, the hand-written sigmoid / tanh / residual chain left unfused on its two halves."""
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.w1 = nn.Linear(dim, dim)
        self.w2 = nn.Linear(dim, dim)

    def forward(self, x):
        d = x.shape[-1]
        # concatenated weight / bias rebuilt from the parameters at every call (2d x d, cheap)
        w = torch.cat([self.w1.weight, self.w2.weight], dim=0)
        b = torch.cat([self.w1.bias, self.w2.bias], dim=0)
        z = torch.addmm(b, x, w.t())
        z1, z2 = z[:, :d], z[:, d:]
        gate = 1.0 / (1.0 + torch.exp(-z1))
        cand = torch.tanh(z2)
        return x + gate * cand
