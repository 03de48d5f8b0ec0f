"""The same unfused chain run over 4-row slices of the batch in a Python loop: 1024 small matmuls and their temporaries."""
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
        wt, b = self.fc.weight.t(), self.fc.bias + self.bias
        out = torch.empty(x.shape[0], wt.shape[1], dtype=x.dtype, device=x.device)
        c = math.sqrt(2.0 / math.pi)
        for i in range(0, x.shape[0], 4):
            y = x[i:i + 4] @ wt + b
            g = 0.5 * y * (1.0 + torch.tanh(c * (y + 0.044715 * y * y * y)))
            out[i:i + 4] = g * self.scale
        return out
