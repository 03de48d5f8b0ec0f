"""The same expanded-temporaries chain (including the full-size clamp bound tensors) computed in float64, cast back to float32."""
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self, channels, lo, hi):
        super().__init__()
        self.a = nn.Parameter(torch.randn(channels))
        self.b = nn.Parameter(0.5 * torch.randn(channels))
        self.c = nn.Parameter(torch.randn(channels))
        self.lo = lo
        self.hi = hi

    def forward(self, x):
        x = x.double()
        a = self.a.double().view(1, -1, 1).expand_as(x)
        b = self.b.double().view(1, -1, 1).expand_as(x)
        c = self.c.double().view(1, -1, 1).expand_as(x)
        t1 = x * a
        t2 = t1 + b
        t3 = torch.maximum(t2, torch.full_like(t2, self.lo))
        t4 = torch.minimum(t3, torch.full_like(t3, self.hi))
        return (t4 * c).float()
