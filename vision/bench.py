"""Reader speed: milliseconds per 1280x960 photo of a 40-tile board, per stage and in total, read
alone and as a live game reads it (its board known but for the tile just added, and its last
frame that showed that board); and as a live game reads the same views with 1.5 times the pixels
(1920x1440), as a camera asked for 1920-wide pictures gives them (service/play.py, CAMERA_SIZE)."""

from __future__ import annotations

import numpy as np

from datasets.make import SPLITS
from datasets.studio import render, sample_scene, with_more_pixels
from engine.board import Board
from vision.reader import Reader

MORE_PIXELS = 1.5
LARGER = f"board known, {MORE_PIXELS} times the pixels"


def run(photos: int = 20, threads: int | None = None) -> dict[str, dict[str, dict[str, float]]]:
    """Per way of reading ("alone", "board known", and the latter with 1.5 times the pixels), per
    stage, p50 and p95 milliseconds, and the photos the stage ran on (some run only where a photo
    calls for them)."""
    reader = Reader(threads=threads)
    scenes = [sample_scene(SPLITS["test"] + 900_000 + k, n_tiles=40, size=(1280, 960)) for k in range(photos)]
    larger = [with_more_pixels(scene, MORE_PIXELS) for scene in scenes]
    images, larger_images = ([render(scene).image for scene in views] for views in (scenes, larger))
    last_frames, larger_last_frames = (
        [render(scene, board_tiles=len(scene.board) - 1, frame=1).image for scene in views]
        for views in (scenes, larger)
    )
    reader.read(images[0])  # warm up
    timings: dict[str, dict[str, list[float]]] = {"alone": {}, "board known": {}, LARGER: {}}
    for k, scene in enumerate(scenes):
        before = Board(scene.board.placements[:-1])
        ways = [
            ("alone", images[k], None, None),
            ("board known", images[k], before, last_frames[k]),
            (LARGER, larger_images[k], before, larger_last_frames[k]),
        ]
        for way, photo, known, earlier in ways:
            for stage, ms in reader.read(photo, known=known, previous_image=earlier).timing_ms.items():
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
    print(f"the same views with {MORE_PIXELS} times the pixels (1920x1440: a camera asked for 1920 wide), read so:")
    for stage in ("find", "classify", "decode", "total"):
        values = figures[LARGER][stage]
        print(f"  {stage:9s} p50 {values['p50']:7.1f}   p95 {values['p95']:7.1f}")
