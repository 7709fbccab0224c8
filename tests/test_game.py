"""Turns, draws, passes, round settlement and the finish of a whole game."""

from dataclasses import replace

import pytest

from engine.game import Draw, EndRound, Game, IllegalEvent, Pass, Place, event_from_dict, event_to_dict, game_winner
from engine.rules import PRESETS, game_rules


def rules(preset, **options):
    return replace(PRESETS[preset], **options)


def test_opening_scores_and_turn_passes():
    game = Game(["Ann", "Bob"], "pressman-us")
    assert game.state.phase == "opening" and game.state.turn is None
    game.apply(Place(1, (0, 0), (5, 5, 5)))  # Bob holds the highest triple and opens
    assert game.state.scores == (0, 25)
    assert game.state.turn == 0
    assert game.state.hand_counts == (9, 8)
    with pytest.raises(IllegalEvent, match="Ann's turn"):
        game.apply(Place(1, (1, 0), (5, 3, 5)))


def test_a_game_with_the_84_tile_set_deals_from_it_and_takes_its_sixes():
    game = Game(["Ann", "Bob"], game_rules("pressman-us", max_number=6))
    assert game.state.pile == 84 - 2 * 9
    game.apply(Place(0, (0, 0), (6, 6, 6)))
    assert game.state.scores == (28, 0)  # 18 and the triple's 10
    with pytest.raises(IllegalEvent, match=r"not a tile of the 0\.\.5 set"):
        Game(["Ann", "Bob"], "pressman-us").apply(Place(0, (0, 0), (6, 6, 6)))


def test_illegal_placement_is_refused_and_changes_nothing():
    game = Game(["Ann", "Bob"], "pressman-us", [Place(0, (0, 0), (5, 5, 5))])
    before = game.state
    with pytest.raises(IllegalEvent, match="edge"):
        game.apply(Place(1, (1, 0), (4, 3, 4)))
    assert game.state == before and len(game.log) == 1


def test_a_tile_entered_where_it_already_lies_is_refused_in_one_plain_message():
    # Both rules hold (the tile is on the board, and its cell is taken); the player is told once.
    game = Game(["Ann", "Bob"], "pressman-us", [Place(0, (0, 0), (5, 5, 5))])
    with pytest.raises(IllegalEvent) as refused:
        game.apply(Place(1, (0, 0), (5, 5, 5)))
    assert str(refused.value) == "5-5-5 is already on the board at [0, 0]"
    with pytest.raises(IllegalEvent) as refused:  # another tile on that cell: only the cell is taken
        game.apply(Place(1, (0, 0), (4, 5, 5)))
    assert str(refused.value) == "cell [0, 0] already holds 5-5-5"


def test_draws_and_passes_pressman_us():
    game = Game(["Ann", "Bob"], "pressman-us", [Place(0, (0, 0), (5, 5, 5))])
    with pytest.raises(IllegalEvent, match="draws from the pile"):
        game.apply(Pass(1))
    for _ in range(38):  # unlimited draws: Bob empties the pile of 56 - 18 tiles
        game.apply(Draw(1))
    assert game.state.pile == 0 and game.state.scores == (25, -190)
    with pytest.raises(IllegalEvent, match="pile is empty"):
        game.apply(Draw(1))
    game.apply(Pass(1))
    assert game.state.scores == (25, -200)  # -10 for passing with an empty pile
    assert game.state.hand_counts == (8, 47)


@pytest.mark.parametrize(("preset", "after_three_draws_and_pass"), [("pressman-2012", -25), ("wikipedia", -25)])
def test_three_draws_then_pass_costs_25(preset, after_three_draws_and_pass):
    game = Game(["Ann", "Bob"], preset, [Place(0, (0, 0), (1, 2, 3))])
    for _ in range(3):
        game.apply(Draw(1))
    with pytest.raises(IllegalEvent, match="at most 3 draws"):
        game.apply(Draw(1))
    game.apply(Pass(1))
    assert game.state.scores[1] == after_three_draws_and_pass
    assert game.state.turn == 0 and game.state.draws_this_turn == 0


def empty_the_pile(game):
    """Everyone draws what the preset allows and passes until the pile is gone."""
    while game.state.pile:
        player = game.state.turn
        while game.state.pile and (game.rules.max_draws is None or game.state.draws_this_turn < game.rules.max_draws):
            game.apply(Draw(player))
        if game.state.pile:
            game.apply(Pass(player))


def block(game):
    empty_the_pile(game)
    while game.state.phase == "playing":
        game.apply(Pass(game.state.turn))
    assert game.state.phase == "settling"


