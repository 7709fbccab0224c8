"""Focus: how blurred a photo's tiles are, so that a reading can tell a player to focus the camera.

Blur loses the seams between small tiles and the strokes of their numbers: the 40 test pairs
rendered 1.5 pixels out of focus read 30.0% of boards exactly instead of 62.5%, and neither
sharpening the photo nor a finder trained on blur wins them back (docs/decisions.md, *Noisy
photos*). A player can: by focusing the camera, or holding it still.

The measure: over each tile, its steepest edges (a high percentile of the grey's gradient) against
its contrast (the spread of its grey). A step blurred by a Gaussian of s pixels rises at most
1 / (s sqrt(2 pi)) of its height a pixel, so that ratio gives s. A sharp photo measures 0.6-0.8
pixels (the gradient filter's own spread); the studio's 40 test photos 0.6-1.2 as rendered, and
0.7-2.3 rendered 1.5 pixels out of focus at 1280 wide (less in smaller photos).
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.noise import ranked

STEEPEST_PERCENTILE = 99.5  # a tile's steepest edges: this percentile of its gradient
CONTRAST_PERCENTILES = (5, 95)  # a tile's contrast: the spread of its grey between these
LEAST_CONTRAST = 30.0  # grey levels: a tile with less (a back, a tile in shadow) shows no edge to measure
MEASURED_TILES = 16  # at most this many tiles are measured, spread over those read
# Blur (pixels) that the advice names: above this, where it is at least this share of the tiles'
# side (the classifier's crops scale with the tile, so large tiles bear more blur). On the studio's
# fresh, validation and test photos (a scratch script, true outlines, 2026-11-30) that singles out
# 54 of the 80 test pairs rendered out of focus by 1.5 and 2.5 pixels (3 of them read exactly) and
# 10 of 396 photos as rendered (blurred by the studio's widest defocus or by motion; 2 read exactly).
BLURRED_ABOVE = 1.2
BLURRED_FOR_SIDE = 0.03
# Where no tile is read, the outlines found instead are measured: backs and tiles left unread,
# whose edges (a back's bevel, a print on the cloth) are softer than numbers', so the bar is
# higher. The studio's 60 bare tables and 60 piles before the game (test split, seed 100) measure
# 0.7-1.6 there (1.95 over one 103-pixel outline, under the share of its side); its 40 test photos
# rendered 2.5 pixels out of focus read no tile in 10, of which 5 show outlines: 1.4, 2.0-2.4.
BLURRED_ABOVE_UNREAD = 1.8


def blur_over(image: np.ndarray, outlines: np.ndarray) -> float | None:
    """The blur of a BGR photo over the tiles outlined by (N, 3, 2) ``outlines`` (photo pixels),
    as the deviation (pixels) of a Gaussian that blurs a sharp step as much: the median over the
    tiles. None: no tile with contrast enough to tell."""
    outlines = np.asarray(outlines, np.float64).reshape(-1, 3, 2)
    if len(outlines) > MEASURED_TILES:
        outlines = outlines[np.linspace(0, len(outlines) - 1, MEASURED_TILES).round().astype(int)]
    height, width = image.shape[:2]
    ratios = []
    for outline in outlines:
        left, top = np.clip(np.floor(outline.min(0)).astype(int), 0, [width, height])
        right, bottom = np.clip(np.ceil(outline.max(0)).astype(int) + 1, 0, [width, height])
        if right - left < 8 or bottom - top < 8:
            continue
        grey = cv2.cvtColor(image[top:bottom, left:right], cv2.COLOR_BGR2GRAY)
        low, high = ranked(grey, np.array(CONTRAST_PERCENTILES) / 100 * grey.size)
        if high - low < LEAST_CONTRAST:
            continue
        # Sobel over 8: the grey's rise a pixel.
        slope = np.hypot(cv2.Sobel(grey, cv2.CV_32F, 1, 0), cv2.Sobel(grey, cv2.CV_32F, 0, 1)).ravel() / 8
        steepest = int(STEEPEST_PERCENTILE / 100 * (slope.size - 1))
        ratios.append(np.partition(slope, steepest)[steepest] / np.float64(high - low))  # in float64
    if not ratios:
        return None
    return float(1 / (np.sqrt(2 * np.pi) * np.median(ratios)))


def out_of_focus(blur: float | None, tile_side: float, above: float = BLURRED_ABOVE) -> bool:
    """Whether a photo of this ``blur`` (``blur_over``) is too blurred for its tiles, ``tile_side``
    pixels a side, to read well: a blur over ``above`` pixels (``BLURRED_ABOVE_UNREAD`` where it
    was measured over outlines no number was read on) and a share of the side."""
    return blur is not None and tile_side > 0 and blur > above and blur > BLURRED_FOR_SIDE * tile_side
