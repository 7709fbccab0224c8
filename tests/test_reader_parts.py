"""Reader stages without the finder model: cores to outlines, and the tile added between photos."""

from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from engine.board import Board, PlacedTile
from engine.lattice import LatticeMap, cell_corners, cells_around, edge_neighbours, point_xy
from engine.rules import get_rules
from engine.scoring import judge_placement
from engine.simulate import random_board
from models.classes import NO_NUMBER
from models.finder_data import core_map
from vision.added import changed_alone, changed_beside, changed_only, frame_map, last_placement
from vision.backs import (
    _cie_lab,
    blank_apart,
    coloured_like,
    faced_like_the_board,
    holes_in_the_board,
    lab_colours,
    like_the_read_tiles,
    lying_face_down,
    unlike_any_number,
)
from vision.bare import bare_read_as_zero, unsure_for_bare_corners, zeros_show_bare
from vision.complete import a_found_tile_across
from vision.crops import corner_crops, greyed
from vision.decode import UNSURE_BELOW
from vision.find import (
    ZOOM_TO_SIDE,
    FirstLook,
    RegionMoments,
    TileFinder,
    about_centre,
    clockwise,
    edge_lengths,
    outlines_from_cores,
    pixels_of,
    split_merged,
    triangularity,
)
from vision.known import any_tile_added, placed_as_known
from vision.lattice import LatticeFit, fit_board, fit_lattice
from vision.loose import alone_read_loose, beside_the_board, numbers_reported
from vision.reader import (
    DECIDING_CORNERS,
    GREY_FROM_SIDE,
    _CornersRead,
    read_colour_or_grey,
    seen_small,
)
from vision.records import ReadTile
from vision.sight import Sight, best_look
from vision.sizes import back_sized, commonest_side, sized_like_the_board

ANGLES = -np.pi / 2 + np.array([0, 2 * np.pi / 3, 4 * np.pi / 3])
SAMPLE = Path(__file__).resolve().parent.parent / "samples" / "board.jpg"


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


def test_clockwise_orders_a_stack_of_triangles_each_as_it_orders_one():
    rng = np.random.default_rng(1)
    triangles = rng.uniform(0, 100, (50, 3, 2))
    stacked = clockwise(triangles)
    for triangle, ordered in zip(triangles, stacked):
        assert np.array_equal(clockwise(triangle), ordered)
        (ax, ay), (bx, by), (cx, cy) = ordered
        assert (bx - ax) * (cy - ay) - (by - ay) * (cx - ax) > 0
        assert np.array_equal(ordered, triangle) or np.array_equal(ordered, triangle[::-1])
    assert clockwise(np.zeros((0, 3, 2))).shape == (0, 3, 2)


def test_pixels_of_a_mask_come_row_by_row_as_numpy_lists_them():
    mask = np.random.default_rng(2).random((37, 53)) > 0.8
    ys, xs = np.nonzero(mask)
    assert np.array_equal(pixels_of(mask), np.column_stack([xs, ys]))
    assert pixels_of(np.zeros((5, 5), bool)).shape == (0, 2)


def test_tiny_specks_are_not_tiles():
    cores = np.zeros((100, 100), bool)
    cores[10:12, 10:12] = True
    assert len(outlines_from_cores(cores, 1.0)) == 0
    assert len(outlines_from_cores(np.zeros((40, 40)), 1.0)) == 0  # no core at all


def _blurred_cores(triangles: np.ndarray, shape: tuple[int, int], blur: float) -> np.ndarray:
    """A core probability map like the network's on small tiles: true cores, blurred."""
    cores = core_map(triangles, shape, 1.0).astype(np.float32)
    return np.clip(cv2.GaussianBlur(cores, (0, 0), blur) * 1.6, 0, 1)


def test_cores_blurred_into_one_region_are_split_into_tiles():
    # Four small tiles forming one big triangle, as on a board: their cores touch once blurred.
    side = 16.0
    board = Board.of([((0, 0), (0, 0, 0)), ((1, 0), (0, 0, 1)), ((-1, 0), (0, 0, 2)), ((0, 1), (0, 1, 1))])
    triangles = np.array(
        [[np.array(point_xy(p)) * side + (60, 40) for p in cell_corners(placed.cell)] for placed in board.placements]
    )
    probability = _blurred_cores(triangles, (120, 120), 1.6)
    count, _ = cv2.connectedComponents((probability > 0.5).astype(np.uint8))
    assert count - 1 == 1  # the blur has joined all four cores: plain thresholding finds one tile
    found = outlines_from_cores(probability, 1.0)
    assert len(found) == 4
    for tri in triangles:
        assert np.min(np.linalg.norm(found.mean(1) - tri.mean(0), axis=1)) < 0.2 * side


def test_one_ragged_core_with_two_sure_patches_stays_one_tile():
    tiles = []
    for k in range(5):  # typical tiles set the expected size
        centre = np.array([40.0 + 70 * k, 50.0])
        tiles.append(clockwise(centre + 30 / np.sqrt(3) * np.column_stack([np.cos(ANGLES), np.sin(ANGLES)])))
    probability = _blurred_cores(np.array(tiles), (100, 380), 0.8)
    tile = probability[25:75, 230:270]  # the fourth tile, centred at (250, 50): no sure centre...
    np.minimum(tile, 0.9, out=tile)
    tile[21:24, 16:19] = 0.99  # ...but two sure patches apart, as on a dim or ragged tile
    tile[27:30, 22:25] = 0.99
    assert len(outlines_from_cores(probability, 1.0)) == 5


def _pixels(mask: np.ndarray) -> np.ndarray:
    ys, xs = np.nonzero(mask)
    return np.column_stack([xs, ys]).astype(np.float64)


def _filled(triangles: np.ndarray, shape: tuple[int, int]) -> np.ndarray:
    mask = np.zeros(shape, np.uint8)
    cv2.fillPoly(mask, [np.round(t).astype(np.int32) for t in triangles], 1)
    return mask > 0


def test_triangularity_tells_one_core_from_two_merged_under_any_perspective():
    squash = np.array([[1.0, 0.6], [0.0, 0.45]])  # a steep, turned view of the table
    tile = (_triangle((0, 0), 50) @ squash.T) + 60
    assert triangularity(_pixels(_filled(tile[None], (120, 120)))) > 0.9
    pair = np.array([_triangle((0, 0), 40), _triangle((0, 40 / np.sqrt(3)), 40, np.pi)]) @ squash.T + 60
    assert triangularity(_pixels(_filled(pair, (120, 120)))) < 0.1  # a parallelogram: no three-fold turn
    yy, xx = np.mgrid[:120, :120]
    assert triangularity(_pixels((xx - 60) ** 2 + (yy - 60) ** 2 < 30**2)) < 0.1  # a round blob


def test_region_moments_of_many_regions_match_each_region_alone():
    # All regions of a photo are measured at once; each must come out as if measured alone.
    squash = np.array([[1.0, 0.6], [0.0, 0.45]])
    regions = [
        _pixels(_filled((_triangle((0, 0), 50) @ squash.T + 60)[None], (120, 120))),
        _pixels(_filled((_triangle((0, 0), 30, 1.0) + 40)[None], (80, 80))) + 200,
        _pixels(
            _filled(np.array([_triangle((0, 0), 40), _triangle((0, 40 / np.sqrt(3)), 40, np.pi)]) + 60, (140, 140))
        ),
    ]
    together = RegionMoments.of(np.concatenate(regions), np.repeat([1, 2, 3], [len(r) for r in regions]), 4)
    assert together.count[0] == 0 and not together.whitened[0]  # label 0 holds no pixels
    for k, region in enumerate(regions, start=1):
        alone = RegionMoments.of(region)
        assert together.count[k] == len(region)
        assert np.allclose(together.centre[k], region.mean(0))
        assert np.allclose(together.covariance[k], np.cov(region.T, bias=True))
        assert np.isclose(together.triangularity[k], alone.triangularity[0])
        assert np.allclose(together.triangles[k], alone.triangles[0])
    # The moment triangle of a filled triangle is that triangle, seen under perspective (to the
    # pixel grid's rounding of a 50-pixel tile: fillPoly takes in edge pixels).
    tile = _triangle((0, 0), 50) @ squash.T + 60
    found = together.triangles[1]
    assert max(np.min(np.linalg.norm(found - corner, axis=1)) for corner in tile) < 0.06 * 50


