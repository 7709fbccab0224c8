"""The constraint decoder, fed synthetic corner probabilities (no images)."""

import itertools
import math
from collections import Counter
from dataclasses import replace

import numpy as np
import pytest

from engine.board import Board
from engine.lattice import LatticeMap, cell_corners
from engine.rules import get_rules
from engine.simulate import random_board
from engine.tiles import canonical
from vision.decode import (
    DEFAULT_PENALTY,
    DecodedTile,
    _Chosen,
    _distinct_rows,
    _evidence_bound,
    _index,
    _readings,
    _set_evidence,
    _Sharers,
    _sharing,
    _turned,
    decode,
    decode_in_either_set,
    place_known,
)
from vision.reader import read_numbers


def confident(readings, sure=0.97):
    """Probabilities that favour each given number with ``sure``, the rest spread thin."""
    probs = np.full((len(readings), 3, 8), (1 - sure) / 7)
    for t, reading in enumerate(readings):
        for i, n in enumerate(reading):
            probs[t, i, n] = sure
    return probs


def numbers(decoded):
    return [d.numbers for d in decoded]


def _board_by_point(seed, tiles):
    """A random board's cells, numbers, and each lattice point's (tile, corner) sharers."""
    board = random_board(seed, tiles)
    cells = [p.cell for p in board.placements]
    return cells, [p.corners for p in board.placements], _sharing(cells)[0]


def test_clean_board_reads_back_exactly():
    board = random_board(4, 40)
    truth = [p.corners for p in board.placements]
    decoded = decode(confident(truth), [p.cell for p in board.placements])
    assert numbers(decoded) == truth
    assert not any(d.ambiguous for d in decoded) and all(d.in_set for d in decoded)


def test_neighbours_outvote_a_misread_corner():
    board = random_board(9, 30)
    truth = [p.corners for p in board.placements]
    probs = confident(truth)
    # Tile 5's first corner is read wrong (0.8 for a wrong number); its neighbours agree on the truth.
    wrong = (truth[5][0] + 1) % 6
    probs[5, 0] = 0.2 / 7
    probs[5, 0, wrong] = 0.8
    decoded = decode(probs, [p.cell for p in board.placements])
    assert numbers(decoded) == truth


def test_a_real_corner_mismatch_is_kept_not_corrected():
    # Down (1,0) shares (0,0)-(1,1) with up (0,0); both are read with near certainty and disagree.
    board = Board.of([((0, 0), (5, 5, 5)), ((1, 0), (4, 3, 4))])
    probs = confident([p.corners for p in board.placements], sure=0.999999)
    decoded = decode(probs, [p.cell for p in board.placements])
    assert numbers(decoded) == [(5, 5, 5), (4, 3, 4)]


def test_reading_becomes_a_set_tile_unless_the_evidence_is_overwhelming():
    probs = confident([(5, 2, 1)], sure=0.6)
    probs[0, 1, 5] = 0.3  # 5-5-1 read clockwise is a tile (1-5-5)
    (weak,) = decode(probs, [None])
    assert weak.in_set and weak.numbers != (5, 2, 1)
    (strong,) = decode(confident([(5, 2, 1)], sure=0.999999), [None])
    assert strong.numbers == (5, 2, 1) and not strong.in_set


def test_each_tile_appears_once():
    probs = confident([(1, 2, 5), (1, 2, 5)])
    probs[1, 2] = 0.3 / 6
    probs[1, 2, 5], probs[1, 2, 4] = 0.4, 0.3  # second choice 1-2-4
    decoded = decode(probs, [None, None])
    assert sorted(numbers(decoded)) == [(1, 2, 4), (1, 2, 5)]


def test_what_the_constraints_cannot_settle_is_flagged():
    probs = confident([(0, 3, 4)])
    probs[0, 0] = 0.0
    probs[0, 0, 0], probs[0, 0, 1] = 0.5, 0.5  # 0-3-4 and 1-3-4 are both tiles
    (tile,) = decode(probs, [None])
    assert tile.ambiguous and tile.confidences[0] == pytest.approx(0.5, abs=0.01)
    assert tile.confidences[1] > 0.95  # about its own probability, 0.97


