"""The `triominoes` command line. Each subcommand parses its arguments, calls one library entry
point, and turns bad input into a one-line message with exit status 2."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from engine.boardfile import BoardFileError, parse_board
from engine.rules import DEFAULT_PRESET, PRESETS, get_rules
from engine.scoring import judge_each
from engine.svg import board_svg

EXIT_BAD_INPUT = 2


class InputError(Exception):
    """Bad input from the user: reported as one line on stderr, exit status 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, not argparse's usage block
        prog = self.prog.removeprefix("triominoes").strip()
        raise InputError(f"{prog}: {message}" if prog else message)


def _score(args: argparse.Namespace) -> int:
    try:
        text = Path(args.board).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise InputError(f"cannot read {args.board}: {getattr(error, 'strerror', None) or error}") from None
    try:
        board, rules = parse_board(text, args.rules)
    except BoardFileError as error:
        raise InputError(f"{args.board}: {error}") from None
    if not len(board):
        raise InputError(f"{args.board}: the board has no tiles to score")
    results = judge_each(board, rules)
    last = results[-1]
    answer = last.to_dict()
    answer["rules"] = rules.name
    answer["earlier_violations"] = [v.to_dict() for r in results[:-1] for v in r.violations]
    if args.svg:
        violations = [v for r in results for v in r.violations]
        Path(args.svg).write_text(board_svg(board, last.cell, violations, title=args.board), encoding="utf-8")
    print(json.dumps(answer))
    return 0


def _simulate(args: argparse.Namespace) -> int:
    from engine.boardfile import board_to_dict
    from engine.simulate import random_board

    if not 1 <= args.tiles <= 56:
        raise InputError(f"--tiles must be 1..56, not {args.tiles}")
    board = random_board(args.seed, args.tiles, args.rules)
    print(json.dumps(board_to_dict(board, get_rules(args.rules))))
    return 0


def _benchmark(args: argparse.Namespace) -> int:
    if args.target == "engine":
        from engine import bench

        bench.main(args.seconds)
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="triominoes", description="Read, validate and score Triominoes boards.")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    score = commands.add_parser("score", help="validate and score the last tile of a board file")
    score.add_argument("board", help="board file (JSON, see CONTRACT.md)")
    score.add_argument("--rules", help=f"rule preset: {', '.join(PRESETS)} (default: the file's, else pressman-us)")
    score.add_argument("--svg", metavar="OUT.svg", help="also draw the board, last tile and violations")
    score.set_defaults(run=_score)

    simulate = commands.add_parser("simulate", help="print a seeded legal board file (a game grown tile by tile)")
    simulate.add_argument("--seed", type=int, default=0)
    simulate.add_argument("--tiles", type=int, default=40, help="tiles on the board, 1..56")
    simulate.add_argument("--rules", choices=list(PRESETS), default=DEFAULT_PRESET)
    simulate.set_defaults(run=_simulate)

    bench = commands.add_parser("benchmark", help="print speed figures")
    bench.add_argument("target", choices=["engine"])
    bench.add_argument("--seconds", type=float, default=3.0, help="time spent simulating games")
    bench.set_defaults(run=_benchmark)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
        run: Callable[[argparse.Namespace], int] = args.run
        return run(args)
    except InputError as error:
        print(f"triominoes: error: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
