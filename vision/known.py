"""A live game's board in a photo: where the tiles the game knows lie in this photo's lattice.

A live game knows every tile placed, in its own lattice frame; each photo's reading picks a frame
of its own (``vision.lattice``). The known board is put in the photo's frame by the corners'
probabilities (``known_placed``) or, failing that, by the tiles decoded (``known_matched``); the
decoder then expects its tiles there (``vision.decode``). A known tile the lattice left loose (cut
off by an arm, or a missed tile between) is put back in its cell (``placed_as_known``).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from engine.board import Board
from engine.lattice import Cell, LatticeMap, cell_corners, edge_neighbours, point_xy
from engine.tiles import canonical, rotations
from vision.added import frame_map
from vision.decode import place_known
from vision.find import edge_lengths
from vision.lattice import LatticeFit, first_corner
from vision.records import ReadTile, inside_a_board_tile, joined_board

KNOWN_AGREEING = 3  # tiles read as a known board has them, in its place, that show it is the board in the photo
KNOWN_OFF_SHARE = 0.25  # ... while, besides the new tile, at most this share of the tiles read lie off it
KNOWN_LOOSE_WITHIN = 1.5  # a loose tile read as a known one joins its cell when centred this close to it (sides) ...
GLUED_MISFIT = 0.3  # ... and a loose tile whose corners lie this close (sides) to a cell beside it joins too


@dataclass(frozen=True)
class KnownBoard:
    """A live game's board as told to the reader, with the cells placed from an unsure reading
    (their numbers only hints)."""

    board: Board
    provisional: frozenset[Cell] = frozenset()

    @functools.cached_property
    def sure(self) -> Board:
        """The tiles placed from a sure reading: they set the board's frame in a photo."""
        return self.board.without(self.provisional)


KnownHere = tuple[dict[Cell, tuple[int, int, int]], dict[Cell, tuple[int, int, int]]]  # sure tiles, hints


def known_placed(known: KnownBoard | None, probabilities: np.ndarray, cells: Sequence[Cell | None]) -> KnownHere:
    """The known board's tiles in this photo's lattice frame, the sure ones (expected) apart
    from the provisional ones (hints), where the corners' probabilities place it
    (``place_known``: ``probabilities`` and ``cells`` of the face-up tiles, before decoding).
    This needs no decoding first, which a live game, reading every still frame with its board
    known, would otherwise pay twice; and it holds where small tiles are misread all over a
    board that is there. Empty where no place wins clearly (``known_matched`` then), or where
    that place leaves many tiles read off the board (``_known_in``)."""
    if known is None or not len(known.sure):
        return {}, {}
    placed = place_known([(p.cell, p.corners) for p in known.sure.placements], probabilities, cells)
    return _known_in(known, placed[0], cells) if placed else ({}, {})


def known_matched(known: KnownBoard | None, tiles: Sequence[ReadTile], cells: Sequence[Cell | None]) -> KnownHere:
    """``known_placed``, by the frame map of the tiles decoded instead (each photo picks its
    own frame), which needs ``KNOWN_AGREEING`` sure tiles (or all of them in cells read here)
    read the same: one tile of the set shared by chance sets a frame for any board."""
    if known is None or not len(known.sure):
        return {}, {}
    read = joined_board(tiles)
    mapping = frame_map(known.sure, read)
    if mapping is None:
        return {}, {}
    sure, hints = _known_in(known, mapping, cells)
    both = [cell for cell in sure if cell in read]
    agreeing = sum(sure[cell] == read.by_cell[cell].corners for cell in both)
    return (sure, hints) if sure and agreeing >= min(KNOWN_AGREEING, len(both)) else ({}, {})


def _known_in(known: KnownBoard, mapping: LatticeMap, cells: Sequence[Cell | None]) -> KnownHere:
    """The known board's sure tiles and provisional ones (hints) in the frame ``mapping`` sends
    it to; empty when many of the tiles read here (``cells``) lie off the board, provisional
    tiles included, in that frame: a game adds one tile at a time, so such a frame was set by
    misread tiles that happen to be known ones elsewhere."""
    mapped = {p.cell: mapping.corners(p.cell, p.corners) for p in known.board.placements}
    here = dict(mapped.values())
    on_board = [cell for cell in cells if cell is not None]
    if sum(cell not in here for cell in on_board) > 1 + len(on_board) * KNOWN_OFF_SHARE:
        return {}, {}
    sure = dict(there for cell, there in mapped.items() if cell not in known.provisional)
    return sure, {cell: numbers for cell, numbers in here.items() if cell not in sure}


