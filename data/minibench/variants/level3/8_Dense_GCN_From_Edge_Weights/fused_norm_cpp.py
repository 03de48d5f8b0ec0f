"""C++ kernel builds the normalised adjacency in two fused passes (symmetrise+threshold+self-loop+degree, then d_i*A_ij*d_j) instead of diagonal matmuls; propagation keeps the reference's (A X) W order."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.cpp_extension import load_inline

_cpp_src = r"""
#include <ATen/core/Tensor.h>
#include <ATen/ops/empty.h>
#include <torch/csrc/utils/pybind.h>
#include <cmath>
#include <vector>

at::Tensor gcn_norm_adj(at::Tensor ew, double thr) {
    ew = ew.contiguous();
    const int64_t n = ew.size(0);
    auto a = at::empty({n, n}, ew.options());
    const float* E = ew.data_ptr<float>();
    float* A = a.data_ptr<float>();
    std::vector<float> d(n);
    const float t = (float)thr;
    for (int64_t i = 0; i < n; ++i) {
        float s = 0.f;
        float* ai = A + i * n;
        const float* ei = E + i * n;
        for (int64_t j = 0; j < n; ++j) {
            float v = 0.5f * (ei[j] + E[j * n + i]) - t;
            v = v > 0.f ? v : 0.f;
            if (j == i) v += 1.f;
            ai[j] = v;
            s += v;
        }
        d[i] = 1.f / std::sqrt(s);
    }
    for (int64_t i = 0; i < n; ++i) {
        float* ai = A + i * n;
        const float di = d[i];
        for (int64_t j = 0; j < n; ++j) ai[j] = di * ai[j] * d[j];
    }
    return a;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("gcn_norm_adj", &gcn_norm_adj); }
"""

_ext = load_inline(
    name="mb_l3_8_fused_norm_cpp",
    cpp_sources=_cpp_src,
    no_implicit_headers=True,
    extra_cflags=["-O3"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self, in_features, hidden, out_features, threshold):
        super().__init__()
        self.threshold = threshold
        self.lin1 = nn.Linear(in_features, hidden)
        self.lin2 = nn.Linear(hidden, out_features)

    def forward(self, x, edge_w):
        a_norm = _ext.gcn_norm_adj(edge_w, float(self.threshold))
        h = F.relu(self.lin1(a_norm @ x))
        return self.lin2(a_norm @ h)
