"""A pip set's bare zeros: a wooden set shows its 0 as a corner with no pips, which the classifier
often reads as "no number" (a blank back, a crop off the tile). The decoder spreads "no number"
over every number, as on an unreadable corner, so such a tile reads unsurely: a loose one goes
unread, and a board tile's 0 that no neighbour shares is flagged. Where the board shows that the
set's zeros are bare (``zeros_show_bare``), such a tile (``unsure_for_bare_corners``) is read
again with its bare corners as 0s (``bare_read_as_zero``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from models.classes import NO_NUMBER
from vision.decode import UNSURE_BELOW, numbers_read_surely
from vision.records import ReadTile, on_the_board

BARE_ZEROS_SHOWN = 2  # the board's corners decoded 0 that read "no number", for the set's zeros to show bare
BARE_AT_LEAST = 0.95  # a corner reads bare where 0 and "no number" together are this sure


def unsure_for_bare_corners(tiles: Sequence[ReadTile], probabilities: np.ndarray) -> np.ndarray:
    """(N,) tiles read with a number flagged unsure whose (N, 3, 8) corners each read either one
    number surely or bare (0 or "no number"), at least one of them bare and not surely a number
    and one a mark: a pip tile whose bare 0 the classifier took for "no number"."""
    sure = numbers_read_surely(probabilities)
    bare = probabilities[:, :, 0] + probabilities[:, :, NO_NUMBER] >= BARE_AT_LEAST
    marked = probabilities[:, :, 1:NO_NUMBER].max(2) >= UNSURE_BELOW
    unsure = np.array([t.ambiguous for t in tiles], bool)
    return unsure & (sure | bare).all(1) & (bare & ~sure).any(1) & marked.any(1)


def zeros_show_bare(tiles: Sequence[ReadTile], probabilities: np.ndarray) -> bool:
    """Whether the set's zeros show as bare corners (a pip set's): the board's corners that decode
    to 0, settled by their neighbours, read "no number" more surely than 0 ``BARE_ZEROS_SHOWN``
    times or more. A printed 0 reads as 0, and "no number" there is a hand or glare."""
    on_board = on_the_board(tiles)
    zeros = np.array([t.numbers for t in tiles]).reshape(-1, 3) == 0
    bare = probabilities[:, :, NO_NUMBER] > probabilities[:, :, 0]
    return int((zeros & bare)[on_board].sum()) >= BARE_ZEROS_SHOWN


def bare_read_as_zero(probabilities: np.ndarray, which: np.ndarray) -> np.ndarray:
    """The (N, 3, 8) probabilities with "no number" read as 0 at the tiles of the (N,) mask ``which``."""
    probabilities = probabilities.copy()
    probabilities[which, :, 0] += probabilities[which, :, NO_NUMBER]
    probabilities[which, :, NO_NUMBER] = 0
    return probabilities
