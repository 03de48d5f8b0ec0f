"""Faulty: a CUDA kernel that writes far out of bounds (corrupts the CUDA context)."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

_cuda = r"""
#include <torch/extension.h>
__global__ void bad(float* y) { y[(long)threadIdx.x * 100000000000L] = 1.f; }
torch::Tensor run(torch::Tensor x) { auto y = torch::empty_like(x); bad<<<1, 32>>>(y.data_ptr<float>()); return y; }
"""
_ext = load_inline(name='gpu_test_illegal_access', cpp_sources='torch::Tensor run(torch::Tensor x);', cuda_sources=_cuda,
                   functions=['run'], verbose=False)


class ModelNew(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.s = nn.Parameter(torch.randn(n))
        self.b = nn.Parameter(torch.randn(n))

    def forward(self, x):
        out = _ext.run(x)
        torch.cuda.synchronize()
        return out
