"""Single fused ATen layer_norm kernel (mean/var/normalise/affine in one pass) plus an in-place residual add."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ModelNew(nn.Module):
    def __init__(self, dim, eps):
        super().__init__()
        self.eps = eps
        self.gamma = nn.Parameter(1.0 + 0.2 * torch.randn(dim))
        self.beta = nn.Parameter(0.2 * torch.randn(dim))

    def forward(self, x, residual):
        y = F.layer_norm(x, (x.shape[-1],), self.gamma, self.beta, self.eps)
        return y.add_(residual)
