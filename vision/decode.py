"""Decoding corner probabilities into tiles with the game's constraints.

A board's corners are not independent: each tile's three numbers must be a set tile read
clockwise, each tile appears once, and all corners at one lattice point show one number. The
decoder picks the most probable reading under these constraints. They are soft: a reading that
breaks one costs ``penalty`` in log-probability, so only evidence that strong reports a real
corner mismatch or a foreign tile instead of quietly correcting it. Each number keeps a
confidence: its share of the probability once the neighbours are fixed, and at a shared lattice
point no more than the point's share (every corner there changing together); numbers below
``ambiguous_below`` are flagged rather than guessed silently.

A tile whose reading is known beforehand (a live game's board: every tile on it was seen placed
and scored) is ``expected`` to show it: that reading gains ``trust`` in log-probability, so only
clear evidence of another tile (one moved or swapped) overrides it, while a misread number gives
way to what the game knows. A tile read unsurely before (a live game's provisional placement) has
that reading as a ``hint``: it gains a little, enough to settle a doubt the way the earlier
reading leaned, but the confidences are the evidence's own, so a hint never makes a number sure.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from engine.lattice import Cell, LatticeMap, Point, cell_corners
from engine.tiles import LARGE_MAX, STANDARD_MAX, canonical, tile_set
from models.classes import CLASS_COUNT, NO_NUMBER

DEFAULT_PENALTY = math.log(1e4)
UNSURE_BELOW = 0.9  # a number read less surely than this is flagged, its tile ambiguous
TILE_MOVE_READINGS = 16  # a tile changing its three points at once tries its own likeliest readings
HINT_TRUST = math.log(4)  # what a reading made unsurely before weighs, in log-probability
KNOWN_PLACE_FLOOR = 1e-3  # a corner's probability counts at least this when weighing where a known board lies
KNOWN_PLACE_MARGIN = math.log(1e2)  # evidence (log-probability) a known board's place must win by: one sure tile


def numbers_read_surely(probabilities: np.ndarray) -> np.ndarray:
    """Per corner of (..., 8) probabilities, whether its likeliest number reads at ``UNSURE_BELOW``
    or more ("no number" is no number)."""
    return probabilities[..., :NO_NUMBER].max(-1) >= UNSURE_BELOW


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


@functools.cache
def _readings(max_number: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every clockwise reading (a, b, c) of numbers 0..max_number, at ``_index(a, b, c, n)`` for n
    numbers (``_with_number`` changes one number by that rule); whether no set
    holds it (foreign); and the set tile it shows (rotations share one id; each foreign reading
    gets an id of its own)."""
    readings = np.array(list(itertools.product(range(max_number + 1), repeat=3)), np.int64)
    tiles = [canonical(tuple(r)) for r in readings]
    ids = {t: k for k, t in enumerate(sorted(set(tiles) - {None}))}
    tile_of_reading = np.array([ids.get(t, len(ids) + k) for k, t in enumerate(tiles)])
    tables = readings, np.array([t is None for t in tiles]), tile_of_reading
    for table in tables:
        table.flags.writeable = False  # shared by every call
    return tables


def decode(
    probabilities: np.ndarray,
    cells: list[Cell | None],
    max_number: int = 5,
    penalty: float = DEFAULT_PENALTY,
    ambiguous_below: float = UNSURE_BELOW,
    sweeps: int = 8,
    expected: Sequence[tuple[int, int, int] | None] | None = None,
    trust: float = DEFAULT_PENALTY,
    hints: Sequence[tuple[int, int, int] | None] | None = None,
) -> list[DecodedTile]:
    """(N, 3, 8) corner probabilities (corners clockwise, in the order of each cell's corners)
    and each tile's cell (or None) -> one decoded tile each. ``expected``: per tile, the numbers
    it is known to show in that order (None: unknown); ``hints``: the same for numbers read
    unsurely before (a tile has one or the other)."""
    probabilities = np.asarray(probabilities, np.float64)
    if probabilities.ndim != 3 or probabilities.shape[1:] != (3, CLASS_COUNT) or len(probabilities) != len(cells):
        raise ValueError(f"probabilities must be shaped (N, 3, {CLASS_COUNT}) with one cell per tile")
    if not len(cells):
        return []
    numbers = max_number + 1
    # "No number" on a face-up corner means unreadable: spread it over every number.
    p = probabilities[:, :, :numbers] + probabilities[:, :, NO_NUMBER : NO_NUMBER + 1] / numbers
    log_p = np.log(np.clip(p / p.sum(2, keepdims=True), 1e-12, 1.0))  # (N, 3, numbers)
    readings, foreign, _ = _readings(max_number)
    base = log_p[:, 0, readings[:, 0]] + log_p[:, 1, readings[:, 1]] + log_p[:, 2, readings[:, 2]]
    base = base - penalty * foreign  # (N, R)
    known, trusts = np.full(len(cells), -1), np.zeros(len(cells))  # expected or hinted readings, what they gain
    if expected is not None:
        gain, known, trusts = _leaning(expected, len(cells), numbers, trust)
        base = base + gain
    without_hints = base  # what confidences are weighed by: hints settle choices, make no number surer
    if hints is not None:
        gain, hinted, hint_trusts = _leaning(hints, len(cells), numbers, HINT_TRUST)
        base = base + gain
        known, trusts = np.where(hinted >= 0, hinted, known), trusts + hint_trusts
    search = _Search(cells, base, log_p, numbers, sweeps, penalty, known, trusts)
    chosen = search.from_each_tile()
    if search.shared_points:
        # Search again, from every lattice point's consensus (the number its corners together find
        # likeliest: it pools up to six corners' evidence), and let every board tile in trouble
        # change its three points at once (two misread points of one tile cannot be mended one
        # point at a time). A search can end on a board that breaks no constraint yet is not the
        # likeliest, so the better of the two is kept; where the consensus is the first search's
        # end and nothing is broken, the second has nowhere to go.
        consensus = search.consensus()
        settled = np.array_equal(consensus.choice, chosen.choice) and not search.in_trouble(chosen).any()
        searched = chosen if settled else search.run(consensus, tile_moves=True)
        if searched.total(base, search.shared_points) > chosen.total(base, search.shared_points):
            chosen = searched
    return search.decoded(chosen, without_hints, ambiguous_below)


