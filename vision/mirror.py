"""Photos seen in a mirror: a selfie camera's, or a webcam's set to mirror its picture.

In such a photo every tile's numbers run anticlockwise, so no tile reads as a set tile: the
decoder still finds the likeliest set tiles, and the board comes out wrong without a word. The
game itself tells the two apart: a set tile's three numbers never decrease clockwise, so a tile
of three different numbers, read surely, shows which way round the photo is (a tile with two
equal numbers reads alike either way). Pips read alike in a mirror, so a pip set's tiles all
read surely anticlockwise; printed numbers, mirrored, read poorly, but some still do.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from engine.tiles import LARGE_MAX, rotations, tile_set
from vision.decode import numbers_read_surely
from vision.records import Reading

# A tile votes for the way round it reads likelier by this much (log of the ratio of the two
# readings' probabilities: e^2, about 7 to 1); closer tiles do not vote.
SURE_WAY_ROUND = 2.0
# A photo in which no more than this share of its tiles read surely clockwise (net) is checked:
# its tiles' corners are read mirrored (studio photos as they are show a quarter to a third).
CHECKED_UP_TO = 1 / 8
# A mirror image reads better where at least this many of its tiles read surely clockwise (net),
# and more than in the photo as it is.
UNMIRRORED_FROM = 2
# Or, its tiles reading no less surely clockwise there, where this share of its corners more read
# a number surely there (``share_read_surely``): a printed number mirrored is a shape the classifier
# never learnt. Tiles with two equal numbers, such as a round's first two, cannot show the way
# round, but their numbers can. Of the validation split's photos checked, as rendered, at most
# 0.17 more; pips read alike both ways.
MORE_READ_SURELY = 0.5
MIRRORED_ADVICE = (
    "the photo is a mirror image (its tiles' numbers run anticlockwise), so it was read flipped back:"
    " turn off the camera's mirroring"
)
_CLOCKWISE = np.array([rotation for tile in tile_set(LARGE_MAX) for rotation in rotations(tile.numbers)])
_ANTICLOCKWISE = _CLOCKWISE[:, ::-1]


def way_round(probabilities: np.ndarray) -> int:
    """(N, 3, 8) probabilities of face-up tiles' corners, clockwise as seen -> the tiles read
    surely as set tiles clockwise, less those read surely as set tiles anticlockwise (below zero:
    the photo looks mirrored)."""
    if not len(probabilities):
        return 0
    logs = np.log(np.clip(probabilities, 1e-6, 1.0))

    def likeliest(orders: np.ndarray) -> np.ndarray:
        return (logs[:, 0, orders[:, 0]] + logs[:, 1, orders[:, 1]] + logs[:, 2, orders[:, 2]]).max(1)

    ratio = likeliest(_CLOCKWISE) - likeliest(_ANTICLOCKWISE)
    return int((ratio > SURE_WAY_ROUND).sum() - (ratio < -SURE_WAY_ROUND).sum())


def may_be_mirrored(turned: int, tiles: int) -> bool:
    """Whether a photo whose ``tiles`` read ``turned`` (``way_round``) may be a mirror image."""
    return tiles > 0 and turned <= CHECKED_UP_TO * tiles


def share_read_surely(probabilities: np.ndarray) -> float:
    """The share of (N, 3, 8) corners that read a number surely, by the decoder's own bar
    (``vision.decode.numbers_read_surely``)."""
    if not probabilities.size:
        return 0.0
    return float(numbers_read_surely(probabilities).mean())


def reads_better(turned_in_a_mirror: int, turned: int, more_read_surely: float = 0.0) -> bool:
    """Whether the tiles of a photo read the right way round in its mirror image: ``way_round``
    there and as read, and the share of the same corners more read surely there
    (``share_read_surely`` there less as read)."""
    if turned_in_a_mirror >= max(UNMIRRORED_FROM, turned + 1):
        return True
    return turned_in_a_mirror >= turned and more_read_surely >= MORE_READ_SURELY


def mirrored(reading: Reading) -> Reading:
    """The reading with every pixel position mirrored left to right in its photo (a reading of
    the mirrored photo in the photo's own pixels, and back: mirrored twice, a reading is as it
    was). Each corner keeps its number, so a tile's numbers stay clockwise as the table has
    them, and its corners follow them: anticlockwise as the mirrored photo shows them."""

    def flip(corners: np.ndarray) -> np.ndarray:
        flipped = np.array(corners, np.float64)
        flipped[..., 0] = reading.width - 1 - flipped[..., 0]
        return flipped

    return replace(
        reading,
        tiles=tuple(replace(t, corners=flip(t.corners)) for t in reading.tiles),
        face_down=tuple(flip(c) for c in reading.face_down),
        unread=tuple(flip(c) for c in reading.unread),
    )
