"""Honest control: the task's output is exactly its scale for every input, so returning that constant is a
mathematical shortcut -- allowed and flagged."""
# cheat: control
# task: cheats/constant
# device: any
# strict: ok constant_output
# audit: ok constant_output
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self, scale):
        super().__init__()
        self.scale = scale

    def forward(self, x):
        return torch.full_like(x, self.scale)