class _Search:
    """One board's search for its likeliest reading: what stays fixed while readings change (the
    readings' scores ``base``, who shares which lattice point, each point's pooled evidence, the
    order tiles choose in) and the moves that change readings, each kept only where it raises
    the board's score."""

    def __init__(
        self,
        cells: list[Cell | None],
        base: np.ndarray,
        log_p: np.ndarray,
        numbers: int,
        sweeps: int,
        penalty: float,
        known: np.ndarray,
        trusts: np.ndarray,
    ) -> None:
        self.cells, self.base, self.numbers = cells, base, numbers
        self.sweeps, self.penalty = sweeps, penalty
        self.known = known  # each tile's expected or hinted reading (-1: none)
        self.readings, self.foreign, self.tile_of_reading = _readings(numbers - 1)
        self.at_point, self.partners = _sharing(cells)
        self.shared_at = [point for point, sharers in self.at_point.items() if len(sharers) > 1]
        self.lone_at = [point for point, sharers in self.at_point.items() if len(sharers) == 1]
        self.shared_points = [self.at_point[point] for point in self.shared_at]
        self.shared_table = _Sharers.of(self.shared_points)
        self.lone_table = _Sharers.of([self.at_point[point] for point in self.lone_at])
        # The most certain tiles (widest margin between their two best readings) choose first, each
        # against the tiles already chosen; sweeps then let every tile reconsider against all the
        # others, and every shared lattice point its number for all the tiles there at once.
        self.top_two = np.sort(base, axis=1)[:, -2:]
        self.order = np.argsort(self.top_two[:, 0] - self.top_two[:, 1])
        self.board_tiles = [t for t in self.order if cells[t] is not None]
        # Each lattice point's evidence for each number (its corners' pooled); every tile side, the
        # tiles at its two points and how much trust the known ones among them carry.
        self.point_evidence = {point: sum(log_p[t, i] for t, i in sharers) for point, sharers in self.at_point.items()}
        self.sides = sorted(
            {side for t in self.board_tiles for side in itertools.combinations(sorted(cell_corners(cells[t])), 2)}
        )
        self.side_tiles = [{t for point in side for t, _ in self.at_point[point]} for side in self.sides]
        self.side_trust = [float(trusts[sorted(tiles)].sum()) for tiles in self.side_tiles]
        self.number_pairs = np.array(list(itertools.product(range(numbers), repeat=2)))

    def _nothing_chosen(self) -> _Chosen:
        return _Chosen(np.full(len(self.cells), -1), self.readings, self.tile_of_reading, self.partners, self.penalty)

    def from_each_tile(self) -> _Chosen:
        """The search from each tile's own best reading, chosen in ``order`` against those before."""
        greedy = self._nothing_chosen()
        for t in self.order:
            greedy.set(t, int(greedy.scores(t, self.base[t]).argmax()))
        return self.run(greedy, tile_moves=False)

    def consensus(self) -> _Chosen:
        """Each board tile reading the numbers its lattice points' pooled evidence finds likeliest
        (loose tiles their own best)."""
        consensus = self._nothing_chosen()
        for t in self.order:
            if self.cells[t] is None:
                consensus.set(t, int(consensus.scores(t, self.base[t]).argmax()))
            else:
                a, b, c = (int(self.point_evidence[point].argmax()) for point in cell_corners(self.cells[t]))
                consensus.set(t, _index(a, b, c, self.numbers))
        return consensus

    def in_trouble(self, chosen: _Chosen) -> np.ndarray:
        return chosen.in_trouble(self.shared_table, self.foreign)

    def decoded(self, chosen: _Chosen, weighed_by: np.ndarray, ambiguous_below: float) -> list[DecodedTile]:
        """The tiles as ``chosen`` reads them, each number with its confidence: its share of its
        tile's probability, its neighbours fixed, and at a shared point no more than the point's
        (readings scored by ``weighed_by``)."""
        point_confidence = chosen.point_confidences(self.shared_at, self.shared_table, weighed_by)
        # Each number's share of each tile's probability at each corner: (3, numbers, tiles).
        scores = np.array([chosen.scores(t, weighed_by[t]) for t in range(len(self.cells))])
        weights = np.exp(scores - scores.max(1, keepdims=True))
        weights /= weights.sum(1, keepdims=True)
        share = np.array([[weights[:, self.readings[:, i] == n].sum(1) for n in range(self.numbers)] for i in range(3)])
        decoded = []
        for t, cell in enumerate(self.cells):
            reading = self.readings[chosen.choice[t]]
            points = cell_corners(cell) if cell is not None else (None,) * 3
            confidences = tuple(
                min(1.0, float(share[i, reading[i], t]), point_confidence.get(points[i], 1.0)) for i in range(3)
            )
            decoded.append(
                DecodedTile(
                    cell,
                    tuple(int(n) for n in reading),
                    confidences,
                    not self.foreign[chosen.choice[t]],
                    min(confidences) < ambiguous_below,
                )
            )
        return decoded

    def run(self, chosen: _Chosen, tile_moves: bool) -> _Chosen:
        """Sweeps of moves from ``chosen`` until none gains (at most ``sweeps``): each tile
        rechosen, each shared point renumbered, and with ``tile_moves`` each board tile in
        trouble given its likeliest readings at its three points; then, where nothing gained,
        blocked points and tile sides."""
        base = self.base

        def rechoose(t: int) -> bool:
            best = int(chosen.scores(t, base[t]).argmax())
            if best == chosen.choice[t]:
                return False
            chosen.set(t, best)
            return True

        for _ in range(self.sweeps):
            changed = _each_open(
                lambda: chosen.may_change(self.shared_table, base, self.top_two)[self.order],
                lambda k: rechoose(self.order[k]),
            )
            changed |= _each_open(
                lambda: chosen.renumbering_bounds(self.shared_table, base) > 0,
                lambda k: chosen.renumber([self.shared_points[k]], np.arange(self.numbers)[:, None], base),
            )
            trouble = self.in_trouble(chosen) if tile_moves else np.zeros(len(self.cells), bool)
            for t in [t for t in self.board_tiles if trouble[t]]:
                likeliest = self.readings[np.argsort(-base[t])[:TILE_MOVE_READINGS]]
                points = [self.at_point[point] for point in cell_corners(self.cells[t])]
                changed |= chosen.renumber(points, likeliest, base)
            if not changed:  # shared points first: their numbers have the most evidence
                changed = self.unblock(chosen, self.shared_at, self.shared_table) or self.unblock(
                    chosen, self.lone_at, self.lone_table
                )
            if not changed:
                changed = self.renumber_pairs(chosen)
            if not changed:
                return chosen
        return chosen

    def renumber_pairs(self, chosen: _Chosen) -> bool:
        """Both lattice points of a tile side renumbered at once: two misread points can make every
        single change break a constraint (a foreign reading, a repeat) that changing both at once
        does not. A side is tried only where that could gain: where a tile there breaks a
        constraint or leaves its expected reading, or where numbers likelier to its corners gain
        more than the known tiles there would lose in trust (most sides of a sure board, and of a
        live game's, can do neither)."""
        trouble = self.in_trouble(chosen)
        troubled = {t for t in self.board_tiles if trouble[t] or self.known[t] not in (-1, chosen.choice[t])}
        likelier = {}  # how much likelier each point's likeliest number is than the one it shows
        for point, ((t, i), *_) in self.at_point.items():
            evidence = self.point_evidence[point]
            likelier[point] = evidence.max() - evidence[self.readings[chosen.choice[t], i]]
        changed = False
        for (a, b), tiles, trusted in zip(self.sides, self.side_tiles, self.side_trust):
            if tiles & troubled or likelier[a] + likelier[b] > trusted + 1e-9:
                changed |= chosen.renumber([self.at_point[a], self.at_point[b]], self.number_pairs, self.base)
        return changed

    def unblock(self, chosen: _Chosen, points: list[Point], table: _Sharers) -> bool:
        """Two lattice points renumbered at once where one alone is blocked: a better number at
        one of ``points`` (their sharers: ``table``) would repeat a tile elsewhere, so it is tried
        together with each point of that tile and of its own tiles (two numbers misread the other
        way round, or a tile's numbers shifted by one point, are undone only together). Each
        blocked point makes its best such change; points with no better number are passed over."""
        return _each_open(
            lambda: chosen.number_gains(table, self.base).max(1) > 0, lambda k: self.unblock_point(chosen, points[k])
        )

    def unblock_point(self, chosen: _Chosen, point: Point) -> bool:
        sharers = self.at_point[point]
        better, blockers = chosen.blocked(sharers, self.base)
        if not blockers:
            return False
        tiles = blockers | {t for t, _ in sharers}
        others = {other for u in tiles if self.cells[u] is not None for other in cell_corners(self.cells[u])} - {point}
        pairs = np.array([(n, m) for n in better for m in range(self.numbers)])
        best_gain, best_tiles, best_after = 0.0, [], None
        for other in others:
            gain, moved, after = chosen.best_renumbering([sharers, self.at_point[other]], pairs, self.base, best_gain)
            if after is not None:
                best_gain, best_tiles, best_after = gain, moved, after
        if best_after is None:
            return False
        chosen.set_all(best_tiles, best_after)
        return True


