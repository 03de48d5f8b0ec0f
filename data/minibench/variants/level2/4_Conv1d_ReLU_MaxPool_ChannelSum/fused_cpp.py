"""Per-example ATen convolution (output stays cache-resident) + one fused C++ epilogue: window max, ReLU and channel sum in a single read."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.cpp_extension import load_inline

_cpp = r"""
#include <torch/extension.h>
#include <ATen/Parallel.h>
#include <vector>

// y: (B, C, L) conv output. out[b, j] = sum_c max(0, max_{q < pool} y[b, c, j*pool + q])
// (ReLU after max == max after ReLU, ReLU is monotone). No intermediate tensors.
torch::Tensor relu_pool_channel_sum(torch::Tensor y, int64_t pool) {
    y = y.contiguous();
    const int64_t B = y.size(0), C = y.size(1), L = y.size(2);
    const int64_t Lp = L / pool;
    auto out = torch::empty({B, Lp}, y.options());
    const float* yp = y.data_ptr<float>();
    float* op = out.data_ptr<float>();
    at::parallel_for(0, B, 1, [&](int64_t b0, int64_t b1) {
        std::vector<float> m(Lp);
        for (int64_t b = b0; b < b1; ++b) {
            float* __restrict acc = op + b * Lp;
            for (int64_t j = 0; j < Lp; ++j) acc[j] = 0.0f;
            for (int64_t c = 0; c < C; ++c) {
                const float* __restrict row = yp + (b * C + c) * L;
                if (pool == 4) {                     // common case: constant stride, auto-vectorised
                    for (int64_t j = 0; j < Lp; ++j) {
                        const float a0 = row[4 * j], a1 = row[4 * j + 1], a2 = row[4 * j + 2], a3 = row[4 * j + 3];
                        const float m1 = a0 > a1 ? a0 : a1;
                        const float m2 = a2 > a3 ? a2 : a3;
                        const float mx = m1 > m2 ? m1 : m2;
                        acc[j] += mx > 0.0f ? mx : 0.0f;
                    }
                    continue;
                }
                float* __restrict mm = m.data();
                for (int64_t j = 0; j < Lp; ++j) mm[j] = row[j * pool];
                for (int64_t q = 1; q < pool; ++q)
                    for (int64_t j = 0; j < Lp; ++j) {
                        const float v = row[j * pool + q];
                        mm[j] = v > mm[j] ? v : mm[j];
                    }
                for (int64_t j = 0; j < Lp; ++j) acc[j] += mm[j] > 0.0f ? mm[j] : 0.0f;
            }
        }
    });
    return out;
}
"""

_ext = load_inline(
    name="mb_l2_4_fused_cpp",
    cpp_sources=_cpp,
    functions=["relu_pool_channel_sum"],
    extra_cflags=["-O3"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, pool):
        super().__init__()
        self.conv = nn.Conv1d(in_channels, out_channels, kernel_size, padding=kernel_size // 2)
        self.pool = pool

    def forward(self, x):
        # one example at a time: its (C, L) conv output is ~1 MB and is consumed from cache
        # by the fused epilogue instead of round-tripping a (B, C, L) tensor through memory
        outs = [_ext.relu_pool_channel_sum(self.conv(x[b:b + 1]), self.pool) for b in range(x.shape[0])]
        return torch.cat(outs, dim=0)
