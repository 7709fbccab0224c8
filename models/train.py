"""Training the corner classifier on studio crops, and exporting it to ONNX (needs the `train` extra).

``triominoes train --seed S`` renders the crops it needs (cached under data/), trains on the CPU,
calibrates the confidence on the validation split (temperature scaling) and writes the ONNX model.
"""

from __future__ import annotations

import math
import time
import warnings
from collections.abc import Callable
from pathlib import Path

import numpy as np
import torch
from torch import nn

from datasets.make import load_crops
from models.net import CornerNet, parameter_count
from vision.crops import CROP_PX

# Training scenes use the 0..6 set this often (the studio: 15%), so the 6 has about half as many
# examples as each other number instead of an eighth (it was the number read worst). Which set is
# on the table is the decoder's business, not the classifier's.
TRAIN_LARGE_SET = 0.5
# Half the training sets are drawn in another edition's layout (number size and place, pip
# arrangement): real sets differ in these, and a classifier that saw one layout reads others badly.
TRAIN_OTHER_EDITIONS = 0.5

GEOMETRY_TURN = math.radians(10)  # extra turn of a crop, either way
GEOMETRY_SCALE = 0.12  # extra zoom in or out (fraction)
GEOMETRY_SHIFT = 0.1  # extra shift, standard deviation in crop half-widths (0.1: 1.6 px, 5% of a side)


GREY_SHARE = 0.25  # crops shown without colour, so that shapes alone are read too
SWAPPED_HUES = 0.2  # crops with their colour channels shuffled: no set's colours are relied on


def augment(batch: torch.Tensor, generator: torch.Generator) -> torch.Tensor:
    """Photo-level variety beyond the studio's (light colour, contrast, brightness, blur, noise)
    and the reader's own geometry errors: its corners miss the true tips by several percent of a
    side, so each crop is shifted, scaled and turned a little more than the studio's jitter does.
    Colour helps (a wooden set's pips are coloured by count) but must not be needed: some crops
    lose it, and some have their hues swapped, as another edition's colours would be."""
    n = len(batch)
    x = batch.float()
    swap = torch.rand(n, generator=generator) < SWAPPED_HUES
    if swap.any():
        orders = torch.stack([torch.randperm(3, generator=generator) for _ in range(int(swap.sum()))])
        x[swap] = torch.gather(x[swap], 1, orders[:, :, None, None].expand(-1, -1, *x.shape[2:]))
    x = x * torch.empty(n, 3, 1, 1).uniform_(0.8, 1.2, generator=generator)  # the light's colour
    grey = (torch.rand(n, 1, 1, 1, generator=generator) < GREY_SHARE).float()
    x = grey * x.mean(1, keepdim=True) + (1 - grey) * x
    contrast = torch.empty(n, 1, 1, 1).uniform_(0.5, 1.4, generator=generator)
    bright = torch.empty(n, 1, 1, 1).uniform_(-40, 40, generator=generator)
    x = (x - 128) * contrast + 128 + bright
    blurred = nn.functional.avg_pool2d(nn.functional.pad(x, (1, 1, 1, 1), mode="replicate"), 3, stride=1)
    blur = (torch.rand(n, 1, 1, 1, generator=generator) < 0.25).float()
    x = blur * blurred + (1 - blur) * x
    x = x + torch.randn(x.shape, generator=generator) * torch.empty(n, 1, 1, 1).uniform_(0, 8, generator=generator)
    turn = torch.empty(n).uniform_(-GEOMETRY_TURN, GEOMETRY_TURN, generator=generator)
    scale = torch.empty(n).uniform_(1 - GEOMETRY_SCALE, 1 + GEOMETRY_SCALE, generator=generator)
    shift = torch.randn(n, 2, generator=generator) * GEOMETRY_SHIFT
    cos, sin = torch.cos(turn) * scale, torch.sin(turn) * scale
    affine = torch.stack([torch.stack([cos, -sin, shift[:, 0]], 1), torch.stack([sin, cos, shift[:, 1]], 1)], 1)
    grid = nn.functional.affine_grid(affine, list(x.shape), align_corners=False)
    x = nn.functional.grid_sample(x, grid, mode="bilinear", padding_mode="border", align_corners=False)
    return x.clamp(0, 255)


def fit_temperature(logits: torch.Tensor, labels: torch.Tensor) -> float:
    """The softmax temperature that makes validation confidences honest (least negative log-likelihood)."""
    temperatures = torch.linspace(0.5, 3.0, 51)
    losses = [nn.functional.cross_entropy(logits / t, labels).item() for t in temperatures]
    return float(temperatures[int(np.argmin(losses))])


class Calibrated(nn.Module):
    """What is exported: raw uint8 crops in, calibrated probabilities out."""

    def __init__(self, net: CornerNet, temperature: float) -> None:
        super().__init__()
        self.net = net
        self.register_buffer("temperature", torch.tensor(temperature))

    def forward(self, crops: torch.Tensor) -> torch.Tensor:
        return torch.softmax(self.net(crops) / self.temperature, dim=1)


