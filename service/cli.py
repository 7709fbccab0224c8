"""The `triominoes` command line. Each subcommand parses its arguments, calls one library entry
point, and turns bad input into a one-line message with exit status 2."""

from __future__ import annotations

import argparse
import contextlib
import errno
import json
import os
import socket
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from datasets.fonts import MissingFonts
from engine.board import Board
from engine.boardfile import BoardFileError, parse_board
from engine.game import Game, IllegalEvent
from engine.rules import DEFAULT_PRESET, MOST_ROUNDS, PRESETS, Rules, described, game_rules, get_rules
from engine.scoring import judge_each, score_answer
from engine.svg import board_svg
from engine.tiles import LARGE_MAX, STANDARD_MAX, counted, format_corners, tile_set

if TYPE_CHECKING:
    from service.games import GameSession, GameStore
    from service.play import Frame, StandIn

EXIT_BAD_INPUT = 2
EXIT_BROKEN_PIPE = 141  # 128 + SIGPIPE, what a shell reports for a tool whose reader left
EXIT_SYSTEM_REFUSED = 1  # a file the system would not read or write once the work was under way
EXIT_SERVER_FAILED = 3  # the service did not start (uvicorn's own status for it)


class InputError(Exception):
    """Bad input from the user: reported as one line on stderr, exit status 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, not argparse's usage block
        prog = self.prog.removeprefix("triominoes").strip()
        raise InputError(f"{prog}: {message}" if prog else message)


def _board_file(path: str, rules: str | None) -> tuple[Board, Rules]:
    """A board file's board and rules, or a one-line InputError."""
    try:
        data = Path(path).read_bytes()
    except OSError as error:
        raise InputError(f"cannot read {path}: {error.strerror or error}") from None
    try:
        return parse_board(data, rules)
    except BoardFileError as error:
        raise InputError(f"{path}: {error}") from None


def _score(args: argparse.Namespace) -> int:
    board, rules = _board_file(args.board, args.rules)
    if not len(board):
        raise InputError(f"{args.board}: the board has no tiles to score")
    if args.svg:
        _writable_file(args.svg)
    answer = score_answer(board, rules)
    if args.svg:
        violations = [v for r in judge_each(board, rules) for v in r.violations]
        cell = tuple(answer["cell"])
        Path(args.svg).write_text(board_svg(board, cell, violations, title=args.board), encoding="utf-8")
    print(json.dumps(answer))
    return 0


def _rules(args: argparse.Namespace) -> int:
    for name in [args.preset] if args.preset else PRESETS:
        print(name + ":" + "".join(f"\n  {sentence}" for sentence in described(get_rules(name))))
    return 0


def _images(patterns: list[str]) -> list[Path]:
    """Photos named directly, by folder (its image files, sorted) or by glob pattern."""
    import glob

    suffixes = {".jpg", ".jpeg", ".png", ".webp", ".bmp", ".tif", ".tiff"}
    found: list[Path] = []
    for pattern in patterns:
        path = Path(pattern)
        if path.is_dir():
            found += sorted(p for p in path.iterdir() if p.suffix.lower() in suffixes)
        elif any(ch in pattern for ch in "*?["):
            found += sorted(Path(p) for p in glob.glob(pattern, recursive=True) if Path(p).suffix.lower() in suffixes)
        else:
            found.append(path)
    return found


def _reading_order(tile) -> tuple:
    """The board's tiles first, row by row as the lattice lies, then loose tiles top to bottom
    in the photo: a list a player can follow across the board."""
    if tile.cell is not None:
        column, row = tile.cell
        return (0, row, column)
    x, y = tile.corners.mean(0)
    return (1, y, x)


def _summary(reading) -> str:
    joined = [t for t in reading.tiles if t.cell is not None]
    lines = [
        f"{reading.path}: {counted(len(joined), 'tile', 'tiles')} on the board, "
        f"{len(reading.tiles) - len(joined)} loose, "
        f"{len(reading.unread)} unread, {len(reading.face_down)} face down ({reading.timing_ms['total']:.0f} ms)"
    ]
    for tile in sorted(reading.tiles, key=_reading_order):
        flag = "" if tile.in_set else "  not in the set"
        flag += "  uncertain" if tile.ambiguous else ""
        loose = "" if tile.cell is not None else "loose "
        lines.append(f"  {format_corners(tile.numbers)} {loose}{tile.place}{flag}")
    lines += [f"  violation: {v.message}" for v in reading.violations]
    if reading.last_placement:
        lines.append(f"  last tile {reading.last_placement.in_words}")
    lines += [f"  note: {n}" for n in reading.notes]
    return "\n".join(lines)


def _reader(rules: str, working_size: int | None = None):
    from models.runtime import ModelError
    from vision.reader import Reader

    try:
        return Reader(rules=rules, working_size=working_size)
    except (FileNotFoundError, ModelError) as error:
        raise InputError(str(error)) from None


