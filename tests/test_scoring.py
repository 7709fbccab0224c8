"""Hand-checked placements: every bonus and every violation under every preset.

Lattice reminder (RULES.md): up cell (c, r) has corners apex (c, r), (c+1, r+1), (c-1, r+1);
down cell (c, r) has (c-1, r), (c+1, r), (c, r+1); cells around point (m, k) are
(m-1,k-1) (m,k-1) (m+1,k-1) (m-1,k) (m,k) (m+1,k).
"""

import re
from dataclasses import replace

import pytest

from engine.board import Board, PlacedTile, Violation, check_placement, validate_board
from engine.rules import PRESETS, described, game_rules, get_rules
from engine.scoring import Bonus, judge_last, judge_placement, score_answer, score_placement
from engine.simulate import random_board
from engine.tiles import Tile

ALL = list(PRESETS)

# CONTRACT.md: 5-5-5 up at (0,0) has points (0,0) (1,1) (-1,1); 5-3-5 down at (1,0) has
# (0,0)=5 (2,0)=3 (1,1)=5 and shares the edge (0,0)-(1,1) showing 5-5. Value 13, no bonus.
CONTRACT = Board.of([((0, 0), (5, 5, 5)), ((1, 0), (5, 3, 5))])

# Hexagon around point (1,1): the last tile, down (2,1), has corners (1,1)=3 (3,1)=5 (2,2)=0;
# cells around (1,1) are (0,0) (1,0) (2,0) (0,1) (1,1) (2,1), the first five already placed.
HEXAGON = Board.of(
    [((0, 0), (3, 3, 3)), ((1, 0), (3, 4, 3)), ((2, 0), (4, 5, 3)), ((0, 1), (3, 3, 2)), ((1, 1), (3, 0, 2))]
)
HEXAGON_MOVE = PlacedTile((2, 1), (3, 5, 0))

# Two hexagons: down (1,0) with corners (0,0)=2 (2,0)=2 (1,1)=4 fills the last gap around both
# (0,0) [cells (-1,-1) (0,-1) (1,-1) (-1,0) (0,0) (1,0)] and (1,1) [(0,0) (1,0) (2,0) (0,1) (1,1) (2,1)].
TWO_HEXAGONS = Board.of(
    [
        ((0, 0), (2, 4, 5)),
        ((0, 1), (5, 4, 4)),
        ((1, 1), (4, 4, 4)),
        ((2, 1), (4, 3, 4)),
        ((2, 0), (2, 3, 4)),
        ((-1, 0), (2, 2, 5)),
        ((-1, -1), (3, 2, 2)),
        ((0, -1), (3, 1, 2)),
        ((1, -1), (1, 2, 2)),
    ]
)
TWO_HEXAGONS_MOVE = PlacedTile((1, 0), (2, 2, 4))

# Three hexagons: down (-3,0) with corners (-4,0)=1 (-2,0)=3 (-3,1)=5 completes the hexagons
# around all three of its corners.
THREE_HEXAGONS = Board.of(
    [
        ((0, 0), (3, 4, 5)),
        ((-1, 0), (3, 3, 5)),
        ((1, 0), (3, 4, 4)),
        ((2, 0), (4, 1, 4)),
        ((-2, 0), (3, 5, 5)),
        ((0, 1), (5, 4, 5)),
        ((3, 0), (4, 0, 1)),
        ((-2, 1), (5, 5, 0)),
        ((-3, 1), (5, 0, 2)),
        ((3, -1), (0, 0, 4)),
        ((-1, -1), (3, 3, 3)),
        ((4, -1), (0, 2, 0)),
        ((-2, -1), (1, 3, 3)),
        ((-4, 1), (5, 5, 2)),
        ((-4, 0), (1, 5, 5)),
        ((-5, 0), (0, 1, 5)),
        ((-3, -1), (1, 3, 1)),
        ((-5, -1), (0, 1, 0)),
        ((-4, -1), (0, 1, 1)),
    ]
)
THREE_HEXAGONS_MOVE = PlacedTile((-3, 0), (1, 3, 5))

# Bridge: down (-2,1) has corners (-3,1)=0 (-1,1)=4 (-2,2)=5. Its only edge contact is up (-2,0)
# [(-2,0)=1 (-1,1)=4 (-3,1)=0], matching 0-4; the far corner (-2,2) touches down (-1,2), which
# shows 5 there; the other edge cells (-3,1) and (-1,1) are empty.
BRIDGE = Board.of(
    [
        ((0, 0), (4, 4, 4)),
        ((0, 1), (4, 4, 2)),
        ((1, 1), (4, 1, 2)),
        ((-1, 0), (1, 4, 4)),
        ((-2, 0), (1, 4, 0)),
        ((1, 2), (2, 1, 2)),
        ((0, 2), (2, 2, 5)),
        ((-1, 2), (5, 2, 5)),
    ]
)
BRIDGE_MOVE = PlacedTile((-2, 1), (0, 4, 5))