def test_two_merged_cores_are_cut_along_their_seam():
    side = 24.0
    for turn in np.linspace(0, np.pi, 5):
        # Two neighbouring tiles' cores (edge to edge, a bow tie point to point) merged into one region.
        up = _triangle((0, 0), side, turn)
        for shape in ("edge", "point"):
            distance = side / np.sqrt(3) if shape == "edge" else 2 * side / np.sqrt(3)
            offset = distance * np.array([np.cos(turn + np.pi / 2), np.sin(turn + np.pi / 2)])
            down = _triangle(offset, side, turn + np.pi)
            triangles = np.array([up, down]) + 60
            parts = split_merged(_pixels(_filled(triangles, (140, 140))), above_area=200)
            assert len(parts) == 2, (turn, shape)
            for tri in triangles:
                assert min(np.linalg.norm(part.mean(0) - tri.mean(0)) for part in parts) < 0.15 * side
    one = _pixels(_filled(_triangle((60, 60), 40)[None], (120, 120)))
    assert len(split_merged(one, above_area=200)) == 1  # a single large tile's core stays whole
    yy, xx = np.mgrid[:120, :120]
    blob = _pixels((xx - 60) ** 2 + (yy - 60) ** 2 < 20**2)
    assert len(split_merged(blob, above_area=200)) == 1  # so does a round blob: its halves are no triangles
    small = np.array([_triangle((30, 30), 8), _triangle((30, 30 + 8 / np.sqrt(3)), 8, np.pi)])
    pair = _pixels(_filled(small, (60, 60)))
    assert len(split_merged(pair, above_area=len(pair))) == 1  # no larger than one tile: left alone


def test_merged_cores_in_a_core_map_become_separate_tiles():
    side = 30.0
    singles = [_triangle((50 + 60 * k, 40), side) for k in range(4)]
    up = _triangle((80, 120), side)
    pair = [up, _triangle((80, 120 + side / np.sqrt(3)), side, np.pi)]  # edge to edge, no seam between
    mask = _filled(np.array(singles + pair), (200, 300))
    found = outlines_from_cores(mask, 1.0, core_growth=1 / 0.6)  # the mask is the tiles themselves
    assert len(found) == 6
    for tri in singles + pair:
        assert np.min(np.linalg.norm(found.mean(1) - tri.mean(0), axis=1)) < 0.15 * side


def test_added_tile_is_scored_whatever_frame_each_photo_picked():
    rules = get_rules("pressman-us")
    after = random_board(5, 20)
    before = after.without_last().moved(LatticeMap(2, 3, -1))  # the earlier photo chose another frame
    result, note = last_placement(before, after, rules)
    assert note is None
    assert result.cell == after.placements[-1].cell and result.legal
    assert frame_map(before, after) == LatticeMap(4, *_inverse_shift(LatticeMap(2, 3, -1)))


def test_the_frame_map_is_the_symmetry_most_tiles_fit_though_the_first_fit_another():
    # The earlier photo's first tiles lie in another frame than the rest (a part glued apart),
    # so the tiles met first vote for another symmetry; the most votes still win. (No triples:
    # one fits all three symmetries its cells allow.)
    after = random_board(5, 20)
    placements = [p for p in after.without_last().placements if not p.tile.is_triple]
    apart, frame = LatticeMap(0, 20, 0), LatticeMap(2, 3, -1)
    before = Board(
        tuple(PlacedTile(*apart.corners(p.cell, p.corners)) for p in placements[:5])
        + tuple(PlacedTile(*frame.corners(p.cell, p.corners)) for p in placements[5:])
    )
    assert frame_map(before, after) == LatticeMap(4, *_inverse_shift(frame))


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


def test_a_tile_misread_in_the_previous_photo_is_not_taken_for_a_new_one():
    rules = get_rules("pressman-us")
    after = random_board(7, 15)
    placed = after.placements[-1]
    misread = [PlacedTile(p.cell, (9, 9, 9)) if i == 3 else p for i, p in enumerate(after.placements[:-1])]
    result, note = last_placement(Board(tuple(misread)), after, rules)
    assert result.cell == placed.cell and result.corners == placed.corners and note is None


def test_tiles_the_previous_photo_shows_after_all_are_not_new():
    rules = get_rules("pressman-us")
    after = random_board(9, 15)
    placed, missed = after.placements[-1], after.placements[4]
    before = Board(tuple(p for p in after.placements[:-1] if p is not missed)).moved(LatticeMap(3, 1, 1))
    asked = []

    def shown_before(mapping, tiles):
        asked.append(sorted(t.cell for t in tiles))
        return {missed.cell}  # in this photo's frame

    result, note = last_placement(before, after, rules, shown_before=shown_before)
    assert asked == [sorted([placed.cell, missed.cell])]
    assert result.cell == placed.cell and result.corners == placed.corners and note is None
    # A judge that takes back every new tile settles nothing: no guess is made.
    result, note = last_placement(before, after, rules, shown_before=lambda mapping, tiles: {t.cell for t in tiles})
    assert result is None and "2 tiles were added" in note


def test_the_tile_added_is_the_one_whose_cell_alone_changed():
    # A camera kept still: three tiles look new, well apart. A hand lay over two of them in the
    # earlier photo, reaching past them; the third cell held bare table. Only it changed alone.
    rng = np.random.default_rng(0)
    earlier = np.clip(rng.normal(120, 4, (240, 480, 3)), 0, 255).astype(np.uint8)
    tiles = np.array([[[60, 60], [100, 130], [20, 130]], [[210, 60], [250, 130], [170, 130]]], float)
    tiles = np.concatenate([tiles, tiles[:1] + (320, 0)])
    cv2.rectangle(earlier, (0, 30), (280, 170), (150, 170, 220), -1)  # the hand, over the first two
    now = np.clip(rng.normal(120, 4, earlier.shape), 0, 255).astype(np.uint8)
    for tile in tiles:
        cv2.fillPoly(now, [tile.astype(np.int32)], (225, 225, 215))
    assert changed_alone(earlier, now, tiles) == 2
    # The light turned up in the second photo: the rule still sees the same change.
    brighter = cv2.convertScaleAbs(now, alpha=1.0, beta=30)
    assert changed_alone(earlier, brighter, tiles) == 2
    # Without the hand every cell changed alone: no guess. Photos of two sizes: no answer.
    bare = np.clip(rng.normal(120, 4, earlier.shape), 0, 255).astype(np.uint8)
    assert changed_alone(bare, now, tiles) is None
    assert changed_alone(earlier[:200], now, tiles) is None


def test_a_tile_in_both_photos_is_no_rival_of_the_one_added_but_a_hand_moving_is_no_tile_added():
    # A camera kept still: two tiles look new. One lies half past the frame's edge in both
    # photos (the earlier photo's reading left it out); the other was put on bare table.
    rng = np.random.default_rng(1)
    earlier = np.clip(rng.normal(120, 4, (240, 480, 3)), 0, 255).astype(np.uint8)
    edge_tile = np.array([[[-20, 20], [40, 20], [10, 70]]], float)
    added = np.array([[[300, 80], [340, 150], [260, 150]]], float)
    cv2.fillPoly(earlier, [edge_tile[0].astype(np.int32)], (225, 225, 215))
    now = earlier.copy()
    cv2.fillPoly(now, [added[0].astype(np.int32)], (225, 225, 215))
    tiles = np.concatenate([edge_tile, added])
    assert changed_alone(earlier, now, tiles) == 1
    # A hand over the second cell in the earlier photo, reaching well past it: its cell and
    # its surroundings changed alike, so it is not taken for a tile added.
    hand = earlier.copy()
    cv2.rectangle(hand, (200, 40), (420, 200), (150, 170, 220), -1)
    assert changed_alone(hand, now, tiles) is None


def test_the_tile_added_is_the_one_cell_that_changed_where_nothing_else_did():
    # A camera kept still: three tiles read, two of them there in both photos; the third was put
    # on bare table. Only its middle changed, and the table around it stayed as it was.
    rng = np.random.default_rng(2)
    earlier = np.clip(rng.normal(120, 4, (240, 480, 3)), 0, 255).astype(np.uint8)
    tiles = np.array([[[60, 60], [100, 130], [20, 130]], [[210, 60], [250, 130], [170, 130]]], float)
    tiles = np.concatenate([tiles, tiles[:1] + (320, 0)])
    for tile in tiles[:2]:
        cv2.fillPoly(earlier, [tile.astype(np.int32)], (225, 225, 215))
    now = earlier.copy()
    cv2.fillPoly(now, [tiles[2].astype(np.int32)], (225, 225, 215))
    assert changed_only(earlier, now, tiles) == 2
    assert changed_only(earlier, cv2.convertScaleAbs(now, alpha=1.0, beta=30), tiles) == 2  # the light turned up
    # Two tiles put down since: no guess. A hand by the added tile in the earlier photo, reaching
    # well past it, changed its surroundings too. Photos of two sizes: no answer.
    two_added = earlier.copy()
    cv2.fillPoly(two_added, [tiles[0].astype(np.int32)], (90, 60, 40))
    cv2.fillPoly(two_added, [tiles[2].astype(np.int32)], (225, 225, 215))
    assert changed_only(earlier, two_added, tiles) is None
    hand = earlier.copy()
    cv2.rectangle(hand, (280, 40), (479, 200), (150, 170, 220), -1)
    assert changed_only(hand, now, tiles) is None
    assert changed_only(earlier[:200], now, tiles) is None
    assert changed_only(earlier, now, tiles[:0]) is None  # no tile on the board