def test_unreadable_corner_is_filled_in_by_the_board():
    board = random_board(2, 20)
    truth = [p.corners for p in board.placements]
    probs = confident(truth)
    probs[3, 2] = 0.0
    probs[3, 2, 7] = 1.0  # "no number": a hand covers it
    decoded = decode(probs, [p.cell for p in board.placements])
    assert decoded[3].numbers == truth[3]


def test_large_set_numbers():
    decoded = decode(confident([(6, 6, 6), (2, 4, 6)]), [None, None], max_number=6)
    assert numbers(decoded) == [(6, 6, 6), (2, 4, 6)]


def _large_board(seed, tiles):
    board = random_board(seed, tiles, replace(get_rules("pressman-us"), max_number=6))
    return [p.cell for p in board.placements], [p.corners for p in board.placements]


def _sixes_unsure(truth):
    """``confident`` probabilities but every 6 read at 0.6, none surely: small tiles."""
    probs = confident(truth)
    sixes = np.array(truth) == 6
    probs[sixes] = 0.4 / 7
    probs[..., 6][sixes] = 0.6
    return probs


def _points(cells):
    """Each lattice point's (tile, corner) sharers."""
    return list(_sharing(cells)[0].values())


def test_a_large_set_is_seen_in_many_unsure_sixes():
    # Small tiles: every 6 is read at 0.6, none surely; a 6 that no set of 0..5 holds still
    # outweighs the large set's lower odds of any one tile.
    cells, truth = _large_board(3, 30)
    assert (np.array(truth) == 6).sum() >= 8
    probs = _sixes_unsure(truth)
    decoded, max_number = decode_in_either_set(probs, cells)
    assert max_number == 6 and numbers(decoded) == truth
    assert (probs[..., 6] < 0.9).all()  # no 6 read surely


def test_one_misread_six_does_not_make_the_set_large():
    board = random_board(9, 30)
    truth = [p.corners for p in board.placements]
    probs = confident(truth)
    probs[5, 0] = 0.05 / 7
    probs[5, 0, 6] = 0.95  # read surely, and wrongly; its neighbours show the truth
    decoded, max_number = decode_in_either_set(probs, [p.cell for p in board.placements])
    assert max_number == 5 and numbers(decoded) == truth


def test_a_set_named_is_the_one_decoded():
    cells, truth = _large_board(3, 10)
    _, max_number = decode_in_either_set(confident(truth), cells, max_numbers=(5,))
    assert max_number == 5
    assert decode_in_either_set(np.zeros((0, 3, 8)), []) == ([], 5)


def test_set_evidence_weighs_the_set_size_and_broken_constraints():
    truth = [p.corners for p in random_board(5, 5).placements]
    probs, loose = confident(truth), [None] * len(truth)
    standard, large = (_set_evidence(probs, [], decode(probs, loose, m), m) for m in (5, 6))
    assert standard - large == pytest.approx(len(truth) * math.log(84 / 56))
    probs = confident([(1, 2, 5), (1, 2, 5)])
    shown = DecodedTile(None, (1, 2, 5), (1.0, 1.0, 1.0), True, False)
    twice = _set_evidence(probs, [], [shown, shown], 5)
    once = _set_evidence(probs, [], [shown, replace(shown, numbers=(1, 2, 4))], 5)
    thin = 0.03 / 7  # "no number" too, spread over the seven numbers
    assert twice - once == pytest.approx(math.log((0.97 + thin / 7) / (thin + thin / 7)) - DEFAULT_PENALTY)


def test_no_board_beats_the_evidence_bound():
    # What lets a set go undecoded: its bound is never below the evidence of a board decoded in it.
    rng = np.random.default_rng(0)
    for seed in range(6):
        cells, truth = _large_board(seed, 20)
        cells[-3:] = [None] * 3  # loose tiles too
        noise = rng.dirichlet(np.full(8, 0.3), size=(len(truth), 3))
        probs = 0.5 * confident(truth, sure=0.9) + 0.5 * noise
        for max_number in (5, 6):
            evidence = _set_evidence(probs, _points(cells), decode(probs, cells, max_number), max_number)
            assert _evidence_bound(probs, _Sharers.of(_points(cells)), max_number) >= evidence


