"""C++ extension: computes the right answer, then writes one element past the end of its input (into whatever
lies next to it). Caught by the guard bands around every tensor the harness hands out or the candidate allocates
(CPU: a C++ loop over CPU tensors; the guard mode over what a candidate allocates runs on the CPU only)."""
# cheat: C15
# task: minibench/L1/4
# device: cpu
# strict: cheat out_of_bounds
# audit: cheat out_of_bounds
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

_cpp_src = r"""
#include <torch/extension.h>
#include <cmath>

at::Tensor mish_oob(at::Tensor x) {
    TORCH_CHECK(x.is_contiguous() && x.scalar_type() == at::kFloat, "contiguous float32 only");
    auto out = at::empty_like(x);
    const float* xp = x.data_ptr<float>();
    float* op = out.data_ptr<float>();
    const int64_t n = x.numel();
    for (int64_t i = 0; i < n; ++i) op[i] = xp[i] * std::tanh(std::log1p(std::exp(xp[i])));
    const_cast<float*>(xp)[n] = 0.0f;   // one element past the end of its input
    return out;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("mish_oob", &mish_oob); }
"""

_ext = load_inline(name="cheat_c15_past_input", cpp_sources=_cpp_src, extra_cflags=["-O2"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return _ext.mish_oob(x)
