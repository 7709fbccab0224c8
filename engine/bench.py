"""Engine speed: legal moves of a 9-tile hand on a 45-tile board, and whole games per second."""

from __future__ import annotations

import random
import statistics
import time

from engine.moves import legal_moves
from engine.simulate import random_board, simulate_game
from engine.tiles import tile_set


def run(seconds: float = 3.0) -> dict[str, float]:
    board = next(b for s in range(100) if len(b := random_board(s, 45)) == 45)
    rest = [t for t in tile_set() if t not in board.by_tile]
    hand = random.Random(0).sample(rest, 9)
    timings = []
    for _ in range(2000):
        start = time.perf_counter()
        moves = legal_moves(board, hand)
        timings.append(time.perf_counter() - start)
    games, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        simulate_game(games)
        games += 1
    elapsed = time.perf_counter() - start
    return {
        "legal_moves_ms_median": statistics.median(timings) * 1000,
        "legal_moves_found": len(moves),
        "games_per_second": games / elapsed,
    }


def main(seconds: float = 3.0) -> None:
    figures = run(seconds)
    print(
        f"legal moves, 9-tile hand on a 45-tile board: {figures['legal_moves_ms_median']:.3f} ms median "
        f"({figures['legal_moves_found']} moves)"
    )
    print(f"simulated whole games (pressman-us, greedy vs random): {figures['games_per_second']:.1f} per second")
