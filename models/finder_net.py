"""The tile finder's network (torch; training and export only): a small encoder-decoder that
marks tile cores at the working scale. Dilated convolutions widen its view to whole tiles
without more layers; skip connections keep the cores sharp."""

from __future__ import annotations

import torch
from torch import nn
from torch.nn import functional


def _conv(channels_in: int, channels_out: int, kernel: int = 3, stride: int = 1, dilation: int = 1) -> nn.Sequential:
    padding = dilation * (kernel // 2)
    return nn.Sequential(
        nn.Conv2d(channels_in, channels_out, kernel, stride, padding, dilation, bias=False),
        nn.BatchNorm2d(channels_out),
        nn.ReLU(inplace=True),
    )


class _Join(nn.Module):
    """A skip connection: a 1x1 convolution of [the coarse map upsampled 2x, the skip map] stacked
    along channels, then batch norm and ReLU. It is computed as a 1x1 convolution of the coarse map
    before upsampling plus one of the skip map: the same numbers, since a 1x1 convolution and
    bilinear upsampling commute, but without the concatenation (on the CPU it took a quarter of the
    network's time) and with the coarse map's convolution on a quarter of the pixels."""

    def __init__(self, coarse: int, skip: int, channels_out: int) -> None:
        super().__init__()
        # Initialised as the one convolution over both that it stands for.
        weight = nn.Conv2d(coarse + skip, channels_out, 1, bias=False).weight.detach()
        self.from_coarse = nn.Parameter(weight[:, :coarse].clone())
        self.from_skip = nn.Parameter(weight[:, coarse:].clone())
        self.finish = nn.Sequential(nn.BatchNorm2d(channels_out), nn.ReLU(inplace=True))

    def forward(self, coarse: torch.Tensor, skip: torch.Tensor) -> torch.Tensor:
        up = functional.interpolate(
            functional.conv2d(coarse, self.from_coarse), scale_factor=2.0, mode="bilinear", align_corners=False
        )
        return self.finish(up + functional.conv2d(skip, self.from_skip))


class FinderNet(nn.Module):
    """(N, 3, H, W) uint8 BGR, H and W multiples of 8 -> (N, 1, H, W) probability of a tile core."""

    def __init__(self) -> None:
        super().__init__()
        self.at_full = _conv(3, 8)
        self.at_half = _conv(8, 16, stride=2)
        self.at_quarter = nn.Sequential(_conv(16, 32, stride=2), _conv(32, 32, dilation=2))
        self.at_eighth = nn.Sequential(_conv(32, 48, stride=2), _conv(48, 48, dilation=2), _conv(48, 48, dilation=4))
        self.join_quarter = _Join(48, 32, 32)
        self.up_quarter = _conv(32, 32)
        self.join_half = _Join(32, 16, 16)
        self.join_full = _Join(16, 8, 8)
        self.core = nn.Conv2d(8, 1, 1)

    def forward(self, image: torch.Tensor) -> torch.Tensor:
        x = image.float() / 127.5 - 1.0
        full = self.at_full(x)
        half = self.at_half(full)
        quarter = self.at_quarter(half)
        eighth = self.at_eighth(quarter)
        up = self.up_quarter(self.join_quarter(eighth, quarter))
        up = self.join_half(up, half)
        return torch.sigmoid(self.core(self.join_full(up, full)))