@pytest.mark.parametrize(
    ("preset", "pile_empty_pass"), [("pressman-us", -10), ("pressman-2012", 0), ("wikipedia", -10)]
)
def test_passing_on_an_empty_pile(preset, pile_empty_pass):
    game = Game(["Ann", "Bob"], preset, [Place(0, (0, 0), (1, 2, 3))])
    empty_the_pile(game)
    player = game.state.turn
    entry = game.apply(Pass(player))
    assert entry.deltas[player] == pile_empty_pass


@pytest.mark.parametrize(
    ("preset", "racks", "winner", "points"),
    [
        # Two players: the lower rack (12) wins 30 - 12 under every preset.
        ("pressman-us", (12, 30), 0, 18),
        ("wikipedia", (12, 30), 0, 18),
        ("pressman-2012", (12, 30), 0, 18),
        # Four players, racks 10 20 5 30: Cy (5) wins. pressman-us: (10+20+30) - 5 = 55;
        # wikipedia: (10-5) + (20-5) + (30-5) = 45.
        ("pressman-us", (10, 20, 5, 30), 2, 55),
        ("wikipedia", (10, 20, 5, 30), 2, 45),
        ("children", (10, 20, 5, 30), 2, 0),
    ],
)
def test_blocked_round_settlement(preset, racks, winner, points):
    names = ["Ann", "Bob", "Cy", "Di"][: len(racks)]
    game = Game(names, preset, [Place(0, (0, 0), (1, 2, 3))])
    block(game)
    with pytest.raises(IllegalEvent, match="round is over"):
        game.apply(Pass(game.state.turn))
    entry = game.apply(EndRound(racks))
    assert entry.deltas == tuple(points if i == winner else 0 for i in range(len(racks)))
    assert game.state.round == 2 and game.state.phase == "opening" and len(game.state.board) == 0
    assert game.state.round_winners == (winner,)


def going_out_game(preset, **options):
    """Deal two tiles each: Ann opens 5-5-5 (25 under pressman-us), Bob plays 3-5-5 (13) on its
    right, Ann plays 4-5-5 (14) below it, down (0,1) [(-1,1)=5 (1,1)=5 (0,2)=4], and is out."""
    game = Game(["Ann", "Bob"], rules(preset, deal_sizes={2: 2}, **options))
    game.apply(Place(0, (0, 0), (5, 5, 5)))
    game.apply(Place(1, (1, 0), (5, 3, 5)))
    game.apply(Place(0, (0, 1), (5, 5, 4)))
    return game


def test_going_out_ends_the_round_and_collects_the_racks():
    game = going_out_game("pressman-us")
    assert game.state.phase == "settling" and game.state.went_out == 0
    with pytest.raises(IllegalEvent, match="2 rack totals"):
        game.apply(EndRound((0,)))
    with pytest.raises(IllegalEvent, match="cannot total"):
        game.apply(EndRound((3, 7)))  # Ann holds no tiles
    entry = game.apply(EndRound((0, 7)))
    assert entry.deltas == (32, 0)  # 25 + Bob's 7
    assert game.state.scores == (25 + 14 + 32, 13)


def test_play_out_round_gives_everyone_equal_turns():
    # pressman-2012: Ann opened and went out on her second turn, so Bob still has his second turn.
    game = going_out_game("pressman-2012")
    assert game.state.phase == "playing" and game.state.turn == 1
    game.apply(Place(1, (2, 0), (3, 4, 5)))  # up (2,0) [(2,0)=3 (3,1)=4 (1,1)=5] on Bob's edge
    assert game.state.phase == "settling"
    assert game.apply(EndRound((0, 0))).deltas == (25, 0)


def test_reaching_the_target_finishes_the_round_first():
    game = going_out_game("pressman-us", target_score=20)
    assert game.state.scores[0] >= 20 and game.state.phase == "settling"
    entry = game.apply(EndRound((0, 7)))
    assert game.state.phase == "over" and game.state.winner == 0
    assert "wins the game" in entry.description
    with pytest.raises(IllegalEvent, match="over"):
        game.apply(Place(1, (2, 0), (3, 4, 5)))


def test_game_winner_when_several_pass_the_target():
    scores = (410, 450, 120)
    assert game_winner(scores, 0, PRESETS["pressman-us"]) == 0  # the winner of the last round
    assert game_winner(scores, 0, PRESETS["wikipedia"]) == 1  # the highest score
    assert game_winner(scores, 0, PRESETS["pressman-2012"]) == 1
    assert game_winner(scores, 2, PRESETS["pressman-us"]) == 1  # last winner not over: highest


def test_set_number_of_rounds_ends_the_game():
    game = going_out_game("pressman-2012", max_rounds=1)
    game.apply(Place(1, (2, 0), (3, 4, 5)))
    game.apply(EndRound((0, 0)))
    assert game.state.phase == "over" and game.state.winner == 0