def test_a_tile_put_down_in_the_colour_of_the_table_is_a_change():
    # A wooden tile on a blue cloth: its grey matches the cloth's, its colours do not.
    rng = np.random.default_rng(3)
    cloth, wood = (170, 100, 60), (30, 80, 160)  # BGR, both about 97 grey levels
    assert abs(float(np.dot(cloth, (0.114, 0.587, 0.299))) - float(np.dot(wood, (0.114, 0.587, 0.299)))) < 5
    earlier = np.clip(rng.normal(0, 4, (240, 480, 3)) + cloth, 0, 255).astype(np.uint8)
    tiles = np.array([[[60, 60], [100, 130], [20, 130]], [[210, 60], [250, 130], [170, 130]]], float)
    cv2.fillPoly(earlier, [tiles[0].astype(np.int32)], (225, 225, 215))
    now = earlier.copy()
    cv2.fillPoly(now, [tiles[1].astype(np.int32)], wood)
    assert changed_only(earlier, now, tiles) == 1


def test_a_tile_the_finder_missed_is_the_one_empty_cell_that_changed_where_no_tile_did():
    # A camera kept still: two tiles read on the board, two empty cells beside it. A tile was
    # put down in the second, and the finder missed it (a pale tile on pale paper).
    rng = np.random.default_rng(4)
    earlier = np.clip(rng.normal(200, 4, (240, 480, 3)), 0, 255).astype(np.uint8)
    board = np.array([[[60, 60], [100, 130], [20, 130]], [[140, 60], [180, 130], [100, 130]]], float)
    empty = np.concatenate([board[:1] + (240, 0), board[:1] + (320, 0)])
    for tile in board:
        cv2.fillPoly(earlier, [tile.astype(np.int32)], (60, 60, 60))
    now = earlier.copy()
    cv2.fillPoly(now, [empty[1].astype(np.int32)], (235, 240, 245))
    cv2.fillPoly(now, [about_centre(empty[1], 0.6).astype(np.int32)], (120, 120, 120))  # its numbers
    assert changed_beside(earlier, now, board, empty) == 1
    # A tile read changed too (a hand's shadow, a tile half out of the frame): no guess; nor
    # where both empty cells changed, or nothing did.
    shadow = now.copy()
    cv2.fillPoly(shadow, [about_centre(board[1], 0.5).astype(np.int32)], (20, 20, 20))
    assert changed_beside(earlier, shadow, board, empty) is None
    both = now.copy()
    cv2.fillPoly(both, [empty[0].astype(np.int32)], (120, 120, 120))
    assert changed_beside(earlier, both, board, empty) is None
    assert changed_beside(earlier, earlier, board, empty) is None


def test_a_tile_added_is_one_the_game_lacks_in_a_cell_it_leaves_empty():
    # A live game's board, read in the photo's own lattice frame: the game's tiles alone show no
    # tile added; one more set tile beside them does; a tile of the game's read again in an empty
    # cell (a misread, or a phantom) does not.
    board = random_board(21, 9)
    known = Board(board.placements[:-1])
    frame = LatticeMap(2, -1, 1)

    def read(placements) -> list[ReadTile]:
        outline = np.array([[0.0, 0.0], [20.0, 0.0], [10.0, 17.0]])
        moved = Board(tuple(placements)).moved(frame)
        return [ReadTile(p.cell, outline, p.corners, (1.0,) * 3, True, False) for p in moved.placements]

    assert not any_tile_added(known, read(known.placements))
    assert any_tile_added(known, read(board.placements))
    empty = next(cell for cell in sorted(known.frontier()) if cell != board.placements[-1].cell)
    again = PlacedTile(empty, known.placements[0].corners)
    assert not any_tile_added(known, read((*known.placements, again)))


def test_the_cell_that_changed_is_judged_though_the_two_readings_cannot_be_matched():
    # Every tile of the earlier reading misread: by their numbers the boards match nowhere, but
    # the one cell that changed names the tile added, judged against this photo's other tiles.
    rules = get_rules("pressman-us")
    after = random_board(8, 12)
    placed = after.placements[-1]
    misread = Board(tuple(PlacedTile(p.cell, (9, 9, 9)) for p in after.placements[:-1]))
    assert last_placement(misread, after, rules)[0] is None
    result, note = last_placement(misread, after, rules, changed=placed.cell)
    assert result.cell == placed.cell and result.corners == placed.corners and note is None
    assert result == last_placement(Board(after.placements[:-1]), after, rules)[0]
    result, note = last_placement(misread, after, rules, changed=(99, 99))  # no tile read there
    assert result is None and "not on the board" in note


def test_a_new_tile_no_set_holds_or_already_played_is_not_the_one_added():
    # The finder's phantom in a bay of three tiles reads the numbers its neighbours show there:
    # a reading no set holds, or a tile already on the board. The other new tile is the one added.
    rules = get_rules("pressman-us")
    after = random_board(10, 15)
    placed = after.placements[-1]
    before = after.without_last()
    for phantom in [PlacedTile((40, 0), (2, 1, 4)), PlacedTile((40, 0), before.placements[3].corners)]:
        result, note = last_placement(before, Board(after.placements + (phantom,)), rules)
        assert result.cell == placed.cell and result.corners == placed.corners and note is None
    candidates = [(0, 0, 0), (1, 1, 1), (2, 2, 2), (3, 3, 3)]
    unplayed = next(c for c in candidates if PlacedTile((0, 0), c).tile not in after.by_tile)
    result, note = last_placement(before, Board(after.placements + (PlacedTile((40, 0), unplayed),)), rules)
    assert result is None and "2 tiles were added" in note  # two tiles that could both be new: no guess
    # The one left must then be legal: a tile that breaks a rule there is as likely a misread.
    unplayed_board = Board(before.placements + (PlacedTile(placed.cell, unplayed),))
    assert not judge_placement(before, unplayed_board.placements[-1], rules).legal
    result, note = last_placement(before, Board(unplayed_board.placements + (PlacedTile((40, 0), (2, 1, 4)),)), rules)
    assert result is None and "2 tiles were added" in note


def test_a_bonus_only_tiles_the_previous_photo_lacks_would_make_is_not_scored():
    # The finder's phantom in a hole beside the tile added (the table between tiles, whose
    # corners show the neighbours' numbers) completes a hexagon there: a tile the previous
    # photo's reading lacks. Without it the tile is still legal, so the bonus is not scored.
    rules = get_rules("pressman-us")
    after = random_board(5, 12)
    placed = after.placements[-1]
    before = after.without_last()
    full = judge_placement(before, placed, rules)
    (hexagon,) = [bonus for bonus in full.score.bonuses if bonus.kind == "hexagon"]
    contacts = {p.cell for p in after.edge_contacts(placed.cell)}
    hole = next(c for c in cells_around(hexagon.points_at[0]) if c in before and c not in contacts)
    lacking = before.without({hole})
    for changed in (placed.cell, None):  # the one cell that changed, or the frame map
        # (the frame map's way: the previous photo shows the hole's tile after all, its reading lacks it)
        result, note = last_placement(lacking, after, rules, changed=changed, shown_before=lambda m, new: {hole})
        assert result == judge_placement(lacking, placed, rules) and result.legal and note is None
        assert "hexagon" not in {bonus.kind for bonus in result.score.bonuses}
    result, _ = last_placement(before, after, rules, changed=placed.cell)  # the previous photo shows it
    assert result == full
    # A neighbour the previous reading missed may be what the tile is placed against: then the
    # tile judged without it would break the rules, and the bonus stays.
    alone = before.without(contacts)
    assert not judge_placement(alone, placed, rules).legal
    assert last_placement(alone, after, rules, changed=placed.cell)[0] == full
    # Nor is the tile judged alone, as an opening tile, where the previous reading shares no
    # other tile with this one (it read only a tile like the one added, elsewhere).
    elsewhere = Board((PlacedTile((40, 0), placed.corners),))
    assert last_placement(elsewhere, after, rules, changed=placed.cell)[0] == full


