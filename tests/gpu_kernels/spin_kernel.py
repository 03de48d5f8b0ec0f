"""Faulty: a CUDA kernel that never finishes."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

_cuda = r"""
#include <torch/extension.h>
__global__ void spin(float* y, int n) { volatile int i = 0; while (n > 0) { i++; if (i < 0) y[0] = 1.f; } }
torch::Tensor run(torch::Tensor x) { auto y = torch::empty_like(x); spin<<<1, 1>>>(y.data_ptr<float>(), 1); return y; }
"""
_ext = load_inline(name='gpu_test_spin', cpp_sources='torch::Tensor run(torch::Tensor x);', cuda_sources=_cuda, functions=['run'], verbose=False)


class ModelNew(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.s = nn.Parameter(torch.randn(n))
        self.b = nn.Parameter(torch.randn(n))

    def forward(self, x):
        out = _ext.run(x)
        torch.cuda.synchronize()
        return out
