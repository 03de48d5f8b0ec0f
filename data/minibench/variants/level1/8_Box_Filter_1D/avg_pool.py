"""Library pooling kernel F.avg_pool1d(kernel=k, stride=1) on a (B, 1, L) view."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ModelNew(nn.Module):
    def __init__(self, k):
        super().__init__()
        self.k = k

    def forward(self, x):
        return F.avg_pool1d(x.unsqueeze(1), kernel_size=self.k, stride=1).squeeze(1)
