"""Token-mixing layers as broadcast multiply + sum, materialising (B, C, hidden, T) and (B, C, T, hidden) products instead of GEMMs."""
import math
import torch
import torch.nn as nn
import torch.nn.functional as F


def _new_gelu(x):
    return 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * torch.pow(x, 3.0))))


class ModelNew(nn.Module):
    def __init__(self, num_tokens, channels, token_hidden, channel_hidden):
        super().__init__()
        self.norm1 = nn.LayerNorm(channels)
        self.tok_fc1 = nn.Linear(num_tokens, token_hidden)
        self.tok_fc2 = nn.Linear(token_hidden, num_tokens)
        self.norm2 = nn.LayerNorm(channels)
        self.ch_fc1 = nn.Linear(channels, channel_hidden)
        self.ch_fc2 = nn.Linear(channel_hidden, channels)

    def forward(self, x):
        y = self.norm1(x).transpose(1, 2)                                                    # (B, C, T)
        h = (y.unsqueeze(2) * self.tok_fc1.weight).sum(-1) + self.tok_fc1.bias              # (B, C, Ht) via (B, C, Ht, T)
        y = (_new_gelu(h).unsqueeze(2) * self.tok_fc2.weight).sum(-1) + self.tok_fc2.bias   # (B, C, T) via (B, C, T, Ht)
        x = x + y.transpose(1, 2)
        y = self.ch_fc2(_new_gelu(self.ch_fc1(self.norm2(x))))
        return x + y
