"""Training the tile finder on studio photos and exporting it to ONNX (needs the `train` extra).

``triominoes train-finder --seed S`` renders photos with their core maps (seeds 500,000 on of the
train split, apart from the classifier's) at working sizes from 480 to 1100 pixels, so that it
meets tiles from about 8 to 110 pixels; trains on random 256-pixel windows with flips and quarter
turns; and writes models/finder.onnx.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import onnx
import torch
from onnx import TensorProto, helper, numpy_helper
from torch import nn

from datasets.make import SPLITS, RenderJob, run_jobs
from models.finder_data import CORE_GROWTH_PHOTOS, VALIDATION_SEEDS, finder_sample
from models.finder_net import FinderNet
from models.train import onnx_export

FINDER_SEEDS = SPLITS["train"] + 500_000
WINDOW = 256


def _padded(samples: list[tuple[np.ndarray, np.ndarray]]) -> tuple[np.ndarray, np.ndarray]:
    """Every photo on one canvas size (working scale), padded by edge replication."""
    height = max(image.shape[0] for image, _ in samples)
    width = max(image.shape[1] for image, _ in samples)
    images = np.zeros((len(samples), height, width, 3), np.uint8)
    targets = np.zeros((len(samples), height, width), np.uint8)
    for k, (image, target) in enumerate(samples):
        h, w = target.shape
        images[k] = np.pad(image, ((0, height - h), (0, width - w), (0, 0)), mode="edge")
        targets[k, :h, :w] = target
    return images, targets


def _windows(images, targets, count: int, generator: np.random.Generator) -> tuple[torch.Tensor, torch.Tensor]:
    """Random windows, most of them over tiles, each flipped and turned at random."""
    n, height, width = targets.shape
    xs, ys = [], []
    for _ in range(count):
        k = int(generator.integers(n))
        cores = np.argwhere(targets[k])
        if len(cores) and generator.uniform() < 0.8:
            cy, cx = cores[generator.integers(len(cores))]
            top = int(np.clip(cy - WINDOW // 2 + generator.integers(-64, 65), 0, height - WINDOW))
            left = int(np.clip(cx - WINDOW // 2 + generator.integers(-64, 65), 0, width - WINDOW))
        else:
            top, left = int(generator.integers(height - WINDOW + 1)), int(generator.integers(width - WINDOW + 1))
        image = images[k, top : top + WINDOW, left : left + WINDOW]
        target = targets[k, top : top + WINDOW, left : left + WINDOW]
        turns = int(generator.integers(4))
        image, target = np.rot90(image, turns), np.rot90(target, turns)
        if generator.uniform() < 0.5:
            image, target = image[:, ::-1], target[:, ::-1]
        xs.append(np.ascontiguousarray(image.transpose(2, 0, 1)))
        ys.append(np.ascontiguousarray(target))
    return torch.from_numpy(np.stack(xs)), torch.from_numpy(np.stack(ys)[:, None].astype(np.float32))


def train_finder(
    out: Path,
    seed: int = 0,
    images: int = 800,
    steps: int = 7000,
    batch_size: int = 8,
    report: Callable | None = None,
    log: Callable[[str], None] = print,
) -> dict:
    torch.manual_seed(seed)
    generator = np.random.default_rng(seed)
    jobs = [RenderJob(FINDER_SEEDS + k) for k in range(images)]
    results = run_jobs(finder_sample, jobs)
    samples = list(report(results, len(jobs), "finder photos") if report else results)
    pixels, targets = _padded(samples)
    net = FinderNet().to(memory_format=torch.channels_last)  # about 10% faster on the CPU
    optimiser = torch.optim.AdamW(net.parameters(), lr=3e-3, weight_decay=1e-4)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, max_lr=3e-3, total_steps=steps, pct_start=0.1)
    start = time.perf_counter()
    net.train()
    loop = range(steps)
    for step in report(loop, steps, "finder steps") if report else loop:
        x, y = _windows(pixels, targets, batch_size, generator)
        x = x.contiguous(memory_format=torch.channels_last)
        p = net(x).clamp(1e-6, 1 - 1e-6)
        bce = nn.functional.binary_cross_entropy(p, y)
        dice = 1 - (2 * (p * y).sum() + 1) / (p.sum() + y.sum() + 1)
        loss = bce + dice
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
        schedule.step()
        if (step + 1) % 500 == 0:
            log(f"step {step + 1}: loss {loss.item():.4f} ({time.perf_counter() - start:.0f} s)")
    export(net, out)
    growth = measure_core_growth(out)
    log(
        f"wrote {out} ({out.stat().st_size / 1024:.0f} KiB) in {time.perf_counter() - start:.0f} s; "
        f"cores drawn {growth:.3f} times too large (corrected at run time)"
    )
    return {"seconds": time.perf_counter() - start, "core_growth": growth}


def export(net: FinderNet, out: Path) -> None:
    """The network as ONNX for any photo size (batch norm folded into the convolutions, those
    of the skip joins too: ``fuse_joins``; the 1x1 convolutions on full-size maps as matrix
    products: ``full_size_as_products``)."""
    net.eval()
    out.parent.mkdir(parents=True, exist_ok=True)
    example = torch.zeros(1, 3, 480, 640, dtype=torch.uint8)
    onnx_export(net, example, out, "image", "core", {0: "batch", 2: "height", 3: "width"})
    onnx.save(full_size_as_products(fuse_joins(onnx.load(str(out)))), str(out))


def fuse_joins(model: onnx.ModelProto) -> onnx.ModelProto:
    """The exported graph arranged so that onnxruntime computes each skip join in one pass: the
    join's batch norm folded into its two 1x1 convolutions (a scale per channel passes through the
    bilinear upsampling; the shift becomes the skip map's convolution's bias), and the two maps
    its sum adds named the same shape. The runtime then adds the upsampled map and applies the
    ReLU inside the skip map's convolution, which it does only where it can prove both maps the
    same size, and it cannot see through the upsampling. Without this the sum, the batch norm and
    the ReLU were three more passes over full-size maps: the network took about 4 ms more of 50-60
    on a 960x720 photo. The same numbers, up to rounding."""
    fused = onnx.ModelProto()
    fused.CopyFrom(model)
    graph = fused.graph
    weights = {tensor.name: tensor for tensor in graph.initializer}
    made_by = {name: node for node in graph.node for name in node.output}

    def array(name: str) -> np.ndarray:
        return numpy_helper.to_array(weights[name]).astype(np.float64)

    def scale_outputs(convolution: onnx.NodeProto, scale: np.ndarray) -> None:
        name = convolution.input[1]
        scaled = array(name) * scale[:, None, None, None]
        weights[name].CopyFrom(numpy_helper.from_array(scaled.astype(np.float32), name))

    for norm in [node for node in graph.node if node.op_type == "BatchNormalization"]:
        join = made_by[norm.input[0]]
        upsampled, skip = _join_inputs(join, made_by)
        if (join.op_type, upsampled.op_type, skip.op_type, len(skip.input)) != ("Add", "Resize", "Conv", 2):
            raise ValueError(f"{norm.name} follows no skip join (an upsampled convolution plus one without bias)")
        gamma, beta, mean, variance = (array(name) for name in norm.input[1:])
        epsilon = next((attribute.f for attribute in norm.attribute if attribute.name == "epsilon"), 1e-5)
        scale = gamma / np.sqrt(variance + epsilon)
        scale_outputs(made_by[upsampled.input[0]], scale)
        scale_outputs(skip, scale)
        bias = f"{skip.name}.bias"
        graph.initializer.append(numpy_helper.from_array((beta - scale * mean).astype(np.float32), bias))
        skip.input.append(bias)
        for node in graph.node:
            node.input[:] = [join.output[0] if name == norm.output[0] else name for name in node.input]
        graph.node.remove(norm)
        for name in norm.input[1:]:  # its statistics, now in the convolutions, would lie in the file unused
            graph.initializer.remove(weights.pop(name))
        shape = ["batch", len(scale), f"{join.name} height", f"{join.name} width"]
        graph.value_info.extend(helper.make_tensor_value_info(name, TensorProto.FLOAT, shape) for name in join.input)
    return fused


def _join_inputs(join: onnx.NodeProto, made_by: dict[str, onnx.NodeProto]) -> list[onnx.NodeProto]:
    """The nodes that make the two maps a skip join's sum adds: the upsampling, then the skip
    map's convolution."""
    return sorted((made_by[name] for name in join.input), key=lambda node: node.op_type != "Resize")


