"""C++ kernel: one sequential running-max pass per row, reading and writing each element once."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

_cpp_src = r"""
#include <ATen/core/Tensor.h>
#include <ATen/ops/empty_like.h>
#include <ATen/Parallel.h>
#include <torch/csrc/utils/pybind.h>

at::Tensor running_max(at::Tensor x) {
    x = x.contiguous();
    const int64_t rows = x.size(0), cols = x.size(1);
    auto out = at::empty_like(x);
    const float* xp = x.data_ptr<float>();
    float* op = out.data_ptr<float>();
    at::parallel_for(0, rows, 1, [&](int64_t begin, int64_t end) {
        for (int64_t r = begin; r < end; ++r) {
            const float* in = xp + r * cols;
            float* o = op + r * cols;
            float m = in[0];
            o[0] = m;
            for (int64_t j = 1; j < cols; ++j) {
                const float v = in[j];
                m = v > m ? v : m;
                o[j] = m;
            }
        }
    });
    return out;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("running_max", &running_max); }
"""

_ext = load_inline(
    name="mb_l1_6_scan_cpp",
    cpp_sources=_cpp_src,
    no_implicit_headers=True,
    extra_cflags=["-O3"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return _ext.running_max(x)
