"""The tile finder's network (torch; training and export only): a small encoder-decoder that
marks tile cores at the working scale. Dilated convolutions widen its view to whole tiles
without more layers; skip connections keep the cores sharp."""

from __future__ import annotations

import torch
from torch import nn


def _conv(channels_in: int, channels_out: int, kernel: int = 3, stride: int = 1, dilation: int = 1) -> nn.Sequential:
    padding = dilation * (kernel // 2)
    return nn.Sequential(
        nn.Conv2d(channels_in, channels_out, kernel, stride, padding, dilation, bias=False),
        nn.BatchNorm2d(channels_out),
        nn.ReLU(inplace=True),
    )


class FinderNet(nn.Module):
    """(N, 3, H, W) uint8 BGR, H and W multiples of 8 -> (N, 1, H, W) probability of a tile core."""

    def __init__(self) -> None:
        super().__init__()
        self.at_full = _conv(3, 8)
        self.at_half = _conv(8, 16, stride=2)
        self.at_quarter = nn.Sequential(_conv(16, 32, stride=2), _conv(32, 32, dilation=2))
        self.at_eighth = nn.Sequential(_conv(32, 48, stride=2), _conv(48, 48, dilation=2), _conv(48, 48, dilation=4))
        self.up_quarter = nn.Sequential(_conv(80, 32, kernel=1), _conv(32, 32))
        self.up_half = _conv(48, 16, kernel=1)
        self.up_full = nn.Sequential(_conv(24, 8, kernel=1), nn.Conv2d(8, 1, 1))

    def forward(self, image: torch.Tensor) -> torch.Tensor:
        x = image.float() / 127.5 - 1.0
        full = self.at_full(x)
        half = self.at_half(full)
        quarter = self.at_quarter(half)
        eighth = self.at_eighth(quarter)
        up = nn.functional.interpolate(eighth, scale_factor=2.0, mode="bilinear", align_corners=False)
        up = self.up_quarter(torch.cat([up, quarter], 1))
        up = nn.functional.interpolate(up, scale_factor=2.0, mode="bilinear", align_corners=False)
        up = self.up_half(torch.cat([up, half], 1))
        up = nn.functional.interpolate(up, scale_factor=2.0, mode="bilinear", align_corners=False)
        return torch.sigmoid(self.up_full(torch.cat([up, full], 1)))