# Two-sided fit inside a loop: down (-3,2) [(-4,2)=2 (-2,2)=0 (-3,3)=1] shares edges with
# up (-3,1) [(-3,1) (-2,2) (-4,2)] and up (-2,2) [(-2,2) (-1,3) (-3,3)]; no hexagon is completed.
TWO_SIDED = Board.of(
    [
        ((0, 0), (1, 4, 4)),
        ((0, 1), (4, 4, 5)),
        ((-1, 0), (1, 1, 4)),
        ((-1, -1), (3, 1, 1)),
        ((-2, 0), (1, 4, 5)),
        ((-1, 1), (4, 5, 0)),
        ((-1, 2), (0, 5, 0)),
        ((-2, 2), (0, 0, 1)),
        ((-3, 0), (0, 1, 5)),
        ((-4, 0), (0, 5, 5)),
        ((-4, 1), (5, 5, 2)),
        ((-3, 1), (5, 0, 2)),
    ]
)
TWO_SIDED_MOVE = PlacedTile((-3, 2), (2, 0, 1))


def summary(board, move, preset):
    score = score_placement(board, move, get_rules(preset))
    return score.total, [(b.kind, b.points) for b in score.bonuses]


def test_contract_example():
    result = judge_placement(CONTRACT.without_last(), CONTRACT.placements[-1], get_rules("pressman-us"))
    assert result.to_dict() == {
        "cell": [1, 0],
        "tile": [3, 5, 5],
        "legal": True,
        "violations": [],
        "score": {"total": 13, "base": 13, "bonuses": []},
    }


@pytest.mark.parametrize(
    ("preset", "expected"),
    [
        ("pressman-us", (58, [("hexagon", 50)])),
        ("pressman-2012", (58, [("hexagon", 50)])),
        ("wikipedia", (58, [("hexagon", 50)])),
        ("children", (2, [("hexagon", 1)])),
    ],
)
def test_one_hexagon(preset, expected):
    assert summary(HEXAGON, HEXAGON_MOVE, preset) == expected


@pytest.mark.parametrize(
    ("preset", "expected"),
    [
        ("pressman-us", (108, [("two_hexagons", 100)])),
        ("pressman-2012", (68, [("two_hexagons", 60)])),
        ("wikipedia", (108, [("two_hexagons", 100)])),
        ("children", (3, [("two_hexagons", 2)])),
    ],
)
def test_two_hexagons(preset, expected):
    assert summary(TWO_HEXAGONS, TWO_HEXAGONS_MOVE, preset) == expected


@pytest.mark.parametrize(
    ("preset", "expected"),
    [
        ("pressman-us", (159, [("three_hexagons", 150)])),
        ("pressman-2012", (79, [("three_hexagons", 70)])),
        ("wikipedia", (159, [("three_hexagons", 150)])),
        ("children", (4, [("three_hexagons", 3)])),
    ],
)
def test_three_hexagons(preset, expected):
    assert summary(THREE_HEXAGONS, THREE_HEXAGONS_MOVE, preset) == expected


@pytest.mark.parametrize(
    ("preset", "expected"),
    [
        ("pressman-us", (49, [("bridge", 40)])),
        ("pressman-2012", (49, [("bridge", 40)])),
        ("wikipedia", (49, [("bridge", 40)])),
        ("children", (2, [("bridge", 1)])),
    ],
)
def test_bridge(preset, expected):
    assert summary(BRIDGE, BRIDGE_MOVE, preset) == expected


@pytest.mark.parametrize(
    ("preset", "expected"),
    [
        ("pressman-us", (43, [("two_sided", 40)])),
        ("pressman-2012", (3, [])),
        ("wikipedia", (3, [])),
        ("children", (1, [])),
    ],
)
def test_two_sided_fit(preset, expected):
    assert summary(TWO_SIDED, TWO_SIDED_MOVE, preset) == expected


@pytest.mark.parametrize("board", [HEXAGON, TWO_HEXAGONS, THREE_HEXAGONS, BRIDGE, TWO_SIDED])
def test_fixture_boards_are_legal_and_their_moves_too(board):
    rules = get_rules("pressman-us")
    assert validate_board(board, rules) == []
    move = {
        id(HEXAGON): HEXAGON_MOVE,
        id(TWO_HEXAGONS): TWO_HEXAGONS_MOVE,
        id(THREE_HEXAGONS): THREE_HEXAGONS_MOVE,
        id(BRIDGE): BRIDGE_MOVE,
        id(TWO_SIDED): TWO_SIDED_MOVE,
    }[id(board)]
    assert check_placement(board, move, rules) == []