def decode_in_either_set(
    probabilities: np.ndarray,
    cells: list[Cell | None],
    max_numbers: Sequence[int] = (STANDARD_MAX, LARGE_MAX),
    expected: Sequence[tuple[int, int, int] | None] | None = None,
    hints: Sequence[tuple[int, int, int] | None] | None = None,
) -> tuple[list[DecodedTile], int]:
    """``decode`` for the set in play, when it may be any of those numbered 0..each of
    ``max_numbers``: the tiles decoded in the set whose best reading is likeliest
    (``_set_evidence``), and that set's highest number. Small tiles' 6s are seldom read surely,
    yet a large set's board shows many of them unsurely; one misread corner must not make a
    standard set large. The set that could read likeliest is decoded first, and another only
    where even its likeliest corners could beat that."""
    if not max_numbers:
        raise ValueError("max_numbers names no set")
    points = list(_sharing(cells)[0].values())  # each lattice point's (tile, corner) sharers
    table = _Sharers.of(points)
    bounds = {max_number: _evidence_bound(probabilities, table, max_number) for max_number in max_numbers}
    best: tuple[float, list[DecodedTile], int] | None = None
    for max_number in sorted(bounds, key=bounds.__getitem__, reverse=True):
        if best is not None and bounds[max_number] <= best[0]:
            break
        decoded = decode(probabilities, cells, max_number, expected=expected, hints=hints)
        evidence = _set_evidence(probabilities, points, decoded, max_number)
        if best is None or evidence > best[0]:
            best = (evidence, decoded, max_number)
    return best[1], best[2]


