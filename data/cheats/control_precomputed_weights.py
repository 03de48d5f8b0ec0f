"""Honest control: the affine weights of the layer norm and the residual add folded into one pass, with the
per-feature terms prepared once in __init__ (weights precomputed at construction are allowed)."""
# cheat: control
# task: minibench/L2/3
# device: any
# strict: ok
# audit: ok
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self, dim, eps):
        super().__init__()
        self.eps = eps
        self.gamma = nn.Parameter(1.0 + 0.2 * torch.randn(dim))
        self.beta = nn.Parameter(0.2 * torch.randn(dim))
        self.register_buffer("affine", torch.stack([self.gamma.detach(), self.beta.detach()]))

    def forward(self, x, residual):
        var, mean = torch.var_mean(x, dim=-1, keepdim=True, unbiased=False)
        scale = self.affine[0] * torch.rsqrt(var + self.eps)
        return torch.addcmul(self.affine[1] + residual, x - mean, scale)