def test_a_tile_added_to_the_games_board_is_judged_against_that_board():
    # A live game knows its board. The photo shows a phantom beside the tile added (the finder's
    # outline in a bay, reading numbers no set holds) and a neighbour lost under a hand: judged
    # against the photo's tiles, the phantom breaks the rules; against the game's board it does not.
    rules = get_rules("pressman-us")
    after = random_board(10, 15)
    placed = after.placements[-1]
    known = after.without_last().moved(LatticeMap(1, 2, 0))  # the game keeps a frame of its own
    bay = next(c for c in edge_neighbours(placed.cell) if c not in after)
    phantom = PlacedTile(bay, (2, 1, 4))
    hidden = after.edge_contacts(placed.cell)[0]
    photo = Board(tuple(p for p in after.placements if p is not hidden) + (phantom,))
    assert not judge_placement(Board(photo.placements[:-2] + (phantom,)), placed, rules).legal
    result, note = last_placement(known, photo, rules)
    assert result is None and "2 tiles were added" in note
    result, note = last_placement(known, photo, rules, previous_is_known=True)
    assert result == judge_placement(after.without_last(), placed, rules) and result.legal
    assert note == "1 tile of the previous photo is missing"


def test_a_lone_opening_tile_seen_loose_before_is_not_new():
    rules = get_rules("pressman-us")
    after = random_board(8, 2)
    opening, placed = after.placements
    # One tile alone shows no lattice: the reader reports it loose, so the previous board is empty.
    result, _ = last_placement(Board(), after, rules, loose_before={opening.tile})
    assert result.cell == placed.cell and result.corners == placed.corners
    result, note = last_placement(Board(), after, rules)
    assert result is None and "2 tiles were added" in note


def test_opening_tile_on_an_empty_table():
    rules = get_rules("pressman-us")
    result, note = last_placement(Board(), Board.of([((0, 0), (5, 5, 5))]), rules)
    assert result.score.total == 25 and note is None


def _triangle(centre, side: float, turn: float = 0.0) -> np.ndarray:
    angles = ANGLES + turn
    return clockwise(np.asarray(centre, float) + side / np.sqrt(3) * np.column_stack([np.cos(angles), np.sin(angles)]))


def _photographed_board(side: float) -> list[np.ndarray]:
    """The outlines of a 12-tile random board seen from straight above, ``side`` pixels a tile."""
    return [
        np.array([np.array(point_xy(p)) * side + (400, 300) for p in cell_corners(placed.cell)])
        for placed in random_board(5, 12).placements
    ]


def test_outlines_that_cannot_be_tiles_for_their_size_are_dropped():
    side = 40.0
    on_board = _photographed_board(side)
    far = [_triangle((80, 80), 8), _triangle((700, 80), side, 0.4), _triangle((80, 500), 3 * side, 1.0)]
    outlines = np.array(on_board + far)
    keep = sized_like_the_board(outlines, fit_lattice(outlines))
    assert keep[: len(on_board)].all()
    assert list(keep[len(on_board) :]) == [False, True, False]  # a speck, a loose tile, a cup
    few = np.array(on_board[:3] + far)  # too small a board to size anything by: all stay
    assert sized_like_the_board(few, fit_lattice(few)).all()


def test_backs_and_unread_outlines_must_look_like_tiles_beside_the_tiles_read():
    side = 40.0
    on_board = _photographed_board(side)
    inside_a_tile = _triangle(on_board[0].mean(0) + 2, side * 0.8)
    backs = (_triangle((80, 80), side), _triangle((700, 80), 1.75 * side), inside_a_tile, _triangle((80, 500), 30, 0.3))
    read = np.array(on_board)
    fit = fit_lattice(np.concatenate([read, np.array(backs)]))
    kept = like_the_read_tiles(backs, read, fit)
    assert [any(k is b for k in kept) for b in backs] == [True, False, False, True]  # 1.75x passes the reading's 2x

    # Two loose tiles read and no board: their size sizes the backs.
    loose = np.array([_triangle((100, 100), side), _triangle((300, 120), side, 0.5)])
    few_backs = (_triangle((200, 300), side * 1.1, 0.2), _triangle((500, 300), 12))
    lone_fit = fit_lattice(np.concatenate([loose, np.array(few_backs)]))
    assert like_the_read_tiles(few_backs, loose, lone_fit) == few_backs[:1]
    assert like_the_read_tiles(few_backs, loose[:0], lone_fit) == few_backs  # nothing read: nothing to go by


def test_with_no_tile_read_backs_go_by_the_size_most_of_them_share():
    # A pile before the game, no tile face up: five backs of about 42 pixels among more prints of
    # the cloth cut into triangles, of many sizes. The median of them all would be a print's.
    pile = [_triangle((100 + 60 * k, 100), side, 0.3 * k) for k, side in enumerate([40, 42, 41, 43, 44])]
    prints = [_triangle((100 + 70 * k, 300), side, 0.5) for k, side in enumerate([3.5, 5.1, 7.4, 10.7, 15.5, 22.5])]
    outlines = tuple(pile + prints)
    assert np.median(edge_lengths(np.array(outlines)).mean(1)) == pytest.approx(22.5)
    assert commonest_side(np.array(outlines)) == pytest.approx(42)
    fit = fit_lattice(np.array(outlines))
    kept = like_the_read_tiles(outlines, np.zeros((0, 3, 2)), fit)
    assert [any(k is b for k in kept) for b in outlines] == [True] * len(pile) + [False] * len(prints)
    # Two outlines are no pile to go by: both stay.
    assert like_the_read_tiles((pile[0], prints[2]), np.zeros((0, 3, 2)), fit) == (pile[0], prints[2])


def test_with_no_tile_read_backs_are_outlines_the_finder_is_sure_of():
    # A checked cloth cut into triangles of the pile's own size, outnumbering it: size cannot tell
    # them apart, but the finder marks the backs' cores surely and the prints' less so.
    pile = [_triangle((100 + 60 * k, 100), 42, 0.3 * k) for k in range(3)]
    prints = [_triangle((100 + 70 * k, 300), 41, 0.5) for k in range(5)]
    outlines = tuple(pile + prints)
    fit = fit_lattice(np.array(outlines))
    none_read = np.zeros((0, 3, 2))
    assert like_the_read_tiles(outlines, none_read, fit) == outlines
    core = np.zeros((600, 800), np.float32)  # the finder's map: each outline painted with its core's sureness
    for outline, sureness in zip(outlines, [0.99, 0.95, 1.0, 0.6, 0.85, 0.3, 0.89, 0.7]):
        cv2.fillPoly(core, [np.round(outline).astype(np.int32)], sureness)
    look = FirstLook(np.zeros((0, 3, 2)), 1.0, 960, core)
    assert like_the_read_tiles(outlines, none_read, fit, look) == tuple(pile)
    # Tiles read size the backs themselves: the finder's sureness is not asked.
    read = np.array([_triangle((500, 500), 42), _triangle((600, 500), 42, 0.4)])
    assert like_the_read_tiles(outlines, read, fit_lattice(np.concatenate([read, fit.corners])), look) == outlines


def test_tiles_and_backs_the_board_tiles_size_are_kept_whatever_its_plane_says_far_away():
    # A plane misfitted to a few rough corners: it sizes the board's own tiles about right but
    # shrinks tiles fast towards the photo's top. A back there, the board tiles' size, is kept,
    # and read as well (within 1.25 times the board's median tile: bounding the plane by the
    # board's smallest and largest tile instead admitted numbers' fragments beside steep boards
    # as extra tiles); an outline well off that size is still left to the plane.
    side = 40.0
    read = np.array(_photographed_board(side))
    back = _triangle((400, 40), side)
    fragment = _triangle((700, 300), 0.45 * side)
    outlines = np.concatenate([read, back[None], fragment[None]])
    fit = fit_lattice(outlines)
    tilt = np.array([[1, 0, 0], [0, 1, 0], [0, -0.08, 1]])  # up the plane, farther away
    wild = replace(fit, homography=fit.homography @ tilt)
    assert np.abs(wild.sides_at(read.mean(1)) / side - 1).max() < 0.25
    assert wild.sides_at(back.mean(0)[None])[0] < side / 2
    assert like_the_read_tiles((back,), read, wild) == (back,)
    assert list(sized_like_the_board(outlines, wild)[-2:]) == [True, False]
    assert like_the_read_tiles((back,), read, fit) == (back,)  # a true plane keeps it too


def test_outlines_set_aside_by_size_are_kept_as_possible_backs_only_when_a_backs_size():
    side = 40.0
    on_board = np.array(_photographed_board(side))
    aside = np.array([_triangle((80, 80), side), _triangle((700, 80), 8), _triangle((80, 500), 3 * side, 1.0)])
    kept = back_sized(aside, fit_lattice(on_board))
    assert len(kept) == 1 and np.array_equal(kept[0], aside[0])
    assert len(back_sized(aside, fit_lattice(on_board[:3]))) == 0  # no plane to size them by
    assert len(back_sized(aside[:0], fit_lattice(on_board))) == 0