def test_the_set_in_play_is_named_by_the_rules_or_a_known_six_else_read():
    rules = get_rules("pressman-us")
    cells, truth = _large_board(3, 20)
    outlines = np.array([[[50.0 * k, 100], [50.0 * k + 40, 100], [50.0 * k + 20, 135]] for k in range(len(cells))])
    tiles, max_number = read_numbers(_sixes_unsure(truth), outlines, cells, rules)
    assert max_number == 6 and [t.numbers for t in tiles] == truth
    standard = [p.corners for p in random_board(4, 20).placements]
    assert read_numbers(confident(standard), outlines, cells, rules)[1] == 5
    assert read_numbers(confident(standard), outlines, cells, replace(rules, max_number=6))[1] == 6
    assert read_numbers(confident(standard), outlines, cells, rules, hints={cells[0]: (1, 1, 6)})[1] == 6


def test_bad_shapes():
    with pytest.raises(ValueError):
        decode(np.zeros((2, 3, 7)), [None, None])
    with pytest.raises(ValueError):
        decode(np.zeros((2, 3, 8)), [None])
    assert decode(np.zeros((0, 3, 8)), []) == []
    with pytest.raises(ValueError, match="three numbers and three confidences"):
        DecodedTile(None, (1, 2), (1.0, 1.0), True, False)
    with pytest.raises(ValueError, match=r"confidences must lie in 0\.\.1"):
        DecodedTile((0, 0), (1, 2, 3), (1.0, 1.5, 0.9), True, False)


def test_a_point_misread_by_its_surest_tile_is_renumbered_for_all_its_tiles():
    # Corner by corner, the tiles at one lattice point favour the truth there (0.7 against 0.3),
    # but the surest of them reads another number (0.9): chosen first, it would lead each of the
    # others astray, as no tile alone can break with all its partners.
    cells, truth, sharers = _board_by_point(0, 30)
    point = (0, 0)  # six tiles meet there; reading 5 for its 4 at all six still gives six set tiles, none twice
    right, wrong = 4, 5
    probs = confident(truth)
    for k, (t, i) in enumerate(sharers[point]):
        probs[t, i] = 0.0
        probs[t, i, right], probs[t, i, wrong] = (0.1, 0.9) if k == 0 else (0.7, 0.3)
    assert len(sharers[point]) == 6 and truth[sharers[point][0][0]][sharers[point][0][1]] == right
    assert numbers(decode(probs, cells)) == truth


def test_a_point_read_unsurely_by_all_its_tiles_is_flagged():
    # Every tile at one point reads it 4 or 5 at 0.55 against 0.45: the point as a whole is
    # about (0.55/0.45)^6, 0.77, sure of its number, though each tile alone, its neighbours
    # holding the point, could not change it.
    board = random_board(0, 30)
    cells = [p.cell for p in board.placements]
    truth = [p.corners for p in board.placements]
    probs = confident(truth)
    sharers = [(t, i) for t, cell in enumerate(cells) for i, point in enumerate(cell_corners(cell)) if point == (0, 0)]
    for t, i in sharers:
        probs[t, i] = 0.0
        probs[t, i, 4], probs[t, i, 5] = 0.55, 0.45
    decoded = decode(probs, cells)
    assert numbers(decoded) == truth
    at_point = [decoded[t].confidences[i] for t, i in sharers]
    assert all(c == pytest.approx(0.55**6 / (0.55**6 + 0.45**6), abs=0.01) for c in at_point)
    assert all(decoded[t].ambiguous for t, _ in sharers)
    others = [c for t, d in enumerate(decoded) for i, c in enumerate(d.confidences) if (t, i) not in sharers]
    assert min(others) > 0.9  # points read surely stay sure


