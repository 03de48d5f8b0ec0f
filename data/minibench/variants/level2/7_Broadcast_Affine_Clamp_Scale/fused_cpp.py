"""Single-pass C++ kernel: per (batch, channel) row, out = min(max(x*a + b, lo), hi) * c with the channel constants in registers."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

_cpp = r"""
#include <ATen/core/Tensor.h>
#include <ATen/ops/empty_like.h>
#include <ATen/Parallel.h>
#include <torch/csrc/utils/pybind.h>

at::Tensor affine_clamp_scale(at::Tensor x, at::Tensor a, at::Tensor b, at::Tensor c,
                              double lo, double hi) {
    x = x.contiguous(); a = a.contiguous(); b = b.contiguous(); c = c.contiguous();
    const int64_t B = x.size(0), C = x.size(1), L = x.size(2);
    auto out = at::empty_like(x);
    const float* xp = x.data_ptr<float>();
    const float* ap = a.data_ptr<float>();
    const float* bp = b.data_ptr<float>();
    const float* cp = c.data_ptr<float>();
    float* op = out.data_ptr<float>();
    const float flo = (float)lo, fhi = (float)hi;
    at::parallel_for(0, B * C, 4, [&](int64_t r0, int64_t r1) {
        for (int64_t r = r0; r < r1; ++r) {
            const int64_t ch = r % C;
            const float av = ap[ch], bv = bp[ch], cv = cp[ch];
            const float* __restrict xr = xp + r * L;
            float* __restrict orow = op + r * L;
            for (int64_t t = 0; t < L; ++t) {
                float v = xr[t] * av + bv;
                v = v < flo ? flo : v;
                v = v > fhi ? fhi : v;
                orow[t] = v * cv;
            }
        }
    });
    return out;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("affine_clamp_scale", &affine_clamp_scale); }
"""

_ext = load_inline(
    name="mb_l2_7_fused_cpp",
    cpp_sources=_cpp,
    no_implicit_headers=True,
    extra_cflags=["-O3"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self, channels, lo, hi):
        super().__init__()
        self.a = nn.Parameter(torch.randn(channels))
        self.b = nn.Parameter(0.5 * torch.randn(channels))
        self.c = nn.Parameter(torch.randn(channels))
        self.lo = lo
        self.hi = hi

    def forward(self, x):
        return _ext.affine_clamp_scale(x, self.a, self.b, self.c, float(self.lo), float(self.hi))
