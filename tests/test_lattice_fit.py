"""Lattice fitting on synthetic corner sets: perspective, noise, hand-placement gaps."""

import math
from collections import Counter
from dataclasses import replace

import numpy as np
import pytest

from engine.board import Board
from engine.lattice import LatticeMap, cell_corners, cells_around, edge_neighbours, point_xy
from engine.simulate import random_board
from vision.find import local_scales
from vision.lattice import GLUED_TOO_FEW, _clusters, _sizes_its_own_tiles, fit_board, fit_lattice


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


def photographed(seed: int, tiles: int, tilt_deg: float, noise: float = 0.02, gap: float = 0.06):
    """A seeded random board seen by a seeded camera: the board, the camera, the random generator
    (for more draws) and the tiles' outlines."""
    rng = np.random.default_rng(seed)
    board = random_board(seed, tiles)
    H = camera(rng, tilt_deg)
    return board, H, rng, outlines_of(board, H, rng, noise, gap)


def maps_between(found, truth):
    """The lattice symmetries taking cell ``found`` onto cell ``truth``."""
    for rotation in range(6):
        m, k = LatticeMap(rotation).point(cell_corners(found)[0])
        for target in cell_corners(truth):
            dm, dk = target[0] - m, target[1] - k
            if (dm + dk) % 2 == 0 and LatticeMap(rotation, dm, dk).cell(found) == truth:
                yield LatticeMap(rotation, dm, dk)


def matching_map(found, truth):
    """The lattice symmetry that takes the found cells to the true ones, if any."""
    for mapping in maps_between(found[0], truth[0]):
        if all(mapping.cell(f) == t for f, t in zip(found, truth)):
            return mapping
    return None


@pytest.mark.parametrize(("seed", "tilt"), [(1, 0), (2, 30), (3, 50), (4, 60), (5, 20)])
def test_recovers_the_board_up_to_a_symmetry(seed, tilt):
    board, H, rng, outlines = photographed(seed, 40, tilt)
    order = rng.permutation(len(outlines))  # the finder reports tiles in no particular order
    fit = fit_lattice(outlines[order])
    truth = [board.placements[i].cell for i in order]
    assert None not in fit.cells
    mapping = matching_map(fit.cells, truth)
    assert mapping is not None
    # Corners re-listed in cell order carry the tile's numbers in cell order.
    reordered = fit.corners
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
    _board, _H, _rng, outlines = photographed(12, 25, 30, noise=0.01, gap=0.02)
    missed = 10
    fit = fit_lattice(np.delete(outlines, missed, axis=0))
    cells, triangles = fit.frontier()
    side = fit.side_px
    centre = outlines[missed].mean(0)
    nearest = np.argmin(np.linalg.norm(triangles.mean(1) - centre, axis=1))
    assert np.linalg.norm(triangles[nearest].mean(0) - centre) < 0.1 * side
    assert len(cells) == len(triangles) and len(set(cells)) == len(cells)


def test_tiles_meeting_at_a_point_agree_where_it_is():
    board, H, _rng, outlines = photographed(13, 30, 35, noise=0.04, gap=0.0)
    fit = fit_lattice(outlines)
    mapping = matching_map(fit.cells, [p.cell for p in board.placements])
    truth = np.array(
        [[project(H, np.array([point_xy(mapping.point(p))]))[0] for p in cell_corners(c)] for c in fit.cells]
    )
    by_point: dict = {}
    for cell, corners in zip(fit.cells, fit.corners):
        for point, xy in zip(cell_corners(cell), corners):
            by_point.setdefault(point, []).append(xy)
    assert all(np.ptp(np.array(xys), axis=0).max() < 1e-9 for xys in by_point.values())
    # The finder's own corners, each matched to the nearest true corner.
    raw_error = np.mean([np.linalg.norm(o[:, None] - t[None], axis=2).min(1).mean() for o, t in zip(outlines, truth)])
    assert np.linalg.norm(fit.corners - truth, axis=2).mean() < 0.75 * raw_error


