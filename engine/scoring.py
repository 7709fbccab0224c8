"""Scoring one placement: base value plus opening, bridge, hexagon and two-sided bonuses."""

from __future__ import annotations

from dataclasses import dataclass

from engine.board import Board, PlacedTile, Violation, check_placement
from engine.lattice import Cell, Point, cell_corners, cells_around, shared_points
from engine.rules import Rules
from engine.tiles import Corners, canonical

BONUS_KINDS = ("opening", "bridge", "hexagon", "two_hexagons", "three_hexagons", "two_sided")
HEXAGON_KINDS = ("hexagon", "two_hexagons", "three_hexagons")


@dataclass(frozen=True)
class Bonus:
    kind: str
    points: int
    points_at: tuple[Point, ...] = ()  # hexagon centres, or the bridge's far corner

    def __post_init__(self) -> None:
        if self.kind not in BONUS_KINDS:
            raise ValueError(f"unknown bonus kind {self.kind!r}")

    def to_dict(self) -> dict:
        out: dict = {"kind": self.kind, "points": self.points}
        if self.points_at:
            out["points_at"] = [list(p) for p in self.points_at]
        return out


@dataclass(frozen=True)
class Score:
    base: int
    bonuses: tuple[Bonus, ...] = ()

    @property
    def total(self) -> int:
        return self.base + sum(b.points for b in self.bonuses)

    @property
    def breakdown(self) -> str:
        """The base and each bonus, as a score sheet writes them: "8 +50 bridge"."""
        return str(self.base) + "".join(f" +{b.points} {b.kind}" for b in self.bonuses)

    def to_dict(self) -> dict:
        return {"total": self.total, "base": self.base, "bonuses": [b.to_dict() for b in self.bonuses]}


@dataclass(frozen=True)
class PlacementResult:
    """The judgement of one placement: its legality and what it scores (scored even when
    illegal, so a player sees what the move would have been worth)."""

    cell: Cell
    corners: Corners
    violations: tuple[Violation, ...]
    score: Score

    @property
    def legal(self) -> bool:
        return not self.violations

    @property
    def in_words(self) -> str:
        """What a player is told of it: "[1, 3, 4] at [-1, 1]: 8 +50 bridge = 58", and "(illegal)"."""
        tile = self.to_dict()["tile"]
        illegal = "" if self.legal else " (illegal)"
        return f"{tile} at {list(self.cell)}: {self.score.breakdown} = {self.score.total}{illegal}"

    def to_dict(self) -> dict:
        sorted_rotation = canonical(self.corners)
        return {
            "cell": list(self.cell),
            "tile": list(sorted_rotation) if sorted_rotation else list(self.corners),
            "legal": self.legal,
            "violations": [v.to_dict() for v in self.violations],
            "score": self.score.to_dict(),
        }


def hexagons_completed(board: Board, placed: PlacedTile) -> tuple[Point, ...]:
    """Corners of the new tile whose six surrounding cells are all filled once it is placed."""
    return tuple(
        point for point in cell_corners(placed.cell) if all(c == placed.cell or c in board for c in cells_around(point))
    )


def is_bridge(board: Board, placed: PlacedTile) -> Point | None:
    """The far corner when the tile shares exactly one edge and that corner touches the board."""
    neighbours = board.edge_contacts(placed.cell)
    if len(neighbours) != 1:
        return None
    edge = set(shared_points(placed.cell, neighbours[0].cell))
    (far,) = [p for p in cell_corners(placed.cell) if p not in edge]
    return far if board.touching(far, exclude=placed.cell) else None


def score_placement(board: Board, placed: PlacedTile, rules: Rules) -> Score:
    """Points for putting ``placed`` on ``board`` (the board before the move)."""
    tile = placed.tile
    value = sum(placed.corners)
    base = value if rules.points_per_tile is None else rules.points_per_tile
    bonuses: list[Bonus] = []
    if not len(board):
        if tile is not None and tile.is_triple:
            bonus = rules.opening_zero_triple_bonus if value == 0 else rules.opening_triple_bonus
            if bonus:
                bonuses.append(Bonus("opening", bonus))
        return Score(base, tuple(bonuses))
    hexagons = hexagons_completed(board, placed)
    if hexagons:
        bonuses.append(Bonus(HEXAGON_KINDS[len(hexagons) - 1], rules.hexagon_bonuses[len(hexagons) - 1], hexagons))
    elif len(board.edge_contacts(placed.cell)) >= 2 and rules.two_sided_bonus:
        bonuses.append(Bonus("two_sided", rules.two_sided_bonus))
    far = is_bridge(board, placed)
    if far is not None and rules.bridge_bonus:
        bonuses.append(Bonus("bridge", rules.bridge_bonus, (far,)))
    return Score(base, tuple(b for b in bonuses if b.points))


def judge_placement(board: Board, placed: PlacedTile, rules: Rules) -> PlacementResult:
    return PlacementResult(
        placed.cell, placed.corners, tuple(check_placement(board, placed, rules)), score_placement(board, placed, rules)
    )


def judge_last(board: Board, rules: Rules) -> PlacementResult:
    """Judge the board's last tile against the tiles placed before it (the `score` command)."""
    if not len(board):
        raise ValueError("the board has no tiles to score")
    return judge_placement(board.without_last(), board.placements[-1], rules)


def judge_each(board: Board, rules: Rules) -> list[PlacementResult]:
    """Judge every tile, in placement order, against the tiles placed before it."""
    return [judge_placement(Board(board.placements[:i]), p, rules) for i, p in enumerate(board.placements)]


def score_answer(board: Board, rules: Rules) -> dict:
    """The score result of CONTRACT.md for a board file: its last tile judged against the ones
    before it, plus the preset's name and the violations of the earlier tiles."""
    results = judge_each(board, rules)
    if not results:
        raise ValueError("the board has no tiles to score")
    return {
        **results[-1].to_dict(),
        "rules": rules.name,
        "earlier_violations": [v.to_dict() for r in results[:-1] for v in r.violations],
    }
