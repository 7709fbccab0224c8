"""Live play without pixels: boards as a camera would report them, in frames of its own choosing."""

import itertools
from dataclasses import dataclass, replace

import cv2
import numpy as np
import pytest

from engine.board import Board, PlacedTile, check_placement
from engine.game import Game, IllegalEvent, Place, advance
from engine.lattice import Cell, LatticeMap, cell_corners, edge_neighbours, mirror_cell, point_xy
from engine.moves import legal_moves
from engine.rules import game_rules, get_rules
from engine.simulate import random_board
from engine.tiles import format_corners, rotations, tile_set
from service.games import GameSession, GameStore
from service.live import (
    DISAGREE_AFTER,
    GameRecord,
    LiveSettings,
    LiveTable,
    TableView,
    changed_pixels,
    judge_view,
    thumbnail,
)
from vision.noise import noise_level
from vision.records import Reading, ReadTile

RULES = get_rules("pressman-us")


def game_with(board: Board, players: int = 4) -> Game:
    """A game whose board is ``board``, each tile played in turn from seat 0."""
    game = Game([f"P{i}" for i in range(players)], RULES)
    for placed in board.placements:
        turn = game.state.turn if game.state.turn is not None else 0
        game.apply(Place(turn, placed.cell, placed.corners))
    return game


CAMERA = LatticeMap(rotation=2, dm=3, dk=-1)


@pytest.fixture(scope="module")
def grown():
    return random_board(5, 12, "pressman-us")


def test_the_game_board_in_another_frame_is_in_sync(grown):
    game = game_with(Board(grown.placements[:11]))
    verdict = judge_view(TableView(game.state.board.moved(CAMERA)), GameRecord(game.state, RULES))
    assert verdict.status == "in_sync"


def test_one_new_legal_tile_is_placed_for_the_player_whose_turn_it_is(grown):
    game = game_with(Board(grown.placements[:11]))
    verdict = judge_view(TableView(grown.moved(CAMERA)), GameRecord(game.state, RULES))
    assert verdict.status == "placed"
    last = grown.placements[11]
    assert verdict.placement == Place(game.state.turn, last.cell, last.corners)  # in the game's own frame


def test_hidden_tiles_wait_and_two_new_tiles_are_out_of_sync(grown):
    game = game_with(Board(grown.placements[:10]))
    hidden = Board(grown.placements[:7])
    covered = judge_view(TableView(hidden.moved(CAMERA)), GameRecord(game.state, RULES))
    assert (covered.status, covered.message) == ("covered", "3 tiles of the board are hidden")
    one_hidden = judge_view(TableView(Board(grown.placements[:9]).moved(CAMERA)), GameRecord(game.state, RULES))
    assert one_hidden.message == "1 tile of the board is hidden"
    two_more = judge_view(TableView(grown.moved(CAMERA)), GameRecord(game.state, RULES))
    assert two_more.status == "out_of_sync" and "2 new tiles" in two_more.message


def test_two_new_tiles_are_named_so_a_player_can_enter_the_one_the_camera_missed(grown):
    # The camera missed the 11th tile in its own turn (a blurred pip tile: studio game
    # 1000007) and sees it again beside the 12th. The message names both in the game's frame
    # (the view's own frame is turned), so the player enters the 11th by hand; the view then
    # shows one new tile, committed for the next player.
    game = game_with(Board(grown.placements[:10]))
    missed, next_one = grown.placements[10], grown.placements[11]
    view = TableView(Board(grown.placements[:12]).moved(CAMERA))
    two_more = judge_view(view, GameRecord(game.state, RULES))
    assert two_more.status == "out_of_sync"
    assert str(missed) in two_more.message and str(next_one) in two_more.message
    entered, _ = advance(game.state, Place(game.state.turn, missed.cell, missed.corners), RULES)
    verdict = judge_view(view, GameRecord(entered, RULES))
    assert verdict.status == "placed" and verdict.placement == Place(entered.turn, next_one.cell, next_one.corners)


def test_two_new_tiles_either_of_which_came_first_are_offered_to_name_the_first(grown):
    # The page shows the choices as buttons: naming one places it, and the view then shows one
    # new tile, committed for the next player.
    before = Board(grown.placements[:10])
    game = game_with(before)
    first, second = played_in_turn(before, later_allowed_alone=True)
    view = TableView(before.with_tile(first).with_tile(second).moved(CAMERA))
    verdict = judge_view(view, GameRecord(game.state, RULES))
    assert verdict.status == "out_of_sync" and verdict.placement is None
    assert verdict.choices == tuple(sorted((first, second), key=lambda placed: placed.cell))  # in the game's frame
    named, _ = advance(game.state, Place(game.state.turn, second.cell, second.corners), RULES)
    verdict = judge_view(view, GameRecord(named, RULES))
    assert verdict.placement == Place(named.turn, first.cell, first.corners) and not verdict.choices
    many = Board(grown.placements[:6])
    crowded = judge_view(TableView(grown.moved(CAMERA)), GameRecord(game_with(many).state, RULES))
    assert crowded.status == "out_of_sync" and not crowded.choices  # a table to clear, or to enter by hand


def test_of_two_new_tiles_the_one_the_board_allows_alone_was_played_first(grown):
    # Fresh studio game 2000443 (48 px wooden pip tiles): the tile played after the opening one was not
    # read until the next player's joined it on its far side; the camera had seen neither
    # alone, and the game stalled at "2 new tiles at once". The later tile touches only the
    # earlier one, so it cannot have been played first.
    before = Board(grown.placements[:10])
    game = game_with(before)
    first, second = played_in_turn(before, later_allowed_alone=False)
    view = TableView(before.with_tile(first).with_tile(second).moved(CAMERA))
    verdict = judge_view(view, GameRecord(game.state, RULES))
    assert verdict.status == "placed" and verdict.placement == Place(game.state.turn, first.cell, first.corners)
    game.apply(verdict.placement)
    verdict = judge_view(view, GameRecord(game.state, RULES))
    assert verdict.status == "placed" and verdict.placement == Place(game.state.turn, second.cell, second.corners)


def test_a_new_tile_is_placed_though_tiles_of_the_board_are_missed(grown):
    game = game_with(Board(grown.placements[:11]))
    last = grown.placements[11]
    partly = Board((*grown.placements[2:11], last))  # two tiles of the board hidden, or missed by the reader
    verdict = judge_view(TableView(partly.moved(CAMERA)), GameRecord(game.state, RULES))
    assert verdict.status == "placed" and verdict.placement == Place(game.state.turn, last.cell, last.corners)
    first = grown.placements[0]
    moved = Board((*grown.placements[1:11], PlacedTile(last.cell, first.corners)))
    verdict = judge_view(TableView(moved.moved(CAMERA)), GameRecord(game.state, RULES))
    assert verdict.status == "out_of_sync" and verdict.placement is None
    # Named with both cells: the tile may have moved, or either of the two may be misread.
    read_there = PlacedTile(last.cell, first.corners)
    assert verdict.message.startswith(f"the {read_there} is the {first}, moved: put it back")


def test_a_six_in_a_game_of_the_56_tile_set_says_to_start_one_with_the_84_tile_set():
    opened = Board.of([((0, 0), (5, 5, 5))])
    view = TableView(opened.with_tile(PlacedTile((1, 0), (5, 6, 5))).moved(CAMERA))
    refused = judge_view(view, GameRecord(game_with(opened).state, RULES))
    assert refused.status == "out_of_sync" and refused.message.endswith("start a game with that set")
    large = game_rules("pressman-us", max_number=6)
    opened_large = Game(["P0", "P1"], large, [Place(0, (0, 0), (5, 5, 5))])
    placed = judge_view(view, GameRecord(opened_large.state, large))  # in a frame the 5-5-5 alone cannot fix
    assert placed.status == "placed" and sorted(placed.placement.corners) == [5, 5, 6]


def test_a_second_copy_of_a_tile_seen_in_its_place_is_not_a_new_tile(grown):
    # The set has each tile once: an outline beside the board read as a copy of a tile the board
    # shows in its own cell is a misread, so the one other new tile is the placement. Alone, the
    # copy is refused as before (it may be a new tile misread).
    game = game_with(Board(grown.placements[:11]))
    last = grown.placements[11]
    empty = next(cell for cell in sorted(grown.frontier()) if cell != last.cell)
    copy = PlacedTile(empty, grown.placements[0].corners)
    verdict = judge_view(TableView(grown.with_tile(copy).moved(CAMERA)), GameRecord(game.state, RULES))
    assert verdict.status == "placed" and verdict.placement == Place(game.state.turn, last.cell, last.corners)
    alone = judge_view(
        TableView(Board(grown.placements[:11]).with_tile(copy).moved(CAMERA)), GameRecord(game.state, RULES)
    )
    assert alone.status == "out_of_sync" and alone.message.startswith(f"{copy} is not allowed: {copy.tile}")
    # A cell the players corrected holds their tile, whatever the reader sees there.
    first = grown.placements[0]
    misread = PlacedTile(first.cell, tuple((n + 1) % 6 for n in first.corners))
    view = Board((misread, *grown.placements[1:12], copy))
    trusted = judge_view(TableView(view.moved(CAMERA)), GameRecord(game.state, RULES, trusted=frozenset({first.cell})))
    assert trusted.status == "placed" and trusted.placement == Place(game.state.turn, last.cell, last.corners)


def test_a_misread_tile_is_out_of_sync_until_a_player_corrects_it(grown):
    game = game_with(Board(grown.placements[:11]))
    first = grown.placements[0]
    wrong = tuple((n + 1) % 6 for n in first.corners)
    misread = Board((PlacedTile(first.cell, wrong), *grown.placements[1:11]))
    verdict = judge_view(TableView(misread.moved(CAMERA)), GameRecord(game.state, RULES))
    assert verdict.status == "out_of_sync" and str(list(first.cell)) in verdict.message
    trusted = judge_view(
        TableView(misread.moved(CAMERA)), GameRecord(game.state, RULES, trusted=frozenset({first.cell}))
    )
    assert trusted.status == "in_sync"


def legal_tiles(board: Board, cell: Cell) -> list[PlacedTile]:
    """Every tile, turned every way, that the rules allow in ``cell`` beside ``board``."""
    return [placed for placed in legal_moves(board, tile_set(5)) if placed.cell == cell]


def played_in_turn(board: Board, later_allowed_alone: bool) -> tuple[PlacedTile, PlacedTile]:
    """Two tiles played one after the other beside ``board``, the later one such that the rules
    would (or would not) have allowed it on ``board`` alone: either could have come first, or
    only the earlier."""
    return next(
        (earlier, later)
        for cell in sorted(board.frontier())
        for earlier in legal_tiles(board, cell)[:3]
        for later_cell in sorted(board.with_tile(earlier).frontier())
        for later in legal_tiles(board.with_tile(earlier), later_cell)
        if (not check_placement(board, later, RULES)) == later_allowed_alone
    )


def two_legal_tiles(board: Board) -> tuple[PlacedTile, PlacedTile]:
    """Two different tiles that the rules allow in one cell beside ``board``: a tile, and a
    misread of it that the game could have committed."""
    for cell in sorted(board.frontier()):
        legal = legal_tiles(board, cell)
        others = [placed for placed in legal if placed.tile != legal[0].tile] if legal else []
        if others:
            return legal[0], others[0]
    raise AssertionError("no cell takes two tiles")


