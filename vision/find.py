"""Finding tiles: the finder network marks tile cores; each core becomes a triangle.

A core is a tile's top face shrunk toward its centre (``CORE_SCALE``), so tiles that touch in a
joined board still give separate cores. The smallest triangle around a core, grown back about its
centre, is the tile's outline.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from models.finder_data import CORE_SCALE, READ_LONG_SIDE, working_scale
from models.runtime import open_model

DEFAULT_FINDER = Path(__file__).resolve().parent.parent / "models" / "finder.onnx"
MIN_CORE_PX = 6  # cores smaller than this (working-scale pixels) are noise
SURE_CORE = 0.95  # probability that marks a core's centre, splitting cores that blur together
SPLIT_ABOVE = 1.6  # a core region this many typical cores large holds several tiles


class TileFinder:
    """Loads the finder model once; ``find`` returns (N, 3, 2) clockwise outlines in pixels."""

    def __init__(
        self, path: str | Path = DEFAULT_FINDER, threads: int | None = None, working_size: int = READ_LONG_SIDE
    ) -> None:
        self.session = open_model(path, "finder", "triominoes train-finder", threads)
        self.working_size = working_size  # photos are shrunk to this long side (more: slower, finds smaller tiles)
        # How much larger than the true cores the network draws them, measured at training time.
        metadata = self.session.get_modelmeta().custom_metadata_map
        self.core_growth = float(metadata.get("core_growth", 1.0))

    def core_probability(self, image: np.ndarray) -> tuple[np.ndarray, float]:
        """The core probability map at working scale, and that scale."""
        height, width = image.shape[:2]
        scale = working_scale(width, height, self.working_size)
        size = (max(8, round(width * scale)), max(8, round(height * scale)))
        small = cv2.resize(image, size, interpolation=cv2.INTER_AREA)
        pad_h, pad_w = -size[1] % 8, -size[0] % 8
        small = np.pad(small, ((0, pad_h), (0, pad_w), (0, 0)), mode="edge")
        (core,) = self.session.run(None, {"image": small.transpose(2, 0, 1)[None]})
        return core[0, 0, : size[1], : size[0]], scale

    def find(self, image: np.ndarray) -> np.ndarray:
        core, scale = self.core_probability(image)
        return outlines_from_cores(core, scale, self.core_growth)


def outlines_from_cores(cores: np.ndarray, scale: float, core_growth: float = 1.0) -> np.ndarray:
    """One clockwise triangle (full-size pixels) per tile core of a core map (boolean, or
    probabilities); ``core_growth`` is how much too large the map draws cores."""
    probability = cores.astype(np.float32)
    left, top, width, height = cv2.boundingRect((probability > 0.5).astype(np.uint8))  # work where cores are
    if width == 0:
        return np.zeros((0, 3, 2))
    regions = core_regions(probability[top : top + height, left : left + width])
    ys, xs = np.nonzero(regions)
    labels = regions[ys, xs]
    order = np.argsort(labels, kind="stable")
    points = np.column_stack([xs + left, ys + top])[order].astype(np.float64)
    outlines = []
    for pixels in np.split(points, np.cumsum(np.bincount(labels))[:-1]):
        if len(pixels) < MIN_CORE_PX:
            continue
        core = triangle_from_moments(pixels)
        if core is not None:
            centre = core.mean(0)
            outlines.append(clockwise((centre + (core - centre) / (CORE_SCALE * core_growth)) / scale))
    return np.array(outlines, np.float64).reshape(-1, 3, 2)


def core_regions(probability: np.ndarray) -> np.ndarray:
    """Label image with one label per tile core.

    On small tiles the network's cores of neighbouring tiles blur into each other over the thin
    gap between them (bow ties, or four tiles as one big triangle), so a connected region above
    one half can hold several tiles. Each tile keeps a sure centre above ``SURE_CORE`` though.
    A region is split only when it holds several sure centres and is clearly larger than a
    typical core (``SPLIT_ABOVE`` times the median area per sure centre): on dim or ragged tiles
    one tile can show several sure patches, and those stay one. Split pixels join the nearest
    sure centre.
    """
    core = (probability > 0.5).astype(np.uint8)
    count, regions, stats, _ = cv2.connectedComponentsWithStats(core, connectivity=8)
    sure = (probability > SURE_CORE).astype(np.uint8)
    centres, centre_labels = cv2.connectedComponents(sure, connectivity=8)
    region_of_centre = np.zeros(centres, np.int64)  # each sure centre lies inside one region
    sure_pixels = np.flatnonzero(sure)
    region_of_centre[centre_labels.flat[sure_pixels]] = regions.flat[sure_pixels]
    per_region = np.bincount(region_of_centre[1:], minlength=count)
    areas = stats[:, cv2.CC_STAT_AREA]
    seeded = np.nonzero(per_region[1:])[0] + 1
    if not len(seeded):
        return regions
    typical = np.median(areas[seeded] / per_region[seeded])
    next_label = count
    for region in seeded[(per_region[seeded] > 1) & (areas[seeded] > SPLIT_ABOVE * typical)]:
        x, y, w, h = stats[region, :4]
        window = regions[y : y + h, x : x + w]
        inside = window == region
        seeds = (sure[y : y + h, x : x + w] > 0) & inside
        _, nearest = cv2.distanceTransformWithLabels(
            (~seeds).astype(np.uint8), cv2.DIST_L2, 3, labelType=cv2.DIST_LABEL_CCOMP
        )
        window[inside] = nearest[inside] + next_label
        next_label += int(nearest[inside].max()) + 1
    return regions


def triangle_from_moments(points: np.ndarray) -> np.ndarray | None:
    """The triangle with the same centre, spread and three-fold turn as a filled region.

    A filled triangle is an affine image of an equilateral one: whitening the region's pixels
    (dividing out their covariance) makes it equilateral, with circumradius sqrt(8) for unit
    covariance; the phase of the third-order moment then points at its corners. Moments suit the
    rounded, blurred cores a network draws better than fitting sharp corners does.
    """
    centre = points.mean(0)
    offsets = points - centre
    covariance = offsets.T @ offsets / len(points)
    values, vectors = np.linalg.eigh(covariance)
    if values.min() <= 1e-6:
        return None
    root = vectors @ np.diag(np.sqrt(values)) @ vectors.T
    white = offsets @ np.linalg.inv(root).T
    z = white[:, 0] + 1j * white[:, 1]
    third = np.sum(z**3)
    if abs(third) < 1e-9 * len(points):
        return None
    turn = np.angle(third) / 3 + np.array([0, 2 * np.pi / 3, 4 * np.pi / 3])
    corners = np.sqrt(8) * np.column_stack([np.cos(turn), np.sin(turn)])
    return centre + corners @ root.T


def clockwise(triangle: np.ndarray) -> np.ndarray:
    """The corners ordered clockwise as seen (y pointing down)."""
    (ax, ay), (bx, by), (cx, cy) = triangle
    return triangle if (bx - ax) * (cy - ay) - (by - ay) * (cx - ax) > 0 else triangle[::-1].copy()