def full_size_as_products(model: onnx.ModelProto) -> onnx.ModelProto:
    """The exported graph with its 1x1 convolutions on full-size maps (the last skip join's two
    and the core's) computed as matrix products over the pixels. onnxruntime runs convolutions
    in channel blocks of its processor's vector width, 16 with AVX-512: it padded the join's
    8-channel map and the 1-channel core map to 16 channels at full size and reordered them back
    to plain maps. A matrix product reads and writes the plain layout (the network at 960x720 on
    an Intel Xeon with AVX-512: 51-54 ms before, 39-40 after). The skip map's bias moves to the
    coarse map's convolution (the bilinear upsampling's weights sum to one, so a constant passes
    through it), where it is added on a quarter of the pixels. The same numbers, up to rounding."""
    products = onnx.ModelProto()
    products.CopyFrom(model)
    graph = products.graph
    made_by = {name: node for node in graph.node for name in node.output}
    core = made_by[made_by[graph.output[0].name].input[0]]
    join = made_by[made_by[core.input[0]].input[0]]
    upsampled, skip = _join_inputs(join, made_by)
    coarse = made_by[upsampled.input[0]]
    if [node.op_type for node in (core, join, upsampled, skip, coarse)] != ["Conv", "Add", "Resize", "Conv", "Conv"]:
        raise ValueError("the graph does not end in a skip join and the core's convolution")
    if len(coarse.input) == 2 and len(skip.input) == 3:
        coarse.input.append(skip.input.pop())
    for convolution in (coarse, skip, core):
        _as_product(graph, convolution)
    return products


