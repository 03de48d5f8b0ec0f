"""A pre-norm causal transformer block on a (batch, seq, dim) input:
x = x + Wo * causal_softmax(Q K^T / sqrt(d)) V  (multi-head, LayerNorm before),  then  x = x + MLP(LayerNorm(x)) with GELU."""
import math
import torch
import torch.nn as nn
import torch.nn.functional as F

batch_size = 1
seq_len = 1024
d_model = 64
n_heads = 4
mlp_ratio = 4


class Model(nn.Module):
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
        scores = (q @ k.transpose(-2, -1)) / math.sqrt(dh)
        mask = torch.ones(T, T, dtype=torch.bool, device=x.device).triu(1)
        scores = scores.masked_fill(mask, float("-inf"))
        att = torch.softmax(scores, dim=-1)
        y = (att @ v).transpose(1, 2).reshape(B, T, D)
        x = x + self.proj(y)
        x = x + self.fc2(F.gelu(self.fc1(self.ln2(x))))
        return x


def get_inputs():
    return [torch.randn(batch_size, seq_len, d_model)]


def get_init_inputs():
    return [d_model, n_heads, mlp_ratio]
