"""Reordering: max-pool commutes with the monotone ReLU, so pool first and apply ReLU in place on a 4x smaller tensor."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ModelNew(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, pool):
        super().__init__()
        self.conv = nn.Conv1d(in_channels, out_channels, kernel_size, padding=kernel_size // 2)
        self.pool = pool

    def forward(self, x):
        y = F.max_pool1d(self.conv(x), self.pool)
        return y.clamp_min_(0.0).sum(dim=1)
