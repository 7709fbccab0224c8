"""The board file of CONTRACT.md: reading it with one-line errors, writing results back; and
``json_value``, through which every JSON file and body the project reads is parsed."""

from __future__ import annotations

import json

from engine.board import Board, PlacedTile
from engine.lattice import check_within_reach
from engine.rules import DEFAULT_PRESET, Rules, game_rules
from engine.tiles import LARGE_MAX, STANDARD_MAX


class BoardFileError(ValueError):
    """The file is not a board file; the message is one line meant for the user."""


def json_value(text: str | bytes) -> object:
    """What a JSON text holds, as ``json.loads`` gives it, for every JSON file and body the
    project reads. Bytes must be UTF-8 (UnicodeDecodeError otherwise). A byte-order mark before
    the text (Windows Notepad writes one) is skipped; arrays or objects nested deeper than
    Python's parser goes are malformed JSON (JSONDecodeError), not a RecursionError that the
    callers' checks for bad input let through."""
    if isinstance(text, bytes):
        text = text.decode("utf-8")
    text = text.removeprefix("\ufeff")
    try:
        return json.loads(text)
    except RecursionError:
        raise json.JSONDecodeError("arrays or objects nested too deeply", text, 0) from None


def parse_board(text: str | bytes, rules_override: str | None = None) -> tuple[Board, Rules]:
    """Board and rules from board-file JSON, as text or as a file's bytes (which must be UTF-8: a
    photo given for a board file is said to be none); ``rules_override`` wins over the file's
    ``rules``."""
    try:
        data = json_value(text)
    except UnicodeDecodeError:
        raise BoardFileError("not a board file (JSON text): its bytes are not UTF-8") from None
    except json.JSONDecodeError as error:
        raise BoardFileError(f"malformed JSON: {error}") from None
    return board_from_dict(data, rules_override)


def board_from_dict(data: object, rules_override: str | None = None) -> tuple[Board, Rules]:
    if not isinstance(data, dict) or not isinstance(data.get("tiles"), list):
        raise BoardFileError('a board file is an object with a "tiles" list')
    name = rules_override or data.get("rules") or DEFAULT_PRESET
    if not isinstance(name, str):
        raise BoardFileError('"rules" must be a preset name')
    max_number = data.get("max_number", STANDARD_MAX)
    if max_number not in (STANDARD_MAX, LARGE_MAX) or not isinstance(max_number, int) or isinstance(max_number, bool):
        raise BoardFileError(f'"max_number" is {STANDARD_MAX} (the 56-tile set) or {LARGE_MAX} (the 84-tile set)')
    try:
        rules = game_rules(name, max_number)
    except ValueError as error:
        raise BoardFileError(str(error)) from None
    placements = []
    for index, item in enumerate(data["tiles"]):
        if not isinstance(item, dict) or "cell" not in item or "corners" not in item:
            raise BoardFileError(f'tile {index}: needs "cell" and "corners"')
        cell, corners = item["cell"], item["corners"]
        if not (isinstance(cell, list) and isinstance(corners, list)):
            raise BoardFileError(f"tile {index}: cell and corners are lists")
        if not all(isinstance(n, int) and not isinstance(n, bool) and 0 <= n <= rules.max_number for n in corners):
            larger = ' (a board of the 84-tile set says "max_number": 6)' if rules.max_number == STANDARD_MAX else ""
            raise BoardFileError(f"tile {index}: corners must be numbers 0..{rules.max_number}{larger}, got {corners}")
        try:
            placements.append(PlacedTile(tuple(cell), tuple(corners)))
            check_within_reach(placements[-1].cell)
        except ValueError as error:
            raise BoardFileError(f"tile {index}: {error}") from None
    try:
        return Board(tuple(placements)), rules
    except ValueError as error:
        raise BoardFileError(str(error)) from None


def board_to_dict(board: Board, rules: Rules | None = None) -> dict:
    out: dict = {} if rules is None else {"rules": rules.name}
    if rules is not None and rules.max_number != STANDARD_MAX:
        out["max_number"] = rules.max_number
    out["tiles"] = [{"cell": list(p.cell), "corners": list(p.corners)} for p in board.placements]
    return out
