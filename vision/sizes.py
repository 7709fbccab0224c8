"""How large a tile shows where it lies in a photo. Every tile of a set is one size on the table,
so the board's plane (or, without a board large enough to show it, the tiles read) tells which
outlines could be tiles to read, and which could be backs or unread tiles beside them."""

from __future__ import annotations

import numpy as np

from vision.find import edge_lengths
from vision.lattice import LatticeFit

SIZE_TOLERANCE = 2.0  # a tile away from the board may look this much smaller or larger than expected
AS_LARGE_AS_THE_BOARDS = 1.25  # ... and one within this factor of the board's median tile is one, whatever the plane
SIZING_BOARD = 6  # joined tiles needed before the board's plane sizes the other tiles
SIZING_READ_TILES = 2  # else, tiles read needed before their size sizes backs and unread outlines
SIZED_AMONG_THEMSELVES = 3  # else, backs (or unread outlines) needed before the size most share sizes them
BACK_SIZE_TOLERANCE = 1.5  # a back or unread outline may look this much smaller or larger than expected


def sized_like_the_board(outlines: np.ndarray, fit: LatticeFit) -> np.ndarray:
    """Which outlines could be tiles: all tiles of a set are one size on the table, so away from
    the board an outline far smaller or larger than a tile would be there (table patterns,
    cups, racks) is dropped. One about the size of the board's own tiles stays whatever the
    plane says: fitted to a small board, the plane can run wild a few board widths away.
    Without a board large enough to show its plane, every outline stays."""
    expected = board_sides(outlines, fit)
    if expected is None:
        return np.ones(len(outlines), bool)
    board_side = np.median(edge_lengths(outlines[fit.on_board]).mean(1))
    return (
        fit.on_board
        | about_the_size(outlines, expected, SIZE_TOLERANCE)
        | about_the_size(outlines, board_side, AS_LARGE_AS_THE_BOARDS)
    )


def back_sized(outlines: np.ndarray, fit: LatticeFit) -> np.ndarray:
    """Of the outlines the board's plane finds the wrong size to read, those the size of a back
    there (``back_sides``, before any tile is read): a back they may be, when no corner shows a
    number."""
    expected = back_sides(outlines, fit, np.zeros((0, 3, 2))) if len(outlines) else None
    if expected is None:
        return outlines[:0]
    return outlines[about_the_size(outlines, expected, BACK_SIZE_TOLERANCE)]


def back_sides(outlines: np.ndarray, fit: LatticeFit, read: np.ndarray) -> np.ndarray | float | None:
    """The side a back or an unread tile would show where each outline lies: the board's plane's
    (``board_sides``) where the board can show it, no smaller than the board's smallest tile nor
    larger than its largest; else the median side of the tiles ``read`` (two or more); else None.
    The plane's change of scale is fitted to a few rough corners, and far from the board it can
    run wild either way (test views as phone photos: backs 128-148 pixels a side put at 196-273,
    in another 89-120 at 54-84). The bound serves these outlines, which nothing is read from, not
    the outlines to read: there it admitted the numbers' fragments beside a steep board, read as
    extra tiles."""
    sides = board_sides(outlines, fit)
    if sides is not None:
        board = edge_lengths(fit.corners[fit.on_board]).mean(1)
        return np.clip(sides, board.min(), board.max())
    if len(read) >= SIZING_READ_TILES:
        return float(np.median(edge_lengths(read).mean(1)))
    return None


def commonest_side(outlines: np.ndarray) -> float:
    """The side most of the outlines share: the median side of the largest group within
    ``BACK_SIZE_TOLERANCE`` of one of them. With no tile read to go by (a pile of backs before the
    game, an empty table), the backs go by each other: a pile's backs are one size, the prints
    of a cloth cut into triangles mostly are not, even where they outnumber the pile (a median
    of them all would then be theirs)."""
    sides = edge_lengths(outlines).mean(1)
    alike = np.abs(np.log(sides[:, None] / sides[None])) < np.log(BACK_SIZE_TOLERANCE)
    return float(np.median(sides[alike[int(np.argmax(alike.sum(1)))]]))


def board_sides(outlines: np.ndarray, fit: LatticeFit) -> np.ndarray | None:
    """The side a tile would show where each outline lies, by the board's plane; None without
    a board large enough to show it."""
    return fit.sides_at(outlines.mean(1)) if shows_its_plane(fit) else None


def shows_its_plane(fit: LatticeFit) -> bool:
    """Whether the board is large enough (``SIZING_BOARD``) for its plane to size the tiles."""
    return fit.on_board.sum() >= SIZING_BOARD


def about_the_size(outlines: np.ndarray, expected: np.ndarray | float, tolerance: float) -> np.ndarray:
    """Which outlines' mean side lies within ``tolerance`` (a factor) of the ``expected`` side."""
    ratio = edge_lengths(outlines).mean(1) / expected
    return (ratio > 1 / tolerance) & (ratio < tolerance)
