"""Upright crops of tile corners: the classifier's input.

For each corner the crop is cut by the affine map that sends the tile's three corners to a
canonical equilateral triangle standing on that corner. The number there (whose top points to the
tile's centre) then reads upright, at one size, whatever the tile's turn, size or foreshortening.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

CROP_PX = 32
SIDE_IN_CROP = 64.0  # a tile side in crop pixels: the crop spans half a side
NUMBER_ALONG = 0.48  # the crop centre, as a fraction of the way from corner to tile centre

_RISE = SIDE_IN_CROP * math.sqrt(3) / 2
_TIP = np.array([CROP_PX / 2, CROP_PX / 2 + NUMBER_ALONG * SIDE_IN_CROP / math.sqrt(3)], np.float32)
# Corner, then the next two clockwise: standing on its tip, the other corners are top-left, top-right.
CANONICAL = np.stack([_TIP, _TIP + (-SIDE_IN_CROP / 2, -_RISE), _TIP + (SIDE_IN_CROP / 2, -_RISE)]).astype(np.float32)


def to_grey(image: np.ndarray) -> np.ndarray:
    if image.ndim == 2:
        return image
    return cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)


def corner_crops(image: np.ndarray, triangles: np.ndarray) -> np.ndarray:
    """One ``CROP_PX`` square grey crop per corner: (N, 3, 2) clockwise pixel corners ->
    (N * 3, CROP_PX, CROP_PX) uint8, corner ``3 * t + i`` for corner ``i`` of tile ``t``."""
    triangles = np.asarray(triangles, np.float32).reshape(-1, 3, 2)
    grey = to_grey(image)
    crops = np.empty((len(triangles) * 3, CROP_PX, CROP_PX), np.uint8)
    for t, corners in enumerate(triangles):
        for i in range(3):
            source = np.roll(corners, -i, axis=0)  # this corner first, then the next clockwise
            M = cv2.getAffineTransform(source, CANONICAL)
            crops[3 * t + i] = cv2.warpAffine(
                grey, M, (CROP_PX, CROP_PX), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
            )
    return crops
