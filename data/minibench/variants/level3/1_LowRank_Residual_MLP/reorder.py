"""Reordered low-rank product: (h @ V^T) @ U^T costs O(B*H*r) instead of materialising U @ V (O(H^2*r)) and an O(B*H^2) GEMM."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ModelNew(nn.Module):
    def __init__(self, in_features, hidden, rank, out_features):
        super().__init__()
        self.fc_in = nn.Linear(in_features, hidden)
        self.U = nn.Parameter(torch.randn(hidden, rank) / float(rank) ** 0.5)
        self.V = nn.Parameter(torch.randn(rank, hidden) / float(hidden) ** 0.5)
        self.b_mid = nn.Parameter(torch.randn(hidden) * 0.1)
        self.fc_out = nn.Linear(hidden, out_features)

    def forward(self, x):
        h = torch.addmm(self.fc_in.bias, x, self.fc_in.weight.t()).relu_()
        t = h @ self.V.t()
        m = torch.addmm(self.b_mid, t, self.U.t()).relu_()
        h = h.add_(m)
        return torch.addmm(self.fc_out.bias, h, self.fc_out.weight.t())
