"""Upright colour crops of tile corners: the classifier's input.

For each corner the crop is cut by the affine map that sends the tile's three corners to a
canonical equilateral triangle standing on that corner. The number there (whose top points to the
tile's centre) then reads upright, at one size, whatever the tile's turn, size or foreshortening.
Per-tile work elsewhere (colours, changes between photos) cuts small windows (``windows_around``).
"""

from __future__ import annotations

import math

import cv2
import numpy as np

CROP_PX = 32
SIDE_IN_CROP = 2.0 * CROP_PX  # a tile side in crop pixels: the crop spans half a side
NUMBER_ALONG = 0.48  # the crop centre, as a fraction of the way from corner to tile centre

_RISE = SIDE_IN_CROP * math.sqrt(3) / 2
_TIP = np.array([CROP_PX / 2, CROP_PX / 2 + NUMBER_ALONG * SIDE_IN_CROP / math.sqrt(3)], np.float32)
# Corner, then the next two clockwise: standing on its tip, the other corners are top-left, top-right.
CANONICAL = np.stack([_TIP, _TIP + (-SIDE_IN_CROP / 2, -_RISE), _TIP + (SIDE_IN_CROP / 2, -_RISE)]).astype(np.float32)


def to_colour(image: np.ndarray) -> np.ndarray:
    """BGR pixels of a colour or grey photo."""
    if image.ndim == 2:
        return cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    return image


def to_grey(image: np.ndarray) -> np.ndarray:
    """Grey pixels of a colour or grey photo."""
    if image.ndim == 3:
        return cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    return image


def corner_crops(image: np.ndarray, triangles: np.ndarray) -> np.ndarray:
    """One ``CROP_PX`` square BGR crop per corner: (N, 3, 2) clockwise pixel corners ->
    (N * 3, 3, CROP_PX, CROP_PX) uint8, channels first, corner ``3 * t + i`` for corner ``i`` of
    tile ``t``. Colour is kept: a wooden set's pips are told apart by colour as much as by count."""
    triangles = np.asarray(triangles, np.float64).reshape(-1, 3, 2)
    # Corner i of each tile first, then the next two clockwise: (N * 3, 3, 2).
    sources = triangles[:, (np.arange(3)[:, None] + np.arange(3)) % 3].reshape(-1, 3, 2)
    # The affine maps sending each source triangle onto CANONICAL, all solved at once:
    # [x y 1] @ M.T = canonical, for the three corners.
    homogeneous = np.concatenate([sources, np.ones((len(sources), 3, 1))], axis=2)
    # A triangle with no area (corners at one point or on a line) maps onto no crop: its crops
    # are blank, one pixel of the photo throughout, which reads as no number.
    collapsed = np.abs(np.linalg.det(homogeneous)) < 1e-9
    homogeneous[collapsed] = np.eye(3)
    maps = np.linalg.solve(homogeneous, np.broadcast_to(CANONICAL, sources.shape)).transpose(0, 2, 1)
    maps[collapsed] = 0.0
    colour = to_colour(image)
    crops = np.empty((len(sources), CROP_PX, CROP_PX, 3), np.uint8)
    for k, M in enumerate(maps):
        crops[k] = cv2.warpAffine(
            colour, M, (CROP_PX, CROP_PX), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
        )
    return crops.transpose(0, 3, 1, 2)


def greyed(crops: np.ndarray) -> np.ndarray:
    """The crops with their colour taken away (each pixel the mean of its three channels, as
    training greys some of its crops, rounded), still three channels."""
    mean = (crops.sum(1, dtype=np.uint16) + 1) // 3
    return np.repeat(mean.astype(np.uint8)[:, None], 3, axis=1)


def windows_around(polygons: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """(N, 4) windows of a photo of ``shape`` that hold each of (N, K, 2) polygons, clipped to
    the photo: left, top, right, bottom. Small windows keep per-tile work off the whole photo."""
    height, width = shape[:2]
    low = np.clip(np.floor(polygons.min(1)).astype(int), 0, [width, height])
    high = np.clip(np.ceil(polygons.max(1)).astype(int) + 1, 0, [width, height])
    return np.concatenate([low, high], 1)