def _read(args: argparse.Namespace) -> int:
    from vision.image_io import ImageError, load_image

    try:
        get_rules(args.rules)
    except ValueError as error:
        raise InputError(str(error)) from None
    paths = _images(args.images)
    if not paths:
        raise InputError(f"no photos match {' '.join(args.images)}")
    one_photo = {"--previous": args.previous, "--board": args.board, "--overlay": args.overlay}
    given = [option for option, value in one_photo.items() if value]  # options that go with one photo
    if len(paths) > 1 or (args.out and not given):
        return _read_many(paths, args, given)
    if args.overlay:
        _writable_picture(args.overlay, "--overlay")
    if args.out:
        _writable_file(args.out)
    known = _board_file(args.board, None)[0] if args.board else None  # the file's own rules check it
    try:
        image = load_image(paths[0])
        earlier = load_image(args.previous) if args.previous else None
    except ImageError as error:
        raise InputError(str(error)) from None
    reader = _reader(args.rules, args.working_size)
    previous = reader.read(earlier, path=args.previous) if earlier is not None else None
    reading = reader.read(image, previous=previous, path=str(paths[0]), previous_image=earlier, known=known)
    if args.overlay:
        import cv2

        from vision.overlay import draw_overlay

        if not cv2.imwrite(args.overlay, draw_overlay(image, reading)):
            raise InputError(f"cannot write {args.overlay}")
    if args.out:
        Path(args.out).write_text(json.dumps(reading.to_dict()) + "\n", encoding="utf-8")
    else:
        print(json.dumps(reading.to_dict()) if args.json else _summary(reading))
    return 0


def _read_many(paths: list[Path], args: argparse.Namespace, one_photo_options: list[str]) -> int:
    """Each photo read on its own, one JSON line each in ``--out``; a photo that cannot be read
    gets an ``error`` line, and where none can, the batch fails (exit 2). ``one_photo_options``
    given (``--previous`` ...) are refused."""
    import cv2

    from service.progress import progress
    from vision.image_io import ImageError, load_image

    if not args.out:
        raise InputError("several photos: write their readings with --out results.jsonl")
    if one_photo_options:
        one = f"{one_photo_options[0]} goes with one photo, not {len(paths)}"
        raise InputError(f"{one}; for a game photographed after each turn, see 'triominoes live --still'")
    _writable_file(args.out)
    reader = _reader(args.rules, args.working_size)
    failed = 0
    with open(args.out, "w", encoding="utf-8") as out:
        for path in progress(paths, len(paths), "read"):
            try:
                reading = reader.read(load_image(path), path=str(path))
                out.write(json.dumps(reading.to_dict()) + "\n")
            except (ImageError, cv2.error) as error:
                failed += 1
                out.write(json.dumps({"image": {"path": str(path)}, "error": str(error)}) + "\n")
    if failed == len(paths):  # a folder of HEIC photos, say: a batch that read nothing has failed
        raise InputError(f"none of the {len(paths)} photos could be read (see {args.out})")
    if failed:
        print(f"triominoes: {failed} of {len(paths)} photos could not be read (see {args.out})", file=sys.stderr)
    return 0


def _evaluate(args: argparse.Namespace) -> int:
    from models.runtime import ModelError
    from service.machine import describe
    from service.progress import progress
    from vision.evaluate import LARGE_TILES_FROM, EvaluationError, evaluate, truth_files

    folder = Path(args.truth)
    if not folder.is_dir() or not truth_files(folder):
        raise InputError(f"{folder}: no truth files (NAME.json) in that folder")
    predictions = Path(args.pred) if args.pred else None
    if predictions is not None and not predictions.is_file():
        raise InputError(f"{predictions}: not a file" if predictions.exists() else f"no such file: {predictions}")
    # Each says how the photos are read (--pred: readings already made); --working-size goes
    # only with reading them here.
    given = (("--pred", args.pred), ("--true-outlines", args.true_outlines), ("--live", args.live))
    ways = [option for option, value in given if value]
    if args.working_size and ways[:1] in (["--pred"], ["--true-outlines"]):
        ways.append("--working-size")
    if len(ways) > 1:
        raise InputError(f"{ways[0]} and {ways[1]} do not go together: each says how the photos are read")
    csv_path = Path(args.csv or folder / "evaluation.csv")
    _writable_file(str(csv_path))  # before reading every photo, not after
    try:
        figures = evaluate(folder, predictions, csv_path, progress, args.working_size, args.true_outlines, args.live)
    except (FileNotFoundError, ModelError, EvaluationError) as error:
        raise InputError(str(error)) from None
    except (json.JSONDecodeError, KeyError) as error:
        raise InputError(f"malformed reading or truth: {error}") from None
    print(describe())  # its p50 and p95 hold on this processor, its accuracy with these libraries
    print(f"one row per photo in {csv_path}")
    large = f"tiles {LARGE_TILES_FROM} px and up"
    labels = {
        "by_tile_side": "tiles {} a side",
        "by_style": f"set {{}}, {large}",
        "by_table": f"table {{}}, {large}",
        "by_view": f"{{}} off vertical, {large}",
    }
    for name, value in figures.items():
        if name in labels:
            for group, part in value.items():
                print(f"{labels[name].format(group)}: " + ", ".join(f"{k} {_figure(v)}" for k, v in part.items()))
        else:
            print(f"{name}: {_figure(value)}")
    return 0


def _figure(value) -> str:
    if isinstance(value, dict):  # counts by kind
        return ", ".join(f"{k} {v}" for k, v in value.items())
    return f"{value:.4f}" if isinstance(value, float) else str(value)


