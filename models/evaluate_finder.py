"""The tile finder's own figures (``triominoes benchmark finder``): how many of the tiles in studio
photos it never trained on it outlines, and how many whole, by tile side and set, face up and
down. The reader's figures (``triominoes evaluate``) mix the finder with
every later stage; these are the ones to compare two finders by.

A tile counts as found where an outline's centre lies within 0.3 of a side of the tile's own
centre, and found whole where that outline's mean side is also 0.8-1.25 of the tile's. Tiles
partly hidden (under a hand) are left out.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np

from datasets.make import RenderJob, run_jobs, through_jpeg
from datasets.studio import render
from models.finder_data import CORE_GROWTH_PHOTOS, VALIDATION_SEEDS
from vision.evaluate import MATCHED_WITHIN, partly_hidden, tile_corners
from vision.find import TileFinder, edge_lengths

FIRST_SEED = VALIDATION_SEEDS + CORE_GROWTH_PHOTOS  # after the photos that measure core_growth in training
WHOLE = (0.8, 1.25)  # its mean side within these shares of the tile's
# Finer than the classifier's bins (models.metrics.SIDE_BINS): the finder loses tiles under 25 px.
SIDES = {"under 25 px": (0, 25), "25-35 px": (25, 35), "35-60 px": (35, 60), "60 px and more": (60, np.inf)}


def finder_photo(job: RenderJob) -> tuple[np.ndarray, np.ndarray, np.ndarray, str]:
    """One photo as the reader gets it (after JPEG), the triangles of its face-up and face-down
    tiles not partly hidden, and its set's style."""
    scene = job.scene()
    rendered = render(scene)
    face_up, face_down = (
        np.array([tile_corners(t) for t in tiles if not partly_hidden(t)]).reshape(-1, 3, 2)
        for tiles in (rendered.truth["tiles"], rendered.truth["face_down"])
    )
    return through_jpeg(rendered.image, scene.options["jpeg"]), face_up, face_down, scene.style.name


def _centres_apart(tiles: np.ndarray, outlines: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(T, N) how far each outline's centre lies from each tile's, and whether within
    ``MATCHED_WITHIN`` of that tile's side."""
    distance = np.linalg.norm(tiles.mean(1)[:, None] - outlines.mean(1)[None], axis=2)
    return distance, distance < MATCHED_WITHIN * edge_lengths(tiles).mean(1)[:, None]


def match(tiles: np.ndarray, outlines: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For each of (T, 3, 2) true triangles, whether an outline of (N, 3, 2) found it, and whether
    whole; the outline nearest each tile's centre is the one judged."""
    if not len(tiles) or not len(outlines):
        return np.zeros(len(tiles), bool), np.zeros(len(tiles), bool)
    distance, near = _centres_apart(tiles, outlines)
    nearest = distance.argmin(1)
    found = near[np.arange(len(tiles)), nearest]
    ratio = edge_lengths(outlines).mean(1)[nearest] / edge_lengths(tiles).mean(1)
    return found, found & (ratio > WHOLE[0]) & (ratio < WHOLE[1])


def on_a_tile(outlines: np.ndarray, tiles: np.ndarray) -> np.ndarray:
    """Whether each outline's centre lies within ``MATCHED_WITHIN`` of a side of some tile's (any tile, hidden
    or face down): outlines that are not are specks of table, prints or parts of a hand."""
    return _centres_apart(tiles, outlines)[1].any(0)


def evaluate(model: str | Path, images: int, report: Callable | None = None, warmth: float = 0.0) -> dict:
    finder = TileFinder(model)  # first: a missing model fails before the photos are rendered
    jobs = [RenderJob(FIRST_SEED + k, warmth=warmth) for k in range(images)]
    photos = run_jobs(finder_photo, jobs)
    counts: dict[str, np.ndarray] = {}  # group -> [tiles, found, whole]
    outlines_on_tiles, outlines = 0, 0
    for photo, face_up, face_down, style in report(photos, len(jobs), "photos") if report else photos:
        found_outlines = finder.find(photo)
        outlines += len(found_outlines)
        outlines_on_tiles += int(on_a_tile(found_outlines, np.concatenate([face_up, face_down])).sum())
        sides = edge_lengths(face_up).mean(1)
        found, whole = match(face_up, found_outlines)
        groups = {"all": np.ones(len(face_up), bool), style: np.ones(len(face_up), bool)}
        groups |= {name: (sides >= low) & (sides < high) for name, (low, high) in SIDES.items()}
        for name, members in groups.items():
            tally = counts.setdefault(name, np.zeros(3, int))
            tally += [members.sum(), (found & members).sum(), (whole & members).sum()]
        found, whole = match(face_down, found_outlines)
        counts.setdefault("face down", np.zeros(3, int))
        counts["face down"] += [len(face_down), found.sum(), whole.sum()]
    return {"counts": counts, "outlines": outlines, "outlines_on_tiles": outlines_on_tiles}


def _share(tally: np.ndarray) -> str:
    tiles, found, whole = tally
    return f"{found / tiles:.1%} / {whole / tiles:.1%} ({tiles})" if tiles else "-"


def main(model: str | Path, images: int, report: Callable | None = None, warmth: float = 0.0) -> None:
    figures = evaluate(model, images, report, warmth)
    counts = figures["counts"]
    light = f", light the camera did not balance (warmth {warmth:+g})" if warmth else ""
    print(f"tile finder on {images} validation photos never trained on{light}")
    print(f"face-up tiles found / found whole: {_share(counts['all'])}")
    print("by tile side: " + ", ".join(f"{name} {_share(counts[name])}" for name in SIDES if name in counts))
    styles = [name for name in counts if name not in ("all", "face down", *SIDES)]
    print("by set: " + ", ".join(f"{name} {_share(counts[name])}" for name in sorted(styles)))
    print(f"face down: {_share(counts['face down'])}")
    if figures["outlines"]:
        print(f"outlines on a tile: {figures['outlines_on_tiles'] / figures['outlines']:.1%} of {figures['outlines']}")
