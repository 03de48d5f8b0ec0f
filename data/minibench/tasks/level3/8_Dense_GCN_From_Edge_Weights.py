"""Two-layer graph convolution network on a dense graph built in forward from an (N, N) edge-weight input:
A = relu(sym(W_e) - t) + I, A_norm = D^-1/2 A D^-1/2 (via diagonal matrices), out = A_norm relu(A_norm X W1 + b1) W2 + b2."""
import torch
import torch.nn as nn
import torch.nn.functional as F

num_nodes = 512
in_features = 256
hidden = 64
out_features = 16
threshold = 0.85


class Model(nn.Module):
    def __init__(self, in_features, hidden, out_features, threshold):
        super().__init__()
        self.threshold = threshold
        self.lin1 = nn.Linear(in_features, hidden)
        self.lin2 = nn.Linear(hidden, out_features)

    def forward(self, x, edge_w):
        n = edge_w.shape[0]
        a = F.relu(0.5 * (edge_w + edge_w.t()) - self.threshold) + torch.eye(n, dtype=edge_w.dtype, device=edge_w.device)
        deg = a.sum(dim=1)
        d_inv_sqrt = torch.diag(deg.pow(-0.5))
        a_norm = d_inv_sqrt @ a @ d_inv_sqrt
        h = F.relu(self.lin1(a_norm @ x))
        return self.lin2(a_norm @ h)


def get_inputs():
    return [torch.randn(num_nodes, in_features), torch.rand(num_nodes, num_nodes)]


def get_init_inputs():
    return [in_features, hidden, out_features, threshold]