def test_undo_restores_the_previous_state():
    game = Game(["Ann", "Bob"], "pressman-us", [Place(0, (0, 0), (5, 5, 5))])
    before = game.state
    game.apply(Draw(1))
    assert game.undo() == Draw(1)
    assert game.state == before and len(game.log) == 1
    game.undo()
    with pytest.raises(IllegalEvent):
        game.undo()


def test_score_sheet_runs_the_totals():
    game = going_out_game("pressman-us")
    sheet = game.score_sheet()
    assert [row["totals"] for row in sheet] == [[25, 0], [25, 13], [39, 13]]
    assert sheet[0]["description"] == "Ann plays [5, 5, 5] at [0, 0]: 15 +10 opening"


def test_events_round_trip_through_json_shapes():
    for event in [Place(0, (1, -2), (1, 2, 3)), Draw(1), Pass(0), EndRound((3, 0, 7))]:
        assert event_from_dict(event_to_dict(event)) == event
    for bad in [{"kind": "jump"}, {"kind": "draw"}, {"kind": "draw", "player": "x"}, []]:
        with pytest.raises(IllegalEvent):
            event_from_dict(bad)
    with pytest.raises(IllegalEvent, match="corners must be a list of integers"):
        event_from_dict({"kind": "place", "player": 0, "cell": [0, 0], "corners": 5})
    with pytest.raises(IllegalEvent, match="cell must be a list of integers"):
        event_from_dict({"kind": "place", "player": 0, "cell": [0.5, 0], "corners": [5, 5, 5]})
    with pytest.raises(IllegalEvent, match="player must be an integer"):  # one number, said as one
        event_from_dict({"kind": "draw", "player": True})
    game = Game(["Ann", "Bob"])
    with pytest.raises(IllegalEvent, match="corners are three numbers"):  # the tile, refused in words
        game.apply(Place(0, (0, 0), (5, 5)))
    assert game.log == []


def test_player_counts():
    with pytest.raises(ValueError):
        Game(["Solo"])
    assert Game(list("ABCDEF")).state.hand_counts == (6,) * 6
    assert Game(list("ABC")).state.pile == 56 - 21


def test_a_placement_of_the_round_is_corrected_and_the_log_replays():
    game = Game(["Ann", "Bob"], "pressman-us", [Place(0, (0, 0), (5, 5, 5)), Place(1, (1, 0), (5, 3, 5)), Draw(0)])
    (entry,) = game.correct({(1, 0): (5, 4, 5)})
    assert entry.event == Place(1, (1, 0), (5, 4, 5)) and game.state.scores == (20, 14)
    assert [e.event for e in game.log][2] == Draw(0) and game.state.board.by_cell[(1, 0)].corners == (5, 4, 5)
    before = (game.state, list(game.log))
    with pytest.raises(IllegalEvent, match="no tile of this round"):
        game.correct({(2, 0): (5, 5, 4)})
    with pytest.raises(IllegalEvent):
        game.correct({(1, 0): (4, 3, 4)})  # its corners no longer match the first tile's
    assert (game.state, game.log) == before


def test_the_round_turned_over_moves_each_tile_to_its_mirror_image_and_the_log_replays():
    # A live game committed from a camera that mirrors its picture, before its tiles showed it,
    # holds the table turned over; turned over again, two equal numbers read alike, scores
    # stay, and a tile of three different numbers takes the numbers read the right way round.
    game = Game(
        ["Ann", "Bob"],
        "pressman-us",
        [Place(0, (0, 0), (5, 5, 5)), Place(1, (1, 0), (5, 3, 5)), Draw(0), Place(0, (-1, 0), (2, 5, 5))],
    )
    board, scores = game.state.board, game.state.scores
    entries = game.mirror_round({})
    assert game.state.board == board.mirrored() and game.state.scores == scores
    turned = [Place(0, (0, 0), (5, 5, 5)), Place(1, (-1, 0), (3, 5, 5)), Place(0, (1, 0), (5, 2, 5))]
    assert [entry.event for entry in entries] == turned and game.log[2].event == Draw(0)

    game.apply(Place(1, (2, 0), (2, 3, 5)))  # beside 5-2-5: three different numbers
    before = (game.state, list(game.log))
    with pytest.raises(IllegalEvent, match="not a tile"):
        game.mirror_round({})  # 2-5-3 is no set tile
    assert (game.state, game.log) == before
    game.mirror_round({(-2, 0): (2, 5, 0)})
    assert game.state.board.by_cell[(-2, 0)].corners == (2, 5, 0) and game.state.board.by_cell[(1, 0)].corners == (
        5,
        3,
        5,
    )
    assert game.state.scores[1] == before[0].scores[1] - 10 + 7