def _other_editions_argument(parser: argparse.ArgumentParser, help_text: str) -> None:
    parser.add_argument("--other-editions", type=_between(0.0, 1.0), default=0.0, metavar="SHARE", help=help_text)


def _warmth_argument(parser: argparse.ArgumentParser, what: str) -> None:
    parser.add_argument(
        "--warmth",
        type=_between(-1.0, 1.0),
        default=0.0,
        metavar="T",
        help=what + "light the camera did not balance, red against blue e^2T times (0.35: a warm lamp, twice)",
    )


def _highest_placed(told: list[dict]) -> int:
    """The highest number on the tiles a told script places (0 for none; a malformed one is named
    when the script is replayed)."""
    placed = (e["corners"] for e in told if e.get("kind") == "place" and isinstance(e.get("corners"), list))
    return max((n for corners in placed for n in corners if isinstance(n, int)), default=0)


NEW_GAME_PLAYERS = ["Player 1", "Player 2"]


def _same_set_up(game: Game, args: argparse.Namespace) -> None:
    """A stored game keeps the players, rules, set and rounds it was started with: an option of
    ``live --game`` that names other ones is refused, not silently ignored."""

    def shown(value: object) -> str:
        return " ".join(value) if isinstance(value, list) else "none" if value is None else str(value)

    rules = game.rules
    kept = {
        "--players": (args.players and [name.strip() for name in args.players], list(game.players)),
        "--rules": (args.rules, rules.name),
        "--max-number": (args.max_number, rules.max_number),
        "--rounds": (args.rounds, rules.max_rounds),
    }
    differ = [
        f"{option} {shown(given)} (it has {shown(own)})"
        for option, (given, own) in kept.items()
        if given is not None and given != own
    ]
    if differ:
        raise InputError(
            f"--game {args.game} keeps the set-up it was started with: {', '.join(differ)};"
            " leave those options out, or start a new game"
        )


def _stand_in(told: list[dict], players: Sequence[str], rules: Rules) -> StandIn:
    """The player of ``live --stand-in``, for a told script that lists placements and that the
    engine can replay (checked before a game is made for it)."""
    from service.play import StandIn, told_opener

    if told_opener(told) is None:
        raise InputError("--stand-in needs a --told script that lists the placements (a studio sequence's events.json)")
    try:
        return StandIn(told, players, rules)
    except (IllegalEvent, ValueError, KeyError, TypeError) as error:
        raise InputError(f"--told: its placements cannot be replayed ({error})") from None


def _max_number_argument(parser: argparse.ArgumentParser, default: int | None, what: str) -> None:
    parser.add_argument("--max-number", type=int, choices=(STANDARD_MAX, LARGE_MAX), default=default, help=what)


def _between(least: float, most: float, kind: type = float) -> Callable[[str], float | int]:
    """An argument type for a number (a ``kind``: float, or int for counts) from ``least`` to ``most``."""

    def number(text: str) -> float | int:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
        if not least <= value <= most:
            raise argparse.ArgumentTypeError(f"must be {least:g}..{most:g}, not {text}")
        return value

    return number


def _picture_size(text: str) -> tuple[int, int]:
    """An argument type for a picture size, ``WIDTHxHEIGHT`` in pixels."""
    width, _, height = text.lower().partition("x")
    if not (width.isdigit() and height.isdigit() and 160 <= int(width) <= 8192 and 120 <= int(height) <= 8192):
        raise argparse.ArgumentTypeError(f"a picture size is WIDTHxHEIGHT, 160x120 to 8192x8192, not {text!r}")
    return int(width), int(height)


def _simulate(args: argparse.Namespace) -> int:
    from engine.boardfile import board_to_dict
    from engine.simulate import random_board

    if not 1 <= args.tiles <= 56:
        raise InputError(f"--tiles must be 1..56, not {args.tiles}")
    board = random_board(args.seed, args.tiles, args.rules)
    print(json.dumps(board_to_dict(board, get_rules(args.rules))))
    return 0


def _datasets(args: argparse.Namespace) -> int:
    from datasets import make

    if args.n < 1:
        raise InputError(f"--n must be at least 1, not {args.n}")
    if args.seed < 0:
        raise InputError(f"--seed must not be negative, not {args.seed}")
    first = make.SPLITS[args.split] + args.seed
    seeds = range(first, first + args.n)
    styles = tuple(args.styles) if args.styles else None
    if args.action == "sheet":
        return _write_sheet(args, seeds)
    if args.action == "crops":
        return _write_crops(args, seeds, styles)
    out = Path(args.out)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise InputError(f"cannot create {out}: {error.strerror}") from None
    if args.action == "sketch":
        return _write_sketches(seeds, out)
    if args.only and (args.pairs or args.sequence):
        raise InputError(
            "--only renders the table before the game, with no earlier photo and no game: drop --pairs and --sequence"
        )
    if args.sequence:
        return _write_sequences(args, seeds, out)
    return _write_photos(args, seeds, styles, out)


def _write_sheet(args: argparse.Namespace, seeds: range) -> int:
    import cv2

    from datasets.sheet import contact_sheet

    _writable_picture(args.out, "--out")
    if not cv2.imwrite(args.out, contact_sheet(list(seeds))):
        raise InputError(f"cannot write {args.out}")
    print(f"wrote {args.out}")
    return 0


