"""Triominoes rules: tiles, the lattice, boards, scoring, legal moves and whole games.

Pure Python with no image code; every other package builds on it.
"""

from engine.board import Board, PlacedTile, Violation, check_placement, validate_board
from engine.boardfile import BoardFileError, board_from_dict, board_to_dict, parse_board
from engine.game import Draw, EndRound, Game, IllegalEvent, Pass, Place
from engine.lattice import LatticeMap, cell_corners, edge_neighbours, points_up
from engine.moves import legal_moves
from engine.rules import DEFAULT_PRESET, PRESETS, Rules, game_rules, get_rules
from engine.scoring import PlacementResult, Score, judge_last, judge_placement, score_placement
from engine.simulate import random_board, simulate_game
from engine.svg import board_svg
from engine.tiles import Tile, canonical, is_in_set, tile_set

__all__ = [
    "DEFAULT_PRESET",
    "PRESETS",
    "Board",
    "BoardFileError",
    "Draw",
    "EndRound",
    "Game",
    "IllegalEvent",
    "LatticeMap",
    "Pass",
    "Place",
    "PlacedTile",
    "PlacementResult",
    "Rules",
    "Score",
    "Tile",
    "Violation",
    "board_from_dict",
    "board_svg",
    "board_to_dict",
    "canonical",
    "cell_corners",
    "check_placement",
    "edge_neighbours",
    "game_rules",
    "get_rules",
    "is_in_set",
    "judge_last",
    "judge_placement",
    "legal_moves",
    "parse_board",
    "points_up",
    "random_board",
    "score_placement",
    "simulate_game",
    "tile_set",
    "validate_board",
]