def _set_evidence(
    probabilities: np.ndarray,
    points: Sequence[list[tuple[int, int]]],
    decoded: Sequence[DecodedTile],
    max_number: int,
) -> float:
    """The log-probability of a decoded board (each lattice point's sharers: ``points``) in the
    set numbered 0..``max_number``: the classifier's probability of every number read ("no
    number" spread over all seven), less the penalty for each broken constraint (``decode``'s),
    and each tile one of the set's (a tile of 84 is less likely than a tile of 56: the larger set
    must earn its 6s)."""
    if not len(decoded):
        return 0.0
    numbers = np.array([tile.numbers for tile in decoded])
    shown = np.take_along_axis(_any_number(probabilities), numbers[..., None], 2)
    foreign = sum(not tile.in_set for tile in decoded)
    repeats = len(decoded) - foreign - len({canonical(tile.numbers) for tile in decoded if tile.in_set})
    disagreeing = sum(
        _disagreeing_pairs(numbers[[t for t, _ in sharers], [i for _, i in sharers]]) for sharers in points
    )
    broken = foreign + repeats + disagreeing
    likelihood = float(np.log(np.clip(shown, 1e-12, 1.0)).sum())
    return likelihood - DEFAULT_PENALTY * broken - len(decoded) * _log_set_size(max_number)


def _evidence_bound(probabilities: np.ndarray, points: _Sharers, max_number: int) -> float:
    """The most ``_set_evidence`` could be for any board (its lattice ``points``) decoded in
    the set numbered 0..``max_number``, no tile foreign or repeated: each lattice point showing
    its likeliest number to all its corners, or each corner its own likeliest at the cost of the
    fewest disagreeing pairs (one per corner but one); a loose tile's corners their likeliest."""
    log_p = np.log(np.clip(_any_number(probabilities)[:, :, : max_number + 1], 1e-12, 1.0))
    here = np.where(points.real[..., None], log_p[points.tile, points.corner], 0.0)  # (points, sharers, numbers)
    disagreeing = points.real.sum(1) - 1
    bound = np.maximum(here.sum(1).max(1), here.max(2).sum(1) - DEFAULT_PENALTY * disagreeing).sum()
    loose = np.ones(log_p.shape[:2], bool)
    loose[points.tile[points.real], points.corner[points.real]] = False
    bound += log_p.max(2)[loose].sum()
    return float(bound) - len(log_p) * _log_set_size(max_number)


def _any_number(probabilities: np.ndarray) -> np.ndarray:
    """(N, 3, 7) each corner's probability of each number 0..6, "no number" spread over them."""
    probabilities = np.asarray(probabilities, np.float64)
    return probabilities[:, :, : LARGE_MAX + 1] + probabilities[:, :, NO_NUMBER : NO_NUMBER + 1] / (LARGE_MAX + 1)


@functools.cache
def _log_set_size(max_number: int) -> float:
    return math.log(len(tile_set(max_number)))


def _sharing(cells: Sequence[Cell | None]) -> tuple[dict[Point, list[tuple[int, int]]], list[list[list]]]:
    """Who shares which lattice point: each point's (tile, corner) sharers, and for each tile's
    corner the other tiles' corners there."""
    at_point: dict[Point, list[tuple[int, int]]] = {}
    for t, cell in enumerate(cells):
        if cell is not None:
            for i, point in enumerate(cell_corners(cell)):
                at_point.setdefault(point, []).append((t, i))
    partners = [[[] for _ in range(3)] for _ in cells]
    for sharers in at_point.values():
        for t, i in sharers:
            partners[t][i] = [(u, j) for u, j in sharers if u != t]
    return at_point, partners


