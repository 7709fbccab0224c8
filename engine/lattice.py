"""The triangular lattice of RULES.md.

Screen axes (x right, y down), unit edges, row height ``sqrt(3)/2``. A cell ``(col, row)`` points
up when ``col + row`` is even. Lattice points ``(m, k)`` with ``m + k`` even sit at
``(m / 2, k * ROW_HEIGHT)``. Everything here is integer arithmetic on those labels.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

ROW_HEIGHT = math.sqrt(3) / 2

Cell = tuple[int, int]
Point = tuple[int, int]

# How far from [0, 0] a cell given from outside (a board file, a player's event) may lie: far more
# than any board spans (84 tiles), and a drawing's coordinates stay exact (a cell at 10**23 drew a
# board 536,870,950 pixels wide).
CELL_REACH = 10_000


def check_within_reach(cell: Cell) -> None:
    """ValueError for a cell beyond ``CELL_REACH``."""
    if not all(abs(v) <= CELL_REACH for v in cell):
        raise ValueError(f"a cell's col and row lie within {CELL_REACH} of 0, got {list(cell)}")


def points_up(cell: Cell) -> bool:
    return (cell[0] + cell[1]) % 2 == 0


def cell_corners(cell: Cell) -> tuple[Point, Point, Point]:
    """The cell's three lattice points, clockwise: apex, bottom-right, bottom-left for an up cell;
    top-left, top-right, bottom for a down cell."""
    c, r = cell
    if points_up(cell):
        return ((c, r), (c + 1, r + 1), (c - 1, r + 1))
    return ((c - 1, r), (c + 1, r), (c, r + 1))


def edge_neighbours(cell: Cell) -> tuple[Cell, Cell, Cell]:
    """The three cells sharing a full edge with this one."""
    c, r = cell
    vertical = (c, r + 1) if points_up(cell) else (c, r - 1)
    return ((c - 1, r), (c + 1, r), vertical)


def cells_around(point: Point) -> tuple[Cell, ...]:
    """The six cells that meet at a lattice point (a hexagon when all are filled)."""
    m, k = point
    return ((m - 1, k - 1), (m, k - 1), (m + 1, k - 1), (m - 1, k), (m, k), (m + 1, k))


def shared_points(a: Cell, b: Cell) -> tuple[Point, ...]:
    """Lattice points two cells have in common: 2 for edge neighbours, 1 for point contact."""
    corners_b = set(cell_corners(b))
    return tuple(p for p in cell_corners(a) if p in corners_b)


def point_xy(point: Point) -> tuple[float, float]:
    """Position of a lattice point in edge units."""
    return (point[0] / 2, point[1] * ROW_HEIGHT)


def cell_from_corners(points: tuple[Point, Point, Point] | list[Point]) -> Cell:
    """The cell whose corners are these three lattice points, in any order.

    The corners of cell ``(c, r)`` sum to ``3c`` in m, and to ``3r + 2`` (up) or ``3r + 1`` (down)
    in k, which identifies the cell without a search.
    """
    sum_m = sum(p[0] for p in points)
    sum_k = sum(p[1] for p in points)
    col, row = sum_m // 3, sum_k // 3
    cell = (col, row)
    if set(cell_corners(cell)) != set(points):
        raise ValueError(f"{list(points)} are not the corners of one cell")
    return cell


@dataclass(frozen=True)
class LatticeMap:
    """A symmetry of the lattice: ``rotation`` steps of 60 degrees, then a translation.

    Works on axial coordinates ``(i, j)`` of a point, ``i = (m - k) / 2``, ``j = k``, where one
    clockwise step of 60 degrees on screen sends ``(i, j)`` to ``(-j, i + j)``.
    The translation ``(dm, dk)`` must keep ``dm + dk`` even so points stay points.
    """

    rotation: int = 0
    dm: int = 0
    dk: int = 0

    def __post_init__(self) -> None:
        if (self.dm + self.dk) % 2:
            raise ValueError(f"translation ({self.dm}, {self.dk}) does not map the lattice onto itself")
        object.__setattr__(self, "rotation", self.rotation % 6)

    def point(self, point: Point) -> Point:
        m, k = point
        i, j = (m - k) // 2, k
        for _ in range(self.rotation):
            i, j = -j, i + j
        return (2 * i + j + self.dm, j + self.dk)

    def cell(self, cell: Cell) -> Cell:
        return cell_from_corners([self.point(p) for p in cell_corners(cell)])

    def corners(self, cell: Cell, numbers: tuple[int, int, int]) -> tuple[Cell, tuple[int, int, int]]:
        """Where a placed tile goes, with its numbers re-listed in the new cell's clockwise order."""
        return _listed_clockwise({self.point(p): n for p, n in zip(cell_corners(cell), numbers)})


def mirror_image(cell: Cell, numbers: tuple[int, int, int]) -> tuple[Cell, tuple[int, int, int]]:
    """Where a placed tile lies in the board's mirror image (left and right swapped about the
    points of ``m = 0``), with its numbers re-listed in that cell's clockwise order. No turn of
    the lattice makes a board its mirror image: a board read from a mirrored picture is the
    table's turned over, and each of its tiles reads anticlockwise."""
    return _listed_clockwise({(-m, k): n for (m, k), n in zip(cell_corners(cell), numbers)})


def mirror_cell(cell: Cell) -> Cell:
    """The cell's place in the board's mirror image (``mirror_image``)."""
    return (-cell[0], cell[1])


def _listed_clockwise(number_at: dict[Point, int]) -> tuple[Cell, tuple[int, int, int]]:
    """The cell with these three points as its corners, and their numbers in its clockwise order."""
    cell = cell_from_corners(list(number_at))
    return cell, tuple(number_at[p] for p in cell_corners(cell))


def maps_onto(cell: Cell, target: Cell) -> tuple[LatticeMap, ...]:
    """The three lattice symmetries sending ``cell`` onto ``target`` (turns a third of a circle
    apart about it): where one tile is seen in two lattice frames, what its two cells allow."""
    maps = []
    for rotation in range(6):
        m, k = LatticeMap(rotation).cell(cell)
        dm, dk = target[0] - m, target[1] - k
        if (dm + dk) % 2 == 0:  # a turn by an odd number of sixths points the cell the other way
            maps.append(LatticeMap(rotation, dm, dk))
    return tuple(maps)
