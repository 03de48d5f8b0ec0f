"""C++ kernel: one pass with one inlined vectorisable exp per element, tanh(softplus(x)) = (e^2x + 2e^x) / (e^2x + 2e^x + 2)."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

_cpp_src = r"""
#include <ATen/core/Tensor.h>
#include <ATen/ops/empty_like.h>
#include <ATen/Parallel.h>
#include <torch/csrc/utils/pybind.h>
#include <cmath>
#include <cstdint>
#include <cstring>

// On x86-64, also build an AVX2 clone of the hot loop and pick it at load time (GCC ifunc).
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define MB_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define MB_CLONES
#endif

// exp(x) for x in [-87, 15]: 2^n * p(r) with r = x - n*ln2, |r| <= ln2/2, degree-7 polynomial.
// Plain float/int code (no libm call) so that the element loops auto-vectorise.
static inline float exp_poly(float x) {
    x = x < -87.0f ? -87.0f : x;
    x = x > 15.0f ? 15.0f : x;
    const float t = x * 1.44269504088896341f;
    const float nf = (t + 12582912.0f) - 12582912.0f;   // round to nearest via 1.5*2^23 (no fast-math)
    const int n = (int)nf;
    float r = x - nf * 0.693145751953125f;       // ln2 split into a hi and a lo part
    r = r - nf * 1.428606765330187e-06f;
    float p = 1.9841270e-4f;
    p = p * r + 1.3888889e-3f;
    p = p * r + 8.3333333e-3f;
    p = p * r + 4.1666667e-2f;
    p = p * r + 1.6666667e-1f;
    p = p * r + 0.5f;
    p = p * r + 1.0f;
    p = p * r + 1.0f;
    const int32_t bits = (n + 127) << 23;       // 2^n
    float scale;
    std::memcpy(&scale, &bits, sizeof(scale));
    return p * scale;
}

MB_CLONES void mish_range(const float* __restrict xp, float* __restrict op, int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) {
        const float v = xp[i];
        const float e = exp_poly(v);
        const float num = e * (e + 2.0f);
        const float y = v * num / (num + 2.0f);
        op[i] = v > 15.0f ? v : y;   // tanh(softplus(v)) rounds to 1 in float32 for v > 15
    }
}

at::Tensor mish_fused(at::Tensor x) {
    x = x.contiguous();
    auto out = at::empty_like(x);
    const float* xp = x.data_ptr<float>();
    float* op = out.data_ptr<float>();
    at::parallel_for(0, x.numel(), 16384, [&](int64_t begin, int64_t end) {
        mish_range(xp, op, begin, end);
    });
    return out;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("mish_fused", &mish_fused); }
"""

_ext = load_inline(
    name="mb_l1_4_fused_cpp",
    cpp_sources=_cpp_src,
    no_implicit_headers=True,
    extra_cflags=["-O3", "-fno-trapping-math", "-fno-math-errno"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return _ext.mish_fused(x)