@dataclass(frozen=True)
class _Sharers:
    """Lattice points' (tile, corner) sharers as (points, width) arrays, rows padded by repeating
    a point's first sharer (``real`` marks the true ones), so a step can weigh every point at once."""

    tile: np.ndarray
    corner: np.ndarray
    real: np.ndarray

    @classmethod
    def of(cls, points: list[list[tuple[int, int]]]) -> _Sharers:
        width = max((len(sharers) for sharers in points), default=1)
        padded = [sharers + sharers[:1] * (width - len(sharers)) for sharers in points]
        tile = np.array([[t for t, _ in row] for row in padded], np.int64).reshape(-1, width)
        corner = np.array([[i for _, i in row] for row in padded], np.int64).reshape(-1, width)
        real = np.array([[k < len(sharers) for k in range(width)] for sharers in points], bool).reshape(-1, width)
        return cls(tile, corner, real)


def _each_open(open_now: Callable[[], np.ndarray], act: Callable[[int], bool]) -> bool:
    """``act`` on each of a step's places in turn (tiles or points) where ``open_now`` says it
    could change something (elsewhere it surely would not), asked again after each change;
    whether any changed. The same as acting everywhere in turn, without the futile tries."""
    changed, start = False, 0
    while True:
        for k in start + np.flatnonzero(open_now()[start:]):
            if act(int(k)):
                changed, start = True, int(k) + 1
                break
        else:
            return changed


def _index(a, b, c, numbers: int):
    """The index of reading (a, b, c) among ``_readings``' for ``numbers`` numbers."""
    return (a * numbers + b) * numbers + c


def _place_value(corner, numbers: int):
    """What one unit of the number at ``corner`` adds to a reading's index (``_index``)."""
    return numbers ** (2 - corner)


