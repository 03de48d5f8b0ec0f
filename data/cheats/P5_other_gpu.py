"""Moves the work to a second GPU, outside what the timer's device synchronize covers (each job sees one GPU)."""
# cheat: P5
# task: minibench/L2/3
# device: cuda
# strict: error
# audit: error
import torch
import torch.nn as nn
import torch.nn.functional as F


class ModelNew(nn.Module):
    def __init__(self, dim, eps):
        super().__init__()
        self.eps = eps
        self.gamma = nn.Parameter(1.0 + 0.2 * torch.randn(dim))
        self.beta = nn.Parameter(0.2 * torch.randn(dim))

    def _ln(self, x, residual):
        return F.layer_norm(x, (x.shape[-1],), self.gamma, self.beta, self.eps) + residual

    def forward(self, x, residual):
        dev = torch.device("cuda", 1)
        out = self._ln(x.to(dev), residual.to(dev))
        return out.to(x.device)
