"""Same step-by-step math, but one working buffer: statistics via mean / vector_norm (no squared temporary) and in-place affine + residual."""
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self, dim, eps):
        super().__init__()
        self.eps = eps
        self.gamma = nn.Parameter(1.0 + 0.2 * torch.randn(dim))
        self.beta = nn.Parameter(0.2 * torch.randn(dim))

    def forward(self, x, residual):
        d = x.shape[-1]
        y = x - x.mean(dim=-1, keepdim=True)
        var = torch.linalg.vector_norm(y, dim=-1, keepdim=True).pow_(2).div_(d)
        y.mul_(torch.rsqrt(var.add_(self.eps)))
        y.mul_(self.gamma).add_(self.beta).add_(residual)
        return y
