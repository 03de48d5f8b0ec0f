"""The reference's own computation, but the import flips global backend flags (as many released kernels do)."""
import torch
import torch.nn as nn

torch.backends.cudnn.benchmark = True
torch.backends.cudnn.deterministic = True
torch.set_float32_matmul_precision('high')


class ModelNew(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.s = nn.Parameter(torch.randn(n))
        self.b = nn.Parameter(torch.randn(n))

    def forward(self, x):
        return torch.relu(x * self.s + self.b)