def _write_crops(args: argparse.Namespace, seeds: range, styles: tuple[str, ...] | None) -> int:
    import numpy as np

    from datasets import make
    from service.progress import progress

    _writable_file(args.out)
    jobs = [make.RenderJob(s, styles, other_editions=args.other_editions) for s in seeds]
    parts = list(progress(make.run_jobs(make.crops_for_seed, jobs, workers=args.workers), len(jobs), "crops"))
    data = make.crop_arrays(parts)
    np.savez_compressed(args.out, **data, first_seed=seeds.start, n=len(seeds))
    print(f"wrote {len(data['labels'])} crops to {args.out}")
    return 0


def _write_sketches(seeds: range, out: Path) -> int:
    from datasets.sketch import write_sketch
    from service.progress import progress

    for seed in progress(seeds, len(seeds), "sketch"):
        write_sketch(seed, out)
    return 0


def _write_sequences(args: argparse.Namespace, seeds: range, out: Path) -> int:
    from datasets import make
    from service.progress import progress

    photo_only = {
        "--pairs": args.pairs,
        "--masks": args.masks,
        "--closer": args.closer != 1.0,
        "--warmth": args.warmth != 0.0,
        "--sharpen": args.sharpen != 0.0,
        "--other-editions": args.other_editions != 0.0,
    }
    if any(photo_only.values()):
        named = ", ".join(name for name, given in photo_only.items() if given)
        raise InputError(
            f"{named}: for photos only; a game's frames take --noise, --defocus, --mirror and --more-pixels, not these"
        )
    for seed in progress(seeds, len(seeds), "sequences"):
        make.make_sequence(
            seed,
            out,
            args.styles,
            args.still_frames,
            args.max_events,
            args.rounds,
            args.max_number or STANDARD_MAX,
            noise=args.noise,
            defocus=args.defocus,
            mirror=args.mirror,
            more_pixels=args.more_pixels,
        )
    return 0


def _write_photos(args: argparse.Namespace, seeds: range, styles: tuple[str, ...] | None, out: Path) -> int:
    from datasets import make
    from service.progress import progress

    jobs = [
        make.RenderJob(
            s,
            styles,
            args.pairs,
            args.masks,
            more_pixels=args.more_pixels,
            closer=args.closer,
            other_editions=args.other_editions,
            warmth=args.warmth,
            sharpen=args.sharpen,
            defocus=args.defocus,
            noise=args.noise,
            mirror=args.mirror,
            only=args.only,
            **({} if args.max_number is None else {"large_set": float(args.max_number == LARGE_MAX)}),
        )
        for s in seeds
    ]
    for _ in progress(make.run_jobs(make.make_image, jobs, out, workers=args.workers), len(jobs), "render"):
        pass
    return 0


def _training(module: str):
    """A training module, or a one-line error naming the extra it needs."""
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError as error:
        raise InputError(f"training needs the train extra (pip install -e '.[train]'): {error}") from None


