"""Makes float64 the default dtype at import, so the tensors made after it -- the reference's inputs among them --
are float64 and the reference computes in double precision, while its own forward computes in float32 (it sets the
default back around its own calls). The harness makes every input and runs every reference call under torch's
global switches as they were before the import, and the change is caught (`changed:default_dtype`)."""
# cheat: T9
# task: minibench/L2/3
# device: any
# strict: cheat changed:default_dtype
# audit: ok changed:default_dtype
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.set_default_dtype(torch.float64)


class ModelNew(nn.Module):
    def __init__(self, dim, eps):
        super().__init__()
        self.eps = eps
        self.gamma = nn.Parameter(1.0 + 0.2 * torch.randn(dim, dtype=torch.float32))
        self.beta = nn.Parameter(0.2 * torch.randn(dim, dtype=torch.float32))

    def forward(self, x, residual):
        torch.set_default_dtype(torch.float32)
        try:
            x, residual = x.float(), residual.float()
            return F.layer_norm(x, (x.shape[-1],), self.gamma, self.beta, self.eps) + residual
        finally:
            torch.set_default_dtype(torch.float64)