def _with_number(reading, corner, number, numbers: int):
    """Reading indices with the number at ``corner`` replaced by ``number`` (arrays broadcast)."""
    place = _place_value(corner, numbers)
    return reading + (number - reading // place % numbers) * place


class _Chosen:
    """The readings chosen so far (``choice``, -1 for none yet) and how many tiles show each set
    tile, so a tile's scores against all the others take no pass over every tile."""

    def __init__(self, choice, readings, tile_of_reading, partners, penalty) -> None:
        self.choice, self.readings, self.tile_of_reading = choice, readings, tile_of_reading
        self.partners, self.penalty = partners, penalty
        self.shown = np.zeros(tile_of_reading.max() + 1, np.int64)
        self.numbers = int(readings.max()) + 1

    def set(self, t: int, reading: int) -> None:
        if self.choice[t] >= 0:
            self.shown[self.tile_of_reading[self.choice[t]]] -= 1
        self.choice[t] = reading
        self.shown[self.tile_of_reading[reading]] += 1

    def set_all(self, tiles: Sequence[int], readings: Sequence[int]) -> None:
        for t, reading in zip(tiles, readings):
            self.set(t, int(reading))

    def scores(self, t: int, base: np.ndarray) -> np.ndarray:
        """Tile ``t``'s score for every reading, the other tiles' readings held fixed."""
        mismatches = np.zeros(len(self.readings))
        for i in range(3):
            # The numbers chosen tiles show at this corner's point (tiles not yet chosen do not
            # constrain): a reading pays for each partner showing another number.
            shown = [self.readings[self.choice[u], j] for u, j in self.partners[t][i] if self.choice[u] >= 0]
            if shown:
                mismatches += len(shown) - np.bincount(shown, minlength=self.numbers)[self.readings[:, i]]
        shown_by_others = self.shown.copy()
        if self.choice[t] >= 0:
            shown_by_others[self.tile_of_reading[self.choice[t]]] -= 1
        return base - self.penalty * (mismatches + (shown_by_others[self.tile_of_reading] > 0))

    def may_change(self, table: _Sharers, base: np.ndarray, top_two: np.ndarray) -> np.ndarray:
        """(tiles,) whether ``scores`` could rank another reading of each tile above its own: some
        other reading's ``base`` (``top_two``: each tile's second best and best) reaches its own's
        score (its ``base`` less the penalties it pays now, at shared points of ``table``). Where
        not, the best reading is the one it has."""
        own_base = base[np.arange(len(self.choice)), self.choice]
        other = np.where(own_base == top_two[:, 1], top_two[:, 0], top_two[:, 1])
        own = own_base - self.penalty * (self._mismatches(table) + self._repeating())
        return other >= own

    def in_trouble(self, table: _Sharers, foreign: np.ndarray) -> np.ndarray:
        """(tiles,) whether each tile's reading is foreign, repeats another tile's, or disagrees
        with a neighbour's at a shared point (of ``table``)."""
        return foreign[self.choice] | self._repeating() | (self._mismatches(table) > 0)

    def _repeating(self) -> np.ndarray:
        """(tiles,) whether each tile shows a set tile that another tile shows too."""
        return self.shown[self.tile_of_reading[self.choice]] > 1

    def _shown_at(self, table: _Sharers) -> tuple[np.ndarray, np.ndarray]:
        """The number each sharer of ``table``'s points shows (points, width), and how many
        sharers of each point show each number (points, numbers)."""
        digit = self.readings[self.choice[table.tile], table.corner]
        return digit, ((digit[..., None] == np.arange(self.numbers)) & table.real[..., None]).sum(1)

    def _mismatches(self, table: _Sharers) -> np.ndarray:
        """(tiles,) how many neighbours' corners show another number than each tile's own at the
        shared points of ``table``."""
        digit, counts = self._shown_at(table)
        unlike = table.real.sum(1)[:, None] - np.take_along_axis(counts, digit, 1)
        return np.bincount(table.tile[table.real], unlike[table.real], len(self.choice))

    def total(self, base: np.ndarray, shared_points: list[list[tuple[int, int]]]) -> float:
        """The decoder's objective for the readings chosen: their log-probability less a penalty
        for each foreign reading, each pair of corners disagreeing at a point, each repeat."""
        disagreeing = sum(
            _disagreeing_pairs(self.readings[self.choice[[t for t, _ in sharers]], [i for _, i in sharers]])
            for sharers in shared_points
        )
        repeats = int(np.maximum(self.shown - 1, 0).sum())
        likelihood = float(base[np.arange(len(self.choice)), self.choice].sum())  # foreign readings paid already
        return likelihood - self.penalty * (disagreeing + repeats)

    def renumber(self, points: list[list[tuple[int, int]]], candidates: np.ndarray, base: np.ndarray) -> bool:
        """Give every corner at some lattice points (each point's (tile, corner) sharers) the
        numbers of the best row of ``candidates`` (K, points), if that beats the readings there
        now. A number misread at a point shared by several tiles cannot be undone one tile at a
        time: each tile alone would then break with all its partners; nor, when a tile's
        neighbours misread two of its points, one point at a time."""
        _, tiles, after = self.best_renumbering(points, candidates, base)
        if after is None:
            return False
        self.set_all(tiles, after)
        return True

    def best_renumbering(
        self, points: list[list[tuple[int, int]]], candidates: np.ndarray, base: np.ndarray, floor: float = 0.0
    ) -> tuple[float, list[int], np.ndarray | None]:
        """``renumber``'s best row, unapplied: its gain, the tiles it changes and their readings
        (None where no row gains more than ``floor``)."""
        sharers = [sharer for point in points for sharer in point]
        tiles = sorted({t for t, _ in sharers})
        column = {t: k for k, t in enumerate(tiles)}
        sharer_tile = np.array([t for t, _ in sharers])
        sharer_corner = np.array([i for _, i in sharers])
        sharer_point = np.repeat(np.arange(len(points)), [len(point) for point in points])
        before = self.choice[tiles]
        # Each tile's reading with the digits at these points replaced, for every candidate: (K, tiles).
        # A tile's corners at different points hold different digits, so the changes add up.
        digits = self.readings[self.choice[sharer_tile], sharer_corner]
        change = (candidates[:, sharer_point] - digits) * _place_value(sharer_corner, self.numbers)
        in_column = np.zeros((len(sharers), len(tiles)), np.int64)  # each sharer's tile's column
        in_column[np.arange(len(sharers)), [column[t] for t, _ in sharers]] = 1
        after = before + change @ in_column
        disagreeing = sum(_disagreeing_pairs(digits[sharer_point == k]) for k in range(len(points)))
        gains = base[tiles, after].sum(1) - base[tiles, before].sum() + self.penalty * disagreeing
        # Duplicates can fall by at most the repeated tiles here: a bound that skips most candidates.
        repeated = int((self.shown[self.tile_of_reading[before]] > 1).sum())
        set_tiles_before, set_tiles_after = self.tile_of_reading[before].tolist(), self.tile_of_reading[after]
        best_gain, best_after = floor, None
        for k in np.argsort(-gains):
            if gains[k] + self.penalty * repeated <= best_gain + 1e-9:
                break
            gain = gains[k] - self.penalty * self._duplicates_added(set_tiles_before, set_tiles_after[k].tolist())
            if gain > best_gain + 1e-9:
                best_gain, best_after = gain, after[k]
        return best_gain, tiles, best_after

    def _renumbered(self, table: _Sharers, base: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """For the points of ``table``: each sharer's reading now (points, width), its reading with
        the point's number replaced by each number (points, width, numbers), and what each such
        change gains in ``base`` (0 for padding)."""
        now = self.choice[table.tile]
        changed = _with_number(now[..., None], table.corner[..., None], np.arange(self.numbers), self.numbers)
        gains = base[table.tile[..., None], changed] - base[table.tile, now][..., None]
        return now, changed, np.where(table.real[..., None], gains, 0.0)

    def number_gains(self, table: _Sharers, base: np.ndarray) -> np.ndarray:
        """(points, numbers): what giving all corners at each point of ``table`` each number gains
        in ``base``, constraints aside."""
        return self._renumbered(table, base)[2].sum(1)

    def renumbering_bounds(self, table: _Sharers, base: np.ndarray) -> np.ndarray:
        """(points,): the most that renumbering each point of ``table`` alone could gain, as
        ``best_renumbering`` weighs it: its best number's gain in ``base``, the disagreements
        there ended, and every repeat among its tiles undone. Where it is not positive, no
        renumbering of that point gains."""
        _, counts = self._shown_at(table)
        disagreeing = (table.real.sum(1) ** 2 - (counts**2).sum(1)) // 2
        repeated = (self._repeating()[table.tile] & table.real).sum(1)
        return self.number_gains(table, base).max(1) + self.penalty * (disagreeing + repeated)

    def blocked(self, sharers: list[tuple[int, int]], base: np.ndarray) -> tuple[list[int], set[int]]:
        """The numbers that would read better at a lattice point (its (tile, corner) sharers) but
        repeat a set tile shown away from it, and the tiles showing those."""
        tiles, corners = [t for t, _ in sharers], np.array([i for _, i in sharers])
        now = self.choice[tiles]
        changed = _with_number(now, corners, np.arange(self.numbers)[:, None], self.numbers)  # (numbers, sharers)
        better = base[tiles, changed].sum(1) > base[tiles, now].sum() + 1e-9
        here = set(self.tile_of_reading[now].tolist())
        numbers, blockers = [], set()
        for number in np.nonzero(better)[0]:
            repeated = [i for i in set(self.tile_of_reading[changed[number]].tolist()) - here if self.shown[i] > 0]
            if repeated:
                numbers.append(int(number))
                blockers |= set(np.nonzero(np.isin(self.tile_of_reading[self.choice], repeated))[0].tolist())
        return numbers, blockers - set(tiles)

    def point_confidences(self, shared: list[Point], table: _Sharers, base: np.ndarray) -> dict[Point, float]:
        """For each shared lattice point (their sharers: ``table``) whose tiles agree, the share of
        the probability its number keeps when all its corners change together and every other
        number is held. A tile's own confidence cannot show this: its neighbours pin a shared
        corner, so a number misread by every tile at a point would look certain."""
        if not shared:
            return {}
        real, width = table.real, table.real.shape[1]
        now, changed, gains = self._renumbered(table, base)
        digit = self.readings[now, table.corner]
        # A changed tile that repeats one shown elsewhere pays the penalty: shown by a tile away from
        # this point, or by one here changed the same way before it.
        tile_now, tile_changed = self.tile_of_reading[now], self.tile_of_reading[changed]
        here_now = (real[:, None, :, None] & (tile_now[:, None, :, None] == tile_changed[:, :, None, :])).sum(2)
        earlier = np.tril(np.ones((width, width), bool), -1)[None, :, :, None] & real[:, None, :, None]
        here_changed = (earlier & (tile_changed[:, None, :, :] == tile_changed[:, :, None, :])).any(2)
        repeats = real[..., None] & (tile_changed != tile_now[..., None])
        repeats &= self.shown[tile_changed] - here_now + here_changed > 0
        totals = (gains - self.penalty * repeats).sum(1)  # (points, numbers)
        agreeing = ((digit == digit[:, :1]) | ~real).all(1)
        weights = np.exp(totals - totals.max(1, keepdims=True))
        share = weights[np.arange(len(shared)), digit[:, 0]] / weights.sum(1)
        return {point: float(share[k]) for k, point in enumerate(shared) if agreeing[k]}

    def _duplicates_added(self, before: list[int], after: list[int]) -> int:
        """How many more tiles would repeat a set tile already shown, were the set tiles
        ``before`` replaced by those ``after``."""
        more: dict[int, int] = {}
        for tile in after:
            more[tile] = more.get(tile, 0) + 1
        for tile in before:
            more[tile] = more.get(tile, 0) - 1
        added = 0
        for tile, extra in more.items():
            if extra:
                now = int(self.shown[tile])
                added += max(now + extra - 1, 0) - max(now - 1, 0)
        return added


def _leaning(
    given: Sequence[tuple[int, int, int] | None], tiles: int, numbers: int, trust: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """What readings given beforehand add: (tiles, R) log-probability gained, each tile's given
    reading index (-1: none) and the trust it gains (0: none)."""
    rows = _expected_readings(given, tiles, numbers)
    has = rows.any(1)
    return trust * rows, np.where(has, rows.argmax(1), -1), np.where(has, trust, 0.0)


def _expected_readings(expected: Sequence[tuple[int, int, int] | None], tiles: int, numbers: int) -> np.ndarray:
    """(tiles, R) one-hot rows: 1 at each tile's expected reading, none for a tile not known."""
    if len(expected) != tiles:
        raise ValueError(f"expected needs one entry per tile: {len(expected)} for {tiles} tiles")
    rows = np.zeros((tiles, numbers**3))
    for t, known in enumerate(expected):
        if known is None:
            continue
        if len(known) != 3 or not all(0 <= n < numbers for n in known):
            raise ValueError(f"an expected reading is three numbers 0..{numbers - 1}, got {known}")
        a, b, c = known
        rows[t, _index(a, b, c, numbers)] = 1.0
    return rows


def _disagreeing_pairs(numbers: np.ndarray) -> int:
    """Pairs of corners at one point showing different numbers."""
    return (len(numbers) ** 2 - int((np.bincount(numbers) ** 2).sum())) // 2


def place_known(
    known: Sequence[tuple[Cell, tuple[int, int, int]]],
    probabilities: np.ndarray,
    cells: Sequence[Cell | None],
    margin: float = KNOWN_PLACE_MARGIN,
) -> tuple[LatticeMap, float] | None:
    """Where a known board (its tiles' cells and numbers, in its own frame) lies among the
    tiles read here: the lattice symmetry under which the corners read show its numbers best,
    weighed corner by corner (log 8p: nothing at chance, p = 1/8; at worst log(8 *
    ``KNOWN_PLACE_FLOOR``) for a corner that rules the number out), with the evidence gathered.
    Unlike matching the tiles decoded, this holds when small tiles are misread all over a board
    that is there: the corners' probabilities still favour its numbers. None when no symmetry
    wins by ``margin`` over every other that places the known tiles differently."""
    on_board = [i for i, cell in enumerate(cells) if cell is not None]
    if not len(known) or not on_board:
        return None
    read_cells = np.array([cells[i] for i in on_board])
    evidence = np.log(CLASS_COUNT * np.maximum(np.asarray(probabilities, np.float64)[on_board], KNOWN_PLACE_FLOOR))
    low = read_cells.min(0)
    index = np.full(read_cells.max(0) - low + 1, -1)
    index[tuple((read_cells - low).T)] = np.arange(len(on_board))
    given_cells = np.array([cell for cell, _ in known])
    given_numbers = np.array([numbers for _, numbers in known])
    turned = [_turned(given_cells, given_numbers, rotation) for rotation in range(6)]
    totals, maps = [], []  # per rotation: each shift's evidence, and (rotation, dm, dk)
    for rotation, (known_cells, known_numbers) in enumerate(turned):
        shifts = (read_cells[:, None] - known_cells[None]).reshape(-1, 2)
        shifts = _distinct_rows(shifts[shifts.sum(1) % 2 == 0])  # same-facing cells only
        at = known_cells[None] + shifts[:, None] - low  # (shifts, known, 2)
        inside = ((at >= 0) & (at < index.shape)).all(2)
        read = np.where(inside, index[tuple(np.where(inside[..., None], at, 0).transpose(2, 0, 1))], -1)
        shown = sum(evidence[read, corner, known_numbers[:, corner]] for corner in range(3))
        totals.append(np.where(read >= 0, shown, 0.0).sum(1))
        maps.append(np.column_stack([np.full(len(shifts), rotation), shifts]))
    # Never empty: a known cell faces the same way as the cells read under rotation 0 or 1.
    totals, maps = np.concatenate(totals), np.concatenate(maps)
    order = np.argsort(-totals)
    best = float(totals[order[0]])

    def placement(k: int) -> np.ndarray:
        """The known tiles' cells and numbers under map ``k``, as sorted rows."""
        rotation, dm, dk = maps[k]
        cells, numbers = turned[rotation]
        rows = np.column_stack([cells + (dm, dk), numbers])
        return rows[np.lexsort(rows.T[::-1])]

    placed = placement(order[0])
    for k in order[1:]:
        if best - totals[k] >= margin:
            break
        if not np.array_equal(placement(k), placed):
            return None  # a symmetric board (or too little evidence) places it two ways
    return (LatticeMap(*maps[order[0]].tolist()), best) if best >= margin else None


def _turned(cells: np.ndarray, numbers: np.ndarray, rotation: int) -> tuple[np.ndarray, np.ndarray]:
    """``LatticeMap(rotation).corners`` of (N, 2) cells showing (N, 3) numbers, all at once: the
    turned cells, and the numbers re-listed in each turned cell's clockwise order."""
    col, row = cells[:, 0], cells[:, 1]
    up = (col + row) % 2 == 0
    # Each cell's lattice points (m, k) in ``cell_corners`` order, then in axial (i, j) coordinates.
    m = np.stack([np.where(up, col, col - 1), col + 1, np.where(up, col - 1, col)], 1)
    k = np.stack([row, np.where(up, row + 1, row), row + 1], 1)
    i, j = (m - k) // 2, k
    for _ in range(rotation % 6):
        i, j = -j, i + j
    m, k = 2 * i + j, j
    new_col, new_row = m.sum(1) // 3, k.sum(1) // 3
    # A turn keeps the points clockwise: the new cell's corners are the same cycle, started at its
    # first corner (an up cell's apex, a down cell's top left).
    first_m = np.where((new_col + new_row) % 2 == 0, new_col, new_col - 1)
    start = np.argmax((m == first_m[:, None]) & (k == new_row[:, None]), axis=1)
    relisted = np.take_along_axis(numbers, (start[:, None] + np.arange(3)) % 3, axis=1)
    return np.column_stack([new_col, new_row]), relisted


def _distinct_rows(pairs: np.ndarray) -> np.ndarray:
    """The distinct rows of an (N, 2) integer array, sorted by the first column and then the
    second, as ``np.unique(pairs, axis=0)`` gives them but several times faster (it sorts the
    rows as records): each row becomes one integer key."""
    if not len(pairs):
        return pairs
    low = pairs.min(0)
    width = int(pairs[:, 1].max() - low[1]) + 1
    keys = np.unique((pairs[:, 0] - low[0]) * width + (pairs[:, 1] - low[1]))
    return np.column_stack([keys // width + low[0], keys % width + low[1]])