def test_a_placement_read_unsurely_is_provisional_until_a_sure_reading_settles_it(grown):
    # Studio game 1000021: a new tile's free corner read 3 or 4 from frame to frame (confidence
    # about 0.5), and the 3 was committed; once the next tile beside it made it plain (4, read
    # surely), the game could only say "out of sync" and every later tile was misread to fit.
    # Now a placement committed from an unsure reading is provisional: read surely otherwise,
    # it is corrected; read unsurely otherwise, the game's numbers stand; read surely alike,
    # it is confirmed. Cells of the view are the camera's frame, the verdict's the game's.
    before = Board(grown.placements[:11])
    last, misread = two_legal_tiles(before)
    truth = before.with_tile(last)
    unsure_here = frozenset({CAMERA.cell(last.cell)})
    placing = judge_view(TableView(truth.moved(CAMERA), unsure=unsure_here), GameRecord(game_with(before).state, RULES))
    assert placing.status == "placed" and placing.unsure
    assert placing.message.endswith(", read unsurely: check its numbers")  # the players are told to look
    surely = judge_view(TableView(truth.moved(CAMERA)), GameRecord(game_with(before).state, RULES))
    assert surely.status == "placed" and not surely.unsure and "unsurely" not in surely.message

    game = game_with(before.with_tile(misread))
    provisional = {last.cell}
    plain = judge_view(
        TableView(truth.moved(CAMERA)), GameRecord(game.state, RULES, provisional=frozenset(provisional))
    )
    assert plain.status == "corrected" and plain.corrections == (last,) and plain.placement is None
    assert plain.message.endswith(f"surely now, not {'-'.join(map(str, misread.corners))}: corrected")
    unsure = judge_view(
        TableView(truth.moved(CAMERA), unsure=unsure_here),
        GameRecord(game.state, RULES, provisional=frozenset(provisional)),
    )
    assert unsure.status == "in_sync" and unsure.confirmed == frozenset()
    alike = judge_view(
        TableView(game.state.board.moved(CAMERA)), GameRecord(game.state, RULES, provisional=frozenset(provisional))
    )
    assert alike.status == "in_sync" and alike.confirmed == {last.cell}
    committed_surely = judge_view(TableView(truth.moved(CAMERA)), GameRecord(game.state, RULES))
    assert committed_surely.status == "out_of_sync" and not committed_surely.corrections


def test_a_tile_committed_surely_is_corrected_once_a_neighbour_shows_the_number_read_now(grown):
    # Fresh studio game 2000462: a 0-0-0 was committed surely as 0-5-0 (its free corner misread),
    # and once a 0-4-0 joined it there every view read 0-0-0, surely: "put it back or correct
    # the game" to the end. A number read surely otherwise that a neighbour the view reads as the
    # game has it (or a new tile) shows at the same lattice point corrects the tile; read
    # otherwise with no neighbour showing it, the tile is out of sync as before.
    before = Board(grown.placements[:11])
    for cell in sorted(before.frontier()):
        legal = legal_tiles(before, cell)
        pairs = [
            (a, b)
            for a, b in itertools.permutations(legal, 2)
            if a.tile != b.tile and sum(x != y for x, y in zip(a.corners, b.corners)) == 1
        ]
        for last, misread in pairs:
            truth = before.with_tile(last)
            point = next(q for q, x, y in zip(cell_corners(cell), last.corners, misread.corners) if x != y)
            joining = [
                placed
                for beside in sorted(truth.frontier())
                if point in cell_corners(beside)
                for placed in legal_tiles(truth, beside)
                if placed.tile not in (last.tile, misread.tile)
            ]
            if joining:
                break
        else:
            continue
        break
    else:
        raise AssertionError("no cell takes a tile and its misread with a tile to join them")
    game = game_with(before.with_tile(misread))
    record = GameRecord(game.state, RULES)
    alone = judge_view(TableView(truth.moved(CAMERA)), record)
    assert alone.status == "out_of_sync" and not alone.corrections
    joined = judge_view(TableView(truth.with_tile(joining[0]).moved(CAMERA)), record)
    assert joined.status == "corrected" and joined.corrections == (last,)


def test_a_new_tile_that_breaks_the_rules_is_not_placed(grown):
    before = Board(grown.placements[:11])
    game = game_with(before)
    cell = grown.placements[11].cell
    used = {p.tile for p in grown.placements}
    broken = next(
        PlacedTile(cell, tile.numbers)
        for tile in tile_set(5)
        if tile not in used and check_placement(before, PlacedTile(cell, tile.numbers), RULES)
    )
    verdict = judge_view(TableView(before.with_tile(broken).moved(CAMERA)), GameRecord(game.state, RULES))
    assert verdict.status == "out_of_sync" and verdict.placement is None and "not allowed" in verdict.message


def test_the_opening_tile_may_lie_alone_and_opens_for_the_chosen_player():
    game = Game(["Ann", "Bob", "Cy"], RULES)
    verdict = judge_view(TableView(Board(), ((5, 5, 5),)), GameRecord(game.state, RULES, opener=2))
    assert verdict.status == "placed" and verdict.placement.player == 2 and verdict.placement.corners == (5, 5, 5)
    assert judge_view(TableView(Board()), GameRecord(game.state, RULES)).status == "in_sync"
    crowded = judge_view(TableView(random_board(1, 3, "pressman-us")), GameRecord(game.state, RULES))
    assert crowded.status == "out_of_sync"


def test_before_the_opening_one_joined_tile_opens_and_several_loose_ones_wait():
    game = Game(["Ann", "Bob"], RULES)
    record = GameRecord(game.state, RULES, opener=1)
    one = Board([PlacedTile((3, -1), (2, 4, 4))])  # one tile the reader put in its lattice
    opened = judge_view(TableView(one), record)
    assert opened.status == "placed" and opened.placement == Place(1, (3, -1), (2, 4, 4))
    two_loose = judge_view(TableView(Board(), ((5, 5, 5), (1, 2, 3))), record)
    assert (two_loose.status, two_loose.placement) == ("settling", None) and "2 loose tiles" in two_loose.message


def test_a_board_unlike_the_games_is_out_of_sync_and_a_game_over_takes_no_tile(grown):
    game = game_with(Board(grown.placements[:6]), players=2)
    elsewhere = random_board(1, 6, "pressman-us")  # six tiles, none of them on the game's board
    assert not {p.tile for p in elsewhere.placements} & {p.tile for p in game.state.board.placements}
    unlike = judge_view(TableView(elsewhere), GameRecord(game.state, RULES))
    assert unlike.status == "out_of_sync" and "do not match" in unlike.message
    over = judge_view(TableView(grown.moved(CAMERA)), GameRecord(replace(game.state, phase="over"), RULES))
    assert (over.status, over.placement, over.message) == ("round_over", None, "the game is over")


def test_the_opening_tile_alone_after_it_is_committed_matches_the_game():
    # One tile makes no lattice, so the reader reports it loose, and until the next tile joined it
    # every frame said "the board is hidden or out of the picture", the tile in plain view.
    game = Game(["Ann", "Bob"], RULES)
    game.apply(Place(0, (0, 0), (4, 4, 5)))
    record = GameRecord(game.state, RULES)
    assert judge_view(TableView(Board(), ((5, 4, 4),)), record).status == "in_sync"  # as read, any turn
    assert judge_view(TableView(Board(), ((3, 4, 4),)), record).status == "covered"  # another tile
    assert judge_view(TableView(Board()), record).status == "covered"  # nothing read
    beside = TableView(Board(), ((5, 4, 4),), unread_at=((450.0, 300.0),))  # the next tile, unread
    assert judge_view(beside, record).status == "covered"


def test_an_opening_tile_read_unsurely_opens_once_the_next_tile_joins_it():
    # Alone, the opening tile has no neighbour to confirm its numbers and may be left unread;
    # once the next tile joins it the two are read together, and the one that lay there first
    # is the opener's. The cells are the camera's own frame, the centres pixels.
    game = Game(["Ann", "Bob", "Cy"], RULES)
    pair = random_board(1, 2, "pressman-us").moved(CAMERA)
    first, second = pair.placements
    unread = TableView(Board(), unread_at=((400.0, 300.0),))
    joined = TableView(pair, board_at=((second.cell, (430.0, 283.0)), (first.cell, (402.0, 299.0))))
    table = LiveTable()
    waiting = table.judge(unread, GameRecord(game.state, RULES, opener=1))
    assert waiting.status == "out_of_sync" and "cannot be read surely" in waiting.message
    opened = table.judge(joined, GameRecord(game.state, RULES, opener=1))
    assert opened.status == "placed" and opened.placement == Place(1, first.cell, first.corners)
    game.apply(opened.placement)
    answered = table.judge(joined, GameRecord(game.state, RULES, opener=1))
    assert answered.status == "placed" and answered.placement.player == 2
    assert answered.placement.corners in {second.corners[i:] + second.corners[:i] for i in range(3)}


@pytest.mark.parametrize(
    ("rules", "read", "offered"),
    [
        ("pressman-us", (5, 5, 0), [(5, 5, 0), (5, 5, 5)]),  # a triple's number misread (studio game 2000446)
        ("pressman-us", (2, 2, 2), [(2, 2, 2)]),
        ("pressman-us", (1, 2, 4), [(1, 2, 4)]),  # no number shown twice: as read only
        ("pressman-us", (5, 2, 1), []),  # counterclockwise: no tile of the set
        ("pressman-2012", (5, 5, 0), [(5, 5, 0)]),  # any tile opens: no triple is likelier
    ],
)
def test_an_opening_tile_read_unsurely_is_offered_to_name_as_read_and_as_the_triple_it_may_be(rules, read, offered):
    game = Game(["Ann", "Bob"], get_rules(rules))
    alone = TableView(Board(), unread_at=((400.0, 300.0),), loose_unsure=(read,))
    verdict = LiveTable().judge(alone, GameRecord(game.state, get_rules(rules)))
    assert verdict.status == "out_of_sync" and "cannot be read surely" in verdict.message
    assert verdict.choices == tuple(PlacedTile((0, 0), corners) for corners in offered)
    assert all(format_corners(corners) in verdict.message for corners in offered)
    # Beside another outline, or with tiles joined, the tile is not alone: nothing is offered.
    crowded = replace(alone, unread_at=((400.0, 300.0), (500.0, 300.0)))
    assert LiveTable().judge(crowded, GameRecord(game.state, get_rules(rules))).choices == ()


