"""C++ kernel: per row one max pass and one fused exp-and-accumulate pass (inlined vectorisable exp), no temporaries."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

_cpp_src = r"""
#include <ATen/core/Tensor.h>
#include <ATen/ops/empty.h>
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

MB_CLONES void lse_rows(const float* xp, float* op, int64_t begin, int64_t end, int64_t cols) {
    for (int64_t r = begin; r < end; ++r) {
        const float* row = xp + r * cols;
        float mx[8];
        for (int u = 0; u < 8; ++u) mx[u] = -INFINITY;
        int64_t j = 0;
        for (; j + 8 <= cols; j += 8)
            for (int u = 0; u < 8; ++u) mx[u] = row[j + u] > mx[u] ? row[j + u] : mx[u];
        float m = mx[0];
        for (int u = 1; u < 8; ++u) m = mx[u] > m ? mx[u] : m;
        for (; j < cols; ++j) m = row[j] > m ? row[j] : m;

        float acc[8] = {0.f, 0.f, 0.f, 0.f, 0.f, 0.f, 0.f, 0.f};
        j = 0;
        for (; j + 8 <= cols; j += 8)
            for (int u = 0; u < 8; ++u) acc[u] += exp_poly(row[j + u] - m);
        float s = ((acc[0] + acc[1]) + (acc[2] + acc[3])) + ((acc[4] + acc[5]) + (acc[6] + acc[7]));
        for (; j < cols; ++j) s += exp_poly(row[j] - m);
        op[r] = std::log(s) + m;
    }
}

at::Tensor row_lse(at::Tensor x) {
    x = x.contiguous();
    const int64_t rows = x.size(0), cols = x.size(1);
    auto out = at::empty({rows}, x.options());
    const float* xp = x.data_ptr<float>();
    float* op = out.data_ptr<float>();
    at::parallel_for(0, rows, 1, [&](int64_t begin, int64_t end) {
        lse_rows(xp, op, begin, end, cols);
    });
    return out;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("row_lse", &row_lse); }
"""

_ext = load_inline(
    name="mb_l1_3_fused_cpp",
    cpp_sources=_cpp_src,
    no_implicit_headers=True,
    extra_cflags=["-O3", "-fno-trapping-math", "-fno-math-errno"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return _ext.row_lse(x)
