"""Three-layer residual MLP: h = relu(fc_in(x)); h = h + relu(h @ (U @ V)^T + b_mid); out = fc_out(h).
The middle layer has a low-rank weight U @ V (rank r) that is materialised as a dense H x H matrix every call."""
import math
import torch
import torch.nn as nn
import torch.nn.functional as F

batch_size = 128
in_features = 512
hidden = 1024
rank = 16
out_features = 256


class Model(nn.Module):
    def __init__(self, in_features, hidden, rank, out_features):
        super().__init__()
        self.fc_in = nn.Linear(in_features, hidden)
        self.U = nn.Parameter(torch.randn(hidden, rank) / math.sqrt(rank))
        self.V = nn.Parameter(torch.randn(rank, hidden) / math.sqrt(hidden))
        self.b_mid = nn.Parameter(torch.randn(hidden) * 0.1)
        self.fc_out = nn.Linear(hidden, out_features)

    def forward(self, x):
        h = F.relu(self.fc_in(x))
        w_mid = self.U @ self.V
        h = h + F.relu(F.linear(h, w_mid, self.b_mid))
        return self.fc_out(h)


def get_inputs():
    return [torch.randn(batch_size, in_features)]


def get_init_inputs():
    return [in_features, hidden, rank, out_features]