def test_a_session_opens_with_the_tile_a_player_names_among_those_offered():
    # Studio game 2000463: its 5-5-5 opening read 0-5-5 in every still frame, one number unsure.
    outline = np.array([[380.0, 310.0], [400.0, 275.0], [420.0, 310.0]])
    misread = ReadTile(None, outline, (0, 5, 5), (0.9, 0.69, 0.96), True, True)
    reading = Reading(None, 800, 600, (misread,), (), (), (), None, {}, ())

    session = GameSession("g", Game(["Ann", "Bob"], RULES), 0.0)
    answer = session.look(Photos(reading), np.zeros((600, 800, 3), np.uint8), 0.0, opener=1, still=True)
    assert answer["status"] == "out_of_sync" and "it may be 0-5-5 or 5-5-5" in answer["message"]
    assert answer["game"]["live"]["choices"] == [
        {"cell": [0, 0], "corners": [0, 5, 5]},
        {"cell": [0, 0], "corners": [5, 5, 5]},
    ]
    session.apply({"kind": "place", "player": 1, "cell": [0, 0], "corners": [5, 5, 5]})
    (opening,) = session.game.log
    assert opening.event == Place(1, (0, 0), (5, 5, 5)) and opening.placement.score.total == 25  # 15 + 10 opening


def test_a_tile_read_loose_beside_the_opening_tile_left_unread_does_not_open():
    # Fresh studio game 2000746 (ivory tiles on wood, 40 px): the 2-2-2 opening lay unread, the
    # next tile was laid beside it and read as a loose tile, the 2-2-2 still unread, and the
    # loose tile was committed as the opening. The tile that lay alone before is still there.
    game = Game(["Ann", "Bob"], RULES)
    alone = TableView(Board(), unread_at=((665.0, 467.0),))
    beside = TableView(Board(), ((2, 2, 4),), loose_at=((691.0, 464.0),), unread_at=((665.0, 466.0),))
    table = LiveTable()
    table.judge(alone, GameRecord(game.state, RULES))
    waiting = table.judge(beside, GameRecord(game.state, RULES))
    assert waiting.status == "out_of_sync" and "cannot be read surely" in waiting.message
    # Where the loose tile lies where the lone one lay (read at last), it opens.
    read_at_last = TableView(Board(), ((2, 2, 4),), loose_at=((664.0, 467.0),), unread_at=((500.0, 300.0),))
    assert table.judge(read_at_last, GameRecord(game.state, RULES)).status == "placed"


def test_an_opening_tile_read_differently_from_frame_to_frame_opens_once_joined():
    game = Game(["Ann", "Bob"], RULES)
    pair = random_board(1, 2, "pressman-us")
    first, second = pair.placements
    read, unread = (
        TableView(Board(), ((3, 0, 0),), loose_at=((400.0, 300.0),)),
        TableView(Board(), unread_at=((401.0, 300.0),)),
    )
    joined = TableView(pair, board_at=((first.cell, (402.0, 299.0)), (second.cell, (430.0, 283.0))))
    table = LiveTable(LiveSettings(still_frames=2, still_seconds=0.0))
    statuses = {table.observe(read if t % 2 else unread, GameRecord(game.state, RULES), t).status for t in range(6)}
    assert "placed" not in statuses  # neither reading holds: 3-0-0 is never committed
    verdicts = [table.observe(joined, GameRecord(game.state, RULES, opener=1), t) for t in (6, 7)]
    assert verdicts[-1].placement == Place(1, first.cell, first.corners)


def test_an_opening_tile_joined_by_a_tile_read_differently_from_frame_to_frame_opens():
    # Fresh studio game 2000446 (black tiles, 31 px): the opening tile lay unread, and once the
    # next joined it that one's free corner read one way, then another, so no view of the pair
    # held and the table stayed "before the round" to the end. The readings agree on the tile
    # where the lone one lay: it opens, and the next tile follows from later readings.
    game = Game(["Ann", "Bob"], RULES)
    pair = random_board(1, 2, "pressman-us")
    first, second = pair.placements
    centres = ((first.cell, (402.0, 299.0)), (second.cell, (430.0, 283.0)))
    otherwise = PlacedTile(second.cell, tuple((n + 1) % 6 if i == 0 else n for i, n in enumerate(second.corners)))
    views = [TableView(Board((first, tile)), board_at=centres) for tile in (second, otherwise, second, otherwise)]
    table = LiveTable(LiveSettings(still_frames=3, still_seconds=0.0))
    table.judge(TableView(Board(), unread_at=((400.0, 300.0),)), GameRecord(game.state, RULES))
    verdicts = [table.observe(view, GameRecord(game.state, RULES, opener=1), t) for t, view in enumerate(views)]
    assert verdicts[-1].placement == Place(1, first.cell, first.corners)
    never_alone = LiveTable(LiveSettings(still_frames=3, still_seconds=0.0))  # no tile lay there before
    statuses = {never_alone.observe(view, GameRecord(game.state, RULES), t).status for t, view in enumerate(views)}
    assert "placed" not in statuses


def test_two_joined_tiles_before_the_round_begins_wait_unless_one_lay_there_unread():
    game = Game(["Ann", "Bob"], RULES)
    pair = random_board(1, 2, "pressman-us")
    first, second = pair.placements
    assert not any(placed.tile.is_triple for placed in pair.placements)  # a lone triple opens (below)
    joined = TableView(pair, board_at=((first.cell, (402.0, 299.0)), (second.cell, (430.0, 283.0))))
    never_seen = LiveTable().judge(joined, GameRecord(game.state, RULES))
    assert never_seen.status == "out_of_sync" and "enter the opening tile by hand" in never_seen.message
    assert never_seen.choices == tuple(sorted(pair.placements, key=lambda placed: placed.cell))  # either opened
    between = LiveTable()
    between.judge(TableView(Board(), unread_at=((416.0, 291.0),)), GameRecord(game.state, RULES))  # under neither tile
    assert between.judge(joined, GameRecord(game.state, RULES)).status == "out_of_sync"


def test_joined_tiles_before_the_round_open_with_their_one_triple():
    # Fresh studio game 2000465 (wooden pip tiles): its opening 0-0-0 shows no dots, so alone it
    # was taken for a back, and once the next tile joined it the table asked for the opening
    # tile by hand to the end. Where the rules have the opener lay a triple, the one triple
    # among joined tiles opens; the others follow as tiles played while no view held.
    triple = PlacedTile((0, 0), (0, 0, 0))
    opened = Board((triple,))
    second, third = next(
        (earlier, later)
        for cell in sorted(opened.frontier())
        for earlier in legal_tiles(opened, cell)
        for beyond in edge_neighbours(cell)
        if beyond not in opened
        for later in legal_tiles(opened.with_tile(earlier), beyond)
        if check_placement(opened, later, RULES)
    )
    view = TableView(Board((second, triple, third)).moved(CAMERA))
    game = Game(["Ann", "Bob"], RULES)
    for placed in (triple, second, third):  # in the view's frame, which the round takes for its own
        player = game.state.turn if len(game.state.board) else 1
        verdict = judge_view(view, GameRecord(game.state, RULES, opener=1))
        assert verdict.placement == Place(player, *CAMERA.corners(placed.cell, placed.corners))
        game.apply(verdict.placement)
    three = Board((triple, second, third))
    fourth = next(
        placed for cell in sorted(three.frontier()) for placed in legal_tiles(three, cell) if not placed.tile.is_triple
    )
    crowded = judge_view(TableView(three.with_tile(fourth)), GameRecord(Game(["Ann", "Bob"], RULES).state, RULES))
    assert crowded.status == "out_of_sync"  # among more tiles, a triple drawn and played later could lie
    any_tile_opens = get_rules("pressman-2012")
    verdict = judge_view(view, GameRecord(Game(["Ann", "Bob"], any_tile_opens).state, any_tile_opens))
    assert verdict.status == "out_of_sync" and "enter the opening tile by hand" in verdict.message


def test_a_round_waiting_to_be_settled_commits_nothing(grown):
    game = game_with(Board(grown.placements[:2]), players=2)
    settling = replace(game.state, phase="settling")
    verdict = judge_view(TableView(grown.moved(CAMERA)), GameRecord(settling, RULES))
    assert verdict.status == "round_over" and verdict.placement is None


def test_a_view_counts_only_after_holding_for_frames_and_time(grown):
    game = game_with(Board(grown.placements[:11]))
    table = LiveTable(LiveSettings(still_frames=3, still_seconds=0.4))
    after, before = TableView(grown.moved(CAMERA)), TableView(game.state.board)
    statuses = [table.observe(after, GameRecord(game.state, RULES), t).status for t in (0.0, 0.1, 0.2)]
    assert statuses == ["settling"] * 3 and table.shown is None  # three readings, but not 0.4 s
    assert table.observe(after, GameRecord(game.state, RULES), 0.4).status == "placed"
    assert table.shown is after
    table.need(np.zeros((60, 80), np.uint8), 0.5)  # the picture moves: what was read before no longer counts
    table.need(np.zeros((60, 80), np.uint8), 0.6)
    statuses = [
        table.observe(after if t != 0.9 else before, GameRecord(game.state, RULES), t).status for t in (0.7, 0.9, 1.1)
    ]
    assert statuses == ["settling"] * 3  # a change starts the readings in a row over
    assert (
        table.observe(after, GameRecord(game.state, RULES), 1.3).status == "placed"
    )  # ... but most readings show this


def test_readings_missing_different_tiles_of_the_board_are_one_view_and_the_fullest_counts(grown):
    game = game_with(Board(grown.placements[:11]))
    table = LiveTable(LiveSettings(still_frames=3, still_seconds=0.0))
    views = [TableView(grown.moved(CAMERA))] + [
        TableView(Board(tuple(p for i, p in enumerate(grown.placements) if i != missed)).moved(CAMERA))
        for missed in (3, 5)  # each of these readings misses another tile of the board
    ]
    statuses = [table.observe(view, GameRecord(game.state, RULES), t).status for t, view in enumerate(views)]
    assert statuses == ["settling", "settling", "placed"]
    assert table.shown is views[0]  # the reading that saw every tile


def test_a_reading_that_shows_a_tile_twice_is_not_the_one_judged(grown):
    # Studio game 1000061: of the readings showing the board and a new tile, the fullest read a
    # 5-5-4 of the board as a second 5-5-5, surely; it was the one judged, and the game went out
    # of sync though the other readings were right. The set has each tile once.
    game = game_with(Board(grown.placements[:11]))
    plain = TableView(grown.moved(CAMERA))
    copied = grown.placements[0].corners
    twice = TableView(
        Board((*grown.placements[:3], PlacedTile(grown.placements[3].cell, copied), *grown.placements[4:])).moved(
            CAMERA
        )
    )
    assert twice.signature(GameRecord(game.state, RULES)) == plain.signature(GameRecord(game.state, RULES))
    table = LiveTable(LiveSettings(still_frames=2, still_seconds=0.0))
    verdicts = [table.observe(view, GameRecord(game.state, RULES), t) for t, view in enumerate([plain, twice])]
    assert [v.status for v in verdicts] == ["settling", "placed"] and table.shown is plain


