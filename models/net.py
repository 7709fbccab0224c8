"""The corner classifier's network (torch; only training and export import this module).

Colour crops in (a wooden set's pips differ by colour as well as by count). Two convolutions
at full resolution (small tiles' numbers are a few pixels tall), then
depthwise-separable convolutions with pooling, widening as they shrink. The full-size layers cost
the most per corner, so they stay narrow; widening the coarse ones alone gives most of the gain of
a network wider everywhere, in about 60% of its time (models/README.md, *History*).
"""

from __future__ import annotations

import torch
from torch import nn

from models.classes import CLASS_COUNT


def _separable(channels_in: int, channels_out: int) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(channels_in, channels_in, 3, padding=1, groups=channels_in, bias=False),
        nn.BatchNorm2d(channels_in),
        nn.ReLU(inplace=True),
        nn.Conv2d(channels_in, channels_out, 1, bias=False),
        nn.BatchNorm2d(channels_out),
        nn.ReLU(inplace=True),
    )


class CornerNet(nn.Module):
    """Square BGR crop of ``vision.crops.CROP_PX`` (uint8 as float 0..255, channels first) -> logits
    over 0..6 and "no number"."""

    def __init__(self, widths: tuple[int, int, int, int] = (16, 64, 128, 256)) -> None:
        """``widths``: channels at full size, at a half, at an eighth and at a sixteenth (the last
        layer, before pooling)."""
        super().__init__()
        full, half, eighth, last = widths
        self.features = nn.Sequential(
            nn.Conv2d(3, full, 3, padding=1, bias=False),
            nn.BatchNorm2d(full),
            nn.ReLU(inplace=True),
            _separable(full, full),  # a second look at full size: small numbers are a few pixels
            nn.MaxPool2d(2),  # 16x16
            _separable(full, half),
            nn.MaxPool2d(2),  # 8x8
            _separable(half, eighth),
            _separable(eighth, eighth),
            nn.MaxPool2d(2),  # 4x4
            _separable(eighth, last),
            nn.AdaptiveAvgPool2d(1),
            nn.Flatten(),
        )
        self.head = nn.Sequential(nn.Dropout(0.1), nn.Linear(last, CLASS_COUNT))

    def forward(self, crops: torch.Tensor) -> torch.Tensor:
        # Normalise each crop's brightness and contrast inside the graph, so ONNX users pass raw
        # pixels; over all three channels at once, so that the crop's colours keep their balance.
        x = crops.float()
        mean = x.mean(dim=(1, 2, 3), keepdim=True)
        std = x.std(dim=(1, 2, 3), keepdim=True) + 8.0
        return self.head(self.features((x - mean) / std))


def parameter_count(model: nn.Module) -> int:
    return sum(p.numel() for p in model.parameters())
