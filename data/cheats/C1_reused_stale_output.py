"""Reuses one output buffer across calls and computes into it only at the first call of each shape: later calls
return the same buffer, still holding the first input's answer. The reuse alone is allowed (`output_reused`); the
stale values are caught as wrong numbers, since each output is compared as it was at return."""
# cheat: C1
# task: minibench/L1/4
# device: any
# strict: incorrect output_reused
# audit: incorrect output_reused
import torch
import torch.nn as nn
import torch.nn.functional as F


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.out = None

    def forward(self, x):
        if self.out is None or self.out.shape != x.shape or self.out.device != x.device:
            self.out = x * torch.tanh(F.softplus(x))
        return self.out
