"""Loose tiles: which tiles not joined to the board are reported, and how.

A board tile has neighbours that check its numbers, and the lattice vouches that it is a tile.
A loose tile has neither: what the finder outlines away from the board may be a triangle printed
on the cloth, a back whose grain reads as numbers, or a second outline of a board tile. So a
loose tile must earn its place: lie beside the board, not inside one of its tiles; show a face
the colour of the board's; and be read surely, or it is reported as an unread outline instead
of a tile with guessed numbers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from vision.backs import faced_like_the_board
from vision.records import ReadTile, inside_a_board_tile, on_the_board, outlines_of

READ_LOOSE_AT_LEAST = 0.5  # a loose tile whose least sure number is read less surely than this is unread
BOARD_AT_LEAST = 2  # tiles joined in the lattice that make a board; fewer are read as loose tiles


def beside_the_board(tiles: Sequence[ReadTile]) -> np.ndarray:
    """(N,) whether each tile read is one: not a loose one centred inside a board tile, a
    fragment of it found twice over (tiles lie side by side, not on top of each other), whose
    reading is no tile's."""
    on_board = on_the_board(tiles)
    return on_board if on_board.all() else on_board | ~inside_a_board_tile(tiles)


def loose_faced_like_the_board(tiles: Sequence[ReadTile], image: np.ndarray) -> np.ndarray:
    """(N,) whether each tile read is one: not a loose one whose face is not the colour of the
    board's (``vision.backs.faced_like_the_board``), a print on the table read as a tile."""
    on_board = on_the_board(tiles)
    if on_board.all():
        return on_board
    outlines = outlines_of(tiles)
    kept = on_board.copy()
    kept[~on_board] = faced_like_the_board(outlines[~on_board], outlines[on_board], image)
    return kept


def alone_read_loose(tiles: list[ReadTile]) -> list[ReadTile]:
    """The tiles read, with a board of fewer than ``BOARD_AT_LEAST`` tiles read as loose ones. A
    tile left alone in the lattice, once the outlines joined with it were set apart as backs or
    holes, has no neighbour to check its numbers, and a tile lying alone is read as a loose one
    anyway (an outline that joins no other gets no cell). In a pile before the game such a tile
    is mostly a back whose grain or print read as numbers; loose, it meets the bar for reporting
    loose tiles (``numbers_reported``)."""
    if sum(t.cell is not None for t in tiles) >= BOARD_AT_LEAST:
        return tiles
    return [replace(t, cell=None) for t in tiles]


def numbers_reported(tile: ReadTile) -> bool:
    """Whether a tile is reported with its numbers. A board tile always is: the lattice vouches
    that it is a tile, and its neighbours check its numbers. A loose tile read unsurely is more
    often no tile at all (a triangle printed on the cloth, a back with a grain, a fragment of a
    tile already found) or one too small to read than a tile read right, so it is reported as
    an unread outline instead of a tile with guessed numbers."""
    return tile.cell is not None or tile.confidence >= READ_LOOSE_AT_LEAST
