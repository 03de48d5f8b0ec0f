"""One concatenated [W1; 2*W2] addmm, a single contiguous sigmoid_ over both halves (tanh(z) = 2*sigmoid(2z) - 1), then addcmul for the residual."""
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.w1 = nn.Linear(dim, dim)
        self.w2 = nn.Linear(dim, dim)

    def forward(self, x):
        d = x.shape[-1]
        # concatenated weight / bias rebuilt from the parameters at every call (2d x d, cheap);
        # the second half is pre-scaled by 2 so that one sigmoid pass also yields tanh.
        w = torch.cat([self.w1.weight, self.w2.weight * 2.0], dim=0)
        b = torch.cat([self.w1.bias, self.w2.bias * 2.0], dim=0)
        s = torch.addmm(b, x, w.t()).sigmoid_()
        gate = s[:, :d]
        cand = s[:, d:].mul_(2.0).sub_(1.0)
        return torch.addcmul(x, gate, cand)
