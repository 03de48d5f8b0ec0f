"""C++ kernel doing, per example, all row dot products (8 partial sums), bias + tanh and the L2 normalisation in one sweep over A."""
import math
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

_cpp = r"""
#include <ATen/core/Tensor.h>
#include <ATen/ops/empty.h>
#include <ATen/Parallel.h>
#include <torch/csrc/utils/pybind.h>
#include <cmath>
#include <algorithm>

at::Tensor matvec_tanh_l2(at::Tensor A, at::Tensor v, at::Tensor bias, double eps, double radius) {
    A = A.contiguous(); v = v.contiguous(); bias = bias.contiguous();
    const int64_t B = A.size(0), M = A.size(1), N = A.size(2);
    auto out = at::empty({B, M}, A.options());
    const float* ap = A.data_ptr<float>();
    const float* vp = v.data_ptr<float>();
    const float* bp = bias.data_ptr<float>();
    float* op = out.data_ptr<float>();
    at::parallel_for(0, B, 1, [&](int64_t b0, int64_t b1) {
        for (int64_t b = b0; b < b1; ++b) {
            const float* __restrict vb = vp + b * N;
            float* __restrict ob = op + b * M;
            float ss = 0.0f;
            for (int64_t i = 0; i < M; ++i) {
                const float* __restrict ar = ap + (b * M + i) * N;
                float acc[8] = {0, 0, 0, 0, 0, 0, 0, 0};
                int64_t j = 0;
                for (; j + 8 <= N; j += 8)
                    for (int u = 0; u < 8; ++u) acc[u] += ar[j + u] * vb[j + u];
                float d = ((acc[0] + acc[1]) + (acc[2] + acc[3])) + ((acc[4] + acc[5]) + (acc[6] + acc[7]));
                for (; j < N; ++j) d += ar[j] * vb[j];
                const float t = std::tanh(d * 0.05f + bp[i]);
                ob[i] = t;
                ss += t * t;
            }
            const float inv = (float)radius / std::max((float)std::sqrt(ss), (float)eps);
            for (int64_t i = 0; i < M; ++i) ob[i] *= inv;
        }
    });
    return out;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("matvec_tanh_l2", &matvec_tanh_l2); }
"""

_ext = load_inline(
    name="mb_l2_6_fused_cpp",
    cpp_sources=_cpp,
    no_implicit_headers=True,
    extra_cflags=["-O3"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self, rows, eps):
        super().__init__()
        self.bias = nn.Parameter(0.5 * torch.randn(rows))
        self.eps = eps
        self.radius = math.sqrt(rows)

    def forward(self, A, v):
        return _ext.matvec_tanh_l2(A, v, self.bias, float(self.eps), float(self.radius))