def test_misreads_of_the_board_show_the_same_view_as_the_board(grown):
    # Studio game 1000061 (wooden tiles): between readings of the board and a new tile, one
    # reading left four tiles of the board apart (loose) and another read a tile of the board
    # unsurely otherwise; neither shows a new tile, yet each counted as another view, so no view
    # held and the tile was never committed.
    before = Board(grown.placements[:11])
    game = game_with(before)
    plain = TableView(grown.moved(CAMERA))
    apart = TableView(Board(grown.placements[4:]).moved(CAMERA), loose=tuple(p.corners for p in grown.placements[:4]))
    target = grown.placements[0]
    first = next(
        n for n in range(6) if PlacedTile(target.cell, (n, *target.corners[1:])).tile not in {None, *before.by_tile}
    )
    misread = Board(
        tuple(PlacedTile(p.cell, (first, *p.corners[1:])) if p is target else p for p in grown.placements)
    ).moved(CAMERA)
    unsure = TableView(misread, unsure=frozenset({CAMERA.cell(target.cell)}))
    record = GameRecord(game.state, RULES)
    assert plain.signature(record) == apart.signature(record) == unsure.signature(record)
    assert TableView(misread).signature(record) != plain.signature(record)  # read surely, it is another view
    table = LiveTable(LiveSettings(still_frames=3, still_seconds=0.0))
    verdicts = [table.observe(view, GameRecord(game.state, RULES), t) for t, view in enumerate([plain, apart, unsure])]
    assert [verdict.status for verdict in verdicts] == ["settling", "settling", "placed"]
    added = grown.placements[11]
    assert verdicts[-1].placement == Place(game.state.turn, added.cell, added.corners)  # the misread number left aside


def test_a_board_of_one_tile_read_otherwise_is_matched_by_where_its_tiles_lie():
    # Fresh studio game 2000446 (black tiles, 31 px): just after the opening, the board's one
    # tile read unsurely as another in every other reading. Those readings shared no tile with
    # the game's board, so none could be matched to it and its misread tile counted as new: no
    # view held, and the game lost every turn after the second. The camera keeps still, so
    # they are matched by where their tiles lie, beside those of the view that counted last.
    pair = random_board(3, 2, "pressman-us")
    first, second = pair.placements
    game = game_with(Board((first,)))
    misread = next(
        PlacedTile(first.cell, (n, *first.corners[1:]))
        for n in range(7)
        if PlacedTile(first.cell, (n, *first.corners[1:])).tile not in {None, first.tile, second.tile}
    )
    centres = {first.cell: (402.0, 299.0), second.cell: (430.0, 283.0)}

    def camera_view(tiles: tuple[PlacedTile, ...]) -> TableView:
        """The pair as the camera reports it: its own frame, the first tile unsure, the centres."""
        return TableView(
            Board(tiles).moved(CAMERA),
            board_at=tuple((CAMERA.cell(placed.cell), centres[placed.cell]) for placed in tiles),
            unsure=frozenset({CAMERA.cell(first.cell)}),
        )

    views = [camera_view((tile, second)) for tile in (first, misread, first, misread)]
    assert views[1].signature(GameRecord(game.state, RULES)) != views[0].signature(GameRecord(game.state, RULES))
    table = LiveTable(LiveSettings(still_frames=3, still_seconds=0.0))
    table.shown = camera_view(pair.placements)  # the view the opening tile was committed from
    verdicts = [table.observe(view, GameRecord(game.state, RULES), t) for t, view in enumerate(views)]
    assert [v.status for v in verdicts[:3]] == ["settling", "settling", "placed"]
    assert verdicts[2].placement == Place(game.state.turn, second.cell, second.corners)
    never_counted = LiveTable(LiveSettings(still_frames=3, still_seconds=0.0))  # nothing to match them by
    statuses = {never_counted.observe(view, GameRecord(game.state, RULES), t).status for t, view in enumerate(views)}
    assert statuses == {"settling"}


def test_a_view_read_as_often_as_another_never_counts(grown):
    game = game_with(Board(grown.placements[:11]))
    table = LiveTable(LiveSettings(still_frames=2, still_seconds=0.0))
    after, before = TableView(grown.moved(CAMERA)), TableView(game.state.board)
    statuses = {table.observe(after if t % 2 else before, GameRecord(game.state, RULES), t).status for t in range(1, 9)}
    assert statuses == {"settling"}


def test_a_still_table_whose_readings_keep_disagreeing_is_said_to_be_misread_not_moving(grown):
    game = game_with(Board(grown.placements[:11]))
    table = LiveTable(LiveSettings(still_frames=2, still_seconds=0.0))
    after, before = TableView(grown.moved(CAMERA)), TableView(game.state.board)
    readings = [after if t % 2 else before for t in range(DISAGREE_AFTER)]
    verdicts = [table.observe(view, GameRecord(game.state, RULES), t) for t, view in enumerate(readings)]
    assert {v.status for v in verdicts} == {"settling"}
    assert all("stay still" in v.message for v in verdicts[:-1])
    assert "read differently from frame to frame" in verdicts[-1].message and "camera closer" in verdicts[-1].message
    table.need(np.zeros((60, 80), np.uint8), 10.0)  # the picture moves: its readings start over
    table.need(np.full((60, 80), 200, np.uint8), 10.1)
    assert "stay still" in table.observe(after, GameRecord(game.state, RULES), 10.2).message
    # Readings that agree, quicker than the time a view must span, disagree on nothing.
    quick = LiveTable(LiveSettings(still_frames=2, still_seconds=1.0))
    agreeing = [quick.observe(after, GameRecord(game.state, RULES), t / 100) for t in range(DISAGREE_AFTER)]
    assert all(v.status == "settling" and "stay still" in v.message for v in agreeing)


def test_one_new_tile_read_one_way_and_another_is_placed_provisionally(grown):
    # Studio game 1000021: a new tile's free corner read 2 in two frames and 3 in the two
    # between; neither view held, so the tile was never committed and the next one made "2 new
    # tiles at once" for the rest of the game. Frames that agree on one new tile but not on its
    # numbers now hold together: the numbers most of them read are committed provisionally.
    before = Board(grown.placements[:11])
    game = game_with(before)
    one, other = two_legal_tiles(before)
    read = [TableView(before.with_tile(tile).moved(CAMERA)) for tile in (one, other, other)]
    table = LiveTable(LiveSettings(still_frames=3, still_seconds=0.0))
    verdicts = [table.observe(view, GameRecord(game.state, RULES), t) for t, view in enumerate(read)]
    assert [v.status for v in verdicts] == ["settling", "settling", "placed"]  # neither view held alone
    assert verdicts[-1].unsure and verdicts[-1].placement == Place(game.state.turn, other.cell, other.corners)
    # A reading without the new tile in between keeps them from holding together.
    table = LiveTable(LiveSettings(still_frames=3, still_seconds=0.0))
    mixed = (one, None, other, None, one, None)
    views = [TableView((before.with_tile(t) if t else before).moved(CAMERA)) for t in mixed]
    assert {table.observe(view, GameRecord(game.state, RULES), t).status for t, view in enumerate(views)} == {
        "settling"
    }


def test_two_turns_played_before_the_table_held_still_are_committed_in_the_order_seen(grown):
    # Studio game 1000061: a tile read as the one added in two readings, then the picture moved,
    # and when it held still again the next player's tile lay beside it: "2 new tiles at once"
    # for the rest of the game. The tile seen alone was played first: it is committed, then the
    # other from the next reading.
    game = game_with(Board(grown.placements[:10]))
    played, next_played = grown.placements[10:12]
    alone, both = TableView(Board(grown.placements[:11]).moved(CAMERA)), TableView(grown.moved(CAMERA))

    def verdicts(readings_alone: int) -> list:
        table = LiveTable(LiveSettings(still_frames=3, still_seconds=0.0))
        state = game_with(Board(grown.placements[:10])).state
        for t in range(readings_alone):
            table.observe(alone, GameRecord(state, RULES), t)
        for t in (5.0, 5.1):
            table.need(np.full((60, 80), int(t * 10) * 40 % 256, np.uint8), t)  # a hand comes and goes
        seen = [table.observe(both, GameRecord(state, RULES), t) for t in (6.0, 6.1, 6.2)]
        if seen[-1].placement is not None:
            state, _ = advance(state, seen[-1].placement, RULES)
            seen.append(table.observe(both, GameRecord(state, RULES), 6.3))
        return seen

    in_order = verdicts(readings_alone=2)
    assert [v.status for v in in_order] == ["settling", "settling", "placed", "placed"]
    turn = game.state.turn
    assert in_order[2].placement == Place(turn, played.cell, played.corners)
    assert in_order[3].placement == Place((turn + 1) % 4, next_played.cell, next_played.corners)
    for readings_alone in (0, 1):  # not seen alone, or once only (a misreading): which came first is unknown
        assert verdicts(readings_alone)[-1].status == "out_of_sync"


def test_turns_played_while_no_view_held_are_committed_one_by_one_in_the_order_seen(grown):
    # Fresh studio game 2000400: one tile was seen added twice, then the next player's beside it
    # twice, each time before the hand moved again, and the view held only once a third lay
    # there: two new tiles at once after the first was committed, and the game stalled. Each
    # tile seen before the others appeared is committed in turn, one from each reading.
    played = grown.placements[9:12]

    def verdicts(readings_of_the_second: int) -> list:
        table = LiveTable(LiveSettings(still_frames=3, still_seconds=0.0))
        state = game_with(Board(grown.placements[:9])).state
        t = 0.0
        for tiles, readings in ((10, 2), (11, readings_of_the_second)):
            for _ in range(readings):
                table.observe(TableView(Board(grown.placements[:tiles]).moved(CAMERA)), GameRecord(state, RULES), t)
                t += 0.1
            for shade in (40, 80):  # a hand comes and goes
                table.need(np.full((60, 80), shade, np.uint8), t)
        all_three = TableView(Board(grown.placements[:12]).moved(CAMERA))
        seen = [table.observe(all_three, GameRecord(state, RULES), t + k / 10) for k in range(3)]
        while seen[-1].status == "placed" and len(seen) < 6:
            state, _ = advance(state, seen[-1].placement, RULES)
            seen.append(table.observe(all_three, GameRecord(state, RULES), t + len(seen) / 10))
        return seen

    in_order = verdicts(readings_of_the_second=2)
    assert [v.status for v in in_order] == ["settling", "settling", "placed", "placed", "placed", "in_sync"]
    turn = game_with(Board(grown.placements[:9])).state.turn
    assert [v.placement for v in in_order[2:5]] == [
        Place((turn + k) % 4, placed.cell, placed.corners) for k, placed in enumerate(played)
    ]
    # The second seen once only (a misreading, perhaps): which of the last two came first is unknown.
    once = verdicts(readings_of_the_second=1)
    assert [v.status for v in once[2:]] == ["placed", "out_of_sync"]