def test_one_back_broken_into_fragments_is_one_back():
    # A back's grain or glare can break its core into pieces, each a triangle of its own: of
    # outlines over one another only the one closest to a tile's size stays. Backs side by side
    # in a pile (edges a few pixels apart) all stay.
    side = 40.0
    read = np.array(_photographed_board(side))
    whole = _triangle((100, 100), side)
    fragments = (_triangle((100, 92), side * 0.7), _triangle((112, 104), side * 0.6, 0.5), whole)
    cells = [np.array([point_xy(p) for p in cell_corners((col, 0))]) * side + (600, 100) for col in range(3)]
    pile = tuple(c.mean(0) + 0.95 * (c - c.mean(0)) for c in cells)
    fit = fit_lattice(np.concatenate([read, np.array(fragments + pile)]))
    kept = like_the_read_tiles(fragments + pile, read, fit)
    assert len(kept) == 4 and kept[0] is whole and kept[1:] == pile


def _corner_probabilities(*numbers: int, sure: float = 0.9) -> np.ndarray:
    """(3, 8) probabilities: each corner this number (7: none) with ``sure``, the rest spread."""
    p = np.full((3, 8), (1 - sure) / 7)
    p[range(3), numbers] = sure
    return p


def _face_down_by_name(tiles: dict) -> dict:
    probabilities = np.array([p for p, _ in tiles.values()])
    unlike_numbers = unlike_any_number(probabilities)
    blank = blank_apart(probabilities, [cell for _, cell in tiles.values()], unlike_numbers)
    return dict(zip(tiles, lying_face_down(unlike_numbers, blank).tolist()))


def test_blank_backs_are_told_from_face_up_tiles():
    tiles = {
        "printed back": (_corner_probabilities(7, 7, 7), None),
        "pip back, read as 0s": (_corner_probabilities(0, 0, 0), None),
        "another pip back": (_corner_probabilities(0, 0, 0, sure=0.7), None),
        "loose 0-0-4": (_corner_probabilities(0, 0, 4), None),
        "0s in the board": (_corner_probabilities(0, 0, 0), (0, 0)),  # the 0-0-0 tile, played
        "0-0-4 beside it": (_corner_probabilities(0, 0, 4), (1, 0)),
        "hand over the board": (_corner_probabilities(7, 7, 7), (2, 0)),
        "pip backs touching in the pile": (_corner_probabilities(0, 0, 0), (5, 0)),
        "and read as a board": (_corner_probabilities(0, 0, 0, sure=0.6), (6, 0)),
        "blurred loose 2-3-5": (_corner_probabilities(2, 3, 5, sure=0.55), None),
    }
    assert _face_down_by_name(tiles) == {
        "printed back": True,
        "pip back, read as 0s": True,
        "another pip back": True,
        "loose 0-0-4": False,
        "0s in the board": False,
        "0-0-4 beside it": False,
        "hand over the board": True,
        "pip backs touching in the pile": True,
        "and read as a board": True,
        "blurred loose 2-3-5": False,
    }


def test_a_lone_blank_loose_tile_may_be_the_0_0_0_face_up():
    # Printed backs look unlike numbers; one loose tile reads 0s: the set's 0-0-0, face up.
    tiles = {
        "printed back": (_corner_probabilities(7, 7, 7), None),
        "second printed back": (_corner_probabilities(7, 7, 7), None),
        "0-0-0": (_corner_probabilities(0, 0, 0), None),
    }
    assert _face_down_by_name(tiles) == {"printed back": True, "second printed back": True, "0-0-0": False}


def test_a_loose_tile_read_unsurely_is_left_unread_but_a_board_tile_never_is():
    # Table patterns, backs with a grain and fragments of tiles come out as loose tiles read
    # unsurely; a board tile is vouched for by the lattice, and its neighbours check its numbers.
    def tile(cell, weakest: float) -> ReadTile:
        corners = np.array([[0.0, 0.0], [40.0, 0.0], [20.0, 34.6]])
        return ReadTile(cell, corners, (1, 2, 3), (0.99, 0.97, weakest), True, weakest < 0.9)

    assert numbers_reported(tile(None, 0.6))
    assert not numbers_reported(tile(None, 0.3))
    assert numbers_reported(tile((0, 0), 0.3))


def _bare_corner(none: float = 0.8, zero: float = 0.18) -> np.ndarray:
    """(8,) probabilities of a pip set's bare 0 read mostly as "no number"."""
    p = np.full(8, (1 - none - zero) / 6)
    p[0], p[NO_NUMBER] = zero, none
    return p


def _tile_read(cell, numbers, confidences) -> ReadTile:
    corners = np.array([[0.0, 0.0], [40.0, 0.0], [20.0, 34.6]])
    return ReadTile(cell, corners, numbers, confidences, True, min(confidences) < UNSURE_BELOW)


def test_a_pip_tile_read_unsurely_for_its_bare_corners_is_read_with_them_as_0s():
    sure_3, sure_4, sure_0 = (_corner_probabilities(n, n, n, sure=0.98)[0] for n in (3, 4, 0))
    unsure_2 = _corner_probabilities(2, 2, 2, sure=0.5)[0]
    unread = (0.99, 0.3, 0.3)
    cases = {
        "loose 3-0-0, bare corners read no number": (None, unread, [sure_3, _bare_corner(), _bare_corner()], True),
        "the same in the board, flagged": ((0, 0), (0.99, 0.99, 0.6), [sure_3, sure_0, _bare_corner()], True),
        "the same read surely": ((0, 0), (0.99, 0.99, 0.95), [sure_3, sure_0, _bare_corner()], False),
        "a corner read unsurely, not bare": (None, unread, [sure_3, _bare_corner(), unsure_2], False),
        "no mark: a back": (None, unread, [_bare_corner(), _bare_corner(), _bare_corner()], False),
        "numbers read surely, none bare": (None, unread, [sure_3, sure_0, sure_4], False),
    }
    tiles = [_tile_read(cell, (3, 0, 0), confidences) for cell, confidences, _, _ in cases.values()]
    probabilities = np.array([corners for _, _, corners, _ in cases.values()])
    found = unsure_for_bare_corners(tiles, probabilities)
    assert dict(zip(cases, found.tolist())) == {name: wanted for name, (*_, wanted) in cases.items()}

    before = probabilities.copy()
    as_zero = bare_read_as_zero(probabilities, found)
    np.testing.assert_array_equal(probabilities, before)  # not modified
    assert as_zero[0, 1:, 0] == pytest.approx(0.98) and (as_zero[0, :, NO_NUMBER] == 0).all()
    np.testing.assert_array_equal(as_zero[~found], before[~found])
    np.testing.assert_allclose(as_zero.sum(2), before.sum(2))


def test_a_set_shows_bare_zeros_where_the_boards_zeros_read_no_number_twice():
    sure = _corner_probabilities(0, 0, 4, sure=0.95)
    bare_once = np.array([sure[0], _bare_corner(), sure[2]])
    bare_twice = np.array([_bare_corner(), _bare_corner(), sure[2]])

    def shows(*tiles) -> bool:
        read = [_tile_read(cell, (0, 0, 4), (0.99, 0.99, 0.99)) for cell, _ in tiles]
        return zeros_show_bare(read, np.array([p for _, p in tiles]).reshape(-1, 3, NO_NUMBER + 1))

    assert shows(((0, 0), bare_once), ((1, 0), bare_once))
    assert shows(((0, 0), bare_twice))
    assert not shows(((0, 0), bare_once), ((1, 0), sure))  # a printed set's 0 reads 0: one is a hand
    assert not shows(((0, 0), bare_once), (None, bare_twice))  # loose tiles are not settled by neighbours
    assert not shows()


def test_a_tile_alone_in_the_lattice_is_a_loose_one_but_two_joined_are_a_board():
    # No neighbour checks a lone tile's numbers: it meets the loose tiles' bar (a back left over
    # from a pile whose partner went to the backs, read 1-2-1 unsurely, is then unread).
    def tile(cell) -> ReadTile:
        corners = np.array([[0.0, 0.0], [40.0, 0.0], [20.0, 34.6]])
        return ReadTile(cell, corners, (1, 2, 1), (0.48, 0.48, 0.19), True, True)

    alone, loose = alone_read_loose([tile((0, 0)), tile(None)])
    assert (alone.cell, loose.cell) == (None, None)
    assert not numbers_reported(alone)
    board = [tile((0, 0)), tile((1, 0)), tile(None)]
    assert alone_read_loose(board) is board  # unchanged


def test_a_loose_tile_centred_inside_a_board_tile_is_a_fragment_of_it():
    def tile(cell, centre, side=40.0) -> ReadTile:
        return ReadTile(cell, _triangle(centre, side), (1, 2, 3), (1.0, 1.0, 1.0), True, False)

    board = [tile((0, 0), (100, 100)), tile((1, 0), (300, 100))]
    fragment, apart = tile(None, (104, 98), side=25.0), tile(None, (200, 300))
    assert beside_the_board([*board, fragment, apart]).tolist() == [True, True, False, True]  # [*board, apart]
    assert beside_the_board([fragment, apart]).tolist() == [True, True]  # no board: nothing to be a part of


