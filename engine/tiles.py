"""Tiles and tile sets.

A tile is three numbers read clockwise. The physical set only holds readings whose clockwise
order never decreases from some starting corner, so ``5-2-1`` (clockwise) is not a tile of any set:
it is a misread or a foreign tile.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import combinations_with_replacement

STANDARD_MAX = 5
LARGE_MAX = 6

Corners = tuple[int, int, int]


def rotations(corners: Corners) -> tuple[Corners, Corners, Corners]:
    """The three clockwise readings of the same tile, starting at each corner in turn."""
    a, b, c = corners
    return ((a, b, c), (b, c, a), (c, a, b))


def canonical(corners: Corners) -> Corners | None:
    """The non-decreasing rotation of a clockwise reading, or None if no rotation is sorted."""
    for rotation in rotations(corners):
        if rotation[0] <= rotation[1] <= rotation[2]:
            return rotation
    return None


@dataclass(frozen=True, order=True)
class Tile:
    """A set tile in canonical form: numbers non-decreasing clockwise from the first corner."""

    low: int
    mid: int
    high: int

    def __post_init__(self) -> None:
        if not all(isinstance(n, int) and 0 <= n <= 9 for n in self.numbers):
            raise ValueError(f"tile numbers must be integers 0..9, got {self.numbers}")
        if not self.low <= self.mid <= self.high:
            raise ValueError(f"tile numbers must be non-decreasing, got {self.numbers}")

    @property
    def numbers(self) -> Corners:
        return (self.low, self.mid, self.high)

    @property
    def value(self) -> int:
        return self.low + self.mid + self.high

    @property
    def is_triple(self) -> bool:
        return self.low == self.high

    def __str__(self) -> str:
        return format_corners(self.numbers)


def format_corners(corners: Corners) -> str:
    return "-".join(str(n) for n in corners)


def counted(count: int, one: str, many: str) -> str:
    """A count and the words that agree with it, for messages: ``counted(3, "tile is", "tiles
    are")`` gives "3 tiles are"."""
    return f"{count} {one if count == 1 else many}"


@cache
def tile_set(max_number: int = STANDARD_MAX) -> tuple[Tile, ...]:
    """Every tile of the set with numbers 0..max_number (56 for 5, 84 for 6), sorted."""
    if max_number not in (STANDARD_MAX, LARGE_MAX):
        raise ValueError(f"sets have numbers up to {STANDARD_MAX} or {LARGE_MAX}, not {max_number}")
    triples = combinations_with_replacement(range(max_number + 1), 3)
    # A sorted triple a<=b<=c with three different numbers exists in both windings
    # (a-b-c and a-c-b); only a-b-c is non-decreasing clockwise, so one tile per triple.
    return tuple(Tile(*t) for t in triples)


def is_in_set(corners: Corners, max_number: int = STANDARD_MAX) -> bool:
    """True when the clockwise reading is a rotation of a tile of the given set."""
    sorted_rotation = canonical(tuple(corners))
    return sorted_rotation is not None and sorted_rotation[2] <= max_number and sorted_rotation[0] >= 0