def _noisy(truth, rng, right=0.7):
    """Unsure probabilities: each corner's likeliest number is the true one only ``right`` of the
    time (else another number), the rest of the mass spread at random."""
    probs = rng.dirichlet(np.full(8, 0.5), size=(len(truth), 3)) * 0.5
    for t, reading in enumerate(truth):
        for i, n in enumerate(reading):
            probs[t, i, n if rng.uniform() < right else (n + rng.integers(1, 6)) % 6] += 0.5
    return probs


def test_unsure_boards_are_mended_by_moving_a_tiles_three_points_at_once():
    # Corners read right only 70% of the time (small tiles): the board's constraints mend most of
    # the rest, once a tile may change all three of its points together and the search may also
    # start from each point's consensus. Single corners and single points alone leave 24% of the
    # wrong corners more (measured: 228 against 189 of 299).
    raw = decoded = 0
    for seed in range(8):
        rng = np.random.default_rng(seed)
        board = random_board(seed, 40)
        truth = [p.corners for p in board.placements]
        probs = _noisy(truth, rng)
        raw += int((probs.argmax(2) != np.array(truth)).sum())
        result = decode(probs, [p.cell for p in board.placements])
        decoded += int((np.array(numbers(result)) != np.array(truth)).sum())
    assert decoded <= 0.7 * raw


def test_a_known_tile_wins_over_a_misread_it_explains():
    # A lone tile read 2-3-4 more likely than its true 1-3-4: a live game that saw 1-3-4 placed
    # there keeps it; without that knowledge the misread stands.
    probs = confident([(2, 3, 4)], sure=0.7)
    probs[0, 0, 1] = 0.25
    assert numbers(decode(probs, [(0, 0)])) == [(2, 3, 4)]
    (known,) = decode(probs, [(0, 0)], expected=[(1, 3, 4)])
    assert known.numbers == (1, 3, 4) and known.confidences[0] > 0.99


def test_clear_evidence_of_another_tile_overrides_what_was_known():
    # The tile was swapped since: every corner clearly shows another one.
    probs = confident([(2, 3, 4)], sure=0.999999)
    assert numbers(decode(probs, [(0, 0)], expected=[(1, 3, 4)])) == [(2, 3, 4)]


def test_a_hint_settles_a_doubt_but_makes_no_number_sure_and_gives_way_to_a_clear_reading():
    # A live game placed 1-3-4 from an unsure reading: read again unsurely as 2-3-4, the hint
    # keeps 1-3-4, still flagged as unsure as the evidence is; read clearly as 2-3-4, that
    # stands, where expecting 1-3-4 would have kept it.
    doubt = confident([(2, 3, 4)], sure=0.6)
    doubt[0, 0, 1] = 0.35
    assert numbers(decode(doubt, [(0, 0)])) == [(2, 3, 4)]
    (hinted,) = decode(doubt, [(0, 0)], hints=[(1, 3, 4)])
    assert hinted.numbers == (1, 3, 4) and hinted.ambiguous and hinted.confidences[0] < 0.5
    clear = confident([(2, 3, 4)], sure=0.95)
    clear[0, 0, 1] = 0.04
    assert numbers(decode(clear, [(0, 0)], hints=[(1, 3, 4)])) == [(2, 3, 4)]
    assert numbers(decode(clear, [(0, 0)], expected=[(1, 3, 4)])) == [(1, 3, 4)]


def test_known_tiles_settle_their_unknown_neighbours_shared_points():
    # Every corner at the new tile's points shared with the board misreads one wrong number, so
    # the corners agree on it; the board the game knows settles those points.
    board = random_board(7, 12)
    truth = [p.corners for p in board.placements]
    cells = [p.cell for p in board.placements]
    probs = confident(truth, sure=0.6)
    new = len(truth) - 1
    on_board = {point for cell in cells[:-1] for point in cell_corners(cell)}
    shared = [point for point in cell_corners(cells[new]) if point in on_board]
    assert len(shared) >= 2
    for t, cell in enumerate(cells):
        for i, point in enumerate(cell_corners(cell)):
            if point in shared:
                probs[t, i] = 0.35 / 7
                probs[t, i, (truth[t][i] + 2) % 6] = 0.65
    assert numbers(decode(probs, cells))[new] != truth[new]
    assert numbers(decode(probs, cells, expected=truth[:-1] + [None])) == truth