class _StandInFinder(TileFinder):
    """A TileFinder whose network sees the tile cores painted into the photo: channel 0 at every
    look, channel 1 at the first look only (a real network misses tiles far larger than those it
    learnt). Records the size of each look in pixels, its scale and whether it was mirrored too
    (the painted cores read the same mirrored)."""

    def __init__(self) -> None:
        self.working_size, self.core_growth, self.looks, self.scales, self.mirrored = 960, 1.0, [], [], []
        self.mirror_closer_looks = True

    def core_probability(self, image, scale=None, mirrored_too=False):
        height, width = image.shape[:2]
        scale = scale or min(1.0, self.working_size / max(width, height))
        size = (round(width * scale), round(height * scale))
        seen = (image[:, :, 0] | (image[:, :, 1] if not self.looks else 0)).astype(np.float32)
        self.looks.append(size)
        self.scales.append(scale)
        self.mirrored.append(mirrored_too)
        return cv2.resize(seen, size, interpolation=cv2.INTER_AREA), scale


def test_a_big_photo_is_looked_at_again_closer_and_keeps_the_large_tiles_of_the_first_look():
    # A 4000x3000 photo: specks of table pattern (40 px) make its tiles look small, so the finder
    # looks again, closer; a 400 px tile, beyond what the closer look can see, stays.
    specks = np.array([_triangle((500 + 300 * k, 2500), 40) for k in range(9)])
    large = _triangle((2000, 1200), 400)
    photo = np.zeros((3000, 4000, 3), np.uint8)
    photo[:, :, 0] = core_map(specks, photo.shape[:2], 1.0)
    photo[:, :, 1] = core_map(large[None], photo.shape[:2], 1.0)
    finder = _StandInFinder()
    outlines = finder.find(photo)
    assert len(finder.looks) == 2 and finder.mirrored == [False, True]  # the closer look mirrored too
    (first_width, first_height), (width, height) = finder.looks
    assert width * height <= 2.02 * first_width * first_height  # the closer look costs at most twice the first
    assert len(outlines) == 1 + len(specks)
    centres = outlines.mean(1)
    assert np.linalg.norm(centres - large.mean(0), axis=1).min() < 20
    assert all(np.linalg.norm(centres - speck.mean(0), axis=1).min() < 3 for speck in specks)


def test_a_look_mirrored_too_is_the_mean_of_the_maps_of_the_view_and_of_its_mirror_image():
    finder = TileFinder()
    view = cv2.imread(str(SAMPLE))[200:440, 300:620]  # 320x240: no padding at scale 1
    plain, _ = finder.core_probability(view, 1.0)
    of_the_mirror_image, _ = finder.core_probability(np.ascontiguousarray(view[:, ::-1]), 1.0)
    both, scale = finder.core_probability(view, 1.0, mirrored_too=True)
    assert scale == 1.0 and both.shape == plain.shape == (240, 320)
    assert np.allclose(both, (plain + of_the_mirror_image[:, ::-1]) / 2, atol=1e-5)
    assert not np.allclose(plain, of_the_mirror_image[:, ::-1], atol=0.05)  # the two maps do differ


def test_a_small_photo_is_looked_at_enlarged_only_when_the_reader_asks():
    # A 640x480 photo of 20-pixel tiles: the plain closer look never enlarges a photo, so there
    # is one look; asked to bring the tiles to 36 pixels, the finder looks at their part of the
    # photo enlarged about 1.8 times, and gives the tiles where they lie in the photo.
    tiles = np.array([_triangle((200 + 60 * k, 240), 20) for k in range(5)])
    photo = np.zeros((480, 640, 3), np.uint8)
    photo[:, :, 0] = core_map(tiles, photo.shape[:2], 1.0)
    finder = _StandInFinder()
    assert len(finder.find(photo)) == len(tiles) and finder.scales == [1.0]
    first = finder.first_look(photo)
    outlines = finder.look_closer(photo, first, enlarge_to=36.0)
    side = np.median(edge_lengths(first.outlines))
    assert finder.scales[1:] == [1.0, pytest.approx(36 / side)] and 36 / side > 1.4
    assert finder.looks[-1][0] < 640  # only the tiles' part of the photo, enlarged
    assert len(outlines) == len(tiles)
    assert all(np.linalg.norm(outlines.mean(1) - tile.mean(0), axis=1).min() < 2 for tile in tiles)


def _look_at(shape: tuple[int, int], side: float, count: int = 8) -> FirstLook:
    """A first look at a photo of ``shape`` (height, width) finding ``count`` tiles of ``side``
    pixels in a row across its middle, at the finder's working scale for that photo."""
    height, width = shape
    tiles = np.array([_triangle((width * (k + 1) / (count + 1), height / 2), side) for k in range(count)])
    return FirstLook(tiles, min(1.0, 960 / max(shape)), 960)


@pytest.mark.parametrize(
    ("shape", "side", "small"),
    [
        ((720, 1280), 24.0, True),  # a webcam's far board: shown to the finder enlarged
        ((2160, 3840), 93.0, True),  # a phone photo's: 93 px tiles, 23 px in the finder's view
        ((1080, 1920), 46.0, True),  # 23 px in its view, too little closer for its own look
        ((480, 640), 30.0, False),  # 30 px, at most 1.2 times larger at 36: no look worth taking
        ((2160, 3840), 160.0, False),  # 40 px in the finder's view: found well already
    ],
)
def test_tiles_are_looked_for_again_where_the_finder_saw_them_small(shape, side, small):
    assert seen_small(shape, _look_at(shape, side), side) is small


def test_a_first_look_is_checked_on_construction():
    with pytest.raises(ValueError):
        FirstLook(np.zeros((4, 2)), 1.0, 960)
    with pytest.raises(ValueError):
        FirstLook(np.zeros((0, 3, 2)), 0.0, 960)


def test_corners_read_hold_one_row_per_tile_and_per_outline_set_aside():
    fit = fit_board(np.zeros((0, 3, 2)))
    triangles, probabilities = np.zeros((2, 3, 2)), np.full((2, 3, 8), 1 / 8)
    _CornersRead(fit, [(0, 0), None], triangles, probabilities, triangles, triangles[:1], probabilities[:1], False)
    with pytest.raises(ValueError, match="one row per tile"):
        _CornersRead(fit, [(0, 0)], triangles, probabilities, triangles, triangles[:0], probabilities[:0], False)
    with pytest.raises(ValueError, match="one row per outline"):
        _CornersRead(fit, [(0, 0), None], triangles, probabilities, triangles, triangles[:1], probabilities, False)


def test_a_look_is_taken_for_too_close_when_it_reads_parts_of_tiles_or_tiles_too_large():
    tile = ReadTile((0, 0), np.array([[0, 0], [10, 17], [-10, 17]]), (1, 2, 3), (1.0, 1.0, 1.0), True, False)
    outline = np.zeros((3, 2))
    fit = fit_board(tile.corners[None].astype(float))

    def sight(tiles: int, unread: int, backs: int, side: float = 40.0) -> Sight:
        return Sight(960, (tile,) * tiles, (outline,) * backs, (outline,) * unread, False, 6, side, fit, fit.corners)

    assert not sight(24, 0, 7).too_close
    assert not sight(2, 0, 40).too_close  # the start of a game: a small board beside the pile
    assert not sight(0, 0, 0).too_close  # an empty table
    assert sight(0, 27, 141).too_close  # numbers and pips taken for tiles that read as nothing
    assert sight(3, 3, 0).too_close
    assert sight(20, 0, 0, side=120.0).too_close  # tiles larger than the finder learnt
    # Tiles that still show 30 pixels or more from twice as far are looked at from there too.
    assert sight(20, 0, 0, side=2 * ZOOM_TO_SIDE + 1).too_close
    assert not sight(20, 0, 0, side=2 * ZOOM_TO_SIDE - 1).too_close
    assert sight(3, 0, 2).found == (3, 3)

    # The look that joins and reads the most wins; of looks finding as much, one showing the
    # tiles at the size the finder outlines best, else the first.
    near, far, farther = (sight(20, 0, 0, side=side) for side in (120.0, 40.0, 13.0))
    assert best_look([near, far, farther]) is far
    assert best_look([far, farther]) is far and best_look([farther, far]) is far
    assert best_look([near, sight(19, 0, 0)]) is near
    assert best_look([far, sight(20, 0, 0)]) is far


