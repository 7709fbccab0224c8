"""Seeded simulated games, so other parts get realistic legal boards with bridges and hexagons.

The simulator knows every hand (the real game does not) and feeds the ``Game`` the same events
a table would: placements, draws, passes and the racks at the end of each round.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engine.board import Board, PlacedTile
from engine.game import Draw, EndRound, Game, Pass, Place
from engine.moves import legal_moves
from engine.rules import Rules, get_rules
from engine.scoring import score_placement
from engine.tiles import Tile, tile_set

Strategy = Callable[[Board, list[PlacedTile], Rules, random.Random], PlacedTile]


def random_player(board: Board, moves: list[PlacedTile], rules: Rules, rng: random.Random) -> PlacedTile:
    return rng.choice(moves)


def greedy_player(board: Board, moves: list[PlacedTile], rules: Rules, rng: random.Random) -> PlacedTile:
    """Highest score now; ties broken at random so games differ."""
    scores = [score_placement(board, m, rules).total for m in moves]
    best = max(scores)
    return rng.choice([m for m, s in zip(moves, scores) if s == best])


STRATEGIES: dict[str, Strategy] = {"random": random_player, "greedy": greedy_player}


@dataclass
class SimulatedGame:
    game: Game
    final_boards: list[Board]  # the board at the end of each round


def simulate_game(
    seed: int,
    players: int = 2,
    rules: Rules | str = "pressman-us",
    strategies: Sequence[str] = ("greedy", "random"),
    max_rounds: int = 60,
) -> SimulatedGame:
    """Play a whole game (or ``max_rounds`` rounds, whichever ends first) with seeded choices."""
    rules = get_rules(rules) if isinstance(rules, str) else rules
    rng = random.Random(seed)
    names = [f"P{i + 1}" for i in range(players)]
    chosen = [STRATEGIES[strategies[i % len(strategies)]] for i in range(players)]
    game = Game(names, rules)
    boards = []
    while game.state.phase != "over" and game.state.round <= max_rounds:
        boards.append(_play_round(game, chosen, rng))
    return SimulatedGame(game, boards)


def _play_round(game: Game, strategies: list[Strategy], rng: random.Random) -> Board:
    rules, n = game.rules, len(game.players)
    pile = list(tile_set(rules.max_number))
    rng.shuffle(pile)
    deal = rules.deal_size(n)
    hands = [[pile.pop() for _ in range(deal)] for _ in range(n)]
    opener, tile = _choose_opening(hands, pile, rules, rng, strategies)
    hands[opener].remove(tile)
    game.apply(Place(opener, (0, 0), tile.numbers))
    while game.state.phase == "playing":
        player = game.state.turn
        hand = hands[player]
        moves = legal_moves(game.state.board, hand)
        if moves:
            move = strategies[player](game.state.board, moves, rules, rng)
            hand.remove(move.tile)
            game.apply(Place(player, move.cell, move.corners))
        elif game.state.pile and (rules.max_draws is None or game.state.draws_this_turn < rules.max_draws):
            hand.append(pile.pop())
            game.apply(Draw(player))
        else:
            game.apply(Pass(player))
    board = game.state.board
    game.apply(EndRound(tuple(sum(t.value for t in h) for h in hands)))
    return board


def _choose_opening(hands, pile, rules: Rules, rng: random.Random, strategies) -> tuple[int, Tile]:
    """Who opens and with which tile, by the preset's opening rule."""
    if rules.opener == "draw_one":
        while True:  # each player draws one tile; the highest value opens; ties draw again
            drawn = rng.sample(pile, len(hands))
            values = [t.value for t in drawn]
            if values.count(max(values)) == 1:
                opener = values.index(max(values))
                break
        empty = Board()
        return opener, strategies[opener](empty, legal_moves(empty, hands[opener]), rules, rng).tile
    triples = [(t.value, i, t) for i, h in enumerate(hands) for t in h if t.is_triple]
    if triples:
        _, opener, tile = max(triples)
        zero = Tile(0, 0, 0)
        if zero in hands[opener] and (strategies[opener] is greedy_player or rng.random() < 0.5):
            tile = zero  # 0-0-0 opens for 40, more than any other triple
        return opener, tile
    # No triple: the highest tile opens; equal values are settled by the next tile in hand.
    ranked = [sorted((t.value for t in h), reverse=True) for h in hands]
    opener = max(range(len(hands)), key=lambda i: ranked[i])
    return opener, max(hands[opener], key=lambda t: t.value)


def random_board(seed: int, n_tiles: int, rules: Rules | str = "pressman-us", bonus_bias: float = 0.6) -> Board:
    """A legal board of ``n_tiles`` (1..56) grown tile by tile from the whole set.

    With probability ``bonus_bias`` a move that earns a bonus is preferred, so boards show the
    bridges, hexagons and holes of real play. Stops early only if no tile fits.
    """
    rules = get_rules(rules) if isinstance(rules, str) else rules
    tiles = list(tile_set(rules.max_number))
    if not 1 <= n_tiles <= len(tiles):
        raise ValueError(f"a board holds 1 to {len(tiles)} tiles, not {n_tiles}")
    rng = random.Random(seed)
    rng.shuffle(tiles)
    board = Board((PlacedTile((0, 0), tiles.pop().numbers),))
    while len(board) < n_tiles:
        moves = legal_moves(board, tiles)
        if not moves:
            break
        if rng.random() < bonus_bias:
            bonus = [m for m in moves if score_placement(board, m, rules).bonuses]
            moves = bonus or moves
        move = rng.choice(moves)
        tiles.remove(move.tile)
        board = board.with_tile(move)
    return board