def placed_as_known(
    tiles: Sequence[ReadTile], expected: dict[Cell, tuple[int, int, int]], fit: LatticeFit
) -> dict[int, tuple[Cell, int]]:
    """Loose tiles that are tiles of the known board, and the loose tiles glued beside those,
    with their cells and which of their corners is each cell's first.

    Every tile of a set is unique, so a loose tile read surely as a known one is that tile,
    lying where the game placed it; the lattice left it loose because it was cut off from the
    rest (an arm over the board, a missed tile between) or its outline came out rough; not one
    centred inside a board tile, a second outline of that tile (``vision.loose.beside_the_board``). It joins
    that cell when the cell is free in this reading, the board's plane puts it within
    ``KNOWN_LOOSE_WITHIN`` sides of the tile (a misread tile that happens to read as a known one
    lies elsewhere) and the tiles read beside that cell show its numbers at the corners they
    share; of its turns that show the known numbers in cell order, the one whose corners lie
    nearest the cell's. A tile cut off with known ones is often the one a player just added:
    ``_glued_beside`` places it by theirs."""
    if fit.homography is None or all(t.cell is not None for t in tiles):
        return {}
    where_known = {canonical(numbers): (cell, numbers) for cell, numbers in expected.items()}
    board = [t for t in tiles if t.cell is not None]
    taken = {t.cell for t in board}
    shown = {p: n for t in board for p, n in zip(cell_corners(t.cell), t.numbers)}
    centres = np.array([t.corners.mean(0) for t in tiles])
    free = np.array([t.cell is None for t in tiles]) & ~inside_a_board_tile(tiles)
    placed: dict[int, tuple[Cell, int]] = {}
    for k, tile in enumerate(tiles):
        if not free[k] or tile.ambiguous or not tile.in_set:
            continue
        cell, numbers = where_known.get(canonical(tile.numbers), (None, None))
        if cell is None or cell in taken:
            continue
        if any(shown.get(p, n) != n for p, n in zip(cell_corners(cell), numbers)):
            continue  # the board read here shows other numbers at the cell's corners
        there = fit.triangles([cell])[0]
        if np.linalg.norm(there.mean(0) - centres[k]) > KNOWN_LOOSE_WITHIN * fit.side_px:
            continue
        turns = [f for f, turned in enumerate(rotations(tile.numbers)) if turned == tuple(numbers)]
        placed[k] = (cell, first_corner(tile.corners, there, turns)[0])
        taken.add(cell)
    loose = [k for k in np.flatnonzero(free) if k not in placed]
    return {**placed, **_glued_beside(tiles, placed, loose, taken)}


def _glued_beside(
    tiles: Sequence[ReadTile], placed: dict[int, tuple[Cell, int]], loose: list[int], taken: set[Cell]
) -> dict[int, tuple[Cell, int]]:
    """Of the ``loose`` tiles, those lying in a free cell beside one of the ``placed`` ones:
    each placed tile's corners map its cell's lattice points into the photo, and so the cells
    beside it (locally, as the plane of the whole board may be off beyond an arm); a loose tile
    whose corners all lie within ``GLUED_MISFIT`` of its side from one such cell's is glued
    there. Returns their cells and first corners."""
    glued: dict[int, tuple[Cell, int]] = {}
    taken = set(taken)
    for k, (cell, first) in placed.items():
        corners = np.roll(tiles[k].corners, -first, axis=0).astype(np.float32)
        lattice = np.array([point_xy(p) for p in cell_corners(cell)], np.float32)
        to_photo = cv2.getAffineTransform(lattice, corners)
        side = float(edge_lengths(corners[None]).mean())
        for beside in edge_neighbours(cell):
            if beside in taken:
                continue
            there = cv2.transform(np.array([[point_xy(p) for p in cell_corners(beside)]], np.float32), to_photo)[0]
            for j in loose:
                if j in glued:
                    continue
                first_there, misfit = first_corner(tiles[j].corners, there)
                if misfit < GLUED_MISFIT * side:
                    glued[j] = (beside, first_there)
                    taken.add(beside)
                    break
    return glued


def any_tile_added(known: Board, tiles: Sequence[ReadTile]) -> bool:
    """Whether the tiles read show a tile that a game's ``known`` board lacks, in a cell it
    leaves empty (put in the photo's frame by the tiles both show): a tile read again where the
    board has it already is a misread, not one added."""
    board = joined_board(tiles)
    mapping = frame_map(known, board)
    if mapping is None:
        return False
    there = {mapping.cell(placed.cell) for placed in known.placements}
    return any(p.cell not in there and p.tile not in known.by_tile for p in board.placements)
