"""Strided window view over the band (as_strided, stride N+1 along rows): reads only the B*N*w band entries, no mask."""
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.width = width

    def forward(self, x):
        x = x.contiguous()
        b, n = x.shape[0], x.shape[-1]
        w = min(self.width, n)
        # rows i >= w-1: the full window x[i, i-w+1 .. i] is a diagonal strip of a w-wide view
        win = x.as_strided((b, n - w + 1, w), (n * n, n + 1, 1), x.storage_offset() + (w - 1) * n)
        full = win.sum(-1) / w
        # rows i < w-1: the window is truncated at column 0 -> mean of x[i, 0..i]
        head = torch.tril(x[:, : w - 1, : w - 1]).sum(-1)
        counts = torch.arange(1, w, dtype=x.dtype, device=x.device)
        return torch.cat([head / counts, full], dim=1)
