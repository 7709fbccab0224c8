"""Placed tiles, boards, and the violations that make a placement or a board illegal."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator
from dataclasses import dataclass, field

from engine.lattice import (
    Cell,
    LatticeMap,
    Point,
    cell_corners,
    cells_around,
    edge_neighbours,
    mirror_image,
    shared_points,
)
from engine.rules import Rules
from engine.tiles import Corners, Tile, canonical, format_corners, is_in_set

VIOLATION_KINDS = (
    "corner_mismatch",
    "edge_mismatch",
    "no_edge_contact",
    "not_in_set",
    "duplicate_tile",
    "occupied",
)


@dataclass(frozen=True)
class PlacedTile:
    """A cell and the numbers on its corners, clockwise in the order of ``cell_corners``."""

    cell: Cell
    corners: Corners
    tile: Tile | None = field(init=False, compare=False, repr=False)  # None: no set holds it

    def __post_init__(self) -> None:
        cell = tuple(self.cell)
        corners = tuple(self.corners)
        if len(cell) != 2 or not all(isinstance(v, int) and not isinstance(v, bool) for v in cell):
            raise ValueError(f"a cell is two integers [col, row], got {self.cell!r}")
        if len(corners) != 3 or not all(
            isinstance(n, int) and not isinstance(n, bool) and 0 <= n <= 9 for n in corners
        ):
            raise ValueError(f"corners are three numbers 0..9, got {self.corners!r}")
        object.__setattr__(self, "cell", cell)
        object.__setattr__(self, "corners", corners)
        sorted_rotation = canonical(corners)
        object.__setattr__(self, "tile", None if sorted_rotation is None else Tile(*sorted_rotation))

    def number_at(self, point: Point) -> int:
        return self.corners[cell_corners(self.cell).index(point)]

    def points(self) -> Iterator[tuple[Point, int]]:
        return zip(cell_corners(self.cell), self.corners)

    def __str__(self) -> str:
        return f"{format_corners(self.corners)} at {list(self.cell)}"


@dataclass(frozen=True)
class Violation:
    kind: str
    cells: tuple[Cell, ...]
    message: str
    point: Point | None = None

    def __post_init__(self) -> None:
        if self.kind not in VIOLATION_KINDS:
            raise ValueError(f"unknown violation kind {self.kind!r}")

    def to_dict(self) -> dict:
        out: dict = {"kind": self.kind, "cells": [list(c) for c in self.cells], "message": self.message}
        if self.point is not None:
            out["point"] = list(self.point)
        return out


@dataclass(frozen=True)
class Board:
    """Tiles in placement order, with lookups by cell and by lattice point built once."""

    placements: tuple[PlacedTile, ...] = ()
    by_cell: dict[Cell, PlacedTile] = field(init=False, repr=False, compare=False)
    by_tile: dict[Tile, PlacedTile] = field(init=False, repr=False, compare=False)  # first of each

    def __post_init__(self) -> None:
        object.__setattr__(self, "placements", tuple(self.placements))
        by_cell: dict[Cell, PlacedTile] = {}
        for placed in self.placements:
            if placed.cell in by_cell:
                raise ValueError(f"cell {list(placed.cell)} is given twice")
            by_cell[placed.cell] = placed
        object.__setattr__(self, "by_cell", by_cell)
        by_tile: dict[Tile, PlacedTile] = {}
        for placed in self.placements:
            if placed.tile is not None:
                by_tile.setdefault(placed.tile, placed)
        object.__setattr__(self, "by_tile", by_tile)

    @classmethod
    def of(cls, tiles: Iterable[tuple[Cell, Corners]]) -> Board:
        return cls(tuple(PlacedTile(cell, corners) for cell, corners in tiles))

    def __len__(self) -> int:
        return len(self.placements)

    def __contains__(self, cell: object) -> bool:
        return cell in self.by_cell

    def with_tile(self, placed: PlacedTile) -> Board:
        return Board((*self.placements, placed))

    def without_last(self) -> Board:
        return Board(self.placements[:-1])

    def without(self, cells: Collection[Cell]) -> Board:
        """The board with the tiles in these cells taken away (the rest in their order)."""
        return Board(tuple(p for p in self.placements if p.cell not in cells))

    def moved(self, mapping: LatticeMap) -> Board:
        """The same tiles in another lattice frame (each photo, and the game, picks its own)."""
        return Board(tuple(PlacedTile(*mapping.corners(p.cell, p.corners)) for p in self.placements))

    def mirrored(self) -> Board:
        """The board as a mirror shows it (``engine.lattice.mirror_image``)."""
        return Board(tuple(PlacedTile(*mirror_image(p.cell, p.corners)) for p in self.placements))

    def touching(self, point: Point, exclude: Cell | None = None) -> list[PlacedTile]:
        """Tiles that have a corner at this lattice point."""
        return [self.by_cell[c] for c in cells_around(point) if c != exclude and c in self.by_cell]

    def edge_contacts(self, cell: Cell) -> list[PlacedTile]:
        return [self.by_cell[c] for c in edge_neighbours(cell) if c in self.by_cell]

    def frontier(self) -> set[Cell]:
        """Empty cells that share an edge with the board: where the next tile can go."""
        return {n for p in self.placements for n in edge_neighbours(p.cell) if n not in self.by_cell}


def check_placement(board: Board, placed: PlacedTile, rules: Rules) -> list[Violation]:
    """Everything that makes putting ``placed`` on ``board`` illegal (empty list: legal)."""
    violations: list[Violation] = []
    cell = placed.cell
    if not is_in_set(placed.corners, rules.max_number):
        violations.append(_not_in_set(placed, rules))
    elif placed.tile in board.by_tile:
        first = board.by_tile[placed.tile]
        violations.append(
            Violation(
                "duplicate_tile", (cell, first.cell), f"{placed.tile} is already on the board at {list(first.cell)}"
            )
        )
    if cell in board:
        violations.append(Violation("occupied", (cell,), f"cell {list(cell)} already holds {board.by_cell[cell].tile}"))
        return violations
    neighbours = board.edge_contacts(cell)
    for other in neighbours:
        violation = _pair_mismatch(placed, other)
        if violation:
            violations.append(violation)
    neighbour_cells = {n.cell for n in neighbours}
    point_contact = False
    for point, number in placed.points():
        for other in board.touching(point, exclude=cell):
            if other.cell in neighbour_cells:
                continue
            point_contact = True
            if other.number_at(point) != number:
                violations.append(_corner_mismatch(placed, other, point))
    if len(board) and not neighbours:
        how = "touches the board only at a point" if point_contact else "does not touch the board"
        violations.append(Violation("no_edge_contact", (cell,), f"{placed} {how}; it must share a full edge"))
    return violations


def validate_board(board: Board, rules: Rules) -> list[Violation]:
    """Order-free check of a whole board (as a photo shows it): every pair of touching tiles
    agrees at shared points, tiles are in the set and unique, and all tiles join by edges."""
    violations: list[Violation] = []
    seen: dict[Tile, list[Cell]] = {}
    for placed in board.placements:
        if not is_in_set(placed.corners, rules.max_number):
            violations.append(_not_in_set(placed, rules))
        else:
            seen.setdefault(placed.tile, []).append(placed.cell)
    for tile, cells in seen.items():
        if len(cells) > 1:
            where = ", ".join(str(list(c)) for c in cells)
            violations.append(Violation("duplicate_tile", tuple(cells), f"{tile} appears {len(cells)} times: {where}"))
    # Each pair of touching tiles once, in the order of the placements: only the tiles touching a
    # tile's corners can touch it, so a board of N tiles costs N small lookups, not N^2 pairs.
    index_of = {placed.cell: index for index, placed in enumerate(board.placements)}
    for index, placed in enumerate(board.placements):
        touching = {other.cell for point in cell_corners(placed.cell) for other in board.touching(point)}
        for later in sorted(index_of[cell] for cell in touching if index_of[cell] > index):
            other = board.placements[later]
            common = shared_points(placed.cell, other.cell)
            if len(common) == 2:
                violation = _pair_mismatch(placed, other)
                if violation:
                    violations.append(violation)
            elif len(common) == 1 and placed.number_at(common[0]) != other.number_at(common[0]):
                violations.append(_corner_mismatch(placed, other, common[0]))
    violations.extend(_detached(board))
    return violations


def edge_components(cells: Iterable[Cell]) -> list[list[Cell]]:
    """Groups of cells joined edge to edge, largest first (ties: the one given first)."""
    unvisited = dict.fromkeys(cells)
    components = []
    for start in list(unvisited):
        if start not in unvisited:
            continue
        del unvisited[start]
        component, stack = [start], [start]
        while stack:
            for n in edge_neighbours(stack.pop()):
                if n in unvisited:
                    del unvisited[n]
                    component.append(n)
                    stack.append(n)
        components.append(component)
    return sorted(components, key=len, reverse=True)


def _detached(board: Board) -> list[Violation]:
    components = edge_components(p.cell for p in board.placements)
    return [
        Violation("no_edge_contact", (cell,), f"{board.by_cell[cell]} is not joined to the board by a full edge")
        for component in components[1:]
        for cell in component
    ]


def _not_in_set(placed: PlacedTile, rules: Rules) -> Violation:
    return Violation(
        "not_in_set",
        (placed.cell,),
        f"{format_corners(placed.corners)} read clockwise is not a tile of the 0..{rules.max_number} set",
    )


def _pair_mismatch(placed: PlacedTile, other: PlacedTile) -> Violation | None:
    wrong = [p for p in shared_points(placed.cell, other.cell) if placed.number_at(p) != other.number_at(p)]
    if not wrong:
        return None
    ours = "-".join(str(placed.number_at(p)) for p in shared_points(placed.cell, other.cell))
    theirs = "-".join(str(other.number_at(p)) for p in shared_points(placed.cell, other.cell))
    return Violation(
        "edge_mismatch",
        (placed.cell, other.cell),
        f"edge of {placed} shows {ours} but {other} shows {theirs}",
        wrong[0],
    )


def _corner_mismatch(placed: PlacedTile, other: PlacedTile, point: Point) -> Violation:
    return Violation(
        "corner_mismatch",
        (placed.cell, other.cell),
        f"at point {list(point)} {placed} shows {placed.number_at(point)} but {other} shows {other.number_at(point)}",
        point,
    )