def _ivory_tiles_on_cloth(other: tuple[int, int, int]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """A blue-grey cloth with two ivory tiles read, an ivory back and a patch of colour ``other``
    (BGR) the finder took for a tile: the photo, the tiles read, the back and the patch."""
    image = np.full((200, 400, 3), (150, 120, 110), np.uint8)
    up = np.array([[0, -20], [17, 10], [-17, 10]], float)
    read = np.array([up + (40, 50), up + (100, 50)])
    ivory_back, patch = up + (160, 140), up + (260, 140)
    for triangle in [*read, ivory_back]:
        cv2.fillPoly(image, [triangle.astype(np.int32)], (200, 235, 245))
    cv2.fillPoly(image, [patch.astype(np.int32)], other)
    return image, read, ivory_back, patch


def test_backs_must_have_the_colour_of_the_tiles_read():
    # A green dot the finder took for a tile reads as blank, like a back, but a back is the same
    # plastic as the faces.
    image, read, ivory_back, green_dot = _ivory_tiles_on_cloth((40, 110, 30))
    kept = coloured_like((ivory_back, green_dot), read, image, room=54)
    assert len(kept) == 1 and np.array_equal(kept[0], ivory_back)
    assert len(coloured_like((ivory_back, green_dot), read[:1], image, room=55)) == 2  # one tile: nothing to go by
    # A grey photo still shows the dot far darker than ivory.
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    kept = coloured_like((ivory_back, green_dot), read, grey, room=54)
    assert len(kept) == 1 and np.array_equal(kept[0], ivory_back)


def test_with_no_tile_read_backs_go_by_the_colour_most_of_them_show():
    # Three ivory backs and a green dot, no tile read: the dot is not the pile's colour. With
    # one back beside the dot there is nothing to go by.
    image, ivory, ivory_back, green_dot = _ivory_tiles_on_cloth((40, 110, 30))
    backs = (ivory[0], green_dot, ivory[1], ivory_back)
    kept = coloured_like(backs, np.zeros((0, 3, 2)), image, room=56)
    assert [any(k is b for k in kept) for b in backs] == [True, False, True, True]
    assert len(coloured_like((ivory_back, green_dot), np.zeros((0, 3, 2)), image, room=56)) == 2


def test_backs_must_be_about_as_light_as_the_tiles_read():
    # A pale grey-blue print on the cloth has about the hue of ivory (a*b* within the
    # tolerance) but not its lightness when the tiles are black; a back in some shade stays.
    image, read, _, print_patch = _ivory_tiles_on_cloth((205, 195, 190))
    black_back = read[0] + (150, 90)
    for triangle in read:
        cv2.fillPoly(image, [triangle.astype(np.int32)], (30, 30, 30))
    cv2.fillPoly(image, [black_back.astype(np.int32)], (20, 20, 20))
    kept = coloured_like((print_patch, black_back), read, image, room=54)
    assert len(kept) == 1 and np.array_equal(kept[0], black_back)


def test_loose_tiles_must_have_the_face_of_the_board_tiles():
    # A green print and an ivory loose tile beside two ivory board tiles: the print goes. A grey
    # photo still shows it far darker. With one board tile there is nothing to go by.
    image, board, ivory_loose, green_print = _ivory_tiles_on_cloth((40, 110, 30))
    loose = np.array([ivory_loose, green_print])
    assert faced_like_the_board(loose, board, image).tolist() == [True, False]
    assert faced_like_the_board(loose, board, cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)).tolist() == [True, False]
    assert faced_like_the_board(loose, board[:1], image).tolist() == [True, True]
    # A pale print of ivory's hue is far lighter than black tiles, as lightness alone tells.
    image, board, _, pale_print = _ivory_tiles_on_cloth((205, 195, 190))
    for triangle in board:
        cv2.fillPoly(image, [triangle.astype(np.int32)], (30, 30, 30))
    black_loose = board[0] + (150, 90)
    cv2.fillPoly(image, [black_loose.astype(np.int32)], (25, 25, 25))
    assert faced_like_the_board(np.array([black_loose, pale_print]), board, image).tolist() == [True, False]


def test_a_blank_board_tile_showing_the_table_is_a_hole_but_the_0_0_0_shows_the_face():
    # Wooden tiles on a green cloth. A gap in the board, outlined like a tile, reads 0s at its
    # bare corners like the 0-0-0 played; only the 0-0-0 shows the wood. Blank tiles apart from
    # the board (a pile) and tiles that look unlike any number are not holes.
    image = np.full((200, 400, 3), (40, 110, 30), np.uint8)
    up = np.array([[0, -20], [17, 10], [-17, 10]], float)
    triangles = np.array([up + (40 + 60 * k, 50) for k in range(5)] + [up + (300, 150)])
    for k in (0, 1, 2, 5):
        cv2.fillPoly(image, [triangles[k].astype(np.int32)], (60, 105, 150))
    probabilities = np.array(
        [
            _corner_probabilities(1, 3, 4),
            _corner_probabilities(2, 0, 5),
            _corner_probabilities(0, 0, 0),  # the 0-0-0, wood
            _corner_probabilities(0, 0, 0, sure=0.6),  # the table through a gap
            _corner_probabilities(7, 7, 7),  # a hand
            _corner_probabilities(0, 0, 0),  # a back apart from the board
        ]
    )
    cells = [(0, 0), (1, 0), (2, 0), (3, 0), (4, 0), None]
    unlike_numbers = unlike_any_number(probabilities)
    blank = blank_apart(probabilities, cells, unlike_numbers)
    holes = holes_in_the_board(probabilities, cells, triangles, unlike_numbers, blank, image)
    assert holes.tolist() == [False, False, False, True, False, False]
    # With too few tiles read to know the face, nothing is taken for a hole.
    two = slice(2, 4)
    assert not holes_in_the_board(
        probabilities[two], cells[two], triangles[two], unlike_numbers[two], blank[two], image
    ).any()


def test_a_notch_of_table_read_mostly_as_no_number_is_a_hole_but_tiles_read_as_numbers_stay():
    # Light printed tiles on dark wood. The notch between two of them, outlined like a tile,
    # reads "none" but for the edge of a neighbour's 4 at one corner (studio 2001467: the
    # decoder gave it 0-4-4 and, at the point it shares with a true tile, that tile's 5 as 0).
    # A tile in a shadow reads its numbers and stays, and so does a face read like the notch.
    image = np.full((200, 520, 3), (30, 60, 90), np.uint8)
    up = np.array([[0, -20], [17, 10], [-17, 10]], float)
    triangles = np.array([up + (40 + 60 * k, 50) for k in range(6)])
    face, shadowed = (225, 235, 235), (90, 100, 100)
    for triangle, colour in zip(triangles, (face, face, face, None, shadowed, face)):
        if colour is not None:  # the notch shows the table
            cv2.fillPoly(image, [triangle.astype(np.int32)], colour)
    notch_like = _corner_probabilities(4, 7, 7, sure=0.8)
    probabilities = np.array(
        [
            _corner_probabilities(1, 3, 4),
            _corner_probabilities(2, 4, 5),
            _corner_probabilities(4, 4, 0),
            notch_like,  # the table between tiles
            _corner_probabilities(3, 5, 5),  # a tile in a shadow
            notch_like,  # a face, read as poorly
        ]
    )
    cells = [(k, 0) for k in range(6)]
    unlike_numbers = unlike_any_number(probabilities)
    blank = blank_apart(probabilities, cells, unlike_numbers)
    assert not unlike_numbers.any() and not blank.any()
    holes = holes_in_the_board(probabilities, cells, triangles, unlike_numbers, blank, image)
    assert holes.tolist() == [False, False, False, True, False, False]


def test_no_more_backs_than_the_set_has_tiles_left_the_closest_in_colour():
    # A checked cloth's light square, a little bluer than ivory, passes the colour check: with
    # room in the set for one back, the ivory one stays.
    image, read, ivory_back, check = _ivory_tiles_on_cloth((235, 235, 215))
    assert len(coloured_like((check, ivory_back), read, image, room=2)) == 2
    kept = coloured_like((check, ivory_back), read, image, room=1)
    assert len(kept) == 1 and np.array_equal(kept[0], ivory_back)
    assert coloured_like((check, ivory_back), read, image, room=0) == ()


def test_lab_colours_are_the_cie_l_a_b_of_a_triangles_middle():
    image = np.full((100, 200, 3), (255, 255, 255), np.uint8)
    image[:, 100:] = (0, 0, 255)  # pure red (BGR) on the right half, white on the left
    up = np.array([[0, -30], [26, 15], [-26, 15]], float)
    white, red, outside = up + (50, 50), up + (150, 50), up + (500, 50)
    colours = lab_colours(image, np.array([white, red, outside]))
    assert np.allclose(colours[0], (100, 0, 0), atol=0.5)
    assert np.allclose(colours[1], (53.2, 80.1, 67.2), atol=0.5)  # sRGB red is L* 53.2, a* 80.1, b* 67.2
    assert np.isnan(colours[2]).all()


