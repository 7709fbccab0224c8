"""Finding tiles: the finder network marks tile cores; each core becomes a triangle.

A core is a tile's top face shrunk toward its centre (``CORE_SCALE``), so tiles that touch in a
joined board still give separate cores. The smallest triangle around a core, grown back about its
centre, is the tile's outline.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import onnxruntime as ort
from skimage.measure import find_contours

from models.finder_data import CORE_SCALE, working_scale

DEFAULT_FINDER = Path(__file__).resolve().parent.parent / "models" / "finder.onnx"
MIN_CORE_PX = 6  # cores smaller than this (working-scale pixels) are noise


class TileFinder:
    """Loads the finder model once; ``find`` returns (N, 3, 2) clockwise outlines in pixels."""

    def __init__(self, path: str | Path = DEFAULT_FINDER, threads: int | None = None) -> None:
        path = Path(path)
        if not path.is_file():
            raise FileNotFoundError(f"no finder model at {path} (train one with 'triominoes train-finder')")
        options = ort.SessionOptions()
        options.log_severity_level = 3
        if threads:
            options.intra_op_num_threads = threads
        self.session = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])

    def core_probability(self, image: np.ndarray) -> tuple[np.ndarray, float]:
        """The core probability map at working scale, and that scale."""
        height, width = image.shape[:2]
        scale = working_scale(width, height)
        size = (max(8, round(width * scale)), max(8, round(height * scale)))
        small = cv2.resize(image, size, interpolation=cv2.INTER_AREA)
        pad_h, pad_w = -size[1] % 8, -size[0] % 8
        small = np.pad(small, ((0, pad_h), (0, pad_w), (0, 0)), mode="edge")
        (core,) = self.session.run(None, {"image": small.transpose(2, 0, 1)[None]})
        return core[0, 0, : size[1], : size[0]], scale

    def find(self, image: np.ndarray, threshold: float = 0.5) -> np.ndarray:
        core, scale = self.core_probability(image)
        return outlines_from_cores(core > threshold, scale)


def outlines_from_cores(cores: np.ndarray, scale: float) -> np.ndarray:
    """One clockwise triangle (full-size pixels) per connected core of a core map: boolean, or
    probabilities, whose 0.5 level line then gives the core's outline to a fraction of a pixel."""
    level = cores.astype(np.float32)
    count, labels, stats, _ = cv2.connectedComponentsWithStats((level > 0.5).astype(np.uint8), connectivity=8)
    outlines = []
    for i in range(1, count):
        if stats[i, cv2.CC_STAT_AREA] < MIN_CORE_PX:
            continue
        x, y, w, h = stats[i, :4]
        window = np.pad(np.where(labels[y : y + h, x : x + w] == i, level[y : y + h, x : x + w], 0), 1)
        line = max(find_contours(window, 0.5), key=len)[:, ::-1] + (x - 1, y - 1)
        triangle = fit_triangle(line)
        centre = triangle.mean(0)
        outlines.append(clockwise((centre + (triangle - centre) / CORE_SCALE) / scale))
    return np.array(outlines, np.float64).reshape(-1, 3, 2)


def fit_triangle(outline: np.ndarray) -> np.ndarray:
    """The triangle whose sides best follow a closed outline: the smallest enclosing triangle
    says which outline points belong to which side; a line is fitted to the middle of each side's
    points; neighbouring lines meet at the corners. (The smallest enclosing triangle alone can lean
    away from a rounded or ragged outline.)"""
    _, first = cv2.minEnclosingTriangle(cv2.convexHull(outline.astype(np.float32)))
    corners = first.reshape(3, 2).astype(np.float64)
    lines = []
    for i in range(3):
        a, b = corners[i], corners[(i + 1) % 3]
        length2 = float(np.dot(b - a, b - a)) or 1.0
        along = (outline - a) @ (b - a) / length2
        normal = np.array([-(b - a)[1], (b - a)[0]]) / np.sqrt(length2)
        near = outline[(along > 0.2) & (along < 0.8) & (np.abs((outline - a) @ normal) < 0.2 * np.sqrt(length2))]
        if len(near) < 3:
            return corners
        vx, vy, x, y = cv2.fitLine(near.astype(np.float32), cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
        lines.append((np.array([x, y], np.float64), np.array([vx, vy], np.float64)))
    fitted = []
    for i in range(3):  # corner i+1 joins side i and side i+1
        (p, u), (q, v) = lines[i], lines[(i + 1) % 3]
        matrix = np.column_stack([u, -v])
        if abs(np.linalg.det(matrix)) < 1e-6:
            return corners
        t = np.linalg.solve(matrix, q - p)
        fitted.append(p + t[0] * u)
    return np.roll(np.array(fitted), 1, axis=0)


def clockwise(triangle: np.ndarray) -> np.ndarray:
    """The corners ordered clockwise as seen (y pointing down)."""
    (ax, ay), (bx, by), (cx, cy) = triangle
    return triangle if (bx - ax) * (cy - ay) - (by - ay) * (cx - ax) > 0 else triangle[::-1].copy()
