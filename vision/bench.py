"""Reader speed: milliseconds per 1280x960 photo of a 40-tile board, per stage and in total, read
alone and as a live game reads it (its board known but for the tile just added, and its last
frame that showed that board)."""

from __future__ import annotations

import numpy as np

from datasets.make import SPLITS
from datasets.studio import render, sample_scene
from engine.board import Board
from vision.reader import Reader


def run(photos: int = 20, threads: int | None = None) -> dict[str, dict[str, dict[str, float]]]:
    """Per way of reading ("alone", "board known"), per stage, p50 and p95 milliseconds, and
    the photos the stage ran on (some run only where a photo calls for them)."""
    reader = Reader(threads=threads)
    scenes = [sample_scene(SPLITS["test"] + 900_000 + k, n_tiles=40, size=(1280, 960)) for k in range(photos)]
    images = [render(scene).image for scene in scenes]
    last_frames = [render(scene, board_tiles=len(scene.board) - 1, frame=1).image for scene in scenes]
    reader.read(images[0])  # warm up
    timings: dict[str, dict[str, list[float]]] = {"alone": {}, "board known": {}}
    for scene, image, last_frame in zip(scenes, images, last_frames):
        before = Board(scene.board.placements[:-1])
        for way, known, earlier in (("alone", None, None), ("board known", before, last_frame)):
            for stage, ms in reader.read(image, known=known, previous_image=earlier).timing_ms.items():
                timings[way].setdefault(stage, []).append(ms)
    return {
        way: {
            stage: {"p50": float(np.percentile(ms, 50)), "p95": float(np.percentile(ms, 95)), "photos": len(ms)}
            for stage, ms in by_stage.items()
        }
        for way, by_stage in timings.items()
    }


def main(photos: int = 20) -> None:
    figures = run(photos)
    print(f"reader on {photos} studio photos, 1280x960, 40-tile boards (milliseconds):")
    for stage, values in figures["alone"].items():
        some = f"   ({values['photos']} of the {photos} photos)" if values["photos"] < photos else ""
        print(f"  {stage:9s} p50 {values['p50']:7.1f}   p95 {values['p95']:7.1f}{some}")
    print("as a live game reads them (the board known but for the last tile, and the frame before it):")
    for stage in ("decode", "validate", "total"):
        values = figures["board known"][stage]
        print(f"  {stage:9s} p50 {values['p50']:7.1f}   p95 {values['p95']:7.1f}")
