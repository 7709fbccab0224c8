"""Training pairs for the tile finder: studio photos at the finder's working scale, and the
target map of tile cores (each tile's top face shrunk toward its centre, so that touching tiles
stay apart). No torch here: the studio and the reader share it."""

from __future__ import annotations

import cv2
import numpy as np

from datasets.make import SPLITS, RenderJob
from datasets.studio import render, sample_scene

CORE_SCALE = 0.6  # a core is the face shrunk to 60% about its centre
READ_LONG_SIDE = 960  # the reader shows the finder photos at this long side (at most)
TRAIN_LONG_SIDES = (480, 1100)  # training photos vary in size, so tiles vary from about 8 to 110 px
VALIDATION_SEEDS = SPLITS["val"] + 500_000  # the finder's validation photos: the first ...
CORE_GROWTH_PHOTOS = 40  # ... measure core_growth in training, the next ones `benchmark finder`


def working_scale(width: int, height: int, long_side: int = READ_LONG_SIDE) -> float:
    return min(1.0, long_side / max(width, height))


def training_long_side(seed: int) -> int:
    """Each training photo's working size, spread evenly over TRAIN_LONG_SIDES by its seed."""
    low, high = TRAIN_LONG_SIDES
    return low + (seed * 7919) % (high - low + 1)


def core_map(triangles: np.ndarray, shape: tuple[int, int], scale: float) -> np.ndarray:
    """uint8 map of shape ``shape`` with 1 on every tile core; ``triangles`` in full-size pixels."""
    target = np.zeros(shape, np.uint8)
    for tri in np.asarray(triangles, np.float64).reshape(-1, 3, 2):
        centre = tri.mean(0)
        core = (centre + (tri - centre) * CORE_SCALE) * scale
        cv2.fillConvexPoly(target, np.round(core * 16).astype(np.int32), 1, cv2.LINE_8, 4)
    return target


def finder_sample(job: RenderJob) -> tuple[np.ndarray, np.ndarray]:
    """One studio photo at working scale (BGR uint8) and its core map."""
    rendered = render(sample_scene(job.seed, list(job.styles) if job.styles else None, job.n_tiles))
    height, width = rendered.image.shape[:2]
    scale = working_scale(width, height, training_long_side(job.seed))
    size = (round(width * scale), round(height * scale))
    image = cv2.resize(rendered.image, size, interpolation=cv2.INTER_AREA)
    triangles = [[[c["x"], c["y"]] for c in t["corners"]] for t in rendered.truth["tiles"]]
    triangles += [t["corners"] for t in rendered.truth["face_down"]]
    return image, core_map(np.array(triangles).reshape(-1, 3, 2), (size[1], size[0]), scale)
