"""Reader stages without the finder model: cores to outlines, and the tile added between photos."""

import numpy as np

from engine.board import Board, PlacedTile
from engine.lattice import LatticeMap
from engine.rules import get_rules
from engine.simulate import random_board
from models.finder_data import core_map
from vision.find import clockwise, outlines_from_cores
from vision.reader import frame_map, last_placement


def test_cores_give_back_their_triangles():
    rng = np.random.default_rng(0)
    truth = []
    for k in range(6):  # separate tiles of different sizes and turns, full-size pixels
        centre = np.array([150 + 220 * (k % 3), 150 + 260 * (k // 3)])
        side = rng.uniform(40, 140)
        angle = rng.uniform(0, 2 * np.pi) + np.array([0, 2.094, 4.189])
        truth.append(clockwise(centre + side / np.sqrt(3) * np.column_stack([np.cos(angle), np.sin(angle)])))
    truth = np.array(truth)
    scale = 0.5
    cores = core_map(truth, (480, 640), scale)
    found = outlines_from_cores(cores > 0, scale)
    assert len(found) == len(truth)
    for tri in truth:
        match = found[np.argmin(np.linalg.norm(found.mean(1) - tri.mean(0), axis=1))]
        side = np.linalg.norm(tri[0] - tri[1])
        errors = [np.min(np.linalg.norm(match - corner, axis=1)) for corner in tri]
        assert max(errors) < 0.08 * side + 3
        (ax, ay), (bx, by), (cx, cy) = match
        assert (bx - ax) * (cy - ay) - (by - ay) * (cx - ax) > 0


def test_tiny_specks_are_not_tiles():
    cores = np.zeros((100, 100), bool)
    cores[10:12, 10:12] = True
    assert len(outlines_from_cores(cores, 1.0)) == 0


def moved(board: Board, mapping: LatticeMap) -> Board:
    return Board(tuple(PlacedTile(*mapping.corners(p.cell, p.corners)) for p in board.placements))


def test_added_tile_is_scored_whatever_frame_each_photo_picked():
    rules = get_rules("pressman-us")
    after = random_board(5, 20)
    before = moved(after.without_last(), LatticeMap(2, 3, -1))  # the earlier photo chose another frame
    result, note = last_placement(before, after, rules)
    assert note is None
    assert result.cell == after.placements[-1].cell and result.legal
    assert frame_map(before, after) == LatticeMap(4, *_inverse_shift(LatticeMap(2, 3, -1)))


def _inverse_shift(mapping: LatticeMap) -> tuple[int, int]:
    back = LatticeMap(6 - mapping.rotation)
    m, k = back.point((mapping.dm, mapping.dk))
    return -m, -k


def test_two_new_tiles_or_none_are_reported_not_scored():
    rules = get_rules("pressman-us")
    after = random_board(6, 12)
    result, note = last_placement(Board(after.placements[:-2]), after, rules)
    assert result is None and "2 tiles were added" in note
    result, note = last_placement(after, after, rules)
    assert result is None and "0 tiles" in note


def test_opening_tile_on_an_empty_table():
    rules = get_rules("pressman-us")
    result, note = last_placement(Board(), Board.of([((0, 0), (5, 5, 5))]), rules)
    assert result.score.total == 25 and note is None