def test_a_tile_read_now_and_then_before_the_one_played_was_not_placed_first(grown):
    # Fresh studio game 2000481: an empty cell beside the board read as its neighbours' numbers
    # (a 2-3-4) in a few readings, then a tile was played, seen alone twice, and the next beside
    # it: the 2-3-4 was committed as placed first, and the game went out of step. A played tile
    # stays in the readings; one read now and then is not placed first.
    game = game_with(Board(grown.placements[:9]))
    board = Board(grown.placements[:9])
    played, next_played = grown.placements[9:11]
    used = {placed.tile for placed in grown.placements[:11]}
    phantom = next(  # an empty cell beside the board read as a tile the board allows there
        candidate
        for cell in sorted(board.frontier() - {played.cell, next_played.cell})
        for tile in tile_set(5)
        if tile not in used
        for candidate in (PlacedTile(cell, turned) for turned in rotations(tile.numbers))
        if not check_placement(board, candidate, RULES)
    )

    def view(*tiles: PlacedTile) -> TableView:
        return TableView(Board([*board.placements, *tiles]).moved(CAMERA))

    def first_verdict(phantom_in: set[int], played_in: frozenset[int] = frozenset({6, 7})) -> object:
        table = LiveTable(LiveSettings(still_frames=3, still_seconds=0.0))
        record = GameRecord(game.state, RULES)
        readings = [
            view(*([phantom] if k in phantom_in else []), *([played] if k in played_in else [])) for k in range(8)
        ]
        for t, reading in enumerate(readings):  # a hand over the table between readings: none holds
            table.need(np.full((60, 80), 40 * (t % 2 + 1), np.uint8), t / 10)
            table.observe(reading, record, t / 10)
        table.need(np.full((60, 80), 120, np.uint8), 1.0)
        return [table.observe(view(played, next_played, phantom), record, 1 + k / 10) for k in range(3)][-1]

    turn = game.state.turn
    assert first_verdict(phantom_in={1, 4}).placement == Place(turn, played.cell, played.corners)
    # Read in every reading since it appeared, it is a tile played while no view held: first.
    assert first_verdict(phantom_in={4, 5, 6, 7}).placement == Place(turn, phantom.cell, phantom.corners)
    # Read now and then before it came to stay, the readings do not tell when the tile was played.
    assert first_verdict(phantom_in=set(), played_in=frozenset({1, 6, 7})).status == "out_of_sync"


def test_two_new_tiles_never_read_apart_are_committed_in_the_order_the_picture_shows(grown):
    # Fresh studio game 2000443: the frames after a 1-2-5 was played read the board as one large
    # outline, so no reading showed it alone, and once the next player's 1-4-4 joined, "2 new
    # tiles at once" kept the game out of sync for the rest of it. Where each tile lies, the still
    # picture changed after a different hand came and went: the earlier change was played first.
    played, next_played = grown.placements[10:12]
    both = Board(grown.placements[:12]).moved(CAMERA)
    at = {played.tile: (200.0, 240.0), next_played.tile: (440.0, 240.0)}
    board_at = tuple((p.cell, at.get(p.tile, (20.0 + 8 * i, 40.0))) for i, p in enumerate(both.placements))
    view = TableView(both, board_at=board_at)
    table_only = np.full((480, 640, 3), 60, np.uint8)
    first_only = table_only.copy()
    first_only[225:255, 185:215] = 200  # the first tile, 30 pixels
    both_tiles = first_only.copy()
    both_tiles[225:255, 425:455] = 200
    hand = np.full((480, 640, 3), 160, np.uint8)

    def verdicts(pictures: list[np.ndarray], forgetting: bool | None = None) -> list:
        table = LiveTable(LiveSettings(still_frames=3, still_seconds=0.0))
        state = game_with(Board(grown.placements[:10])).state
        t = 0.0
        for picture in pictures:  # each after a hand came and went
            for frame in (hand, picture, picture):
                table.need(frame, t)
                t += 0.1
        if forgetting is not None:  # an event entered by hand: the board changed, or not (a draw)
            table.forget(board_changed=forgetting)
        seen = [table.observe(view, GameRecord(state, RULES), t + k / 10) for k in range(3)]
        if seen[-1].placement is not None:
            state, _ = advance(state, seen[-1].placement, RULES)
            seen.append(table.observe(view, GameRecord(state, RULES), t + 0.3))
        return seen

    in_order = verdicts([table_only, first_only, both_tiles])
    assert [v.status for v in in_order] == ["settling", "settling", "placed", "placed"]
    turn = game_with(Board(grown.placements[:10])).state.turn
    assert in_order[2].placement == Place(turn, played.cell, played.corners)
    assert in_order[3].placement == Place((turn + 1) % 4, next_played.cell, next_played.corners)
    # A draw told meanwhile (fresh studio game 2000604) leaves the pictures that tell the order;
    # a tile entered by hand, which changes the board, does not.
    assert [v.status for v in verdicts([table_only, first_only, both_tiles], forgetting=False)][2:] == ["placed"] * 2
    assert verdicts([table_only, first_only, both_tiles], forgetting=True)[-1].status == "out_of_sync"
    # Both places changed in the same still picture, or were seen changed from the first picture
    # on: which came first is unknown.
    assert verdicts([table_only, both_tiles])[-1].status == "out_of_sync"
    assert verdicts([first_only, both_tiles])[-1].status == "out_of_sync"
    # Tiles of about the cloth's grey in another colour (fresh studio game 2000701: wooden pip
    # tiles on a printed cloth) change the picture's colour more than its grey: ordered as well.
    cloth = np.full((480, 640, 3), (60, 120, 60), np.uint8)
    first_on_cloth = cloth.copy()
    first_on_cloth[225:255, 185:215] = (140, 95, 124)  # grey 109 against the cloth's 95
    both_on_cloth = first_on_cloth.copy()
    both_on_cloth[225:255, 425:455] = (140, 95, 124)
    on_cloth = verdicts([cloth, first_on_cloth, both_on_cloth])
    assert [v.placement for v in on_cloth] == [v.placement for v in in_order]


def test_an_opening_tile_never_found_alone_opens_where_the_picture_shows_it_lay_first():
    # Fresh studio game 2000604: the 4-4-4 opening, white on a wooden table, was never found
    # alone (the table was seen "waiting for the opening tile" while it lay there), and three
    # tiles joined it before any view held; "4 joined tiles before the round has begun" kept the
    # game out of sync to its end. Each later tile's place changed in a later still picture.
    board = random_board(2, 4, "pressman-us")
    assert board.placements[0].tile.is_triple and not any(p.tile.is_triple for p in board.placements[1:])
    seen = board.moved(CAMERA)
    centre = {placed.tile: (100.0 + 140 * k, 240.0) for k, placed in enumerate(board.placements)}
    view = TableView(seen, board_at=tuple((placed.cell, centre[placed.tile]) for placed in seen.placements))
    hand = np.full((480, 640, 3), 160, np.uint8)

    def pictures(order: list[int]) -> list[np.ndarray]:
        """Still pictures, the tiles appearing in ``order`` (the first picture shows the first)."""
        shown, pictured = np.full((480, 640, 3), 60, np.uint8), []
        for k in order:
            x, y = (int(v) for v in centre[board.placements[k].tile])
            shown = shown.copy()
            shown[y - 15 : y + 15, x - 15 : x + 15] = 200
            pictured.append(shown)
        return pictured

    def commits(stills: list[np.ndarray]) -> tuple:
        """The placements committed, and the last verdict, once the view has held after ``stills``."""
        table = LiveTable(LiveSettings(still_frames=3, still_seconds=0.0))
        state, t, placed = Game(["Ann", "Bob"], RULES).state, 0.0, []
        for k, picture in enumerate(stills):  # each after a hand came and went
            for frame in (hand, picture, picture):
                table.need(frame, t)
                t += 0.1
            if k == 0:  # the opening tile lies there unfound
                waiting = [table.observe(TableView(Board()), GameRecord(state, RULES), t + i / 10) for i in range(3)]
                assert waiting[-1].status == "in_sync"
        for k in range(8):
            verdict = table.observe(view, GameRecord(state, RULES), t + k / 10)
            if verdict.placement is not None:
                state, _ = advance(state, verdict.placement, RULES)
                placed.append(verdict.placement)
        return placed, verdict

    in_order, _ = commits(pictures([0, 1, 2, 3]))
    assert [(p.cell, p.corners) for p in in_order] == [(p.cell, p.corners) for p in seen.placements]
    assert [p.player for p in in_order] == [0, 1, 0, 1]
    # A tile other than the triple lay there first: the rules have a triple open, so no tile
    # opens; nor where two tiles lay there from the first still picture on.
    for stills in (pictures([1, 0, 2, 3]), pictures([0, 1, 2, 3])[1:]):
        placed, verdict = commits(stills)
        assert not placed and verdict.status == "out_of_sync" and "joined tiles" in verdict.message


def test_a_flickering_reading_never_replaces_the_view_shown(grown):
    game = game_with(Board(grown.placements[:11]))
    table = LiveTable(LiveSettings(still_frames=2, still_seconds=0.0))
    steady = TableView(Board(grown.placements[:11]).moved(CAMERA))
    for t in range(3):
        table.observe(steady, GameRecord(game.state, RULES), t)
    first = grown.placements[0]
    flicker = TableView(Board((PlacedTile(first.cell, (0, 0, 0)), *grown.placements[1:11])))
    for t in range(3, 13):
        table.observe(flicker if t % 2 else steady, GameRecord(game.state, RULES), t)
        assert table.shown is steady


def test_change_between_thumbnails():
    rng = np.random.default_rng(0)
    table = np.full((960, 1280, 3), 90, np.uint8)
    noisy = np.clip(table.astype(int) + rng.integers(-20, 21, table.shape), 0, 255).astype(np.uint8)
    limit = LiveSettings().changed_pixels
    assert changed_pixels(None, thumbnail(table)) == thumbnail(table).size
    assert changed_pixels(thumbnail(table), thumbnail(noisy)) < limit  # sensor noise
    hand = table.copy()
    hand[400:960, 500:800] = (150, 170, 210)  # an arm reaching in
    assert changed_pixels(thumbnail(table), thumbnail(hand)) >= limit
    tile = table.copy()
    cv2.fillConvexPoly(tile, np.array([[640, 400], [670, 452], [610, 452]]), (235, 235, 225))  # a 60 px tile
    assert changed_pixels(thumbnail(table), thumbnail(tile)) >= limit
    with pytest.raises(ValueError):
        LiveSettings(still_frames=0)


def _a_table_in_dim_light(frames: int, noise: float, seed: int = 0) -> tuple[np.ndarray, list[np.ndarray]]:
    """A still picture of a tile on a cloth, and ``frames`` frames of it from a webcam with
    sensor noise of ``noise`` grey levels in every channel."""
    rng = np.random.default_rng(seed)
    picture = np.full((480, 640, 3), 90, np.uint8)
    cv2.fillConvexPoly(picture, np.array([[320, 200], [350, 252], [290, 252]]), (235, 235, 225))
    noisy = [np.clip(picture + rng.normal(0, noise, picture.shape), 0, 255).astype(np.uint8) for _ in range(frames)]
    return picture, noisy


def test_a_still_noisy_picture_is_read_as_the_mean_of_its_frames():
    picture, frames = _a_table_in_dim_light(10, 12.0)
    table = LiveTable()
    table.need(frames[0], 0.0)
    assert table.steadied(frames[0]) is frames[0]  # one frame: nothing to average yet
    for t, frame in enumerate(frames[1:], start=1):
        table.need(frame, t / 10)
    steady = table.steadied(frames[-1])
    assert noise_level(frames[-1]) > 10 and noise_level(steady) < noise_level(frames[-1]) / 2.2
    assert np.abs(steady.astype(int) - picture).mean() < 4  # the picture itself, not a blur of it
    # A hand comes: the mean starts again from the first still frame after it.
    hand = picture.copy()
    hand[200:480, 250:450] = (150, 170, 210)
    assert table.need(hand, 1.1) == "moving" and table.need(frames[0], 1.2) == "moving"  # it goes
    table.need(frames[1], 1.3)
    assert table.steadied(frames[1]) is frames[1]
    table.need(frames[2], 1.4)
    assert table.steadied(frames[2]) is not frames[2]
    # So does a photo sent at rest: frames streamed before it may show the table before a turn.
    table.photographed(frames[3])
    table.need(frames[4], 1.5)
    assert table.steadied(frames[4]) is frames[4]
    # Frames as clean as a webcam's in good light are read as they come.
    table = LiveTable()
    for t, frame in enumerate(_a_table_in_dim_light(4, 1.0)[1]):
        table.need(frame, t / 10)
    assert table.steadied(frame) is frame


