"""Reader speed: milliseconds per 1280x960 photo of a 40-tile board, per stage and in total."""

from __future__ import annotations

import numpy as np

from datasets.make import SPLITS
from datasets.studio import render, sample_scene
from vision.reader import Reader


def run(photos: int = 20, threads: int | None = None) -> dict[str, dict[str, float]]:
    reader = Reader(threads=threads)
    images = [
        render(sample_scene(SPLITS["test"] + 900_000 + k, n_tiles=40, size=(1280, 960))).image for k in range(photos)
    ]
    reader.read(images[0])  # warm up
    stages: dict[str, list[float]] = {}
    for image in images:
        for stage, ms in reader.read(image).timing_ms.items():
            stages.setdefault(stage, []).append(ms)
    return {
        stage: {"p50": float(np.percentile(v, 50)), "p95": float(np.percentile(v, 95))} for stage, v in stages.items()
    }


def main(photos: int = 20) -> None:
    figures = run(photos)
    print(f"reader on {photos} studio photos, 1280x960, 40-tile boards (milliseconds):")
    for stage, values in figures.items():
        print(f"  {stage:9s} p50 {values['p50']:7.1f}   p95 {values['p95']:7.1f}")
