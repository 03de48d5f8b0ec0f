"""Linear layer, an extra learned bias, GELU (tanh approximation written out by hand),
then multiplication by a learned per-output-channel scale."""
import math
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.fc = nn.Linear(in_features, out_features)
        self.bias = nn.Parameter(torch.randn(out_features) * 0.5)
        self.scale = nn.Parameter(torch.randn(out_features))

    def forward(self, x):
        y = self.fc(x)
        y = y + self.bias
        inner = math.sqrt(2.0 / math.pi) * (y + 0.044715 * y * y * y)
        g = 0.5 * y * (1.0 + torch.tanh(inner))
        return g * self.scale


batch_size = 4096
in_features = 64
out_features = 512


def get_inputs():
    return [torch.randn(batch_size, in_features)]


def get_init_inputs():
    return [in_features, out_features]
