"""One MLP-Mixer block on (batch, tokens, channels): a token-mixing MLP applied across the token axis (via transposes),
then a channel-mixing MLP across channels; each has pre-LayerNorm, a residual, and the tanh-approximate GELU written out."""
import math
import torch
import torch.nn as nn
import torch.nn.functional as F

batch_size = 128
num_tokens = 32
channels = 32
token_hidden = 128
channel_hidden = 256


def new_gelu(x):
    return 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * torch.pow(x, 3.0))))


class Model(nn.Module):
    def __init__(self, num_tokens, channels, token_hidden, channel_hidden):
        super().__init__()
        self.norm1 = nn.LayerNorm(channels)
        self.tok_fc1 = nn.Linear(num_tokens, token_hidden)
        self.tok_fc2 = nn.Linear(token_hidden, num_tokens)
        self.norm2 = nn.LayerNorm(channels)
        self.ch_fc1 = nn.Linear(channels, channel_hidden)
        self.ch_fc2 = nn.Linear(channel_hidden, channels)

    def forward(self, x):
        y = self.norm1(x).transpose(1, 2)                  # (B, C, T)
        y = self.tok_fc2(new_gelu(self.tok_fc1(y)))        # mix tokens
        x = x + y.transpose(1, 2)
        y = self.ch_fc2(new_gelu(self.ch_fc1(self.norm2(x))))
        return x + y


def get_inputs():
    return [torch.randn(batch_size, num_tokens, channels)]


def get_init_inputs():
    return [num_tokens, channels, token_hidden, channel_hidden]
