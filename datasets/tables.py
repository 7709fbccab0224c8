"""Table surfaces, drawn in the table plane so that perspective foreshortens them like the tiles.

Each maker takes a random generator, a texture size in pixels and the millimetres one pixel
covers, and returns a BGR uint8 texture. Scale-dependent details (grain, checks, weave) are sized
in millimetres so they look the same at every camera distance.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import cv2
import numpy as np

Maker = Callable[[np.random.Generator, int, float], np.ndarray]


def _smooth_noise(rng: np.random.Generator, size: int, cells: int) -> np.ndarray:
    """Low-frequency noise in -1..1: random values on a coarse grid, upsampled smoothly."""
    coarse = rng.uniform(-1, 1, (cells + 1, cells + 1)).astype(np.float32)
    return cv2.resize(coarse, (size, size), interpolation=cv2.INTER_CUBIC)


def _colour(rng: np.random.Generator, low: tuple, high: tuple) -> np.ndarray:
    return np.array([rng.uniform(a, b) for a, b in zip(low, high)], np.float32)


def wood(rng: np.random.Generator, size: int, mm_per_px: float) -> np.ndarray:
    ys, xs = np.mgrid[0:size, 0:size].astype(np.float32) * mm_per_px
    angle = rng.uniform(0, math.pi)
    u = xs * math.cos(angle) + ys * math.sin(angle)
    v = -xs * math.sin(angle) + ys * math.cos(angle)
    warp = _smooth_noise(rng, size, 6) * rng.uniform(5, 25)
    rings = np.sin((v + warp) * 2 * math.pi / rng.uniform(4, 14)) * 0.5 + 0.5
    fine = _smooth_noise(rng, size, max(4, int(size * mm_per_px / 3))) * 0.15
    plank = rng.uniform(80, 200)
    seams = (np.abs(((u + rng.uniform(0, plank)) % plank) - plank / 2) > plank / 2 - 0.8).astype(np.float32)
    dark = rng.uniform(0, 1) < 0.3
    base = _colour(rng, (20, 40, 60), (60, 90, 120)) if dark else _colour(rng, (60, 110, 150), (120, 170, 215))
    shade = 0.75 + 0.25 * rings + fine - 0.35 * seams
    return np.clip(base * shade[..., None], 0, 255).astype(np.uint8)


def felt(rng: np.random.Generator, size: int, mm_per_px: float) -> np.ndarray:
    palette = [(40, 110, 30), (110, 60, 20), (30, 30, 120), (70, 70, 70), (25, 25, 25), (90, 40, 80)]
    base = np.array(palette[rng.integers(len(palette))], np.float32) * rng.uniform(0.7, 1.3)
    fuzz = rng.normal(0, 6, (size, size)).astype(np.float32)
    fuzz = cv2.GaussianBlur(fuzz, (0, 0), 0.8) + _smooth_noise(rng, size, 5) * 10
    return np.clip(base + fuzz[..., None], 0, 255).astype(np.uint8)


def cloth(rng: np.random.Generator, size: int, mm_per_px: float) -> np.ndarray:
    """Gingham, stripes or dots in two colours, with a fine weave."""
    ys, xs = np.mgrid[0:size, 0:size].astype(np.float32) * mm_per_px
    period = rng.uniform(8, 40)
    a, b = _colour(rng, (120, 120, 120), (255, 255, 255)), _colour(rng, (0, 0, 0), (200, 200, 200))
    kind = rng.integers(3)
    if kind == 0:
        weight = (((xs // period) % 2) + ((ys // period) % 2)) / 2
    elif kind == 1:
        weight = ((xs // period) % 2).astype(np.float32)
    else:
        cx, cy = (xs % period) - period / 2, (ys % period) - period / 2
        weight = (cx * cx + cy * cy < (period * 0.3) ** 2).astype(np.float32)
    texture = a * (1 - weight[..., None]) + b * weight[..., None]
    weave = (np.sin(xs * 2 * math.pi / 0.8) * np.sin(ys * 2 * math.pi / 0.8))[..., None] * 6
    return np.clip(texture + weave, 0, 255).astype(np.uint8)


def patterned(rng: np.random.Generator, size: int, mm_per_px: float) -> np.ndarray:
    """A busy printed tablecloth: flowers, leaves, dots and stray triangles on a colour."""
    texture = np.empty((size, size, 3), np.uint8)
    texture[:] = _colour(rng, (60, 60, 60), (250, 250, 250))
    count = int(min(4000, (size * mm_per_px / rng.uniform(15, 40)) ** 2))
    colours = [tuple(int(c) for c in _colour(rng, (0, 0, 0), (255, 255, 255))) for _ in range(4)]
    for _ in range(count):
        x, y = rng.uniform(0, size, 2)
        r = rng.uniform(2, 10) / mm_per_px
        colour = colours[rng.integers(len(colours))]
        shape = rng.integers(4)
        if shape == 0:
            cv2.circle(texture, (int(x), int(y)), max(1, int(r)), colour, -1, cv2.LINE_AA)
        elif shape == 1:
            cv2.ellipse(
                texture,
                (int(x), int(y)),
                (max(1, int(r)), max(1, int(r / 3))),
                rng.uniform(0, 180),
                0,
                360,
                colour,
                -1,
                cv2.LINE_AA,
            )
        elif shape == 2:
            turn = rng.uniform(0, 2 * math.pi)
            pts = [(x + r * math.cos(turn + k * 2.094), y + r * math.sin(turn + k * 2.094)) for k in range(3)]
            cv2.fillConvexPoly(texture, np.int32(pts), colour, cv2.LINE_AA)
        else:
            cv2.line(texture, (int(x), int(y)), (int(x + r * 2), int(y + r)), colour, max(1, int(r / 4)), cv2.LINE_AA)
    return texture


def paper(rng: np.random.Generator, size: int, mm_per_px: float) -> np.ndarray:
    base = _colour(rng, (200, 200, 200), (250, 250, 250))
    fibre = cv2.GaussianBlur(rng.normal(0, 5, (size, size)).astype(np.float32), (0, 0), 1.2)
    return np.clip(base + fibre[..., None] + _smooth_noise(rng, size, 4)[..., None] * 8, 0, 255).astype(np.uint8)


TABLES: dict[str, Maker] = {"wood": wood, "felt": felt, "cloth": cloth, "patterned": patterned, "paper": paper}
