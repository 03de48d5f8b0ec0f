"""Blocked C++ pass: per cache-sized block of rows, torch's SiLU lands in the output, then one fused loop applies x * inv_rms * w."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

_cpp = r"""
#include <ATen/core/Tensor.h>
#include <ATen/ops/empty_like.h>
#include <ATen/ops/silu.h>
#include <ATen/Parallel.h>
#include <torch/csrc/utils/pybind.h>
#include <cmath>
#include <algorithm>

// For each block of rows (small enough to stay in L2): out_blk = silu(g_blk) with ATen's
// vectorised kernel, then a single loop per row computes sum(x^2) and multiplies
// out *= x * inv_rms * w. Every input is streamed from memory once, no full-size temporaries.
at::Tensor rmsnorm_silu_gate(at::Tensor x, at::Tensor g, at::Tensor w, double eps) {
    x = x.contiguous(); g = g.contiguous(); w = w.contiguous();
    const int64_t D = x.size(-1);
    const int64_t R = x.numel() / D;
    auto out = at::empty_like(x);
    auto out2 = out.view({R, D});
    auto g2 = g.view({R, D});
    const float* xp = x.data_ptr<float>();
    const float* wp = w.data_ptr<float>();
    float* op = out.data_ptr<float>();
    const int64_t blk = std::max<int64_t>(1, 65536 / D);
    const int64_t nblk = (R + blk - 1) / blk;
    at::parallel_for(0, nblk, 1, [&](int64_t b0, int64_t b1) {
        for (int64_t b = b0; b < b1; ++b) {
            const int64_t r0 = b * blk, r1 = std::min(R, r0 + blk);
            auto ob = out2.narrow(0, r0, r1 - r0);
            at::silu_out(ob, g2.narrow(0, r0, r1 - r0));
            for (int64_t r = r0; r < r1; ++r) {
                const float* __restrict xr = xp + r * D;
                float* __restrict orow = op + r * D;
                float acc[8] = {0, 0, 0, 0, 0, 0, 0, 0};
                int64_t i = 0;
                for (; i + 8 <= D; i += 8)
                    for (int j = 0; j < 8; ++j) acc[j] += xr[i + j] * xr[i + j];
                float ss = ((acc[0] + acc[1]) + (acc[2] + acc[3])) + ((acc[4] + acc[5]) + (acc[6] + acc[7]));
                for (; i < D; ++i) ss += xr[i] * xr[i];
                const float inv = 1.0f / std::sqrt(ss / (float)D + (float)eps);
                for (int64_t k = 0; k < D; ++k) orow[k] *= xr[k] * inv * wp[k];
            }
        }
    });
    return out;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("rmsnorm_silu_gate", &rmsnorm_silu_gate); }
"""

_ext = load_inline(
    name="mb_l2_2_fused_cpp",
    cpp_sources=_cpp,
    no_implicit_headers=True,
    extra_cflags=["-O3"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self, dim, eps):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(1.0 + 0.2 * torch.randn(dim))

    def forward(self, x, g):
        return _ext.rmsnorm_silu_gate(x, g, self.weight, float(self.eps))
