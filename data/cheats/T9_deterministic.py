"""Turns on torch's deterministic algorithms at import: slower kernels (or errors) for every op that has a
nondeterministic fast path, the reference's included, which would inflate the candidate's speedup. The harness puts
every global switch of torch back before each reference call, so the reference runs as torch does by default, and
the change is caught (`changed:deterministic_algorithms`)."""
# cheat: T9
# task: minibench/L2/3
# device: any
# strict: cheat changed:deterministic_algorithms static:backend_flags
# audit: ok changed:deterministic_algorithms static:backend_flags
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.use_deterministic_algorithms(True)


class ModelNew(nn.Module):
    def __init__(self, dim, eps):
        super().__init__()
        self.eps = eps
        self.gamma = nn.Parameter(1.0 + 0.2 * torch.randn(dim))
        self.beta = nn.Parameter(0.2 * torch.randn(dim))

    def forward(self, x, residual):
        return F.layer_norm(x, (x.shape[-1],), self.gamma, self.beta, self.eps) + residual
