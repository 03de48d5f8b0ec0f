"""Elman RNN unrolled over T steps: h_t = tanh(W_ih x_t + b_ih + W_hh h_{t-1} + b_hh), starting from an explicit h0 input.
Returns all hidden states stacked as (batch, T, hidden)."""
import torch
import torch.nn as nn

batch_size = 8
seq_len = 320
input_size = 256
hidden_size = 64


class Model(nn.Module):
    def __init__(self, input_size, hidden_size):
        super().__init__()
        self.w_ih = nn.Linear(input_size, hidden_size)
        self.w_hh = nn.Linear(hidden_size, hidden_size)

    def forward(self, x, h0):
        h = h0
        outs = []
        for t in range(x.shape[1]):
            h = torch.tanh(self.w_ih(x[:, t]) + self.w_hh(h))
            outs.append(h)
        return torch.stack(outs, dim=1)


def get_inputs():
    return [torch.randn(batch_size, seq_len, input_size), torch.randn(batch_size, hidden_size)]


def get_init_inputs():
    return [input_size, hidden_size]