def test_expected_readings_are_checked():
    probs = confident([(1, 2, 3)])
    with pytest.raises(ValueError, match="one entry per tile"):
        decode(probs, [(0, 0)], expected=[])
    with pytest.raises(ValueError, match=r"three numbers 0\.\.5"):
        decode(probs, [(0, 0)], expected=[(1, 2, 6)])


def test_a_known_board_is_placed_by_its_corners_where_most_of_them_are_misread():
    # Half the corners read wrong (tiles too small to read): the tiles decoded no longer match
    # the game's board, but the corners' probabilities still favour its numbers in its place.
    board = random_board(11, 30)
    known = [(p.cell, p.corners) for p in board.placements]
    moved = LatticeMap(2, 4, 0)
    here = [moved.corners(cell, numbers) for cell, numbers in known]
    probs = _noisy([numbers for _, numbers in here], np.random.default_rng(3), right=0.5)
    placed = place_known(known, probs, [cell for cell, _ in here])
    assert placed is not None
    mapping, evidence = placed
    assert {mapping.corners(cell, numbers) for cell, numbers in known} == set(here) and evidence > 0
    assert place_known(known, np.full_like(probs, 1 / 8), [cell for cell, _ in here]) is None  # nothing read


def test_a_known_tile_read_in_two_places_is_not_placed():
    known = [((0, 0), (1, 2, 4))]
    probs = confident([(1, 2, 4), (1, 2, 4)])
    assert place_known(known, probs, [(0, 0), (4, 0)]) is None
    placed = place_known(known, probs[:1], [(6, 2)])
    assert placed is not None and placed[0].corners((0, 0), (1, 2, 4)) == ((6, 2), (1, 2, 4))
    # A tile the same all round is placed the same by three rotations: not ambiguous.
    assert place_known([((0, 0), (3, 3, 3))], confident([(3, 3, 3)]), [(2, 0)]) is not None


def _renumbered(truth, sharers, numbers_at):
    """The board's readings with every corner at some lattice points given another number."""
    readings = [list(reading) for reading in truth]
    for point, number in numbers_at.items():
        for t, i in sharers[point]:
            readings[t][i] = number
    return [tuple(reading) for reading in readings]


def _a_valid_board(readings):
    tiles = [canonical(reading) for reading in readings]
    return None not in tiles and len(set(tiles)) == len(tiles)


def test_two_points_that_only_change_together_are_renumbered_together():
    # Two lattice points' numbers read the other way round still give a valid board, while either
    # point alone changed back repeats a tile: the surest tile at the second point reads the first
    # point's number (0.995), its other tiles read the truth only 0.6 against 0.4. Point by point
    # the search cannot climb out: before two points could change at once (and the search always
    # started again from each point's consensus), 7 of these 26 boards decoded wrong.
    cases = 0
    for seed in range(100):
        cells, truth, sharers = _board_by_point(seed, 30)
        number = {point: truth[t][i] for point, ((t, i), *_) in sharers.items()}
        points = [point for point, here in sharers.items() if len(here) >= 3]
        for first, second in itertools.permutations(points, 2):
            x, y = number[first], number[second]
            if x == y or {t for t, _ in sharers[first]} & {t for t, _ in sharers[second]}:
                continue
            if not _a_valid_board(_renumbered(truth, sharers, {first: y, second: x})):
                continue
            if _a_valid_board(_renumbered(truth, sharers, {first: y})):
                continue
            if _a_valid_board(_renumbered(truth, sharers, {second: x})):
                continue
            probs = confident(truth)
            for k, (t, i) in enumerate(sharers[second]):
                probs[t, i] = 0.0
                probs[t, i, x], probs[t, i, y] = (0.995, 0.005) if k == 0 else (0.4, 0.6)
            assert numbers(decode(probs, cells)) == truth, (seed, first, second)
            cases += 1
    assert cases >= 20