def test_a_session_reads_a_noisy_still_table_from_its_frames_mean():
    _, frames = _a_table_in_dim_light(6, 12.0)
    photos = Photos(Reading(None, 640, 480, (), (), (), (), None, {}, ()))
    session = GameSession("g", Game(["Ann", "Bob"], RULES), 0.0)
    for t, frame in enumerate(frames):
        session.look(photos, frame, t / 10)
    given = [told.pixels for told in photos.told]
    assert len(given) == 5  # the first frame has nothing to compare with: "moving"
    assert noise_level(given[-1]) < noise_level(frames[-1]) / 2


def test_frames_are_read_only_when_the_picture_may_have_changed(grown):
    game = game_with(Board(grown.placements[:11]))
    table = LiveTable(LiveSettings(still_frames=2, still_seconds=0.0, refresh_seconds=2.0))
    picture = np.full((480, 640, 3), 90, np.uint8)
    view = TableView(Board(grown.placements[:11]).moved(CAMERA))
    assert table.need(picture, 0.0) == "moving"  # nothing to compare with yet
    for t in (0.1, 0.2):
        assert table.need(picture, t) == "read"
        verdict = table.observe(view, GameRecord(game.state, RULES), t)
    assert verdict.status == "in_sync"
    assert table.need(picture, 0.5) == "unchanged"  # settled: no need to read this frame again
    assert table.need(picture, 2.3) == "read"  # ... but for a refresh now and then
    table.observe(view, GameRecord(game.state, RULES), 2.3)
    moved = picture.copy()
    moved[100:300, 100:300] = 200
    assert table.need(moved, 2.4) == "moving"
    assert table.need(moved, 2.5) == "read"  # still again, but not the picture of the last verdict
    table.observe(view, GameRecord(game.state, RULES), 2.5)
    table.forget()  # the game changed through a button: read afresh
    assert table.need(moved, 2.6) == "read"
    for t in (2.7, 2.8):
        table.observe(view, GameRecord(game.state, RULES), t)
    assert table.need(moved, 2.9) == "unchanged"
    # A hand comes and goes: the picture looks as before (a small tile may change too few
    # thumbnail pixels to tell), but it is read until a verdict settles again.
    assert table.need(picture, 3.0) == "moving"
    assert table.need(moved, 3.1) == "moving"
    assert table.need(moved, 3.2) == "read"


def test_a_live_game_reads_each_frame_expecting_its_own_board():
    # The reader is told the game's board, so a misread number on it gives way to what the game
    # saw placed (vision.decode), and which of its tiles were placed from an unsure reading (only
    # hints); here a stand-in reader records what it was told.

    board = random_board(5, 6)
    session = GameSession("g", game_with(board), 0.0)
    session.provisional.add(board.placements[-1].cell)
    photos = Photos(Reading(None, 8, 8, (), (), (), (), None, {}, ()))
    session.look(photos, np.zeros((8, 8, 3), np.uint8), 0.0, still=True)
    (told,) = photos.told
    assert told.known == session.game.state.board and len(told.known) == 6
    assert told.provisional == {board.placements[-1].cell}


def test_a_live_game_gives_the_reader_its_last_frame_that_showed_the_game():
    # From a webcam kept still, a tile added that the finder misses is found where that frame
    # and this one differ (vision.reader: the one cell beside the board that changed). The
    # frame kept is the last one read that showed the game's board (or committed a placement);
    # an event entered by hand forgets it, as the table may differ from it.

    board = random_board(5, 6)
    session = GameSession("g", game_with(board), 0.0)
    outline = np.array([[0.0, 0.0], [20.0, 0.0], [10.0, 17.0]])
    shown = tuple(
        ReadTile(p.cell, outline + 30 * k, p.corners, (1.0,) * 3, True, False) for k, p in enumerate(board.placements)
    )
    photos = Photos(Reading(None, 800, 600, shown, (), (), (), None, {}, ()))
    first, second = np.zeros((600, 800, 3), np.uint8), np.full((600, 800, 3), 9, np.uint8)
    assert session.look(photos, first, 0.0, still=True)["status"] == "in_sync"
    session.look(photos, second, 1.0, still=True)
    assert photos.told[0].previous_image is None and photos.told[1].previous_image is first
    # An event refused (a tile on a taken cell, a correction of an empty one, an unknown kind)
    # changes nothing, so it forgets nothing either.
    taken = {"kind": "place", "cell": list(board.placements[0].cell), "corners": [0, 0, 0]}
    for refused in (taken, {"kind": "correct", "cell": [99, 99], "corners": [1, 1, 1]}, {"kind": "teleport"}):
        with pytest.raises(IllegalEvent):
            session.apply(refused)
    session.look(photos, second, 1.5, still=True)
    assert photos.told[2].previous_image is second
    session.apply({"kind": "draw"})
    session.look(photos, second, 2.0, still=True)
    assert photos.told[3].previous_image is None


@pytest.mark.parametrize("alone", ["unread", "read unsurely"])
def test_a_session_places_an_opening_tile_first_seen_unread(alone):
    # The same through a game session and photos: where the reader left a tile unread, or read
    # it but flagged a number unsure (studio game 1000007's lone 2-2-2 read 0-2-2, one corner
    # at 0.72, opened the game wrongly), is where it looks once two tiles are joined (view_of
    # gives each tile's centre in the picture).

    pair = random_board(3, 2, "pressman-us")
    first, second = pair.placements
    outline = np.array([[380.0, 310.0], [400.0, 275.0], [420.0, 310.0]])
    beside = outline + (20.0, -12.0)
    misread = ReadTile(None, outline, second.corners, (0.72, 1.0, 1.0), True, True)  # a real tile, not this one
    readings = [
        Reading(None, 800, 600, (), (), (outline,), (), None, {}, ())
        if alone == "unread"
        else Reading(None, 800, 600, (misread,), (), (), (), None, {}, ()),
        Reading(
            None,
            800,
            600,
            (
                ReadTile(second.cell, beside, second.corners, (0.9,) * 3, True, False),
                ReadTile(first.cell, outline + 1.5, first.corners, (0.8,) * 3, True, False),
            ),
            (),
            (),
            (),
            None,
            {},
            (),
        ),
    ]

    session, photos = GameSession("g", Game(["Ann", "Bob"], RULES), 0.0), Photos(*readings)
    photo = np.zeros((600, 800, 3), np.uint8)
    assert session.look(photos, photo, 0.0, still=True)["status"] == "out_of_sync"
    assert session.look(photos, photo, 1.0, still=True)["placed"]["event"]["player"] == 0
    assert session.look(photos, photo, 2.0, still=True)["placed"]["event"]["player"] == 1
    assert [p.tile for p in session.game.state.board.placements] == [first.tile, second.tile]


def tiles_apart(board: Board, count: int) -> list[PlacedTile]:
    """``count`` different tiles the rules allow beside ``board``, in cells no two of which touch."""
    apart: list[Cell] = []
    for cell in sorted(board.frontier()):
        if len(legal_tiles(board, cell)) >= count and not any(cell in edge_neighbours(other) for other in apart):
            apart.append(cell)
    tiles = [legal_tiles(board, cell)[k] for k, cell in enumerate(apart[:count])]
    assert len({placed.tile for placed in tiles}) == count
    return tiles


class PhotosOf:
    """A reader of synthetic photos: each shows ``board``'s tiles as small squares (or nothing,
    ``pictured`` false: a camera moved between photos, whose pixels tell nothing), read as set."""

    def __init__(self, pictured: bool) -> None:
        self.pictured, self.reading = pictured, None

    def photo(self, board: Board) -> np.ndarray:

        pixels, tiles = np.zeros((600, 800, 3), np.uint8), []
        for placed in board.placements:
            x, y = 400 + 24 * placed.cell[0], 300 + 40 * placed.cell[1]
            pixels[y - 12 : y + 12, x - 12 : x + 12] = 200 if self.pictured else 0
            outline = np.array([[x - 10.0, y + 6.0], [x, y - 11.0], [x + 10.0, y + 6.0]])
            tiles.append(ReadTile(placed.cell, outline, placed.corners, (1.0,) * 3, True, False))
        self.reading = Reading(None, 800, 600, tuple(tiles), (), (), (), None, {}, ())
        return pixels

    def read(self, pixels, rules=None, known=None, provisional=(), previous_image=None, mirror_image=False):
        return self.reading


def photographed(session, photos: PhotosOf, board: Board, at: float) -> list[tuple[str, list | None]]:
    """The statuses of a photo of ``board`` sent to ``session``, and the cell each look placed."""
    answers = session.look_at_photo(photos, photos.photo(board), at)
    return [(a["status"], a["placed"] and a["placed"]["event"]["cell"]) for a in answers]


@pytest.mark.parametrize("pictured", [True, False], ids=["camera kept still", "camera moved"])
def test_photos_one_a_turn_commit_a_tile_the_photo_before_could_not_then_the_next(grown, pictured):
    # One photo a turn (`live --still`, `/frames`): a photo that shows a phantom beside the new
    # tile cannot be judged, so the next photo shows two new tiles. The tile the earlier photo
    # showed is committed first, then the photo is judged again for the other, instead of the
    # game falling a photo behind for the rest of the round. The earlier photo's reading tells
    # which came first where the pictures cannot (a hand-held camera: here, photos whose pixels
    # show nothing), as a photo counts as a view that held.

    before = Board(grown.placements[:10])
    added, phantom, next_turn = tiles_apart(before, 3)
    session, photos = GameSession("g", game_with(before, players=2), 0.0), PhotosOf(pictured)
    assert photographed(session, photos, before, 0.0) == [("in_sync", None)]
    assert photographed(session, photos, before.with_tile(added).with_tile(phantom), 1.0)[0][0] == "out_of_sync"
    turn = session.game.state.turn
    both = photographed(session, photos, before.with_tile(added).with_tile(next_turn), 2.0)
    assert both == [("placed", list(added.cell)), ("placed", list(next_turn.cell)), ("in_sync", None)]
    assert [e.player for e in session.game.events[-2:]] == [turn, 1 - turn]


