"""Decoding corner probabilities into tiles with the game's constraints.

A board's corners are not independent: each tile's three numbers must be a set tile read
clockwise, each tile appears once, and all corners at one lattice point show one number. The
decoder picks the most probable reading under these constraints. They are soft: a reading that
breaks one costs ``penalty`` in log-probability, so only evidence that strong reports a real
corner mismatch or a foreign tile instead of quietly correcting it. Each number keeps a
confidence (its share of the probability once the neighbours are fixed); numbers below
``ambiguous_below`` are flagged rather than guessed silently.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np

from engine.lattice import Cell, cell_corners
from engine.tiles import canonical
from models.classes import CLASS_COUNT, NO_NUMBER

DEFAULT_PENALTY = math.log(1e4)


@dataclass(frozen=True)
class DecodedTile:
    cell: Cell | None  # None: a loose tile, not joined to the board
    numbers: tuple[int, int, int]  # clockwise, in the order of the corners given
    confidences: tuple[float, float, float]
    in_set: bool
    ambiguous: bool

    def __post_init__(self) -> None:
        if len(self.numbers) != 3 or len(self.confidences) != 3:
            raise ValueError("a tile has three numbers and three confidences")
        if not all(0.0 <= c <= 1.0 for c in self.confidences):
            raise ValueError(f"confidences must lie in 0..1, got {self.confidences}")


def _readings(max_number: int) -> np.ndarray:
    """Every clockwise reading (a, b, c) of numbers 0..max_number, and whether a set holds it."""
    return np.array(list(itertools.product(range(max_number + 1), repeat=3)), np.int64)


def decode(
    probabilities: np.ndarray,
    cells: list[Cell | None],
    max_number: int = 5,
    penalty: float = DEFAULT_PENALTY,
    ambiguous_below: float = 0.9,
    sweeps: int = 8,
) -> list[DecodedTile]:
    """(N, 3, 8) corner probabilities (corners clockwise, in the order of each cell's corners)
    and each tile's cell (or None) -> one decoded tile each."""
    probabilities = np.asarray(probabilities, np.float64)
    if probabilities.ndim != 3 or probabilities.shape[1:] != (3, CLASS_COUNT) or len(probabilities) != len(cells):
        raise ValueError(f"probabilities must be shaped (N, 3, {CLASS_COUNT}) with one cell per tile")
    if not len(cells):
        return []
    numbers = max_number + 1
    # "No number" on a face-up corner means unreadable: spread it over every number.
    p = probabilities[:, :, :numbers] + probabilities[:, :, NO_NUMBER : NO_NUMBER + 1] / numbers
    log_p = np.log(np.clip(p / p.sum(2, keepdims=True), 1e-12, 1.0))  # (N, 3, numbers)
    readings = _readings(max_number)
    foreign = np.array([canonical(tuple(r)) is None for r in readings])
    # The set tile each reading shows (rotations share one id); foreign readings get ids of their own.
    sorted_ids = {t: k for k, t in enumerate(sorted({canonical(tuple(r)) for r in readings} - {None}))}
    tile_of_reading = np.array([sorted_ids.get(canonical(tuple(r)), -1 - k) for k, r in enumerate(readings)])
    base = log_p[:, 0, readings[:, 0]] + log_p[:, 1, readings[:, 1]] + log_p[:, 2, readings[:, 2]]
    base = base - penalty * foreign  # (N, R)
    # Who shares which lattice point: (tile, corner) pairs per point.
    at_point: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for t, cell in enumerate(cells):
        if cell is not None:
            for i, point in enumerate(cell_corners(cell)):
                at_point.setdefault(point, []).append((t, i))
    partners = [[[] for _ in range(3)] for _ in cells]
    for sharers in at_point.values():
        for t, i in sharers:
            partners[t][i] = [(u, j) for u, j in sharers if u != t]
    # Most certain tiles (widest margin between their two best readings) choose first, each
    # against the tiles already chosen; then sweeps let every tile reconsider against all others.
    top_two = np.sort(base, axis=1)[:, -2:]
    order = np.argsort(top_two[:, 0] - top_two[:, 1])
    choice = np.full(len(cells), -1)
    for t in order:
        choice[t] = int(_scores(t, base, choice, readings, tile_of_reading, partners, penalty).argmax())
    for _ in range(sweeps):
        changed = False
        for t in order:
            scores = _scores(t, base, choice, readings, tile_of_reading, partners, penalty)
            best = int(scores.argmax())
            if best != choice[t]:
                choice[t], changed = best, True
        if not changed:
            break
    decoded = []
    for t, cell in enumerate(cells):
        scores = _scores(t, base, choice, readings, tile_of_reading, partners, penalty)
        weights = np.exp(scores - scores.max())
        weights /= weights.sum()
        reading = readings[choice[t]]
        confidences = tuple(min(1.0, float(weights[readings[:, i] == reading[i]].sum())) for i in range(3))
        decoded.append(
            DecodedTile(
                cell,
                tuple(int(n) for n in reading),
                confidences,
                not foreign[choice[t]],
                min(confidences) < ambiguous_below,
            )
        )
    return decoded


def _scores(t, base, choice, readings, tile_of_reading, partners, penalty) -> np.ndarray:
    """Tile ``t``'s score for every reading, the other tiles' readings held fixed."""
    scores = base[t].copy()
    for i in range(3):
        for u, j in partners[t][i]:
            if choice[u] >= 0:  # tiles not yet chosen do not constrain
                scores -= penalty * (readings[:, i] != readings[choice[u], j])
    chosen = np.delete(choice, t)
    scores -= penalty * np.isin(tile_of_reading, tile_of_reading[chosen[chosen >= 0]])
    return scores
