"""Both biases folded into one addmm, then torch's vectorised tanh-GELU and an in-place scale: 3 passes instead of ~12."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.fc = nn.Linear(in_features, out_features)
        self.bias = nn.Parameter(torch.randn(out_features) * 0.5)
        self.scale = nn.Parameter(torch.randn(out_features))

    def forward(self, x):
        # the combined bias is derived from the parameters at every call (cheap, never stale)
        y = torch.addmm(self.fc.bias + self.bias, x, self.fc.weight.t())
        y = F.gelu(y, approximate="tanh")
        return y.mul_(self.scale)
