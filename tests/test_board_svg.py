"""The board drawing names each tile's cell and numbers, so a page showing it can tell which tile
a click hit."""

from xml.etree import ElementTree

from engine.board import Board, PlacedTile
from engine.svg import board_svg

SVG = "{http://www.w3.org/2000/svg}"


def test_each_tile_is_a_group_naming_its_cell_and_numbers():
    board = Board((PlacedTile((0, 0), (5, 5, 5)), PlacedTile((0, 1), (5, 5, 4)), PlacedTile((-1, 0), (5, 3, 5))))
    drawing = ElementTree.fromstring(board_svg(board, last=(-1, 0), provisional=[(0, 1)]))
    groups = drawing.findall(f"{SVG}g")
    named = {g.get("data-cell"): g.get("data-corners") for g in groups}
    assert named == {"0,0": "5,5,5", "0,1": "5,5,4", "-1,0": "5,3,5"}
    for group, placed in zip(groups, board.placements):
        numbers = [text.text for text in group.findall(f"{SVG}text")]
        assert len(group.findall(f"{SVG}polygon")) == 1 and numbers == [str(n) for n in placed.corners]


def test_open_cells_are_groups_naming_their_cell_only_and_fit_in_the_view():
    board = Board((PlacedTile((0, 0), (5, 5, 5)),))
    drawing = ElementTree.fromstring(board_svg(board, open_cells=[(-1, 0), (1, 0), (0, 1)]))
    groups = {g.get("data-cell"): g for g in drawing.findall(f"{SVG}g")}
    assert set(groups) == {"0,0", "-1,0", "1,0", "0,1"}
    assert all(
        groups[c].get("data-corners") is None and not groups[c].findall(f"{SVG}text") for c in ("-1,0", "1,0", "0,1")
    )
    left, top, width, height = map(float, drawing.get("viewBox").split())
    for group in groups.values():
        for pair in group.find(f"{SVG}polygon").get("points").split():
            x, y = map(float, pair.split(","))
            assert left < x < left + width and top < y < top + height
