"""Every legal (tile, cell, rotation) a hand can play on a board."""

from __future__ import annotations

from collections.abc import Iterable

from engine.board import Board, PlacedTile
from engine.lattice import Cell, Point, cell_corners
from engine.tiles import Tile, rotations

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
