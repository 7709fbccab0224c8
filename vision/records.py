"""What the reader returns: typed records in the reading shape of CONTRACT.md."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np

from engine.board import Board, Violation
from engine.lattice import Cell
from engine.scoring import PlacementResult
from engine.tiles import Tile, canonical
from vision.find import inside


@dataclass(frozen=True)
class ReadTile:
    """A face-up tile: corners clockwise as seen (pixels), the number read at each, and its cell
    (None: loose). For a board tile, corner i sits at lattice point ``cell_corners(cell)[i]``."""

    cell: Cell | None
    corners: np.ndarray  # (3, 2) float pixels
    numbers: tuple[int, int, int]
    confidences: tuple[float, float, float]
    in_set: bool
    ambiguous: bool

    def __post_init__(self) -> None:
        corners = np.asarray(self.corners, np.float64)
        if corners.shape != (3, 2):
            raise ValueError(f"a tile has three (x, y) corners, got shape {corners.shape}")
        object.__setattr__(self, "corners", corners)

    @property
    def confidence(self) -> float:
        return min(self.confidences)

    @property
    def place(self) -> str:
        """Where the tile lies, for people: its cell, or, loose, its centre in the photo."""
        if self.cell is not None:
            return f"at {list(self.cell)}"
        x, y = self.corners.mean(0)
        return f"near pixel ({x:.0f}, {y:.0f})"

    def to_dict(self) -> dict:
        sorted_rotation = canonical(self.numbers)
        return {
            "cell": list(self.cell) if self.cell is not None else None,
            "tile": list(sorted_rotation or self.numbers),
            "in_set": self.in_set,
            "confidence": round(self.confidence, 4),
            "ambiguous": self.ambiguous,
            "corners": [
                {"x": round(float(x), 2), "y": round(float(y), 2), "value": int(n), "confidence": round(c, 4)}
                for (x, y), n, c in zip(self.corners, self.numbers, self.confidences)
            ],
        }


@dataclass(frozen=True)
class Reading:
    path: str | None
    width: int
    height: int
    tiles: tuple[ReadTile, ...]
    face_down: tuple[np.ndarray, ...]
    unread: tuple[np.ndarray, ...]  # outlines of loose tiles whose numbers could not be read
    violations: tuple[Violation, ...]
    last_placement: PlacementResult | None
    timing_ms: dict[str, float] = field(default_factory=dict)
    notes: tuple[str, ...] = ()  # what the reader could not settle, in words
    advice: tuple[str, ...] = ()  # those of the notes that say how to take a photo that reads better
    mirror_image: bool = False  # the photo was read flipped back: its tiles' numbers ran anticlockwise

    @property
    def board(self) -> Board:
        """The joined tiles as an engine board (order unknown from one photo)."""
        return joined_board(self.tiles)

    @property
    def loose_tiles(self) -> frozenset[Tile]:
        """The set tiles lying face up off the board."""
        return frozenset(Tile(*c) for t in self.tiles if t.cell is None and (c := canonical(t.numbers)) is not None)

    def to_dict(self) -> dict:
        return {
            "image": {"path": self.path, "width": self.width, "height": self.height},
            "tiles": [t.to_dict() for t in self.tiles],
            "face_down": _outlines(self.face_down),
            "unread": _outlines(self.unread),
            "violations": [v.to_dict() for v in self.violations],
            "last_placement": self.last_placement.to_dict() if self.last_placement else None,
            "timing_ms": {k: round(v, 2) for k, v in self.timing_ms.items()},
            "notes": list(self.notes),
            "advice": list(self.advice),
            "mirror_image": self.mirror_image,
        }


def _outlines(outlines: tuple[np.ndarray, ...]) -> list[dict]:
    return [{"corners": [[round(float(x), 2), round(float(y), 2)] for x, y in c]} for c in outlines]


def joined_board(tiles: Iterable[ReadTile]) -> Board:
    """The tiles read with a cell (joined on the board) as an engine board."""
    return Board.of((t.cell, t.numbers) for t in tiles if t.cell is not None)


def on_the_board(tiles: Sequence[ReadTile]) -> np.ndarray:
    """(N,) whether each tile read is joined to the board (has a cell)."""
    return np.array([t.cell is not None for t in tiles], bool)


def outlines_of(tiles: Sequence[ReadTile]) -> np.ndarray:
    """(N, 3, 2) the tiles' corners."""
    return np.array([t.corners for t in tiles]).reshape(-1, 3, 2)


def inside_a_board_tile(tiles: Sequence[ReadTile]) -> np.ndarray:
    """(N,) whether each tile's centre lies inside a board tile's outline (a board tile's own
    centre does, inside itself)."""
    board = outlines_of([t for t in tiles if t.cell is not None])
    if not len(board) or not len(tiles):
        return np.zeros(len(tiles), bool)
    return inside(np.array([t.corners.mean(0) for t in tiles]), board).any(1)