def test_a_tile_named_first_keeps_what_orders_the_others(grown):
    # Two new tiles in one photo (a hand-held phone: its pixels tell nothing), either of which
    # the board allows alone: the game offers both, and a player names the first. The other,
    # which that photo showed already, is committed from the next photo before the tile played
    # since, as if the camera had committed the named one, instead of the two being offered
    # again (as they were while naming cleared what orders them, as a tile entered by hand does).

    before = Board(grown.placements[:10])
    named, other, next_turn = tiles_apart(before, 3)
    session, photos = GameSession("g", game_with(before, players=2), 0.0), PhotosOf(pictured=False)
    assert photographed(session, photos, before, 0.0) == [("in_sync", None)]
    assert photographed(session, photos, before.with_tile(named).with_tile(other), 1.0) == [("out_of_sync", None)]
    offered = session.to_dict()["live"]["choices"]
    assert offered == [
        {"cell": list(p.cell), "corners": list(p.corners)} for p in sorted((named, other), key=lambda p: p.cell)
    ]
    session.apply({"kind": "place", "cell": list(named.cell), "corners": list(named.corners)})
    three = before.with_tile(named).with_tile(other).with_tile(next_turn)
    assert photographed(session, photos, three, 2.0) == [
        ("placed", list(other.cell)),
        ("placed", list(next_turn.cell)),
        ("in_sync", None),
    ]


def photo_of(board: Board, unsure: Cell | None = None) -> Reading:
    """What the reader would report of a photo showing ``board`` (``unsure``: a cell read unsurely)."""
    outline = np.array([[0.0, 0.0], [20.0, 0.0], [10.0, 17.0]])
    tiles = tuple(
        ReadTile(
            p.cell,
            outline + 30 * k,
            p.corners,
            (0.5, 1.0, 1.0) if p.cell == unsure else (1.0,) * 3,
            True,
            p.cell == unsure,
        )
        for k, p in enumerate(board.placements)
    )
    return Reading(None, 800, 600, tiles, (), (), (), None, {}, ())


@dataclass(frozen=True)
class Told:
    """What a game session gave the reader for one frame."""

    pixels: np.ndarray
    known: Board | None
    provisional: frozenset[Cell]
    previous_image: np.ndarray | None
    mirror_image: bool | None


class Photos:
    """A reader that reports the given readings one after the other (the last again, once it
    alone is left), and keeps what it was told for each (``Told``)."""

    def __init__(self, *readings: Reading) -> None:
        self.readings, self.told = list(readings), []

    def read(self, pixels, rules=None, known=None, provisional=(), previous_image=None, mirror_image=None):
        self.told.append(Told(pixels, known, provisional, previous_image, mirror_image))
        return self.readings.pop(0) if len(self.readings) > 1 else self.readings[0]


PHOTO = np.zeros((600, 800, 3), np.uint8)


def test_a_frames_answer_carries_the_readings_advice_on_the_camera(grown, monkeypatch):
    # A camera too far from the table reads nothing surely, and the players, who see only
    # "settling" or "in sync", are told why by the page beside the camera: the advice of the
    # frame just read; a frame not read (the picture unchanged) tells nothing new (None).
    advice = ("the tiles are about 20 pixels a side, too small to read surely: bring the camera closer",)
    board = Board(grown.placements[:5])
    far = replace(photo_of(board), advice=advice)
    session = GameSession("g", game_with(board, players=2), 0.0)
    answer = session.look(Photos(far, photo_of(board)), PHOTO, 0.0, still=True)
    assert answer["advice"] == list(advice) and answer["status"] == "in_sync"
    closer = session.look(Photos(photo_of(board)), PHOTO, 1.0, still=True)
    assert closer["advice"] == []
    # A frame with no tile in it (a hand over the table) tells nothing of the camera, unless it
    # says why none is read (a cloth printed with triangles).
    bare = Reading(None, 800, 600, (), (), (), (), None, {}, ())
    assert session.look(Photos(bare), PHOTO, 1.5, still=True)["advice"] is None
    cloth = replace(bare, advice=("900 triangles found, far more than a game's tiles",))
    assert session.look(Photos(cloth), PHOTO, 1.6, still=True)["advice"] == list(cloth.advice)
    monkeypatch.setattr(session.table, "need", lambda pixels, now: "unchanged")  # like the last frame: not read
    assert session.look(Photos(), PHOTO, 2.0)["advice"] is None


def test_a_session_reads_each_frame_the_way_round_the_last_was_read(grown):
    # A camera set to mirror its picture: once a frame reads as a mirror image, the next is
    # read flipped back first (told so), until one reads as it is.
    board = Board(grown.placements[:5])
    plain = photo_of(board)
    flipped = replace(plain, mirror_image=True)
    session, photos = GameSession("g", game_with(board, players=2), 0.0), Photos(plain, flipped, flipped, plain, plain)
    for at in range(5):
        session.look(photos, PHOTO, float(at), still=True)
    assert [told.mirror_image for told in photos.told] == [False, False, True, True, False]


def test_the_cameras_way_round_is_kept_for_the_next_game_and_across_a_restart(grown, tmp_path):
    # Mirrored studio games 2000402, 2000404 and 2000421 were lost from their first frames, read
    # as they came before 2 tiles told the mirror: a camera mirrors in the next game as in the
    # last, so the store keeps the way round its frames last read, and a new game, or one
    # taken up again after a restart, reads its first frame that way round.
    board = Board(grown.placements[:5])
    plain = photo_of(board)
    store = GameStore(tmp_path / "games.sqlite3")
    first = store.create(["Ann", "Bob"], "pressman-us")
    first.game = game_with(board, players=2)
    assert not first.mirror_image and not store.camera_mirrors()
    photos = Photos(plain, replace(plain, mirror_image=True))
    assert not first.look(photos, PHOTO, 0.0, still=True)["changed"]
    assert first.look(photos, PHOTO, 1.0, still=True)["changed"]  # the way round is news to keep
    store.save(first)
    assert store.camera_mirrors()

    second = store.create(["Cy", "Di"], "pressman-us")
    photos = Photos(photo_of(Board(board.placements[:1])))
    second.look(photos, PHOTO, 0.0, still=True)
    assert photos.told[0].mirror_image
    restarted = GameStore(tmp_path / "games.sqlite3")
    assert restarted.get(first.id).mirror_image and restarted.get(second.id).mirror_image

    # Another program on the file that reads no frame (a page entering a draw) keeps it as it
    # is; a frame read as it is turns it back.
    page = restarted.get(first.id)
    page.mirror_image = False
    restarted.save(page)
    assert store.camera_mirrors()
    again = restarted.get(second.id)
    assert again.look(Photos(plain), PHOTO, 2.0, still=True)["changed"]
    restarted.save(again)
    assert not store.camera_mirrors() and not store.create(["Ed", "Flo"], "pressman-us").mirror_image


def test_a_session_corrects_a_provisional_placement_and_keeps_it_across_a_restart(grown, tmp_path):
    # Through a game session and its store: the placement read unsurely is provisional (stored
    # with the game), the reader reads it afresh instead of expecting it, and the photo that
    # shows it surely otherwise corrects it (the score follows) and commits the tile beside it.
    before = Board(grown.placements[:11])
    last, misread = two_legal_tiles(before)
    after, _ = two_legal_tiles(before.with_tile(last))

    store = GameStore(tmp_path / "games.sqlite3")
    session = store.create(["Ann", "Bob"], "pressman-us")
    session.game = game_with(before, players=2)
    first = session.look(Photos(photo_of(before.with_tile(misread), misread.cell)), PHOTO, 0.0, still=True)
    assert first["placed"]["event"]["corners"] == list(misread.corners) and first["changed"]
    assert session.provisional == {misread.cell} and session.board_svg().count("stroke-dasharray") == 1
    store.save(session)

    restarted = GameStore(tmp_path / "games.sqlite3")
    session = restarted.get(session.id)
    assert session.provisional == {misread.cell} and session.to_dict()["provisional_cells"] == [list(misread.cell)]
    photos = Photos(photo_of(before.with_tile(last).with_tile(after)))
    answer = session.look(photos, PHOTO, 1.0, still=True)
    assert (photos.told[0].known, photos.told[0].provisional) == (before.with_tile(misread), {misread.cell})  # a hint
    assert [entry["event"]["corners"] for entry in answer["corrected"]] == [list(last.corners)]
    assert answer["placed"]["event"]["cell"] == list(after.cell) and answer["status"] == "placed"
    assert session.game.state.board == before.with_tile(last).with_tile(after)
    assert session.game.state.scores == game_with(before.with_tile(last).with_tile(after), players=2).state.scores
    assert session.provisional == set() and "stroke-dasharray" not in session.board_svg()


def test_a_tile_committed_unsurely_offers_every_tile_its_cell_allows(grown):
    # Such a tile is wrong one time in four (the 88 studio games): the page offers, for one
    # click, the tile committed and every other one the board beside it allows in that cell.
    # A sure tile, and the round's first (any tile fits there), offer none.
    before = Board(grown.placements[:11])
    last, misread = two_legal_tiles(before)
    session = GameSession("g", game_with(before.with_tile(misread), players=2), 0.0)
    assert session.last_tile_choices() == [] and session.to_dict()["last_tile_choices"] == []
    session.provisional.add(misread.cell)
    choices = session.last_tile_choices()
    fitting = set(legal_tiles(before, misread.cell))
    assert choices[0] == misread and last in choices
    assert len(choices) == len(set(choices)) and set(choices) == fitting
    assert session.to_dict()["last_tile_choices"][0] == {"cell": list(misread.cell), "corners": list(misread.corners)}
    # Its "as read" button: the same numbers sent back confirm it, and nothing is offered then.
    session.apply({"kind": "correct", "cell": list(misread.cell), "corners": list(misread.corners)})
    assert session.status.message == f"confirmed the tile at {list(misread.cell)}"
    assert session.provisional == set() and session.last_tile_choices() == []
    session.apply({"kind": "correct", "cell": list(last.cell), "corners": list(last.corners)})
    assert session.status.message == f"corrected the tile at {list(last.cell)}"
    opening = GameSession("o", game_with(Board([misread]), players=2), 0.0, provisional={misread.cell})
    assert opening.last_tile_choices() == []


def test_a_placement_taken_back_is_not_committed_again_while_the_table_shows_it(grown, tmp_path):
    # Studio game 2000705, kept from its camera by a player who took back what it got wrong: a
    # phantom 3-3-4 read beside the board came back as each next player's tile as often as it
    # was taken back. Now a placement taken back, read again where it was, is no new tile, also
    # after a restart; once a view of the whole board no longer shows it, it may be played again.
    before = Board(grown.placements[:11])
    phantom, played = played_in_turn(before, later_allowed_alone=True)
    store = GameStore(tmp_path / "games.sqlite3")
    session = store.create(["Ann", "Bob"], "pressman-us")
    session.game = game_with(before, players=2)
    assert session.look(Photos(photo_of(before.with_tile(phantom))), PHOTO, 0.0, still=True)["status"] == "placed"
    session.apply({"kind": "undo"})
    assert session.to_dict()["live"]["message"] == (
        f"took back the {phantom}: the camera will not count it again while it lies there"
    )
    again = session.look(Photos(photo_of(before.with_tile(phantom))), PHOTO, 1.0, still=True)
    assert again["status"] == "in_sync" and session.game.state.board == before and session.taken_back == {phantom}
    store.save(session)

    session = GameStore(tmp_path / "games.sqlite3").get(session.id)
    assert session.to_dict()["taken_back"] == [{"cell": list(phantom.cell), "corners": list(phantom.corners)}]
    answer = session.look(Photos(photo_of(before.with_tile(phantom).with_tile(played))), PHOTO, 2.0, still=True)
    assert answer["placed"]["event"]["cell"] == list(played.cell) and session.taken_back == {phantom}
    covered = session.look(Photos(photo_of(Board(before.placements[2:]).with_tile(played))), PHOTO, 3.0, still=True)
    assert covered["status"] == "covered" and session.taken_back == {phantom}  # hidden, maybe: still kept
    gone = session.look(Photos(photo_of(before.with_tile(played))), PHOTO, 4.0, still=True)
    assert gone["status"] == "in_sync" and session.taken_back == set()


