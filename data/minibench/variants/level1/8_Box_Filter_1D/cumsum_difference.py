"""Prefix-sum difference (S[j+k] - S[j]) / k: O(L) per row instead of the O(L*k) window reduction."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ModelNew(nn.Module):
    def __init__(self, k):
        super().__init__()
        self.k = k

    def forward(self, x):
        s = F.pad(torch.cumsum(x, dim=-1), (1, 0))
        return (s[:, self.k:] - s[:, :-self.k]) / self.k
