"""Studio speed: photos per second at 1280x960, one process and all cores."""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path

from datasets.make import RenderJob, make_image, run_jobs


def run(seconds: float = 20.0) -> dict[str, float]:
    figures = {}
    with tempfile.TemporaryDirectory() as folder:
        for workers in sorted({1, os.cpu_count() or 1}):
            start, done, seed = time.perf_counter(), 0, 2_900_000
            while time.perf_counter() - start < seconds / 2:
                jobs = [RenderJob(seed + k, size=(1280, 960)) for k in range(workers * 4)]
                done += sum(1 for _ in run_jobs(make_image, jobs, Path(folder), workers=workers))
                seed += len(jobs)
            figures[f"images_per_second_{workers}_workers"] = done / (time.perf_counter() - start)
    return figures


def main(seconds: float = 20.0) -> None:
    for name, value in run(seconds).items():
        workers = name.split("_")[3]
        print(f"studio photos at 1280x960 with {workers} worker(s): {value:.1f} per second")