def test_an_opening_tile_taken_back_is_not_committed_again_while_the_table_shows_it():
    # Before the round's first tile every view picks its own frame: the tile is known by its numbers.
    game = Game(["Ann", "Bob"], RULES)
    session = GameSession("g", game, 0.0)
    opening = PlacedTile((0, 0), (4, 4, 4))
    assert session.look(Photos(photo_of(Board((opening,)))), PHOTO, 0.0, still=True)["status"] == "placed"
    session.apply({"kind": "undo"})
    elsewhere = Board((PlacedTile((2, 0), (4, 4, 4)),))
    again = session.look(Photos(photo_of(elsewhere)), PHOTO, 1.0, still=True)
    assert again["status"] == "in_sync" and "was taken back" in again["message"] and not len(game.state.board)
    assert session.look(Photos(photo_of(Board(()))), PHOTO, 2.0, still=True)["status"] == "in_sync"
    assert session.taken_back == set()


def test_a_correction_the_rules_refuse_leaves_the_game_as_it_was(grown):

    before = Board(grown.placements[:11])
    last, misread = two_legal_tiles(before)
    game = game_with(before.with_tile(misread), players=2)
    session = GameSession("g", game, 0.0, provisional={misread.cell})
    events = list(game.events)
    broken = PlacedTile(last.cell, (9, 9, 9))  # not a tile of the set
    verdict, entry, corrected = session.see(TableView(before.with_tile(broken)), 0.0, still=True)
    assert verdict.status == "out_of_sync" and "the rules do not allow" in verdict.message
    assert entry is None and corrected == [] and session.game.events == events


def grown_with(board: Board, tiles: int, two_alike: bool) -> Board:
    """``board`` grown to ``tiles`` tiles, each of two or three equal numbers (``two_alike``) or
    of three different ones, the first legal move of those (by cell) in turn."""
    while len(board) < tiles:
        moves = legal_moves(board, tile_set(5))
        fitting = [m for m in moves if (len(set(m.corners)) < 3) == two_alike and m.tile not in board.by_tile]
        board = board.with_tile(min(fitting, key=lambda m: (m.cell, m.corners)))
    return board


def test_a_game_committed_turned_over_is_turned_over_once_the_table_is_read_the_right_way_round():
    # Mirrored studio game 2000400 (wooden pips): a camera that mirrors its picture, read as it
    # came, had the game commit 5-5-5, 5-1-5 and 5-5-3 turned over before 1-4-5 showed which way
    # round it is (two equal numbers read alike both ways); read flipped back from then on, the
    # table matched no turn of the game's board and the game stayed out of sync to its end.
    truth = grown_with(grown_with(Board((PlacedTile((0, 0), (4, 4, 4)),)), 4, two_alike=True), 5, two_alike=False)
    last = truth.placements[-1]
    turned = truth.without([last.cell]).mirrored()
    # The tile of three different numbers was misread to a set tile that fits there.
    misread = legal_tiles(turned, mirror_cell(last.cell))[0]
    game = game_with(turned.with_tile(misread), players=2)
    session = GameSession("g", game, 0.0, trusted={turned.placements[1].cell}, provisional={misread.cell})
    verdict, entry, corrected = session.see(TableView(truth.moved(CAMERA)), 0.0, still=True)
    assert verdict.status == "in_sync" and verdict.message.startswith("the game's board is the table's mirror image")
    assert session.game.state.board == truth and entry is None and len(corrected) == len(truth)
    assert session.game.state.scores == game_with(truth, players=2).state.scores
    assert session.trusted == {truth.placements[1].cell} and session.provisional == set()
    again, _, corrected = session.see(TableView(truth.moved(CAMERA)), 1.0, still=True)
    assert again.status == "in_sync" and corrected == [] and session.game.state.board == truth


def told_otherwise(board: Board) -> Board:
    """A board in the cells of ``board``, played in its order, each tile the first the rules
    allow there of those ``board`` does not hold in that cell: the board misread throughout."""
    told = Board()
    for placed in board.placements:
        moves = legal_moves(told, tile_set(5)) if len(told) else [PlacedTile(placed.cell, (1, 1, 1))]
        other = min((m for m in moves if m.cell == placed.cell and m.tile != placed.tile), key=lambda m: m.corners)
        told = told.with_tile(other)
    return told


def test_a_game_committed_turned_over_and_misread_is_turned_over_by_where_its_tiles_lie(grown):
    # Mirrored studio game 2000401 (printed numbers): read as the camera gave them, its first
    # tiles were committed turned over and misread besides (3-3-5 as 5-5-5, 3-2-3 as 2-5-5), so
    # that once read flipped back no tile of the table showed as the game had it. The tiles lie
    # where they lay in the picture: the view read the other way round from the last one that
    # counted, turned over, is put in the game's frame by where its tiles lie.
    truth = Board(grown.placements[:6])
    committed = told_otherwise(truth.mirrored())
    session = GameSession("g", game_with(committed, players=2), 0.0)

    def at(cell: Cell) -> tuple[float, float]:  # a tile's centre in the mirrored picture
        x, y = np.mean([point_xy(point) for point in cell_corners(cell)], axis=0)
        return 1000.0 - 100 * x, 100 * y

    as_it_came = TableView(committed, board_at=tuple((mirror_cell(p.cell), at(p.cell)) for p in truth.placements))
    assert session.see(as_it_came, 0.0, still=True)[0].status == "in_sync"
    flipped_back = TableView(truth, board_at=tuple((p.cell, at(p.cell)) for p in truth.placements), mirror_image=True)
    verdict, _, corrected = session.see(flipped_back, 1.0, still=True)
    assert verdict.status == "in_sync" and verdict.message.startswith("the game's board is the table's mirror image")
    assert session.game.state.board == truth and len(corrected) == len(truth)
    assert session.game.state.scores == game_with(truth, players=2).state.scores
    # Read the same way round as the view before, it is not turned: the game is out of sync.
    session = GameSession("g", game_with(committed, players=2), 0.0)
    session.see(as_it_came, 0.0, still=True)
    assert session.see(replace(flipped_back, mirror_image=False), 1.0, still=True)[0].status == "out_of_sync"
    assert session.game.state.board == committed


def test_readings_made_the_other_way_round_do_not_tell_which_tile_came_first(grown):
    # Mirrored studio game 2000400: read as the camera gave them, its 1-4-5 read as no set tile
    # (anticlockwise) and the 1-1-4 played after it as itself (two equal numbers read alike), so
    # that once the frames read flipped back the 1-1-4 seemed to have come first, and was not
    # allowed alone. Readings made before the way round changed no longer tell the order.
    before = Board(grown.placements[:11])
    earlier, later = next(
        (earlier, later)
        for cell in sorted(before.frontier())
        for earlier in legal_tiles(before, cell)
        if len(set(earlier.corners)) == 3
        for later_cell in sorted(before.with_tile(earlier).frontier())
        for later in legal_tiles(before.with_tile(earlier), later_cell)
        if check_placement(before, later, RULES) and len(set(later.corners)) < 3
    )
    anticlockwise = PlacedTile(earlier.cell, earlier.corners[::-1])
    photos = Photos(
        photo_of(before.with_tile(anticlockwise)),
        photo_of(before.with_tile(anticlockwise).with_tile(later)),
        replace(photo_of(before.with_tile(earlier).with_tile(later)), mirror_image=True),
    )
    session = GameSession("g", game_with(before, players=2), 0.0)
    assert [session.look(photos, PHOTO, float(at), still=True)["status"] for at in range(2)] == ["out_of_sync"] * 2
    answer = session.look(photos, PHOTO, 2.0, still=True)
    assert answer["status"] == "placed" and answer["placed"]["event"]["cell"] == list(earlier.cell)
    assert session.mirror_image


def test_a_view_that_shows_no_more_of_the_game_turned_over_does_not_turn_it(grown):
    game = game_with(Board(grown.placements[:11]))
    hidden = Board(grown.placements[:3]).moved(CAMERA)  # a hand over the rest
    assert judge_view(TableView(hidden), GameRecord(game.state, RULES)).status == "covered"
    lone = Board(grown.placements[:1]).mirrored()
    assert judge_view(TableView(lone), GameRecord(game.state, RULES)).status == "covered"


def misread_pair(board: Board) -> tuple[PlacedTile, PlacedTile, PlacedTile, PlacedTile]:
    """Two tiles placed side by side beside ``board`` (first, then second) and misreads of both
    that the game could have committed in turn (the second read to fit the misread first), such
    that neither misread alone can be corrected: each true tile is illegal beside the other's
    misread."""
    for first in legal_tiles(board, min(board.frontier())):
        for first_misread in legal_tiles(board, first.cell):
            if first_misread.tile == first.tile:
                continue
            truth, misread = board.with_tile(first), board.with_tile(first_misread)
            for cell in [cell for cell in edge_neighbours(first.cell) if cell not in board.by_cell]:
                fit_misread = [p for p in legal_tiles(misread, cell) if check_placement(truth, p, RULES)]
                fit_truth = [p for p in legal_tiles(truth, cell) if check_placement(misread, p, RULES)]
                for second_misread, second in itertools.product(fit_misread, fit_truth):
                    if len({first.tile, first_misread.tile, second.tile, second_misread.tile}) == 4:
                        return first, second, first_misread, second_misread
    raise AssertionError("no such pair beside the board")


def test_provisional_tiles_read_otherwise_are_corrected_together(grown):
    # Studio game 1000021: 2-3-4 committed unsurely as 2-2-4, then 2-2-3 beside it read to fit as
    # 2-2-2. Once both read surely as they are, correcting either alone breaks the rules beside
    # the other's misread, and the game stayed out of sync for good; both are corrected at once.

    before = Board(grown.placements[:10])
    first, second, first_misread, second_misread = misread_pair(before)
    truth = before.with_tile(first).with_tile(second)
    game = game_with(before.with_tile(first_misread).with_tile(second_misread), players=2)
    with pytest.raises(IllegalEvent):
        game.correct({first.cell: first.corners})  # alone, the rules refuse it (the game stays)
    session = GameSession("g", game, 0.0, provisional={first.cell, second.cell})
    verdict, entry, corrected = session.see(TableView(truth), 0.0, still=True)
    assert [c["event"]["corners"] for c in corrected] == [list(first.corners), list(second.corners)]
    assert verdict.status == "in_sync" and verdict.message.count("surely now") == 2 and entry is None
    assert session.game.state.board == truth and session.provisional == set()
    assert session.game.state.scores == game_with(truth, players=2).state.scores