def _as_product(graph: onnx.GraphProto, convolution: onnx.NodeProto) -> None:
    """Replaces a 1x1 convolution in ``graph`` by a matrix product of its weights and the map's
    pixels, (channels out, channels in) @ (batch, channels in, height x width), with its bias added."""
    weights = {tensor.name: tensor for tensor in graph.initializer}
    weight = numpy_helper.to_array(weights[convolution.input[1]])
    settings = {attribute.name: helper.get_attribute_value(attribute) for attribute in convolution.attribute}
    plain = (
        settings.get("group", 1) == 1
        and not any(settings.get("pads", []))
        and all(set(settings.get(step, [1])) == {1} for step in ("strides", "dilations"))
    )
    if weight.shape[2:] != (1, 1) or not plain:
        raise ValueError(f"{convolution.name} is not a plain 1x1 convolution")
    channels_out, channels_in = weight.shape[:2]
    name, image, out = convolution.name, convolution.input[0], convolution.output[0]
    constants = {
        f"{name}.matrix": weight.reshape(channels_out, channels_in),
        f"{name}.pixels": np.array([0, channels_in, -1], np.int64),  # (batch, channels, height x width)
        f"{name}.channels": np.array([channels_out], np.int64),
    }
    product = f"{name}.product"
    nodes = [
        helper.make_node("Reshape", [image, f"{name}.pixels"], [f"{name}.flat"], f"{name}/flat"),
        helper.make_node("MatMul", [f"{name}.matrix", f"{name}.flat"], [product], f"{name}/product"),
    ]
    for used in convolution.input[1:]:
        graph.initializer.remove(weights[used])
    if len(convolution.input) == 3:
        constants[f"{name}.bias"] = numpy_helper.to_array(weights[convolution.input[2]]).reshape(channels_out, 1)
        nodes.append(helper.make_node("Add", [product, f"{name}.bias"], [f"{name}.biased"], f"{name}/bias"))
        product = f"{name}.biased"
    nodes += [
        helper.make_node("Shape", [image], [f"{name}.batch"], f"{name}/batch", start=0, end=1),
        helper.make_node("Shape", [image], [f"{name}.size"], f"{name}/size", start=2),
        helper.make_node(
            "Concat", [f"{name}.batch", f"{name}.channels", f"{name}.size"], [f"{name}.shape"], f"{name}/shape", axis=0
        ),
        helper.make_node("Reshape", [product, f"{name}.shape"], [out], f"{name}/map"),
    ]
    graph.initializer.extend(numpy_helper.from_array(value, key) for key, value in constants.items())
    at = list(graph.node).index(convolution)
    graph.node.remove(convolution)
    for offset, node in enumerate(nodes):
        graph.node.insert(at + offset, node)


def measure_core_growth(model: Path, photos: int = CORE_GROWTH_PHOTOS) -> float:
    """How much larger than the truth the exported finder's triangles come out, as the median
    over validation photos; stored in the model's metadata for the run-time finder to divide out.
    Measured on the network's own maps, none mirrored (the committed 1.0790 was; mirrored closer
    looks give 1.0780)."""
    from datasets.studio import render, sample_scene
    from vision.evaluate import MATCHED_WITHIN
    from vision.find import TileFinder

    finder = TileFinder(model)
    finder.core_growth = 1.0
    finder.mirror_closer_looks = False
    ratios = []
    for k in range(photos):
        rendered = render(sample_scene(VALIDATION_SEEDS + k))
        found = finder.find(rendered.image)
        for tile in rendered.truth["tiles"]:
            truth = np.array([[c["x"], c["y"]] for c in tile["corners"]])
            if not len(found):
                break
            distance = np.linalg.norm(found.mean(1) - truth.mean(0), axis=1)
            nearest = int(np.argmin(distance))
            side = np.linalg.norm(truth[0] - truth[1])
            if distance[nearest] < MATCHED_WITHIN * side:
                spread = np.linalg.norm(found[nearest] - found[nearest].mean(0), axis=1).mean()
                ratios.append(spread / np.linalg.norm(truth - truth.mean(0), axis=1).mean())
    growth = float(np.median(ratios)) if ratios else 1.0
    stored = onnx.load(str(model))
    onnx.helper.set_model_props(stored, {"core_growth": f"{growth:.4f}"})
    onnx.save(stored, str(model))
    return growth
