"""Naive causal attention with Python loops over batch, heads and query positions, each query attending to its prefix (decoder-style, nothing batched)."""
import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class ModelNew(nn.Module):
    def __init__(self, d_model, n_heads, mlp_ratio):
        super().__init__()
        self.n_heads = n_heads
        self.ln1 = nn.LayerNorm(d_model)
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.proj = nn.Linear(d_model, d_model)
        self.ln2 = nn.LayerNorm(d_model)
        self.fc1 = nn.Linear(d_model, mlp_ratio * d_model)
        self.fc2 = nn.Linear(mlp_ratio * d_model, d_model)

    def forward(self, x):
        B, T, D = x.shape
        H = self.n_heads
        dh = D // H
        h = self.ln1(x)
        qkv = self.qkv(h).reshape(B, T, 3, H, dh).permute(2, 0, 3, 1, 4)
        q, k, v = qkv[0], qkv[1], qkv[2]
        scale = 1.0 / math.sqrt(dh)
        y = torch.empty(B, T, H, dh, dtype=x.dtype, device=x.device)
        for b in range(B):
            for hh in range(H):
                kb, qb, vb = k[b, hh], q[b, hh], v[b, hh]                  # (T, dh)
                for t in range(T):
                    s = (kb[: t + 1] @ qb[t]) * scale                      # (t+1,)
                    p = torch.softmax(s, dim=-1)
                    y[b, t, hh] = p @ vb[: t + 1]                          # (dh,)
        y = y.reshape(B, T, D)
        x = x + self.proj(y)
        x = x + self.fc2(F.gelu(self.fc1(self.ln2(x))))
        return x
