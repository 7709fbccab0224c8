"""One look at a photo: what the finder found and the classifier read there, before validation.

The reader takes several looks at some photos (shrunk further for a close-up, enlarged for small
tiles, from straight above for a slanted board) and keeps the best (``best_look``); a ``Sight``
holds one look, and the figures that weigh it and say how surely it was read.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from models.classes import NO_NUMBER
from vision.find import ZOOM_TO_SIDE
from vision.lattice import LatticeFit
from vision.mirror import way_round
from vision.records import ReadTile

# A photo whose corners the classifier reads less surely than this on the whole (the mean of its
# best number's probability) has every number flagged: decoded, they are right far less than 90%.
HARD_TO_READ_BELOW = 0.7
# Tiles read larger than this (pixels at the working size) are looked at again from twice as far,
# where they still show at least the side the finder's closer look brings small tiles to.
FARTHER_ABOVE_SIDE = 2 * ZOOM_TO_SIDE
FAR_TILE_SIDE = 32.0  # tiles read that the finder saw smaller than this (pixels) are looked for again, shown larger


@dataclass(frozen=True)
class Sight:
    """What one look at a photo found and read, before validation."""

    working_size: int  # the long side the photo was shrunk to for finding tiles
    tiles: tuple[ReadTile, ...]
    face_down: tuple[np.ndarray, ...]
    unread: tuple[np.ndarray, ...]
    lone_blank: bool  # a loose tile shows no mark (the 0-0-0 tile, or a pip tile's back)
    max_number: int
    tile_side: float  # the median side of the tiles read, in pixels of the photo as shrunk (0: none)
    fit: LatticeFit  # the lattice fitted to the outlines this look read
    outlines: np.ndarray  # the finder's outlines this look read (photo pixels)
    knows_the_board: bool = False  # a known board was matched to the tiles read and expected there
    scale: float = 1.0  # the photo as shrunk for this look, over the photo
    # The classifier's (N, 3, 8) probabilities at the corners of the tiles read.
    probabilities: np.ndarray = field(default_factory=lambda: np.zeros((0, 3, NO_NUMBER + 1)))
    greyed: bool = False  # the corners were read with their colour taken away (``vision.reader.read_colour_or_grey``)
    from_above: bool = False  # the board was looked at from straight above (``vision.reader.Reader._from_above``)
    pattern: int = 0  # triangles found, too many for a game's tiles, so none read (``vision.reader.MOST_TILES``)

    @cached_property
    def read_surely(self) -> float:
        """How surely the classifier read the corners of the tiles read (the function ``read_surely`` below)."""
        return read_surely(self.probabilities)

    @cached_property
    def way_round(self) -> int:
        """The tiles read surely clockwise less those read surely anticlockwise (``vision.mirror``),
        asked of the look chosen only."""
        return way_round(self.probabilities)

    @property
    def photo_tile_side(self) -> float:
        """The median side of the tiles read, in pixels of the photo itself (0: none)."""
        return self.tile_side / self.scale

    @property
    def too_close(self) -> bool:
        """Whether the tiles may be too large for the finder at this size: the tiles read are
        large enough to show well from twice as far (outlines of large tiles the finder draws
        short, so the tiles read come out smaller than they are), or it left as many outlines
        unread as it read tiles (parts of large tiles, numbers and pips, taken for tiles).
        Backs do not count: a pile of them beside a small board is the start of every game."""
        fragmented = len(self.unread) >= max(1, len(self.tiles))
        return fragmented or self.tile_side > FARTHER_ABOVE_SIDE

    @property
    def seen_at_ease(self) -> bool:
        """Whether the tiles read show at the size the finder outlines best: not below
        ``FAR_TILE_SIDE`` (small tiles it finds poorly) nor above ``FARTHER_ABOVE_SIDE`` (large
        tiles it outlines roughly)."""
        return not small_for_the_finder(self.tile_side) and self.tile_side <= FARTHER_ABOVE_SIDE

    @property
    def hard_to_read(self) -> bool:
        """Whether the classifier read this look's corners too unsurely to trust any (a note
        then says so once, instead of one note a corner)."""
        return too_unsure(self.read_surely)

    @property
    def found(self) -> tuple[int, int]:
        """How much this look found, to compare looks: tiles joined on the board, then all read."""
        return sum(t.cell is not None for t in self.tiles), len(self.tiles)


def small_for_the_finder(side: float) -> bool:
    """Whether tiles of this side (pixels as the finder sees them) are smaller than it finds well
    (``FAR_TILE_SIDE``): a look showing them so is taken again, enlarged."""
    return side < FAR_TILE_SIDE


def too_unsure(surely: float) -> bool:
    """Whether corners read this surely on the whole (``read_surely``) are too unsure to trust
    any (``HARD_TO_READ_BELOW``)."""
    return surely < HARD_TO_READ_BELOW


def read_surely(probabilities: np.ndarray) -> float:
    """How surely the classifier read a photo's face-up corners, (N, 3, 8) probabilities: the
    mean probability of each corner's likeliest number, "no number" left out (1 where no tile
    is read). Where it is low (blur, glare, tiles a few pixels large), the game's constraints
    still choose a board that holds together, but often a consistent misreading whose numbers
    each look certain: on studio photos, the numbers decoded in photos below
    ``HARD_TO_READ_BELOW`` were right 31-92% of the time (86% between 0.6 and 0.7), against
    91-99.9% above it (``docs/decisions.md``)."""
    if not len(probabilities):
        return 1.0
    numbers = probabilities[:, :, :NO_NUMBER]
    return float((numbers.max(2) / np.maximum(numbers.sum(2), 1e-12)).mean())


def best_look(sights: Sequence[Sight]) -> Sight:
    """The look that joins the most tiles into the board, then reads the most; on a tie, one
    that shows the tiles at the size the finder outlines best (``seen_at_ease``: a corner cut
    from a rough outline of a large tile can be misread), then the first."""
    return max(sights, key=lambda s: (s.found, s.seen_at_ease))
