"""1-D convolution, ReLU, non-overlapping max pooling along time, then a sum over
the output channels, giving one pooled feature track per example."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, pool):
        super().__init__()
        self.conv = nn.Conv1d(in_channels, out_channels, kernel_size, padding=kernel_size // 2)
        self.pool = pool

    def forward(self, x):
        y = self.conv(x)
        y = F.relu(y)
        y = F.max_pool1d(y, self.pool)
        return y.sum(dim=1)


batch_size = 16
in_channels = 4
out_channels = 64
length = 4096
kernel_size = 3
pool = 4


def get_inputs():
    return [torch.randn(batch_size, in_channels, length)]


def get_init_inputs():
    return [in_channels, out_channels, kernel_size, pool]
