"""Every legal (tile, cell, rotation) a hand can play on a board."""

from __future__ import annotations

from collections.abc import Iterable

from engine.board import Board, PlacedTile
from engine.lattice import Cell, Point, cell_corners
from engine.tiles import Tile, rotations, tile_set

_CONFLICT = -1  # a point where touching tiles already disagree: nothing can be played there


def point_numbers(board: Board) -> dict[Point, int]:
    """The number every tile shows at each occupied lattice point."""
    numbers: dict[Point, int] = {}
    for placed in board.placements:
        for point, number in placed.points():
            if numbers.setdefault(point, number) != number:
                numbers[point] = _CONFLICT
    return numbers


def legal_moves(board: Board, hand: Iterable[Tile], opening_cell: Cell = (0, 0)) -> list[PlacedTile]:
    """Placements of hand tiles that break no rule. On an empty board each tile has one move,
    at ``opening_cell``: the first tile's rotation and place do not matter."""
    hand = [t for t in dict.fromkeys(hand) if t not in board.by_tile]
    if not len(board):
        return [PlacedTile(opening_cell, t.numbers) for t in hand]
    numbers = point_numbers(board)
    readings = {r: None for t in hand for r in rotations(t.numbers)}  # distinct, in hand order
    moves = []
    for cell in sorted(board.frontier()):
        a, b, c = (numbers.get(p) for p in cell_corners(cell))
        for reading in readings:
            if (a is None or a == reading[0]) and (b is None or b == reading[1]) and (c is None or c == reading[2]):
                moves.append(PlacedTile(cell, reading))
    return moves


def fitting_tiles(board: Board, cell: Cell, max_number: int) -> list[PlacedTile]:
    """Every tile of the set that the rest of ``board`` (any tile in ``cell`` taken away) allows
    in ``cell``, turned as its neighbours want: what a player may have put there, for a tile the
    camera missed or misread. None where ``cell`` touches no other tile, nor on a board with no
    other tile (any tile opens)."""
    rest = Board(placed for placed in board.placements if placed.cell != cell)
    if not len(rest):
        return []
    return [move for move in legal_moves(rest, tile_set(max_number)) if move.cell == cell]