def test_board_plane_gives_the_tile_size_anywhere_on_the_table():
    rng = np.random.default_rng(14)
    board = random_board(14, 20)
    H = camera(rng, 45)
    fit = fit_lattice(outlines_of(board, H, rng, noise=0.005, gap=0.0))
    far_cell = (12, -6)  # well away from the board
    corners = project(H, np.array([point_xy(p) for p in cell_corners(far_cell)]))
    true_side = np.linalg.norm(corners - np.roll(corners, 1, axis=0), axis=1).mean()
    assert abs(fit.sides_at(corners.mean(0))[0] / true_side - 1) < 0.1
    assert fit_lattice(outlines_of(board, H, rng)[:1]).sides_at(corners.mean(0)) is None


def test_a_degenerate_plane_is_no_plane():
    # Outlines of a badly read, strongly tilted photo (cut down from a studio photo) whose glued
    # corners gave a singular homography; the fit used to crash inverting it.
    outlines = np.array(
        [
            [[597.9, 392.4], [540.5, 390.2], [558.3, 367.6]],
            [[599.6, 354.8], [560.6, 345.2], [583.0, 328.9]],
            [[581.3, 344.7], [574.0, 355.6], [562.6, 343.0]],
            [[572.3, 355.3], [559.4, 351.8], [568.5, 344.1]],
            [[574.5, 350.6], [557.0, 366.5], [554.9, 352.4]],
            [[581.9, 355.6], [566.9, 377.8], [567.3, 345.0]],
            [[602.6, 376.5], [559.6, 372.5], [595.4, 355.3]],
            [[556.1, 380.0], [530.0, 382.7], [565.4, 347.9]],
            [[691.4, 356.4], [656.0, 354.0], [688.4, 327.7]],
            [[672.5, 375.1], [646.5, 378.6], [660.5, 360.5]],
            [[675.4, 382.6], [660.9, 379.6], [669.5, 368.7]],
            [[563.9, 347.4], [538.0, 372.0], [518.8, 351.3]],
        ]
    )
    fit = fit_lattice(outlines)
    assert fit.homography is None or abs(np.linalg.det(fit.homography)) > 1e-9
    assert len(fit.corners) == len(outlines)


def _turned(outline: np.ndarray, degrees: float, scale: float = 1.0) -> np.ndarray:
    centre = outline.mean(0)
    a = math.radians(degrees)
    turn = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    return centre + (outline - centre) @ turn.T * scale


def test_a_tile_whose_outline_came_out_turned_still_takes_its_cell():
    board, H, _rng, outlines = photographed(15, 20, 40, noise=0.01, gap=0.02)
    truth = [p.cell for p in board.placements]
    clean = fit_lattice(outlines)
    mapping = matching_map(clean.cells, truth)
    for bad in (3, 12):
        outlines[bad] = _turned(outlines[bad], 40)  # glued to no neighbour: its corners are far off
    fit = fit_lattice(outlines)
    assert None not in fit.cells
    assert matching_map(fit.cells, truth) is not None
    # Its corners are the board's lattice points, not its own turned ones.
    for bad in (3, 12):
        expected = project(H, np.array([point_xy(mapping.point(p)) for p in cell_corners(clean.cells[bad])]))
        assert np.abs(fit.corners[bad] - expected).max() < 0.1 * fit.side_px


def test_an_outline_on_a_cell_but_not_the_size_of_a_tile_stays_loose():
    _board, _H, _rng, outlines = photographed(16, 20, 30, noise=0.01, gap=0.02)
    speck = _turned(outlines[5], 40, scale=0.4)  # a patch of table where a tile would fit
    fit = fit_lattice(np.concatenate([np.delete(outlines, 5, axis=0), speck[None]]))
    assert fit.cells[-1] is None


def test_a_plane_must_predict_the_size_of_its_own_tiles():
    _board, _H, _rng, outlines = photographed(17, 12, 20, noise=0.01, gap=0.02)
    fit = fit_lattice(outlines)
    assert _sizes_its_own_tiles(fit.homography, outlines)
    # A plane from wrongly glued outlines can put tiles three times their size; it is not trusted.
    assert not _sizes_its_own_tiles(fit.homography @ np.diag([3.0, 3.0, 1.0]), outlines)


