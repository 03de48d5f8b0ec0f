"""Tiny autoencoder: a purely linear encoder stack (784 -> 512 -> 128 -> 16, no activations), tanh on the 16-d code,
then a decoder (16 -> 64, ReLU, 64 -> 784) with a sigmoid; returns the reconstruction."""
import torch
import torch.nn as nn

batch_size = 512
in_features = 784
enc1 = 512
enc2 = 128
code = 16
dec_hidden = 64


class Model(nn.Module):
    def __init__(self, in_features, enc1, enc2, code, dec_hidden):
        super().__init__()
        self.encoder = nn.Sequential(
            nn.Linear(in_features, enc1),
            nn.Linear(enc1, enc2),
            nn.Linear(enc2, code),
        )
        self.decoder = nn.Sequential(
            nn.Linear(code, dec_hidden),
            nn.ReLU(),
            nn.Linear(dec_hidden, in_features),
        )
        with torch.no_grad():  # gain 2 on every weight so the signal does not shrink through the stack
            for m in self.modules():
                if isinstance(m, nn.Linear):
                    m.weight.mul_(2.0)

    def forward(self, x):
        z = torch.tanh(self.encoder(x))
        return torch.sigmoid(self.decoder(z))


def get_inputs():
    return [torch.randn(batch_size, in_features)]


def get_init_inputs():
    return [in_features, enc1, enc2, code, dec_hidden]