def train(
    out: Path,
    seed: int = 0,
    train_images: int = 3000,
    val_images: int = 300,
    epochs: int = 10,
    batch_size: int = 256,
    report: Callable | None = None,
    log: Callable[[str], None] = print,
) -> dict:
    torch.manual_seed(seed)
    generator = torch.Generator().manual_seed(seed)
    train_set = load_crops(
        "train", train_images, report, large_set=TRAIN_LARGE_SET, other_editions=TRAIN_OTHER_EDITIONS
    )
    val_set = load_crops("val", val_images, report)
    x_train = torch.from_numpy(train_set["crops"])
    y_train = torch.from_numpy(train_set["labels"].astype(np.int64))
    x_val = torch.from_numpy(val_set["crops"])
    y_val = torch.from_numpy(val_set["labels"].astype(np.int64))
    # Network and batches in channels-last layout run the convolutions about twice as fast on the
    # CPU, and bfloat16 arithmetic about 1.6 times again where the CPU runs it (AVX-512), so
    # training fits in 30 minutes; an AVX2-only CPU emulates bfloat16 a dozen times slower than
    # float32, so float32 is used there. The exported graph depends on neither.
    net = CornerNet().to(memory_format=torch.channels_last)
    bfloat16 = torch.ops.mkldnn._is_mkldnn_bf16_supported()
    log(
        f"{len(y_train)} training crops, {len(y_val)} validation crops, {parameter_count(net)} parameters, "
        f"{'bfloat16' if bfloat16 else 'float32'} arithmetic"
    )
    steps = epochs * math.ceil(len(y_train) / batch_size)
    optimiser = torch.optim.AdamW(net.parameters(), lr=4e-3, weight_decay=1e-4)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, max_lr=4e-3, total_steps=steps, pct_start=0.15)
    best, best_state = -1.0, None
    start = time.perf_counter()
    for epoch in range(epochs):
        net.train()
        order = torch.randperm(len(y_train), generator=generator)
        batches = range(0, len(order), batch_size)
        for first in report(batches, len(batches), f"epoch {epoch + 1}/{epochs}") if report else batches:
            index = order[first : first + batch_size]
            with torch.autocast("cpu", torch.bfloat16, enabled=bfloat16):  # weights stay float32
                logits = net(augment(x_train[index], generator).contiguous(memory_format=torch.channels_last))
            loss = nn.functional.cross_entropy(logits.float(), y_train[index], label_smoothing=0.02)
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            schedule.step()
        accuracy = (predict_logits(net, x_val).argmax(1) == y_val).float().mean().item()
        log(f"epoch {epoch + 1}: validation accuracy {accuracy:.4%} ({time.perf_counter() - start:.0f} s)")
        if accuracy >= best:
            best, best_state = accuracy, {k: v.clone() for k, v in net.state_dict().items()}
    net.load_state_dict(best_state)
    temperature = fit_temperature(predict_logits(net, x_val), y_val)
    calibrated = Calibrated(net.to(memory_format=torch.contiguous_format), temperature).eval()
    export(calibrated, out)
    torch.save(calibrated.state_dict(), out.with_suffix(".pt"))  # for the ONNX-versus-torch test
    log(
        f"wrote {out} ({out.stat().st_size / 1024:.0f} KiB), temperature {temperature:.2f}, "
        f"best validation accuracy {best:.4%}"
    )
    return {"validation_accuracy": best, "temperature": temperature, "seconds": time.perf_counter() - start}


@torch.no_grad()
def predict_logits(net: nn.Module, crops: torch.Tensor, batch_size: int = 2048) -> torch.Tensor:
    net.eval()
    chunks = (crops[i : i + batch_size] for i in range(0, len(crops), batch_size))
    return torch.cat([net(chunk.contiguous(memory_format=torch.channels_last)) for chunk in chunks])


def export(model: nn.Module, out: Path) -> None:
    out.parent.mkdir(parents=True, exist_ok=True)
    example = torch.zeros(2, 3, CROP_PX, CROP_PX, dtype=torch.uint8)
    onnx_export(model, example, out, "crops", "probabilities", {0: "batch"})


def onnx_export(
    net: nn.Module, example: torch.Tensor, out: Path, input_name: str, output_name: str, dynamic: dict[int, str]
) -> None:
    """``net`` written to ``out`` as ONNX (opset 17), its input and output axes ``dynamic``
    ({axis: name}). With torch's TorchScript exporter, which torch now calls legacy and warns
    of: its successor needs onnxscript, one more training dependency, and would write other
    graphs, which the finder's export rearranges node by node (``train_finder.fuse_joins``)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        torch.onnx.export(
            net,
            (example,),
            str(out),
            input_names=[input_name],
            output_names=[output_name],
            dynamic_axes={input_name: dynamic, output_name: dynamic},
            opset_version=17,
            dynamo=False,
        )
