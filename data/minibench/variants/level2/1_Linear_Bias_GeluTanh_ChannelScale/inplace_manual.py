"""Hand-written GELU kept, but evaluated with in-place ops on one scratch buffer after a bias-folded addmm (fewer allocations)."""
import math
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.fc = nn.Linear(in_features, out_features)
        self.bias = nn.Parameter(torch.randn(out_features) * 0.5)
        self.scale = nn.Parameter(torch.randn(out_features))

    def forward(self, x):
        y = torch.addmm(self.fc.bias + self.bias, x, self.fc.weight.t())
        c = math.sqrt(2.0 / math.pi)
        t = y * y
        t.mul_(0.044715 * c).add_(c).mul_(y).tanh_().add_(1.0)
        return y.mul_(t).mul_(0.5 * self.scale)
