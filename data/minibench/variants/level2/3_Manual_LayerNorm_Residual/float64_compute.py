"""The same step-by-step layer norm, computed in float64 with every temporary materialised, cast back to float32."""
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self, dim, eps):
        super().__init__()
        self.eps = eps
        self.gamma = nn.Parameter(1.0 + 0.2 * torch.randn(dim))
        self.beta = nn.Parameter(0.2 * torch.randn(dim))

    def forward(self, x, residual):
        x = x.double()
        mean = x.mean(dim=-1, keepdim=True)
        centered = x - mean
        var = (centered * centered).mean(dim=-1, keepdim=True)
        x_hat = centered / torch.sqrt(var + self.eps)
        y = x_hat * self.gamma.double() + self.beta.double()
        return (y + residual.double()).float()