@pytest.mark.parametrize(
    ("preset", "tile", "expected"),
    [
        ("pressman-us", (5, 5, 5), (25, [("opening", 10)])),
        ("pressman-us", (0, 0, 0), (40, [("opening", 40)])),
        ("pressman-us", (3, 4, 5), (12, [])),
        ("wikipedia", (2, 2, 2), (16, [("opening", 10)])),
        ("wikipedia", (0, 0, 0), (40, [("opening", 40)])),
        ("pressman-2012", (5, 5, 5), (15, [])),
        ("pressman-2012", (0, 0, 0), (0, [])),
        ("children", (5, 5, 5), (1, [])),
    ],
)
def test_opening_scores(preset, tile, expected):
    assert summary(Board(), PlacedTile((0, 0), tile), preset) == expected


def kinds(board, move, preset="pressman-us"):
    return sorted(v.kind for v in check_placement(board, move, get_rules(preset)))


def test_edge_mismatch():
    # Down (0,1) [(-1,1) (1,1) (0,2)] shares A's edge (-1,1)-(1,1), which shows 5-5; we show 4-5.
    violations = check_placement(CONTRACT, PlacedTile((0, 1), (4, 5, 0)), get_rules("pressman-us"))
    assert [(v.kind, v.point, v.cells) for v in violations] == [("edge_mismatch", (-1, 1), ((0, 1), (0, 0)))]


def test_corner_mismatch_where_a_bridge_would_be():
    # The bridge move with 4 instead of 5 at (-2,2), where down (-1,2) shows 5.
    violations = check_placement(BRIDGE, PlacedTile((-2, 1), (0, 4, 4)), get_rules("pressman-us"))
    assert [(v.kind, v.point, v.cells) for v in violations] == [("corner_mismatch", (-2, 2), ((-2, 1), (-1, 2)))]


def test_touching_only_at_a_point_is_no_edge_contact():
    # Up (1,1) [(1,1) (2,2) (0,2)] touches A and B at (1,1), both showing 5, and nothing else.
    violations = check_placement(CONTRACT, PlacedTile((1, 1), (5, 0, 1)), get_rules("pressman-us"))
    assert [v.kind for v in violations] == ["no_edge_contact"]
    assert "only at a point" in violations[0].message
    assert kinds(CONTRACT, PlacedTile((10, 0), (1, 2, 3))) == ["no_edge_contact"]


def test_not_in_set_duplicate_and_occupied():
    # Up (2,0) [(2,0)=3 (3,1) (1,1)=5] matches B's edge; 3-2-5 clockwise is no tile.
    assert kinds(CONTRACT, PlacedTile((2, 0), (3, 2, 5))) == ["not_in_set"]
    assert kinds(CONTRACT, PlacedTile((2, 0), (3, 4, 5))) == []
    # Down (-1,0) [(-2,0) (0,0)=5 (-1,1)=5] with 3-5-5, already on the board as B.
    assert kinds(CONTRACT, PlacedTile((-1, 0), (3, 5, 5))) == ["duplicate_tile"]
    assert kinds(CONTRACT, PlacedTile((1, 0), (0, 1, 2))) == ["occupied"]
    assert kinds(Board(), PlacedTile((0, 0), (6, 6, 6))) == ["not_in_set"]


def test_validate_board_finds_every_problem_without_an_order():
    board = Board.of(
        [
            ((0, 0), (5, 5, 5)),
            ((1, 0), (5, 3, 5)),
            ((0, 1), (4, 5, 0)),  # edge mismatch with (0,0) at (-1,1)
            ((-1, 0), (3, 5, 5)),  # duplicate of (1,0); shows 5 at (-1,1) where (0,1) shows 4
            ((6, 0), (1, 2, 3)),  # detached
            ((2, 0), (3, 2, 5)),  # not in set
        ]
    )
    found = sorted(v.kind for v in validate_board(board, get_rules("pressman-us")))
    assert found == ["corner_mismatch", "duplicate_tile", "edge_mismatch", "no_edge_contact", "not_in_set"]
    assert validate_board(CONTRACT, get_rules("pressman-us")) == []


def test_illegal_placement_is_still_scored():
    result = judge_placement(CONTRACT, PlacedTile((1, 1), (5, 0, 1)), get_rules("pressman-us"))
    assert not result.legal and result.score.total == 6


def test_a_placement_in_words_gives_tile_cell_breakdown_and_total():
    bridge = judge_placement(BRIDGE, BRIDGE_MOVE, get_rules("pressman-us"))
    assert bridge.score.breakdown == "9 +40 bridge"
    assert bridge.in_words == f"{bridge.to_dict()['tile']} at [-2, 1]: 9 +40 bridge = 49"
    illegal = judge_placement(CONTRACT, PlacedTile((1, 1), (5, 0, 1)), get_rules("pressman-us"))
    assert illegal.in_words == "[0, 1, 5] at [1, 1]: 6 = 6 (illegal)"


