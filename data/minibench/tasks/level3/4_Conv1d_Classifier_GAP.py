"""Small 1-D CNN classifier on (batch, channels, length) signals:
conv1d -> ReLU -> max-pool(2) -> conv1d -> global average pool over length -> linear to class logits."""
import torch
import torch.nn as nn
import torch.nn.functional as F

batch_size = 32
in_channels = 8
length = 2048
mid_channels = 32
feat_channels = 128
num_classes = 10


class Model(nn.Module):
    def __init__(self, in_channels, mid_channels, feat_channels, num_classes):
        super().__init__()
        self.conv1 = nn.Conv1d(in_channels, mid_channels, kernel_size=7, padding=3)
        self.pool = nn.MaxPool1d(2)
        self.conv2 = nn.Conv1d(mid_channels, feat_channels, kernel_size=5, padding=2)
        self.fc = nn.Linear(feat_channels, num_classes)

    def forward(self, x):
        h = self.pool(F.relu(self.conv1(x)))
        h = self.conv2(h)
        h = h.mean(dim=-1)
        return self.fc(h)


def get_inputs():
    # per-sample, per-channel offset and scale so that the pooled features differ between samples
    offset = torch.randn(batch_size, in_channels, 1)
    scale = 0.5 + 2.0 * torch.rand(batch_size, in_channels, 1)
    return [offset + scale * torch.randn(batch_size, in_channels, length)]


def get_init_inputs():
    return [in_channels, mid_channels, feat_channels, num_classes]
