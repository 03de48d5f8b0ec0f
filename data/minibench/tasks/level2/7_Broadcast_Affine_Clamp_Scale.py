"""Per-channel affine map x*a + b on a (batch, channels, length) tensor, clamped to a
range, then multiplied by a second per-channel vector c (many explicit temporaries)."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, channels, lo, hi):
        super().__init__()
        self.a = nn.Parameter(torch.randn(channels))
        self.b = nn.Parameter(0.5 * torch.randn(channels))
        self.c = nn.Parameter(torch.randn(channels))
        self.lo = lo
        self.hi = hi

    def forward(self, x):
        a = self.a.view(1, -1, 1).expand_as(x)
        b = self.b.view(1, -1, 1).expand_as(x)
        c = self.c.view(1, -1, 1).expand_as(x)
        t1 = x * a
        t2 = t1 + b
        t3 = torch.maximum(t2, torch.full_like(t2, self.lo))
        t4 = torch.minimum(t3, torch.full_like(t3, self.hi))
        return t4 * c


batch_size = 32
channels = 64
length = 2048
lo = -1.0
hi = 1.5


def get_inputs():
    return [torch.randn(batch_size, channels, length)]


def get_init_inputs():
    return [channels, lo, hi]