def _train(args: argparse.Namespace) -> int:
    from service.progress import progress

    if args.images < 10 or args.epochs < 1:
        raise InputError("--images must be at least 10 and --epochs at least 1")
    _writable_file(args.out)  # before half an hour of training, not after
    train = _training("models.train").train
    train(Path(args.out), args.seed, args.images, max(10, args.images // 10), args.epochs, report=progress)
    return 0


def _train_finder(args: argparse.Namespace) -> int:
    from service.progress import progress

    if args.images < 10 or args.steps < 1:
        raise InputError("--images must be at least 10 and --steps at least 1")
    _writable_file(args.out)
    train_finder = _training("models.train_finder").train_finder
    train_finder(Path(args.out), args.seed, args.images, args.steps, report=progress)
    return 0


def _writable_file(path: str) -> None:
    """A one-line InputError where a file cannot be written at ``path`` (its folder is missing,
    a folder is there, or the system refuses it): told before the work that makes the file, not
    after it. The file is opened to append, which leaves one that is there as it was; one made
    only to try is removed."""
    target = Path(path)
    parent = target.resolve().parent
    if not parent.is_dir():
        raise InputError(f"cannot write {path}: no such folder: {parent}")
    if target.is_dir():
        raise InputError(f"cannot write {path}: it is a folder, name a file")
    there = target.exists()
    try:
        with target.open("a"):
            pass
    except OSError as error:
        raise InputError(f"cannot write {path}: {error.strerror or error}") from None
    if not there:
        target.unlink(missing_ok=True)


def _writable_picture(path: str, option: str) -> None:
    """``_writable_file`` for a picture OpenCV writes, which needs a .png or .jpg name."""
    if Path(path).suffix.lower() not in {".png", ".jpg", ".jpeg"}:
        raise InputError(f"{option} {path}: use a .png or .jpg name")
    _writable_file(path)


def _benchmark(args: argparse.Namespace) -> int:
    from models.runtime import ModelError
    from service.machine import describe

    print(describe())  # speed figures compare only on one processor
    try:
        _run_benchmark(args)
    except (FileNotFoundError, ModelError) as error:  # a model missing or unusable
        raise InputError(str(error)) from None
    return 0


def _run_benchmark(args: argparse.Namespace) -> None:
    if args.target == "engine":
        from engine import bench

        bench.main(args.seconds)
    elif args.target == "studio":
        from datasets import bench as studio_bench

        studio_bench.main(args.seconds)
    elif args.target == "reader":
        from vision import bench as reader_bench

        reader_bench.main(args.photos)
    elif args.target == "service":
        from service import bench as service_bench

        service_bench.main(args.seconds)
    elif args.target == "finder":
        from models import evaluate_finder
        from service.progress import progress
        from vision.find import DEFAULT_FINDER

        evaluate_finder.main(args.model or DEFAULT_FINDER, args.images or 150, report=progress, warmth=args.warmth)
    elif args.target == "classifier":
        from models import evaluate
        from models.classifier import DEFAULT_MODEL
        from service.progress import progress

        if args.confusion:
            _writable_picture(args.confusion, "--confusion")
        evaluate.main(
            args.model or DEFAULT_MODEL,
            args.images or 600,
            args.confusion,
            report=progress,
            other_editions=args.other_editions,
            warmth=args.warmth,
        )


def _serve(args: argparse.Namespace) -> int:
    import uvicorn

    from service.app import Settings, create_app
    from service.games import StoreError

    if not 0 < args.port < 65536:
        raise InputError(f"--port must be 1..65535, not {args.port}")
    _writable_file(args.db)
    try:
        app = create_app(Settings(database=args.db, cors_origins=tuple(args.cors_origin or ())))
    except StoreError as error:
        raise InputError(str(error)) from None
    listening = _listening_socket(args.host, args.port)
    print(f"serving on http://{args.host}:{args.port}/ (games in {args.db}; API docs at /docs)")
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    with contextlib.suppress(KeyboardInterrupt):  # Ctrl-C is how a server is stopped: exit 0
        server.run(sockets=[listening])
    return 0 if server.started else EXIT_SERVER_FAILED  # as uvicorn.run ends


def _listening_socket(host: str, port: int) -> socket.socket:
    """The socket ``serve`` answers on, bound here so that a port in use or an address not this
    machine's is one line and exit 2, said before "serving on"; uvicorn printed its own error
    after that line and exited 3."""
    try:  # as uvicorn binds it: an IPv6 address by its colons, the address reusable at once
        return socket.create_server((host, port), family=socket.AF_INET6 if ":" in host else socket.AF_INET)
    except OSError as error:
        why = "in use: another server listens there (stop it, or choose another --port)"
        if error.errno != errno.EADDRINUSE:
            why = f"not possible: {error.strerror or error}"
        raise InputError(f"serving on {host}:{port} is {why}") from None


def _live(args: argparse.Namespace) -> int:
    from service.games import UnknownGame
    from service.play import SourceError, load_told, play, told_opener
    from vision.image_io import ImageError

    _writable_file(args.db)
    if args.sheet:
        _writable_file(args.sheet)
    try:
        told = load_told(args.told) if args.told else []
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as error:
        raise InputError(f"--told {args.told}: not an event script ({error})") from None
    store, session, source, stand_in = _live_set_up(args, told)
    rules = session.game.rules
    set_up = f"{rules.name}, the {len(tile_set(rules.max_number))}-tile set"
    set_up += f", {rules.max_rounds} rounds at most" if rules.max_rounds is not None else ""
    print(f"game {session.id} ({', '.join(session.game.players)}; {set_up}) in {args.db}")
    if not told:  # players tell draws, passes and rack totals on the page, which keeps this game with us
        print(f"  draws, passes and rack totals: on the page of 'triominoes serve --db {args.db}'")

    def report(number: int, answer: dict) -> None:
        if answer["status"] not in ("settling", "moving") or args.verbose:
            print(f"frame {number}: {answer['status']}: {answer['message']}")

    try:
        play(
            session,
            _reader(rules.name),
            source,
            told,
            args.opener if args.opener is not None else told_opener(told) or 0,
            report,
            store,
            args.still,
            stand_in,
        )
    except (SourceError, ImageError) as error:
        raise InputError(str(error)) from None
    except IllegalEvent as error:
        raise InputError(f"--told: {error}") from None
    except UnknownGame:
        raise InputError(f"game {session.id} was deleted from {args.db} while it was kept") from None
    store.save(session)
    _print_live_summary(args, session, told, stand_in)
    if args.sheet:
        Path(args.sheet).write_text(session.score_sheet_csv(), encoding="utf-8")
    if args.json:
        print(json.dumps(session.to_dict()))
    return 0


def _live_set_up(
    args: argparse.Namespace, told: list[dict]
) -> tuple[GameStore, GameSession, Iterator[Frame], StandIn | None]:
    """The store, the game (the one ``--game`` names, or a new one), the frames' source and the
    stand-in of a ``live`` run, each checked before a game is made for them."""
    from service.games import GameStore, UnknownGame
    from service.play import CAMERA_SIZE, frames

    try:
        store = GameStore(args.db)
        session = store.get(args.game) if args.game else None
        if session is not None:
            _same_set_up(session.game, args)
        players = session.game.players if session else args.players or NEW_GAME_PLAYERS
        if args.opener is not None and not 0 <= args.opener < len(players):
            raise InputError(f"--opener must be a seat 0..{len(players) - 1}, not {args.opener}")
        # The source is checked before a game is made for it.
        source = frames(args.source, args.rate, args.camera_size or CAMERA_SIZE, print)
        new_game = (args.rules or DEFAULT_PRESET, args.max_number or STANDARD_MAX, args.rounds)
        rules = session.game.rules if session else game_rules(*new_game)
        if _highest_placed(told) > rules.max_number:
            raise InputError(
                f"--told: its tiles have numbers to {LARGE_MAX}, past the game's set (0 to {rules.max_number}):"
                f" keep it as a game of the 84-tile set (--max-number {LARGE_MAX})"
            )
        stand_in = _stand_in(told, players, rules) if args.stand_in else None
        if session is None:
            session = store.create(players, *new_game)
    except UnknownGame:
        raise InputError(f"--game {args.game}: no such game in {args.db}") from None
    except ValueError as error:  # StoreError, SourceError, a player count the rules refuse
        raise InputError(str(error)) from None
    return store, session, source, stand_in


def _print_live_summary(
    args: argparse.Namespace, session: GameSession, told: list[dict], stand_in: StandIn | None
) -> None:
    """What a ``live`` run ends with: the scores, how they match a told script, what the stand-in
    entered, and why no view counted where photos were taken as a video's frames."""
    from service.play import compare_with_told

    if session.table.shown is None and not args.still and Path(args.source).is_dir():  # no view ever counted
        print(
            f"triominoes: the photos in {args.source} were taken as a video's frames, which count once"
            f" {session.table.settings.still_frames} in a row show the same tiles, and none did: for photos"
            " taken one a turn, pass --still",
            file=sys.stderr,
        )
    state = session.game.state
    print("scores: " + ", ".join(f"{n} {s}" for n, s in zip(state.players, state.scores)))
    try:
        comparison = compare_with_told(session.game, told)
    except (IllegalEvent, ValueError, KeyError, TypeError) as error:
        raise InputError(f"--told: its placements cannot be replayed ({error})") from None
    if comparison is not None:
        print(
            f"against the told script: the first {comparison.right} of its {comparison.told} placements committed"
            f" alike ({comparison.committed} committed in all); its scores: "
            + ", ".join(f"{n} {s}" for n, s in zip(state.players, comparison.told_scores))
        )
    if stand_in is not None:
        print(
            f"entered by hand: {stand_in.missed} placements the camera missed, {stand_in.corrected} it committed"
            f" otherwise than told (taken back first); taken back: {stand_in.undone} tiles committed where none"
            f" was played; {stand_in.gave_up} refused as entered; {stand_in.unsure_frames} entered where the"
            " round's tiles left the lattice turn open"
        )


def _style_names() -> list[str]:
    from datasets.faces import STYLES

    return list(STYLES)


def _working_size_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--working-size",
        type=_between(320, 4096, int),
        metavar="PIXELS",
        help="long side the photo is shrunk to for finding tiles (default 960; more finds smaller tiles, slower)",
    )


def _add_read(commands: argparse._SubParsersAction) -> None:
    read = commands.add_parser("read", help="read photos of a board: tiles, numbers, violations, last placement")
    read.add_argument("images", nargs="+", help="a photo; or, with --out, photos, folders or glob patterns")
    _working_size_argument(read)
    read.add_argument("--previous", metavar="IMAGE", help="an earlier photo: find and score the tile added since")
    read.add_argument(
        "--board",
        metavar="BOARD.json",
        help="the board so far, as a live game knows it (a board file): its tiles are expected where they lie, "
        "and without --previous the tile added is scored against it",
    )
    read.add_argument("--rules", default=DEFAULT_PRESET, help=f"rule preset: {', '.join(PRESETS)}")
    read.add_argument("--json", action="store_true", help="print the reading as JSON (CONTRACT.md)")
    read.add_argument("--overlay", metavar="OUT.png", help="draw the reading on the photo")
    read.add_argument("--out", metavar="results.jsonl", help="read many photos, one JSON line each")
    read.set_defaults(run=_read)


def _add_evaluate(commands: argparse._SubParsersAction) -> None:
    evaluation = commands.add_parser("evaluate", help="compare readings with studio truth: CSV rows and a summary")
    evaluation.add_argument("truth", help="a folder of truth files (from 'triominoes datasets render')")
    evaluation.add_argument("--pred", metavar="results.jsonl", help="readings to judge (default: read the photos now)")
    evaluation.add_argument("--csv", metavar="OUT.csv", help="where the rows go (default: TRUTH/evaluation.csv)")
    evaluation.add_argument(
        "--true-outlines",
        action="store_true",
        help="read only the truth's own tiles, at their true corners and cells (classifier and decoder alone)",
    )
    evaluation.add_argument(
        "--live",
        action="store_true",
        help="read each photo as a live game does: knowing the board of the earlier photo's truth "
        "(the game's state) instead of reading that photo, which stands as the game's last frame",
    )
    _working_size_argument(evaluation)
    evaluation.set_defaults(run=_evaluate)


def _add_score(commands: argparse._SubParsersAction) -> None:
    score = commands.add_parser("score", help="validate and score the last tile of a board file")
    score.add_argument("board", help="board file (JSON, see CONTRACT.md)")
    score.add_argument("--rules", help=f"rule preset: {', '.join(PRESETS)} (default: the file's, else pressman-us)")
    score.add_argument("--svg", metavar="OUT.svg", help="also draw the board, last tile and violations")
    score.set_defaults(run=_score)


def _add_rules(commands: argparse._SubParsersAction) -> None:
    presets = commands.add_parser("rules", help="what each rule preset means, in a few sentences")
    presets.add_argument("preset", nargs="?", choices=list(PRESETS), help="only this preset")
    presets.set_defaults(run=_rules)


def _add_simulate(commands: argparse._SubParsersAction) -> None:
    simulate = commands.add_parser("simulate", help="print a seeded legal board file (a game grown tile by tile)")
    simulate.add_argument("--seed", type=int, default=0)
    simulate.add_argument("--tiles", type=int, default=40, help="tiles on the board, 1..56")
    simulate.add_argument("--rules", choices=list(PRESETS), default=DEFAULT_PRESET)
    simulate.set_defaults(run=_simulate)


def _add_datasets(commands: argparse._SubParsersAction) -> None:
    data = commands.add_parser("datasets", help="synthetic photos with ground truth, and training crops")
    data.add_argument(
        "action",
        choices=["render", "crops", "sheet", "sketch"],
        help="render: photos + truth into a folder; crops: a .npz of labelled corner crops; "
        "sheet: a PNG contact sheet with truth drawn on; sketch: photos + truth from a second, "
        "simpler renderer written apart from the studio (flat tiles), to check the reader on a look it never learnt",
    )
    data.add_argument("--out", required=True, help="folder (render, sketch) or file (crops, sheet)")
    data.add_argument("--n", type=int, default=16, help="number of photos (or sequences)")
    data.add_argument("--seed", type=int, default=0, help="first seed, counted from the split's start")
    data.add_argument("--split", choices=["train", "val", "test"], default="train")
    data.add_argument("--styles", nargs="+", choices=_style_names(), help="only these tile styles")
    data.add_argument("--pairs", action="store_true", help="also a 'before' photo without the last tile")
    data.add_argument("--sequence", action="store_true", help="frames and video of a game round per seed")
    data.add_argument(
        "--still-frames",
        type=_between(0, 1000, int),
        default=5,
        help="sequence: frames of the still board after a move",
    )
    data.add_argument(
        "--max-events", type=_between(1, 10_000, int), default=None, help="sequence: stop after this many events"
    )
    data.add_argument(
        "--rounds", type=_between(1, 100, int), default=None, help="sequence: stop after this many rounds"
    )
    _max_number_argument(
        data,
        None,
        "render: every scene, or each sequence's game, played with the set of numbers 0 to 5 (56 tiles) or 0 to 6"
        " (84; default: the studio's mix for photos, 15%% of them 0 to 6; 0 to 5 for sequences)",
    )
    data.add_argument("--masks", action="store_true", help="also NAME.mask.png with tile ids")
    data.add_argument(
        "--more-pixels",
        type=_between(1.0, 4.0),  # four times a 1920x1080 view is 33 MP, under the reader's 52 MP limit
        default=1.0,
        metavar="F",
        help="render: the same views with F times the pixels a side (3: a phone's 12 MP photo of a webcam's view)",
    )
    data.add_argument(
        "--closer",
        type=_between(1.0, 8.0),
        default=1.0,
        metavar="F",
        help="render: close-ups, the middle of each view zoomed F times (tiles F times larger, the same pixels)",
    )
    _warmth_argument(data, "render: ")
    data.add_argument(
        "--sharpen",
        type=_between(0.0, 3.0),
        default=0.0,
        metavar="A",
        help="render: photos as a camera's processing sharpens them, an unsharp mask of amount A (0.5 mild, 1 strong)",
    )
    data.add_argument(
        "--defocus",
        type=_between(0.0, 10.0),
        default=None,
        metavar="S",
        help="render: photos or a game's frames from a camera out of focus, blurred S px at 1280 wide (studio: 0-1.2)",
    )
    data.add_argument(
        "--noise",
        type=_between(0.0, 50.0),
        default=0.0,
        metavar="L",
        help="render: photos or a game's frames from a camera in dim light, sensor noise of L levels (studio: 0-6)",
    )
    data.add_argument(
        "--mirror",
        action="store_true",
        help="render: photos or a game's frames from a camera that mirrors its picture (flipped left to right)",
    )
    data.add_argument(
        "--only",
        choices=["pile", "table"],
        help="render: the table before the game: only the face-down pile, or only the table (photos with no tiles)",
    )
    _other_editions_argument(
        data,
        "render, crops: this share of the sets in another edition's layout (number size and place, "
        "pip arrangement; a light set's tone and ink, an edge line), as the classifier's training sees half of them",
    )
    data.add_argument("--workers", type=_between(1, 256, int), default=None, help="processes (default: one per core)")
    data.set_defaults(run=_datasets)


def _add_train(commands: argparse._SubParsersAction) -> None:
    training = commands.add_parser("train", help="train the corner classifier on studio crops and export ONNX")
    training.add_argument("--out", default="models/corner.onnx")
    training.add_argument("--seed", type=int, default=0)
    training.add_argument("--images", type=int, default=3000, help="training photos (validation: a tenth)")
    training.add_argument("--epochs", type=int, default=10)
    training.set_defaults(run=_train)


def _add_train_finder(commands: argparse._SubParsersAction) -> None:
    finder = commands.add_parser("train-finder", help="train the tile finder on studio photos and export ONNX")
    finder.add_argument("--out", default="models/finder.onnx")
    finder.add_argument("--seed", type=int, default=0)
    finder.add_argument("--images", type=int, default=800)
    finder.add_argument("--steps", type=int, default=7000)
    finder.set_defaults(run=_train_finder)


def _add_serve(commands: argparse._SubParsersAction) -> None:
    serve = commands.add_parser("serve", help="the web service and its page (API docs at /docs)")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--db", default="triominoes-games.sqlite3", help="SQLite file that keeps the games")
    serve.add_argument("--cors-origin", action="append", help="allow this web origin (none by default)")
    serve.set_defaults(run=_serve)


def _add_live(commands: argparse._SubParsersAction) -> None:
    live = commands.add_parser("live", help="keep a game's score from a camera, video file or folder of frames")
    live.add_argument("--source", required=True, help="camera index (0), video file, or folder of photos")
    live.add_argument(
        "--players", nargs="+", help=f"a new game's names in turn order (default: {' '.join(NEW_GAME_PLAYERS)})"
    )
    live.add_argument("--rules", choices=list(PRESETS), help=f"a new game's rules (default: {DEFAULT_PRESET})")
    _max_number_argument(live, None, "a new game's set: numbers 0 to 5 (56 tiles, the default) or 0 to 6 (84)")
    live.add_argument(
        "--rounds",
        type=_between(1, MOST_ROUNDS, int),
        help="end a new game after this many rounds if nobody has reached 400 first",
    )
    live.add_argument("--game", help="continue this stored game instead of starting one")
    live.add_argument("--db", default="triominoes-games.sqlite3", help="SQLite file that keeps the games")
    live.add_argument(
        "--opener", type=int, help="seat of the player who opens a round (default: the told script's, else 0)"
    )
    live.add_argument("--rate", type=_between(0.1, 1000.0), default=5.0, help="frames per second of a folder of photos")
    live.add_argument(
        "--camera-size",
        type=_picture_size,
        metavar="WxH",
        help="the picture size asked of a camera, which gives the nearest it has (default: 1920x1080; more"
        " pixels read small tiles better, and each frame takes longer to read)",
    )
    live.add_argument(
        "--still",
        action="store_true",
        help="each photo shows the table at rest, one a turn: judge each as it comes, not once it has held still",
    )
    live.add_argument(
        "--told",
        metavar="EVENTS.json",
        help="events with their frames: draws, passes and round ends are applied; placements, if listed, are compared",
    )
    live.add_argument(
        "--stand-in",
        action="store_true",
        help="with --told: a player enters by hand each told placement the camera misses by the next one,"
        " and undoes and enters right one it commits otherwise; prints how often",
    )
    live.add_argument("--json", action="store_true", help="print the final game as JSON")
    live.add_argument("--sheet", metavar="OUT.csv", help="also write the game's score sheet, for a spreadsheet")
    live.add_argument("--verbose", action="store_true", help="print every change of status")
    live.set_defaults(run=_live)


def _add_benchmark(commands: argparse._SubParsersAction) -> None:
    bench = commands.add_parser("benchmark", help="print speed and accuracy figures")
    bench.add_argument("target", choices=["engine", "studio", "classifier", "finder", "reader", "service"])
    bench.add_argument("--photos", type=_between(1, 1000, int), default=20, help="reader: photos to time")
    bench.add_argument("--model", help="classifier, finder: the ONNX model (default: the committed one)")
    bench.add_argument(
        "--images",
        type=_between(1, 100_000, int),
        help="classifier: test-split photos to crop (600); finder: validation photos to render (150)",
    )
    bench.add_argument("--confusion", metavar="OUT.png", help="classifier: also draw the confusion matrix")
    _other_editions_argument(bench, "classifier: this share of the test sets in another edition's layout")
    _warmth_argument(bench, "classifier, finder: every photo in ")
    bench.add_argument(
        "--seconds",
        type=_between(0.1, 3600.0),
        default=3.0,
        help="engine, studio: time to measure; service: time per run",
    )
    bench.set_defaults(run=_benchmark)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="triominoes", description="Read, validate and score Triominoes boards.")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    for add_command in (
        _add_read,
        _add_evaluate,
        _add_score,
        _add_rules,
        _add_simulate,
        _add_datasets,
        _add_train,
        _add_train_finder,
        _add_serve,
        _add_live,
        _add_benchmark,
    ):
        add_command(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
        run: Callable[[argparse.Namespace], int] = args.run
        return run(args)
    except (InputError, MissingFonts) as error:  # the studio's fonts: a machine's setup, not a bug
        print(f"triominoes: error: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # the reader of our output left (`| head`): stop quietly, as shell tools do
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no second error on exit's flush
        return EXIT_BROKEN_PIPE
    except OSError as error:  # the system refused a file mid-way (a full disk): said in a line, not a traceback
        print(f"triominoes: error: {error}", file=sys.stderr)
        return EXIT_SYSTEM_REFUSED


if __name__ == "__main__":
    sys.exit(main())
