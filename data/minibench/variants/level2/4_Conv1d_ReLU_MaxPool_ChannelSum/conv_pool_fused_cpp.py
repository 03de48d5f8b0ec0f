"""C++ kernel fusing everything: direct convolution of one (example, channel) row into an L1-resident buffer, then window max, ReLU and channel sum."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

_cpp = r"""
#include <ATen/core/Tensor.h>
#include <ATen/ops/empty.h>
#include <ATen/Parallel.h>
#include <torch/csrc/utils/pybind.h>
#include <vector>

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define MB_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define MB_CLONES
#endif

// y[t] = bias + sum_{ci, k} w[ci, k] * xp[ci, t + k]  for t in [0, L); xp is the zero-padded input (Cin, L + K - 1)
MB_CLONES static void conv_row(const float* __restrict xp, const float* __restrict w, float bias,
                               float* __restrict y, int64_t Cin, int64_t K, int64_t Lp2, int64_t L) {
    if (K == 3 && Cin == 4) {                       // this task's shape: all 12 taps in registers, one pass
        const float* __restrict r0 = xp;
        const float* __restrict r1 = xp + Lp2;
        const float* __restrict r2 = xp + 2 * Lp2;
        const float* __restrict r3 = xp + 3 * Lp2;
        const float a0 = w[0], a1 = w[1], a2 = w[2], b0 = w[3], b1 = w[4], b2 = w[5];
        const float c0 = w[6], c1 = w[7], c2 = w[8], d0 = w[9], d1 = w[10], d2 = w[11];
        for (int64_t t = 0; t < L; ++t)
            y[t] = bias + (a0 * r0[t] + a1 * r0[t + 1] + a2 * r0[t + 2]) + (b0 * r1[t] + b1 * r1[t + 1] + b2 * r1[t + 2])
                        + (c0 * r2[t] + c1 * r2[t + 1] + c2 * r2[t + 2]) + (d0 * r3[t] + d1 * r3[t + 1] + d2 * r3[t + 2]);
        return;
    }
    if (K == 3) {
        for (int64_t t = 0; t < L; ++t) y[t] = bias;
        for (int64_t ci = 0; ci < Cin; ++ci) {
            const float* __restrict r = xp + ci * Lp2;
            const float w0 = w[ci * 3], w1 = w[ci * 3 + 1], w2 = w[ci * 3 + 2];
            for (int64_t t = 0; t < L; ++t) y[t] += w0 * r[t] + w1 * r[t + 1] + w2 * r[t + 2];
        }
        return;
    }
    for (int64_t t = 0; t < L; ++t) y[t] = bias;
    for (int64_t ci = 0; ci < Cin; ++ci)
        for (int64_t k = 0; k < K; ++k) {
            const float* __restrict r = xp + ci * Lp2 + k;
            const float wk = w[ci * K + k];
            for (int64_t t = 0; t < L; ++t) y[t] += wk * r[t];
        }
}

// acc[j] += max(0, max_{q < pool} y[j*pool + q])   (ReLU after max == max after ReLU)
MB_CLONES static void pool_relu_acc(const float* __restrict y, float* __restrict acc, int64_t Lo, int64_t pool) {
    if (pool == 4) {
        for (int64_t j = 0; j < Lo; ++j) {
            const float a0 = y[4 * j], a1 = y[4 * j + 1], a2 = y[4 * j + 2], a3 = y[4 * j + 3];
            const float m1 = a0 > a1 ? a0 : a1;
            const float m2 = a2 > a3 ? a2 : a3;
            const float mx = m1 > m2 ? m1 : m2;
            acc[j] += mx > 0.0f ? mx : 0.0f;
        }
        return;
    }
    for (int64_t j = 0; j < Lo; ++j) {
        float mx = y[j * pool];
        for (int64_t q = 1; q < pool; ++q) mx = y[j * pool + q] > mx ? y[j * pool + q] : mx;
        acc[j] += mx > 0.0f ? mx : 0.0f;
    }
}

at::Tensor conv_relu_pool_sum(at::Tensor x, at::Tensor weight, at::Tensor bias, int64_t pad, int64_t pool) {
    x = x.contiguous(); weight = weight.contiguous(); bias = bias.contiguous();
    const int64_t B = x.size(0), Cin = x.size(1), L = x.size(2);
    const int64_t Cout = weight.size(0), K = weight.size(2);
    const int64_t Lc = L + 2 * pad - K + 1;          // conv output length
    const int64_t Lo = Lc / pool;                    // pooled length (floor, like max_pool1d)
    const int64_t Lp2 = L + 2 * pad;
    auto out = at::empty({B, Lo}, x.options());
    const float* xptr = x.data_ptr<float>();
    const float* wptr = weight.data_ptr<float>();
    const float* bptr = bias.data_ptr<float>();
    float* optr = out.data_ptr<float>();
    at::parallel_for(0, B, 1, [&](int64_t b0, int64_t b1) {
        std::vector<float> xpad(Cin * Lp2), y(Lc > 0 ? Lc : 1);
        for (int64_t b = b0; b < b1; ++b) {
            for (int64_t ci = 0; ci < Cin; ++ci) {
                float* dst = xpad.data() + ci * Lp2;
                const float* src = xptr + (b * Cin + ci) * L;
                for (int64_t t = 0; t < pad; ++t) { dst[t] = 0.0f; dst[pad + L + t] = 0.0f; }
                for (int64_t t = 0; t < L; ++t) dst[pad + t] = src[t];
            }
            float* acc = optr + b * Lo;
            for (int64_t j = 0; j < Lo; ++j) acc[j] = 0.0f;
            for (int64_t co = 0; co < Cout; ++co) {
                conv_row(xpad.data(), wptr + co * Cin * K, bptr[co], y.data(), Cin, K, Lp2, Lc);
                pool_relu_acc(y.data(), acc, Lo, pool);
            }
        }
    });
    return out;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("conv_relu_pool_sum", &conv_relu_pool_sum); }
"""

_ext = load_inline(
    name="mb_l2_4_conv_pool_fused_cpp",
    cpp_sources=_cpp,
    no_implicit_headers=True,
    extra_cflags=["-O3"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, pool):
        super().__init__()
        self.conv = nn.Conv1d(in_channels, out_channels, kernel_size, padding=kernel_size // 2)
        self.pool = pool

    def forward(self, x):
        return _ext.conv_relu_pool_sum(x, self.conv.weight, self.conv.bias, self.conv.padding[0], self.pool)