def test_rough_corners_that_do_not_meet_are_glued_more_loosely():
    # Corners off by a fifth of a side (small tiles in a steep photo) meet too rarely at the
    # strict tolerance to glue a board.
    board, H, rng, outlines = photographed(11, 30, 40, noise=0.2, gap=0.15)
    strict = fit_lattice(outlines)
    on_strict = sum(c is not None for c in strict.cells)
    assert on_strict < GLUED_TOO_FEW * len(board)
    fit = fit_board(outlines)
    placed = [(f, t.cell) for f, t in zip(fit.cells, board.placements) if f is not None]
    assert len(placed) >= 2 * on_strict and fit.homography is not None
    # The looser board is the true one, up to a symmetry, but for a few tiles.
    votes = Counter(mapping for f, t in placed for mapping in maps_between(f, t))
    assert max(votes.values()) >= 0.8 * len(placed)
    # Clean corners keep the strict gluing.
    clean = outlines_of(board, H, rng)
    assert fit_board(clean).cells == fit_lattice(clean).cells


def test_parts_of_the_board_cut_apart_by_an_arm_join_it_and_tiles_apart_do_not():
    rng = np.random.default_rng(16)
    row = [(col, 0) for col in range(12) if col not in (5, 6, 7)]  # an arm hides three tiles
    board = Board.of([(cell, (5, 5, 5)) for cell in row])
    H = camera(rng, 30)
    outlines = outlines_of(board, H, rng, noise=0.01)
    fit = fit_lattice(outlines)
    assert matching_map(fit.cells, row) is not None  # both parts, in one frame
    # Two glued tiles lying apart, turned off the lattice, are no part of it.
    pair = outlines_of(Board.of([((1, 3), (5, 5, 5)), ((2, 3), (5, 5, 5))]), H, rng, noise=0.01)
    centre = pair.reshape(-1, 2).mean(0)
    turn = math.radians(20)
    pair = centre + (pair - centre) @ np.array([[math.cos(turn), -math.sin(turn)], [math.sin(turn), math.cos(turn)]]).T
    fit = fit_lattice(np.concatenate([outlines, pair]))
    assert fit.cells[-2:] == [None, None] and None not in fit.cells[:-2]


def test_a_part_of_the_board_across_a_wide_gap_joins_where_one_plane_fits_both():
    # Two strips of the board with four columns hidden between them (an arm over the board),
    # corners off by 2% of a side: the board's plane, extrapolated over the gap, can miss the far
    # part's cells by a third of a cell; one plane through both parts places it.
    cells = [(col, row) for row in (0, 1) for col in range(8)] + [(col, row) for row in (0, 1) for col in range(13, 17)]
    board = Board.of([(cell, (5, 5, 5)) for cell in cells])
    for seed in range(10):
        rng = np.random.default_rng(seed)
        outlines = outlines_of(board, camera(rng, 40), rng, noise=0.02)
        fit = fit_lattice(outlines)
        assert None not in fit.cells and matching_map(fit.cells, cells) is not None, seed


def test_corners_closer_than_the_radius_one_after_another_share_a_lattice_point():
    # _clusters against a plain search: two corners share a label exactly when a chain of corners,
    # each closer than the radius to the next, links them.
    rng = np.random.default_rng(2)
    for k in range(50):
        # The last sets are larger than the rows of pairs looked at together (a printed cloth).
        points = rng.uniform(0, 60 if k < 47 else 400, (int(rng.integers(1, 90)) if k < 47 else 1200, 2))
        radius = float(rng.uniform(1, 8))
        near = np.linalg.norm(points[:, None] - points[None], axis=2) < radius
        labels = _clusters(points, radius)
        for start in range(len(points)):
            linked, frontier = {start}, [start]
            while frontier:
                for other in np.flatnonzero(near[frontier.pop()]):
                    if int(other) not in linked:
                        linked.add(int(other))
                        frontier.append(int(other))
            assert set(np.flatnonzero(labels == labels[start]).tolist()) == linked
            assert labels[start] == min(linked)