def _log_likelihood(probs, cells, readings, max_number=5):
    """What the decoder maximises: the readings' log-probability ("no number" spread over every
    number), less DEFAULT_PENALTY for each foreign reading, each repeat of a set tile and each
    pair of corners showing different numbers at one lattice point."""
    kept = probs[:, :, : max_number + 1] + probs[:, :, 7:8] / (max_number + 1)
    log_p = np.log(np.clip(kept / kept.sum(2, keepdims=True), 1e-12, 1.0))
    total = sum(log_p[t, i, n] for t, reading in enumerate(readings) for i, n in enumerate(reading))
    tiles = [canonical(reading) for reading in readings]
    broken = tiles.count(None) + sum(count - 1 for count in Counter(t for t in tiles if t).values())
    shown = {}
    for cell, reading in zip(cells, readings):
        for point, n in zip(cell_corners(cell), reading):
            shown.setdefault(point, []).append(n)
    broken += sum(a != b for here in shown.values() for a, b in itertools.combinations(here, 2))
    return total - DEFAULT_PENALTY * broken


def test_no_tile_side_renumbered_makes_a_likelier_board():
    # Both points of a tile side misread can leave every change of one point breaking a constraint
    # (a foreign reading, a repeat) that changing both at once mends. The decoder tries both at
    # once, so no such change of its answer is likelier. Before, 4 of these 12 unsure boards
    # (corners read right 60% of the time) ended where one was.
    for seed in range(12):
        cells, truth, sharers = _board_by_point(seed, 30)
        probs = _noisy(truth, np.random.default_rng(seed), right=0.6)
        read = numbers(decode(probs, cells))
        best = _log_likelihood(probs, cells, read)
        sides = {side for cell in cells for side in itertools.combinations(sorted(cell_corners(cell)), 2)}
        for a, b in sides:
            for x, y in itertools.product(range(6), repeat=2):
                assert _log_likelihood(probs, cells, _renumbered(read, sharers, {a: x, b: y})) <= best + 1e-9


def _chosen_for(cells, board):
    """The decoder's record of a board's readings (standard set)."""
    readings, _, tile_of_reading = _readings(5)
    chosen = _Chosen(np.full(len(cells), -1), readings, tile_of_reading, _sharing(cells)[1], DEFAULT_PENALTY)
    chosen.set_all(range(len(cells)), [_index(*reading, 6) for reading in board])
    return chosen


def test_a_renumbering_gains_what_the_board_it_makes_gains_in_the_decoders_objective():
    # best_renumbering weighs every candidate at once (readings rebuilt digit by digit, the
    # disagreements it ends and the repeats it adds counted apart); whatever it picks must be
    # what renumbering the board and weighing it whole (``_Chosen.total``) gains, at single
    # points and at both points of a tile side (where the side's two tiles change two digits each).
    readings, foreign, _ = _readings(5)
    for seed in range(3):
        rng = np.random.default_rng(seed)
        cells, truth, sharers = _board_by_point(seed, 24)
        base = sum(np.log(_noisy(truth, rng, right=0.8))[:, i, readings[:, i]] for i in range(3))
        base = base - DEFAULT_PENALTY * foreign
        choice = np.array([_index(*reading, 6) for reading in truth])
        moved = rng.uniform(size=len(choice)) < 0.25
        choice[moved] = rng.integers(0, len(readings), moved.sum())
        shared = [point for point in sharers.values() if len(point) > 1]
        now = [tuple(int(n) for n in readings[r]) for r in choice]
        chosen = _chosen_for(cells, now)
        sides = sorted({side for cell in cells for side in itertools.combinations(sorted(cell_corners(cell)), 2)})
        for points in [(point,) for point in sorted(sharers)[::3]] + sides[::4]:
            candidates = np.array(list(itertools.product(range(6), repeat=len(points))))
            boards = [_renumbered(now, sharers, dict(zip(points, row))) for row in candidates.tolist()]
            gains = [_chosen_for(cells, board).total(base, shared) - chosen.total(base, shared) for board in boards]
            gain, tiles, after = chosen.best_renumbering([sharers[point] for point in points], candidates, base)
            if max(gains) <= 1e-6:
                assert after is None
                continue
            best = boards[int(np.argmax(gains))]
            assert gain == pytest.approx(max(gains), abs=1e-6)
            assert [tuple(readings[r]) for r in after] == [best[t] for t in tiles]


