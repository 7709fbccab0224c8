"""Light: how dark a photo is, so that a dark photo that reads poorly can tell a player why.

A camera short of light gives photos whose brightest parts are a few grey levels, and those lose
tiles: copies of the 120 fresh pairs of seed 1760 scaled to a quarter of their brightness read
73.8% of their tiles, to an eighth 46.5% (docs/decisions.md, *Dark photos brightened*). Brightening
them before reading did not pay, as the studio's own dark photos, which the networks learnt from,
read worse brightened. So a dark photo is read as it comes, and only where it reads no tile, or
reads its numbers unsurely, does the reading say that it is dark: a player can light the table.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.noise import ranked

BRIGHTEST_SHARE = 0.99  # a photo's brightest parts: the grey below which this share of its pixels lie
# Brightest parts (grey levels) darker than this are named. Of the studio's 960 validation and
# fresh test photos (2026-11-30), 8 measure under it (19-43), and all but one found every tile
# (fresh 2001818, at 19, finds none; 2001557, at 27, finds its 8). Copies of the 120 fresh pairs
# of seed 1760 scaled to a quarter of their brightness measure 5-64 and read nothing in 6 (at
# 5-44); to an eighth, 2-31, nothing in 40. The sample photo at a twenty-fifth reads its 24 tiles
# at 9.
DARK_BELOW = 45
SAMPLE_STEP = 4  # every fourth pixel of every fourth row is enough to rank the grey


def brightest_level(image: np.ndarray) -> float:
    """The grey level (0-255) of a BGR photo's brightest parts (``BRIGHTEST_SHARE``)."""
    grey = cv2.cvtColor(np.ascontiguousarray(image[::SAMPLE_STEP, ::SAMPLE_STEP]), cv2.COLOR_BGR2GRAY)
    return float(ranked(grey, BRIGHTEST_SHARE * grey.size))


def dark(level: float) -> bool:
    """Whether a photo whose brightest parts are at ``level`` is too dark to read well."""
    return level < DARK_BELOW