def test_local_scales_are_the_stretch_along_and_across():
    turn = np.array([[0.8, -0.6, 5], [0.6, 0.8, 7], [0, 0, 1]])
    assert local_scales(np.diag([3.0, 1.5, 1.0]) @ turn, np.array([2.0, -1.0])) == pytest.approx([3.0, 1.5])
    assert local_scales(np.diag([40.0, 40.0, 1.0]) @ turn, np.zeros(2)) == pytest.approx([40.0, 40.0])
    assert local_scales(40 * turn, np.zeros(2)) == pytest.approx([1.0, 1.0])  # one homography, scaled whole


@pytest.mark.parametrize("tilt_deg", [0, 30, 45, 60])
def test_foreshortening_is_about_the_cosine_of_the_cameras_slant(tilt_deg):
    for seed in range(3):
        _, _, _, outlines = photographed(seed, 20, tilt_deg, noise=0.01)
        fit = fit_board(outlines)
        assert fit.foreshortening() == pytest.approx(math.cos(math.radians(tilt_deg)), abs=0.06)
    assert fit_board(outlines[:1]).foreshortening() == 1.0  # one tile: no plane


def test_a_view_from_above_shows_every_tile_equilateral_at_the_side_asked():
    _, _, _, outlines = photographed(4, 25, 55, noise=0.0, gap=0.0)
    fit = fit_board(outlines)
    to_view, (width, height) = fit.view_from_above(36.0, 2.0, 1e9)
    seen = project(to_view, fit.corners[fit.on_board].reshape(-1, 2)).reshape(-1, 3, 2)
    assert np.linalg.norm(seen - np.roll(seen, 1, axis=1), axis=2) == pytest.approx(36.0, rel=1e-3)
    # The board's outermost lattice points lie two sides in from the view's edges.
    assert seen.reshape(-1, 2).min(0) == pytest.approx([72, 72], abs=1)
    assert seen.reshape(-1, 2).max(0) == pytest.approx([width - 72, height - 72], abs=1)
    # Asked for at most a quarter of the pixels, the view shows the tiles half as large.
    _, (narrow, low) = fit.view_from_above(36.0, 2.0, width * height / 4)
    assert (narrow, low) == pytest.approx((width / 2, height / 2), abs=1)


def test_near_the_board_means_on_it_or_in_a_cell_sharing_an_edge_with_it():
    _, _, _, outlines = photographed(6, 15, 50, noise=0.0)
    fit = fit_board(outlines)
    board = {cell for cell in fit.cells if cell is not None}
    beside = {n for cell in board for n in edge_neighbours(cell)} - board
    round_a_corner = {c for cell in board for point in cell_corners(cell) for c in cells_around(point)} - board - beside
    assert beside and round_a_corner

    def centres(cells):
        plane = np.array([np.mean([point_xy(p) for p in cell_corners(cell)], axis=0) for cell in cells])
        return project(fit.homography, plane)

    assert fit.near_the_board(centres(board | beside)).all()
    assert not fit.near_the_board(centres(round_a_corner)).any()
    assert fit.near_the_board(np.zeros((0, 2))).shape == (0,)


def test_frontier_leaves_out_cells_whose_corners_collapsed():
    # A board glued wrongly can show two lattice points at one place: a cell beside it with
    # both is no tile's place, and its corners could not be cut into crops.
    _board, _H, _rng, outlines = photographed(12, 25, 30, noise=0.01, gap=0.02)
    fit = fit_lattice(outlines)
    cells, _ = fit.frontier()
    first, second = cell_corners(cells[0])[:2]
    folded = replace(fit, points={**fit.points, second: fit.points.get(first, fit.where(first))})
    folded_cells, triangles = folded.frontier()
    assert cells[0] not in folded_cells and len(folded_cells) < len(cells)
    edges = np.linalg.norm(triangles - np.roll(triangles, 1, axis=1), axis=2)
    assert (edges.min(1) > 0.3 * fit.side_px).all()