def test_the_search_passes_over_only_tiles_and_points_that_could_not_change():
    # The search tries a tile or a lattice point only where a bound says trying could change
    # something. On noisy boards with readings chosen partly at random (mismatches, repeats,
    # foreign tiles), wherever a bound says no, trying indeed changes nothing; and it says no
    # often enough to save the tries.
    readings, foreign, tile_of_reading = _readings(5)
    passed_over = points_passed_over = 0
    for seed in range(6):
        rng = np.random.default_rng(seed)
        board = random_board(seed, 30)
        cells = [p.cell for p in board.placements]
        log_p = np.log(_noisy([p.corners for p in board.placements], rng, right=0.9)[:, :, :6])
        base = sum(log_p[:, i, readings[:, i]] for i in range(3)) - DEFAULT_PENALTY * foreign
        choice = np.array([_index(*p.corners, 6) for p in board.placements])
        moved = rng.uniform(size=len(choice)) < 0.2
        choice[moved] = rng.integers(0, len(readings), moved.sum())
        at_point, partners = _sharing(cells)
        chosen = _Chosen(np.full(len(cells), -1), readings, tile_of_reading, partners, DEFAULT_PENALTY)
        chosen.set_all(range(len(cells)), choice)
        shared = [sharers for sharers in at_point.values() if len(sharers) > 1]
        table, every_point = _Sharers.of(shared), _Sharers.of(list(at_point.values()))
        top_two = np.sort(base, axis=1)[:, -2:]
        for t, may in enumerate(chosen.may_change(table, base, top_two)):
            assert may or chosen.scores(t, base[t]).argmax() == choice[t]
            passed_over += not may
        for sharers, bound in zip(shared, chosen.renumbering_bounds(table, base)):
            assert bound > 0 or chosen.best_renumbering([sharers], np.arange(6)[:, None], base)[2] is None
            points_passed_over += bound <= 0
        for sharers, gains in zip(at_point.values(), chosen.number_gains(every_point, base)):
            assert gains.max() > 0 or not chosen.blocked(sharers, base)[0]
        troubled = [
            bool(foreign[r])
            or chosen.shown[tile_of_reading[r]] > 1
            or any(readings[choice[u], j] != readings[r, i] for i in range(3) for u, j in partners[t][i])
            for t, r in enumerate(choice)
        ]
        assert chosen.in_trouble(table, foreign).tolist() == troubled
    assert passed_over > 18 and points_passed_over > 30  # of 180 tiles and 140 shared points (measured: 36, 65)


def test_distinct_rows_come_as_numpys_unique_rows():
    # place_known weighs the shifts in this order, so which of two equal totals wins stays the same.
    rng = np.random.default_rng(3)
    for _ in range(300):
        pairs = rng.integers(-40, 40, (int(rng.integers(1, 80)), 2)) * rng.integers(1, 4, 2)
        assert np.array_equal(_distinct_rows(pairs), np.unique(pairs, axis=0))
    assert _distinct_rows(np.zeros((0, 2), int)).shape == (0, 2)


def test_tiles_turned_all_at_once_land_where_the_lattice_map_puts_each():
    # place_known turns a known board's tiles in arrays; each must land as LatticeMap.corners
    # puts it, its numbers re-listed clockwise from its new cell's first corner.
    rng = np.random.default_rng(5)
    cells = rng.integers(-30, 30, (200, 2))
    numbers = rng.integers(0, 7, (200, 3))
    for rotation in range(-1, 8):
        turned_cells, relisted = _turned(cells, numbers, rotation)
        expected = [LatticeMap(rotation).corners(tuple(c), tuple(n)) for c, n in zip(cells.tolist(), numbers.tolist())]
        assert [(tuple(c), tuple(n)) for c, n in zip(turned_cells.tolist(), relisted.tolist())] == expected
