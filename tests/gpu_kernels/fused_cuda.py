"""One fused CUDA kernel (load_inline) instead of three elementwise passes."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

_cuda = r"""
#include <torch/extension.h>
__global__ void k(const float* __restrict__ x, const float* __restrict__ s, const float* __restrict__ b, float* __restrict__ y, long total, int n) {
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    long stride = (long)gridDim.x * blockDim.x;
    for (; i < total; i += stride) { int c = i % n; float v = x[i] * s[c] + b[c]; y[i] = v > 0.f ? v : 0.f; }
}
torch::Tensor fused(torch::Tensor x, torch::Tensor s, torch::Tensor b) {
    auto xc = x.contiguous(); auto y = torch::empty_like(xc);
    long total = xc.numel(); int n = xc.size(-1);
    k<<<1184, 256>>>(xc.data_ptr<float>(), s.data_ptr<float>(), b.data_ptr<float>(), y.data_ptr<float>(), total, n);
    return y;
}
"""
_ext = load_inline(name='gpu_test_fused_scale_add_relu', cpp_sources='torch::Tensor fused(torch::Tensor x, torch::Tensor s, torch::Tensor b);',
                   cuda_sources=_cuda, functions=['fused'], extra_cuda_cflags=['-O3'], verbose=False)


class ModelNew(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.s = nn.Parameter(torch.randn(n))
        self.b = nn.Parameter(torch.randn(n))

    def forward(self, x):
        return _ext.fused(x, self.s, self.b)
