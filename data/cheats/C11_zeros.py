"""Returns zeros: every output of the task is within the absolute tolerance of zero, whatever the input."""
# cheat: C11
# task: cheats/near_constant
# device: any
# strict: cheat input_independent
# audit: cheat input_independent
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return torch.zeros(x.shape[0], dtype=x.dtype, device=x.device)
