"""Tiles, sets and the lattice convention of RULES.md."""

import math

import pytest

from engine.lattice import (
    LatticeMap,
    cell_corners,
    cell_from_corners,
    cells_around,
    edge_neighbours,
    maps_onto,
    mirror_cell,
    mirror_image,
    point_xy,
    points_up,
    shared_points,
)
from engine.tiles import Tile, canonical, is_in_set, tile_set


def test_set_sizes_and_uniqueness():
    assert len(tile_set(5)) == 56
    assert len(tile_set(6)) == 84
    assert len(set(tile_set(5))) == 56
    with pytest.raises(ValueError):
        tile_set(4)


def test_canonical_rotation_and_membership():
    assert canonical((5, 3, 5)) == (3, 5, 5)
    assert canonical((2, 5, 1)) == (1, 2, 5)
    assert canonical((5, 2, 1)) is None  # 1-2-5 read anticlockwise: not a tile
    assert is_in_set((1, 2, 5)) and is_in_set((5, 1, 2))
    assert not is_in_set((5, 2, 1))
    assert not is_in_set((6, 6, 6)) and is_in_set((6, 6, 6), max_number=6)


def test_value_and_triple():
    assert Tile(1, 2, 5).value == 8
    assert Tile(4, 4, 4).is_triple and not Tile(4, 4, 5).is_triple
    with pytest.raises(ValueError):
        Tile(3, 2, 1)


def signed_area(points):
    (ax, ay), (bx, by), (cx, cy) = (point_xy(p) for p in points)
    return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)


@pytest.mark.parametrize("cell", [(0, 0), (1, 0), (0, 1), (-3, 2), (5, -4), (7, 7)])
def test_cells_are_unit_triangles_listed_clockwise(cell):
    corners = cell_corners(cell)
    xy = [point_xy(p) for p in corners]
    for i in range(3):
        assert math.dist(xy[i], xy[(i + 1) % 3]) == pytest.approx(1.0)
    # y points down, so a positive signed area is clockwise as seen on screen.
    assert signed_area(corners) > 0
    assert all((m + k) % 2 == 0 for m, k in corners)
    apex_y = xy[0][1]
    assert (apex_y < xy[1][1]) == points_up(cell)  # an up cell's first corner is its top apex


def test_up_and_down_corner_convention():
    assert cell_corners((0, 0)) == ((0, 0), (1, 1), (-1, 1))
    assert cell_corners((1, 0)) == ((0, 0), (2, 0), (1, 1))


@pytest.mark.parametrize("cell", [(0, 0), (1, 0), (4, -3), (-2, 5)])
def test_edge_neighbours_share_two_points(cell):
    for neighbour in edge_neighbours(cell):
        assert len(shared_points(cell, neighbour)) == 2
        assert points_up(neighbour) != points_up(cell)
        assert cell in edge_neighbours(neighbour)


def test_six_cells_meet_at_a_point():
    point = (1, 1)
    around = cells_around(point)
    assert len(set(around)) == 6
    assert all(point in cell_corners(c) for c in around)


def test_cell_from_corners_inverts_cell_corners():
    for cell in [(0, 0), (1, 0), (-5, 3), (2, -7)]:
        assert cell_from_corners(list(reversed(cell_corners(cell)))) == cell
    with pytest.raises(ValueError):
        cell_from_corners([(0, 0), (2, 0), (4, 0)])


def test_rotation_by_60_degrees_is_a_rigid_clockwise_turn():
    turn = LatticeMap(rotation=1)
    for point in [(2, 0), (1, 1), (3, 1), (-4, 2)]:
        x, y = point_xy(point)
        rx, ry = point_xy(turn.point(point))
        angle = math.radians(60)
        assert (rx, ry) == pytest.approx(
            (x * math.cos(angle) - y * math.sin(angle), x * math.sin(angle) + y * math.cos(angle))
        )
    assert LatticeMap(rotation=6).cell((3, 2)) == (3, 2)
    cell = (2, -1)
    for _ in range(6):
        cell = turn.cell(cell)
    assert cell == (2, -1)


def test_three_symmetries_send_a_cell_onto_another():
    for cell, target in [((0, 0), (0, 0)), ((0, 0), (1, 0)), ((3, -2), (-1, 4)), ((2, 1), (2, 2))]:
        maps = maps_onto(cell, target)
        assert len(set(maps)) == 3 and all(mapping.cell(cell) == target for mapping in maps)
        assert len({mapping.corners(cell, (1, 2, 5))[1] for mapping in maps}) == 3  # each turns it another way


def test_map_keeps_numbers_on_their_points():
    mapping = LatticeMap(rotation=2, dm=3, dk=-1)
    new_cell, numbers = mapping.corners((0, 0), (1, 2, 5))
    for point, number in zip(cell_corners((0, 0)), (1, 2, 5)):
        assert numbers[cell_corners(new_cell).index(mapping.point(point))] == number
    assert canonical(numbers) == (1, 2, 5)  # rotation keeps the clockwise winding
    with pytest.raises(ValueError):
        LatticeMap(dm=1, dk=0)


@pytest.mark.parametrize("cell", [(0, 0), (1, 0), (3, -2), (-4, 5)])
def test_a_mirror_image_keeps_each_number_on_its_point_mirrored_and_reads_anticlockwise(cell):
    turned, numbers = mirror_image(cell, (1, 2, 5))
    assert turned == mirror_cell(cell) and points_up(turned) == points_up(cell)
    for (m, k), number in zip(cell_corners(cell), (1, 2, 5)):
        assert numbers[cell_corners(turned).index((-m, k))] == number
    assert canonical(numbers) is None  # three different numbers, turned over: no set tile
    assert canonical(mirror_image(cell, (2, 2, 5))[1]) == (2, 2, 5)  # two equal ones read alike both ways
    assert mirror_image(turned, numbers) == (cell, (1, 2, 5))  # turned over twice: as it was


def test_a_mirror_image_keeps_neighbours_and_no_turn_of_the_lattice_makes_it():
    for cell in [(0, 0), (1, 0), (-3, 2)]:
        for other in [*edge_neighbours(cell), (cell[0] + 2, cell[1])]:
            assert len(shared_points(mirror_cell(cell), mirror_cell(other))) == len(shared_points(cell, other))
    # Three cells in an L: no symmetry of the lattice sends them onto their mirror image.
    cells = [(0, 0), (1, 0), (2, 0), (2, 1)]
    turned = {mirror_cell(cell) for cell in cells}
    assert all(
        {mapping.cell(cell) for cell in cells} != turned for mapping in maps_onto(cells[0], mirror_cell(cells[0]))
    )
