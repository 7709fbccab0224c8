"""Sensor noise: measured in each photo, and smoothed away before reading where it is far above
what the networks learnt from.

The studio's photos carry a little noise (its sensor noise, then JPEG), and both networks learnt
from them; a webcam in a dim room raises its gain and shows far more. The 40 test pairs with
Gaussian noise of 12 levels added read 32.5% of boards exactly instead of 62.5%, the finder taking
specks of noise for tiles and missing real ones (docs/decisions.md, *Noisy photos*). An
edge-preserving smoothing (a bilateral filter) brings back much of that (45.0%), but it blurs the
numbers of a clean photo, so it is applied only where the measured noise is clearly above the
studio's.
"""

from __future__ import annotations

import cv2
import numpy as np

NOISE_WINDOW = 384  # the noise is measured in a window this large in the middle of the photo (pixels)
# Noise above this (grey levels, ``noise_level``) is smoothed before reading: the studio's photos
# measure at most 4.3 (its validation, test and fresh sets, and the second renderer's but one at
# 5.7, 2026-11-30), the 40 test views with Gaussian noise of 6 levels added after their JPEG 3.3-7.4,
# of 12 levels 9.6-14.5 (the studio's own noise, 0-6 levels, lies before its JPEG, which smooths it).
NOISY_ABOVE = 4.5
SMOOTHING_DIAMETER = 5  # pixels the bilateral filter averages over (larger: much slower)
SMOOTHING_SPACE = 3.0  # its spatial sigma, pixels
# Its colour sigma, this many times the measured noise, within these bounds: pixels differing by
# much more than the noise (a number's stroke against its face) are not averaged together.
SMOOTHING_PER_NOISE = 4.7
SMOOTHING_LEVELS = (40.0, 100.0)
SECOND_DIFFERENCES = np.array([[1, -2, 1], [-2, 4, -2], [1, -2, 1]], np.float32)  # blind to any plane of grey
# In white noise the flatter half of the pixels differ less than the rest: over it the estimate
# comes out this share of the noise (0.665-0.677 for noise of 3-20 levels, a scratch measurement).
FLAT_HALF_SHARE = 0.67


def noise_level(image: np.ndarray) -> float:
    """The sensor noise of a BGR photo, as the standard deviation of white noise in grey levels:
    Immerkær's estimate (the mean absolute second difference, which a smooth picture leaves near
    zero) over the flatter half of a window in the middle of the photo, so that edges and the
    tiles' numbers do not count as noise (``FLAT_HALF_SHARE`` corrects for the half chosen)."""
    height, width = image.shape[:2]
    top, left = max(0, (height - NOISE_WINDOW) // 2), max(0, (width - NOISE_WINDOW) // 2)
    grey = cv2.cvtColor(image[top : top + NOISE_WINDOW, left : left + NOISE_WINDOW], cv2.COLOR_BGR2GRAY)
    inner = (slice(1, -1), slice(1, -1))  # the border's differences see the filter's padding
    residual = np.abs(cv2.filter2D(grey, cv2.CV_16S, SECOND_DIFFERENCES)[inner])
    slope = cv2.add(
        cv2.convertScaleAbs(cv2.Sobel(grey, cv2.CV_16S, 1, 0)), cv2.convertScaleAbs(cv2.Sobel(grey, cv2.CV_16S, 0, 1))
    )[inner]
    if not slope.size:
        return 0.0
    median = ranked(slope, slope.size // 2)
    return float(np.sqrt(np.pi / 2) * residual[slope <= median].mean() / 6 / FLAT_HALF_SHARE)


def ranked(values: np.ndarray, ranks: float | np.ndarray) -> np.ndarray:
    """The value at each of ``ranks`` among uint8 ``values`` in ascending order (the smallest value
    that at least that many of them do not exceed), from their histogram: far quicker than sorting."""
    return np.searchsorted(np.cumsum(np.bincount(values.ravel(), minlength=256)), ranks)


def smoothing_for(noise: float) -> float | None:
    """The bilateral filter's colour sigma for a photo of this noise; None: left as it is."""
    if noise <= NOISY_ABOVE:
        return None
    return float(np.clip(SMOOTHING_PER_NOISE * noise, *SMOOTHING_LEVELS))


def smoothed(image: np.ndarray, levels: float | None) -> np.ndarray:
    """The photo with its noise smoothed by a bilateral filter of colour sigma ``levels`` (None:
    the photo itself)."""
    if levels is None:
        return image
    return cv2.bilateralFilter(image, SMOOTHING_DIAMETER, levels, SMOOTHING_SPACE)
