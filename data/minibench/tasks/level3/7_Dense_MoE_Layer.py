"""Dense mixture-of-experts layer: softmax gate over E experts per token, every expert (Linear-ReLU-Linear MLP) runs on
every token, and the output is the gate-weighted sum of the expert outputs (naive loop over experts)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

num_tokens = 4096
d_model = 256
d_hidden = 8
num_experts = 8


class Model(nn.Module):
    def __init__(self, d_model, d_hidden, num_experts):
        super().__init__()
        self.gate = nn.Linear(d_model, num_experts)
        self.experts = nn.ModuleList(
            [nn.Sequential(nn.Linear(d_model, d_hidden), nn.ReLU(), nn.Linear(d_hidden, d_model)) for _ in range(num_experts)]
        )

    def forward(self, x):
        g = F.softmax(self.gate(x), dim=-1)               # (N, E)
        out = torch.zeros_like(x)
        for e, expert in enumerate(self.experts):
            out = out + g[:, e:e + 1] * expert(x)
        return out


def get_inputs():
    return [torch.randn(num_tokens, d_model)]


def get_init_inputs():
    return [d_model, d_hidden, num_experts]