def test_each_triangles_colour_comes_from_its_own_pixels_cut_in_a_window():
    # lab_colours works in a small window per triangle: the mean must be that of the pixels the
    # triangle's middle covers in the whole photo, also for triangles past its edges.
    rng = np.random.default_rng(4)
    image = rng.integers(0, 256, (90, 120, 3), np.uint8)
    triangles = rng.uniform(-20, 140, (40, 1, 2)) + rng.uniform(-25, 25, (40, 3, 2))
    colours = lab_colours(image, triangles)
    for triangle, colour in zip(about_centre(triangles, 0.7), colours):
        mask = np.zeros(image.shape[:2], np.uint8)
        cv2.fillPoly(mask, [np.round(triangle).astype(np.int32)], 1)
        if not mask.any():
            assert np.isnan(colour).all()
            continue
        mean = image[mask > 0].mean(0)
        assert np.allclose(colour, _cie_lab(mean[None] / 255)[0], atol=1e-3)


def test_the_reader_benchmark_times_each_stage_alone_and_with_the_board_known():
    from vision import bench

    figures = bench.run(photos=2)
    assert set(figures) == {"alone", "board known", "board known, 1.5 times the pixels"}
    for by_stage in figures.values():
        assert {"find", "decode", "total"} <= set(by_stage)
        assert 0 < by_stage["decode"]["p50"] <= by_stage["total"]["p50"] <= by_stage["total"]["p95"]


def test_a_first_look_gives_the_core_in_the_middle_of_each_triangle():
    # Cores drawn at half scale: a tile's own triangle shows its core, the cell beside it none.
    tiles = np.array([_triangle((200, 240), 60), _triangle((420, 240), 60)])
    look = FirstLook(tiles, 0.5, 320, core_map(tiles, (240, 320), 0.5).astype(np.float32))
    beside = tiles[:1] + (0, 80)
    assert look.core_at(tiles).tolist() == [1.0, 1.0] and look.core_at(beside).tolist() == [0.0]
    assert FirstLook(tiles, 0.5, 320).core_at(tiles).tolist() == [0.0, 0.0]  # no core map kept
    assert look.core_at(np.zeros((0, 3, 2))).shape == (0,)


def test_a_core_across_cells_is_a_found_tile_of_their_size_not_of_several():
    cell = _triangle((100, 100), 40)[None]
    assert a_found_tile_across(cell, cell + (8, 5)).tolist() == [True]  # a loose tile lying across
    assert a_found_tile_across(cell, _triangle((110, 105), 90)[None]).tolist() == [False]  # cores run together
    assert a_found_tile_across(cell, cell + (200, 0)).tolist() == [False]  # elsewhere


def test_loose_tiles_read_as_known_ones_join_the_cells_the_game_has_them_in():
    # A plane of 40-pixel tiles seen from straight above; the game knows three tiles. The board
    # read here holds one of them; the others lie loose, cut off from it.
    side = 40.0
    plane = np.array([[side, 0, 300], [0, side, 200], [0, 0, 1]], float)
    fit = LatticeFit([(0, 0)], np.zeros((1, 3, 2)), {}, plane, side)

    def seen(cell, turn=0, shift=(0.0, 0.0), numbers=None, ambiguous=False):
        corners = np.array([point_xy(p) for p in cell_corners(cell)]) * side + (300, 200) + shift
        numbers = expected.get(cell, (1, 2, 3)) if numbers is None else numbers
        turned = tuple(int(n) for n in np.roll(numbers, turn))
        return ReadTile(None, np.roll(corners, turn, axis=0), turned, (1.0,) * 3, True, ambiguous)

    expected = {(0, 0): (1, 2, 3), (3, 0): (2, 5, 4), (4, 0): (0, 0, 4), (0, 3): (1, 1, 5)}
    tiles = [
        replace(seen((0, 0)), cell=(0, 0)),
        seen((3, 0), turn=1, shift=(12, -9)),  # beyond an arm: the plane puts it a little off
        seen((4, 0), ambiguous=True),  # read unsurely: left loose
        seen((0, 3), shift=(3 * side, 0)),  # read as a known tile that lies far from here
        seen((3, 0), numbers=(1, 2, 3)),  # read as the board's own tile, whose cell is taken
    ]
    assert placed_as_known(tiles, expected, fit) == {1: ((3, 0), 1)}
    assert placed_as_known(tiles, expected, replace(fit, homography=None)) == {}


class _SureOf:
    """A stand-in classifier, sure (0.9) of greyed crops or of coloured ones, unsure (0.4) of the others."""

    def __init__(self, grey: bool) -> None:
        self.grey = grey

    def predict(self, crops: np.ndarray) -> np.ndarray:
        grey = (crops == crops[:, :1]).all(axis=(1, 2, 3))
        top = np.where(grey == self.grey, 0.9, 0.4)
        probabilities = np.repeat(((1 - top) / 7)[:, None], NO_NUMBER + 1, axis=1)
        probabilities[:, 3] = top
        return probabilities


@pytest.mark.parametrize("grey", [True, False])
def test_a_photo_is_read_greyed_only_where_the_classifier_is_surer_of_it_so(grey):
    crops = np.random.default_rng(0).integers(0, 256, (DECIDING_CORNERS + 30, 3, 8, 8), dtype=np.uint8)
    probabilities, read_greyed = read_colour_or_grey(_SureOf(grey), crops, GREY_FROM_SIDE)
    assert read_greyed == grey
    assert probabilities.shape == (len(crops), NO_NUMBER + 1)
    assert np.allclose(probabilities[:, 3], 0.9)  # every crop, the deciding ones and the rest, read the surer way


def test_tiles_too_small_to_choose_by_are_read_in_colour():
    crops = np.random.default_rng(0).integers(0, 256, (DECIDING_CORNERS, 3, 8, 8), dtype=np.uint8)
    probabilities, read_greyed = read_colour_or_grey(_SureOf(True), crops, GREY_FROM_SIDE - 1)
    assert not read_greyed and np.allclose(probabilities[:, 3], 0.4)


def test_greyed_crops_keep_each_pixels_brightness_in_all_three_channels():
    crops = np.random.default_rng(1).integers(0, 256, (4, 3, 8, 8), dtype=np.uint8)
    grey = greyed(crops)
    assert grey.shape == crops.shape and grey.dtype == np.uint8
    assert (grey == grey[:, :1]).all()
    assert np.abs(grey[:, 0].astype(float) - crops.mean(1)).max() <= 0.5


def test_a_triangle_with_no_area_is_cut_into_blank_crops():
    photo = np.random.default_rng(0).integers(0, 256, (120, 160, 3), np.uint8)
    tile = _triangle((80, 60), 50)
    collapsed = np.array([[30.0, 40.0], [30.0, 40.0], [90.0, 70.0]])  # two corners at one point
    crops = corner_crops(photo, np.stack([tile, collapsed]))
    assert crops.shape == (6, 3, 32, 32)
    assert (crops[3:] == crops[3:, :, :1, :1]).all()  # one pixel of the photo throughout
    assert crops[:3].std() > 20  # the tile beside it is cut as ever


def test_the_overlay_draws_each_kind_of_outline_in_its_own_colour():
    # As the page draws a reading: the board's tiles, a loose tile, the tile added, a back and an
    # outline left unread, each in its colour (a back's grey was lost on light tiles).
    from vision.overlay import DOWN, GOOD, LAST, LOOSE, UNSURE, draw_overlay
    from vision.records import Reading

    def outline(x: float, y: float) -> np.ndarray:
        return np.array([[x, y + 60.0], [x + 35.0, y], [x + 70.0, y + 60.0]])

    board = random_board(1, 2, "pressman-us")
    (kept, added) = board.placements
    tiles = (
        ReadTile(kept.cell, outline(20, 20), kept.corners, (1.0,) * 3, True, False),
        ReadTile(added.cell, outline(120, 20), added.corners, (1.0,) * 3, True, False),
        ReadTile(None, outline(220, 20), (0, 1, 2), (1.0,) * 3, True, False),
    )
    last = judge_placement(Board((kept,)), added, get_rules("pressman-us"))
    reading = Reading(None, 420, 200, tiles, (outline(20, 120),), (outline(120, 120),), (), last)
    drawn = draw_overlay(np.zeros((200, 420, 3), np.uint8), reading)
    inks = {"board": GOOD, "added": LAST, "loose": LOOSE, "back": DOWN, "unread": UNSURE}
    for (x, y), kind in [
        ((20, 20), "board"),
        ((120, 20), "added"),
        ((220, 20), "loose"),
        ((20, 120), "back"),
        ((120, 120), "unread"),
    ]:
        around = drawn[round(y + 27) : round(y + 34), round(x + 14) : round(x + 21)].reshape(-1, 3).astype(float)
        # halfway up the left side, the pixel nearest each ink (the line is antialiased)
        nearest = {name: np.linalg.norm(around - ink, axis=1).min() for name, ink in inks.items()}
        assert min(nearest, key=nearest.get) == kind and nearest[kind] < 30, (kind, nearest)
