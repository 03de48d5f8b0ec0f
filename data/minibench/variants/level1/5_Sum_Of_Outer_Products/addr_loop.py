"""Python loop over k accumulating rank-1 updates in place with torch.addr_ (no big intermediate, K small ops)."""
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self, k, out_cols):
        super().__init__()
        self.b = nn.Parameter(torch.randn(k, out_cols))

    def forward(self, a):
        out = torch.zeros(a.shape[1], self.b.shape[1], dtype=a.dtype, device=a.device)
        for k in range(a.shape[0]):
            out.addr_(a[k], self.b[k])
        return out
