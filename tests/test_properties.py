"""Properties over many seeded games and boards (hypothesis)."""

import random
import tempfile

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.board import Board, PlacedTile, check_placement, validate_board
from engine.game import IllegalEvent
from engine.lattice import LatticeMap, edge_neighbours
from engine.moves import fitting_tiles, legal_moves
from engine.rules import PRESETS, get_rules
from engine.scoring import judge_each, judge_placement
from engine.simulate import random_board, simulate_game
from engine.tiles import rotations, tile_set
from service.games import GameStore

presets = st.sampled_from(list(PRESETS))


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.integers(2, 6), preset=presets)
def test_simulated_games_only_make_legal_boards(seed, players, preset):
    rules = get_rules(preset)
    played = simulate_game(seed, players, rules, max_rounds=3)
    assert played.final_boards
    for board in played.final_boards:
        assert validate_board(board, rules) == []
        assert all(result.legal for result in judge_each(board, rules))


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.integers(2, 4), preset=presets)
def test_score_sheet_equals_the_sum_of_the_events(seed, players, preset):
    game = simulate_game(seed, players, preset, max_rounds=4).game
    sums = [sum(entry.deltas[i] for entry in game.log) for i in range(players)]
    assert list(game.state.scores) == sums
    assert game.score_sheet()[-1]["totals"] == sums


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    size=st.integers(1, 45),
    rotation=st.integers(0, 5),
    dm=st.integers(-6, 6),
    dk=st.integers(-6, 6),
    preset=presets,
    pick=st.integers(0, 10_000),
)
def test_rotating_or_translating_a_board_never_changes_a_score(seed, size, rotation, dm, dk, preset, pick):
    rules = get_rules(preset)
    board = random_board(seed, size)
    mapping = LatticeMap(rotation, dm + (dm + dk) % 2, dk)
    # Any tile not on the board at any frontier cell and rotation: legal or not, it scores the same.
    spare = [t for t in tile_set() if t not in board.by_tile]
    cells = sorted(board.frontier())
    tile = spare[pick % len(spare)]
    move = PlacedTile(cells[pick % len(cells)], rotations(tile.numbers)[pick % 3])
    before = judge_placement(board, move, rules)
    after = judge_placement(board.moved(mapping), PlacedTile(*mapping.corners(move.cell, move.corners)), rules)
    assert after.score.total == before.score.total
    assert [b.kind for b in after.score.bonuses] == [b.kind for b in before.score.bonuses]
    assert sorted(v.kind for v in after.violations) == sorted(v.kind for v in before.violations)
    assert [v.kind for v in validate_board(board.moved(mapping), rules)] == [
        v.kind for v in validate_board(board, rules)
    ]


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), size=st.integers(1, 50), hand_seed=st.integers(0, 10_000))
def test_legal_moves_are_exactly_the_placements_that_break_no_rule(seed, size, hand_seed):
    rules = get_rules("pressman-us")
    board = random_board(seed, size)
    spare = [t for t in tile_set() if t not in board.by_tile]
    hand = [spare[(hand_seed + 7 * i) % len(spare)] for i in range(min(9, len(spare)))]
    found = set(legal_moves(board, hand))
    # Brute force: every rotation of every hand tile at every cell next to any tile.
    cells = {n for p in board.placements for n in edge_neighbours(p.cell)} | set(board.by_cell)
    brute = {
        PlacedTile(cell, reading)
        for cell in cells
        for tile in hand
        for reading in rotations(tile.numbers)
        if not check_placement(board, PlacedTile(cell, reading), rules)
    }
    assert found == brute


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), size=st.integers(2, 40), pick=st.integers(0, 10_000))
def test_the_tiles_fitting_a_cell_are_those_the_rest_of_the_board_allows_there(seed, size, pick):
    # What the page offers for one click in a cell the camera missed or misread: the tile
    # there among them (its board is legal), and no tile that breaks a rule.
    rules = get_rules("pressman-us")
    board = random_board(seed, size)
    there = board.placements[pick % len(board)]
    rest = Board(placed for placed in board.placements if placed.cell != there.cell)
    brute = {
        PlacedTile(there.cell, reading)
        for tile in tile_set()
        for reading in rotations(tile.numbers)
        if not check_placement(rest, PlacedTile(there.cell, reading), rules)
    }
    fitting = fitting_tiles(board, there.cell, rules.max_number)
    assert there in fitting and set(fitting) == brute and len(fitting) == len(brute)
    assert fitting_tiles(Board([there]), there.cell, rules.max_number) == []  # any tile opens


def _a_players_event(rng: random.Random, game, players: int) -> dict:
    """An event a player might send: mostly legal placements, with draws, passes, undos,
    corrections, round ends and malformed or illegal ones among them."""
    state = game.state
    kind = rng.choice(["place"] * 5 + ["draw", "pass", "undo", "correct", "end_round", "malformed"])
    if kind == "place":
        moves = legal_moves(state.board, rng.sample(tile_set(), 8))
        if moves and rng.random() < 0.85:
            move = rng.choice(moves)
            return {"kind": kind, "cell": list(move.cell), "corners": list(move.corners)}
        return {"kind": kind, "cell": [rng.randint(-3, 3), rng.randint(-3, 3)], "corners": rng.choices(range(7), k=3)}
    if kind == "correct" and len(state.board):
        placed = rng.choice(state.board.placements)
        return {"kind": kind, "cell": list(placed.cell), "corners": rng.choices(range(6), k=3)}
    if kind == "end_round":
        return {"kind": kind, "racks": rng.choices(range(40), k=players)}
    if kind == "malformed":
        return rng.choice([{"kind": "place", "cell": "x"}, {"kind": "draw", "player": 99}, {"kind": "correct"}, {}])
    return {"kind": kind, **({"player": rng.randint(-1, players)} if rng.random() < 0.2 else {})}


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.integers(2, 4), preset=presets)
def test_a_stored_game_replays_to_its_state_and_refused_events_change_nothing(seed, players, preset):
    # A service's game as players drive it by hand, read back from its SQLite file after every
    # event, as after a restart.
    def state_of(session):
        state = session.game.state
        board = [(placed.cell, placed.corners) for placed in state.board.placements]
        return state.scores, state.round, state.phase, state.turn, state.hand_counts, state.pile, board, session.trusted

    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as folder:
        store = GameStore(f"{folder}/games.sqlite3")
        session = store.create([f"P{i}" for i in range(players)], preset)
        for _ in range(40):
            event, before = _a_players_event(rng, session.game, players), state_of(session)
            try:
                session.apply(event)
                store.save(session)
            except IllegalEvent:
                assert state_of(session) == before, event
            assert state_of(GameStore(f"{folder}/games.sqlite3").get(session.id)) == state_of(session), event
