"""Lattice fitting on synthetic corner sets: perspective, noise, hand-placement gaps."""

import math

import numpy as np
import pytest

from engine.board import Board
from engine.lattice import LatticeMap, cell_corners, point_xy
from engine.simulate import random_board
from vision.lattice import fit_lattice


def camera(rng, tilt_deg):
    """A homography from the lattice plane (edge units) to pixels: turn, scale, tilt, shift."""
    angle = rng.uniform(0, 2 * math.pi)
    scale = rng.uniform(30, 90)
    turn = np.array([[math.cos(angle), -math.sin(angle), 0], [math.sin(angle), math.cos(angle), 0], [0, 0, 1]])
    tilt = math.radians(tilt_deg)
    perspective = np.array([[1, 0, 0], [0, math.cos(tilt), 0], [0, math.sin(tilt) / 12, 1]])
    return np.array([[scale, 0, 640], [0, scale, 480], [0, 0, 1]]) @ perspective @ turn


def project(H, xy):
    p = np.column_stack([xy, np.ones(len(xy))]) @ H.T
    return p[:, :2] / p[:, 2:3]


def outlines_of(board: Board, H, rng, noise=0.02, gap=0.06):
    outlines = []
    for placed in board.placements:
        pts = np.array([point_xy(p) for p in cell_corners(placed.cell)])
        centre = pts.mean(0)
        pts = centre + (pts - centre) * (1 - gap) + rng.normal(0, noise, pts.shape)
        outlines.append(project(H, pts))
    return np.array(outlines)


def matching_map(found, truth):
    """The lattice symmetry that takes the found cells to the true ones, if any."""
    for rotation in range(6):
        turned = LatticeMap(rotation)
        m, k = turned.point(cell_corners(found[0])[0])
        for target in cell_corners(truth[0]):
            dm, dk = target[0] - m, target[1] - k
            if (dm + dk) % 2:
                continue
            mapping = LatticeMap(rotation, dm, dk)
            if all(mapping.cell(f) == t for f, t in zip(found, truth)):
                return mapping
    return None


@pytest.mark.parametrize(("seed", "tilt"), [(1, 0), (2, 30), (3, 50), (4, 60), (5, 20)])
def test_recovers_the_board_up_to_a_symmetry(seed, tilt):
    rng = np.random.default_rng(seed)
    board = random_board(seed, 40)
    H = camera(rng, tilt)
    outlines = outlines_of(board, H, rng)
    order = rng.permutation(len(outlines))  # the finder reports tiles in no particular order
    fit = fit_lattice(outlines[order])
    truth = [board.placements[i].cell for i in order]
    assert None not in fit.cells
    mapping = matching_map(fit.cells, truth)
    assert mapping is not None
    # Corners re-listed in cell order carry the tile's numbers in cell order.
    reordered = fit.corners_in_cell_order(outlines[order])
    expected = np.array(
        [[project(H, np.array([point_xy(mapping.point(p))]))[0] for p in cell_corners(found)] for found in fit.cells]
    )
    assert np.abs(reordered - expected).max() < 0.2 * fit.side_px


def test_loose_tiles_stay_loose_and_point_contact_gets_a_cell():
    rng = np.random.default_rng(7)
    board = Board.of([((0, 0), (5, 5, 5)), ((1, 0), (5, 3, 5)), ((-1, 0), (5, 5, 4)), ((0, 1), (5, 5, 2))])
    # (1, 1) touches the board only at point (1, 1); (9, 0) is far away.
    extra = Board.of([((1, 1), (5, 0, 1)), ((9, 0), (1, 2, 3))])
    H = camera(rng, 25)
    outlines = np.concatenate([outlines_of(board, H, rng), outlines_of(extra, H, rng)])
    fit = fit_lattice(outlines)
    joined, point_only, loose = fit.cells[:4], fit.cells[4], fit.cells[5]
    mapping = matching_map(joined, [p.cell for p in board.placements])
    assert mapping is not None
    assert mapping.cell(point_only) == (1, 1)
    assert loose is None


def test_seed_tile_makes_the_lattice_upright():
    rng = np.random.default_rng(3)
    board = random_board(3, 10)
    upright = np.array([[1, 0, 300], [0, 1, 200], [0, 0, 1]]) @ np.diag([60, 60, 1])
    fit = fit_lattice(outlines_of(board, upright, rng, noise=0.0))
    assert matching_map(fit.cells, [p.cell for p in board.placements]).rotation == 0


def test_empty_and_single():
    assert fit_lattice(np.zeros((0, 3, 2))).cells == []
    single = fit_lattice(np.array([[[0, 0], [10, 17], [-10, 17]]], float))
    assert single.cells == [None]


def test_a_double_detection_does_not_claim_a_taken_cell():
    rng = np.random.default_rng(11)
    board = random_board(11, 8)
    outlines = outlines_of(board, camera(rng, 10), rng)
    doubled = np.concatenate([outlines, outlines[3:4] + 1.0])  # the same tile found twice
    fit = fit_lattice(doubled)
    cells = [c for c in fit.cells if c is not None]
    assert len(cells) == len(set(cells)) == len(board)


def test_frontier_shows_where_a_missed_tile_would_be():
    from vision.lattice import frontier_triangles

    rng = np.random.default_rng(12)
    board = random_board(12, 25)
    H = camera(rng, 30)
    outlines = outlines_of(board, H, rng, noise=0.01, gap=0.02)
    missed = 10
    fit = fit_lattice(np.delete(outlines, missed, axis=0))
    cells, triangles = frontier_triangles(fit, np.delete(outlines, missed, axis=0))
    side = fit.side_px
    centre = outlines[missed].mean(0)
    nearest = np.argmin(np.linalg.norm(triangles.mean(1) - centre, axis=1))
    assert np.linalg.norm(triangles[nearest].mean(0) - centre) < 0.1 * side
    assert len(cells) == len(triangles) and len(set(cells)) == len(cells)