def test_unknown_preset_is_named():
    with pytest.raises(ValueError, match="unknown rule preset 'house'"):
        get_rules("house")


def test_each_preset_is_described_by_where_it_differs():
    said = {name: described(rules) for name, rules in PRESETS.items()}
    assert len({tuple(sentences) for sentences in said.values()}) == len(PRESETS)
    assert "two at once +100, three +150; fitting two sides without a hexagon +40" in said["pressman-us"][0]
    assert "two at once +60, three +70." in said["pressman-2012"][0]
    assert said["children"][0].startswith("A tile scores 1 point; a bridge +1")
    assert "0-0-0 may open instead; a triple opening scores +10, 0-0-0 +40" in said["pressman-us"][1]
    assert said["pressman-2012"][1] == "Each player draws a tile and the highest opens, with any tile."
    assert said["pressman-us"][2].startswith("A player draws only when no tile in hand fits, until one fits, -5")
    assert said["pressman-2012"][2].startswith("A player may draw even with a tile that fits, up to 3 tiles a turn")
    assert "at no cost; passing with the pile empty costs nothing" in said["children"][2]
    assert "scoring each other rack less its own" in said["wikipedia"][3]
    assert "played out to equal turns" in said["pressman-2012"][3] and "played out" not in said["pressman-us"][3]
    assert said["pressman-us"][4].endswith("reaches 400; if several do, that round's winner wins.")
    house = replace(PRESETS["pressman-us"], max_number=6, max_rounds=3, target_score=300, opener="draw_one")
    assert described(house)[0] == "Played with the 84-tile set, numbers 0 to 6."
    assert described(house)[2].startswith("Each player draws a tile and the highest opens, with a triple or 0-0-0;")
    assert described(house)[-2].startswith("The game ends with the round in which someone reaches 300; if several")
    assert described(house)[-1] == "Else it ends after 3 rounds, and the highest score wins."


def test_a_game_is_set_up_with_its_set_and_a_number_of_rounds():
    rules = game_rules("pressman-2012", max_number=6, rounds=5)
    assert (rules.name, rules.max_number, rules.max_rounds, rules.max_draws) == ("pressman-2012", 6, 5, 3)
    assert game_rules("wikipedia") == PRESETS["wikipedia"]
    with pytest.raises(ValueError, match="5 or 6"):
        game_rules("pressman-us", max_number=9)
    with pytest.raises(ValueError, match="1 to 100"):
        game_rules("pressman-us", rounds=0)
    with pytest.raises(ValueError, match="unknown rule preset 'house'"):
        game_rules("house")


def test_a_board_without_some_cells_keeps_the_rest_in_order():
    board = HEXAGON.with_tile(HEXAGON_MOVE)
    assert board.without({(1, 0), (2, 1)}).placements == tuple(p for i, p in enumerate(HEXAGON.placements) if i != 1)
    assert board.without(set()) == board and board.without({(9, 9)}) == board
    assert HEXAGON.without({HEXAGON.placements[-1].cell}) == HEXAGON.without_last()


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: PlacedTile((0, 0.5), (1, 2, 3)), "a cell is two integers"),
        (lambda: PlacedTile((0, True), (1, 2, 3)), "a cell is two integers"),
        (lambda: PlacedTile((0, 0), (1, 2, 10)), "three numbers 0..9"),
        (lambda: PlacedTile((0, 0), (1, 2)), "three numbers 0..9"),
        (lambda: Violation("misplaced", ((0, 0),), "?"), "unknown violation kind"),
        (lambda: Bonus("triple", 10), "unknown bonus kind"),
        (lambda: Tile(-1, 1, 2), "integers 0..9"),
        (lambda: Tile(3, 2, 4), "non-decreasing"),
        (lambda: replace(get_rules("pressman-us"), max_number=7), "max_number must be 5 or 6"),
        (lambda: replace(get_rules("pressman-us"), max_draws=0), "max_draws must be at least 1"),
        (lambda: replace(get_rules("pressman-us"), hexagon_bonuses=(50, 100)), "one, two and three hexagons"),
        (lambda: get_rules("pressman-us").deal_size(7), "2 to 6 players, not 7"),
        (lambda: random_board(0, 0), "a board holds 1 to 56 tiles, not 0"),
        (lambda: judge_last(Board(), get_rules("pressman-us")), "no tiles to score"),
        (lambda: score_answer(Board(), get_rules("pressman-us")), "no tiles to score"),
    ],
)
def test_records_refuse_what_they_cannot_hold(make, message):
    """Checked on construction: a record that exists holds what its type says."""
    with pytest.raises(ValueError, match=re.escape(message)):
        make()
