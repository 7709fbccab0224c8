"""Games the service keeps: the engine's game, the live table, and their SQLite store.

A game is stored as its players, preset and event log (plus the cells players corrected by hand,
and those of the round's placements committed from an unsure reading), written in one
transaction after every change, so a restart of the service loses nothing: the
state is replayed from the log. The live table (what the camera saw last) is not stored; the
camera sees the table again after a restart. Which way round the camera gives its pictures (a
mirror image or not) is stored once for the file, not per game: it is the camera's, and a new
game, or one taken up again after a restart, reads its first frames that way round.
"""

from __future__ import annotations

import csv
import io
import json
import secrets
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from engine.board import PlacedTile
from engine.game import EVENT_TYPES, EndRound, Game, IllegalEvent, LogEntry, Place, event_from_dict, event_to_dict
from engine.lattice import Cell, mirror_cell, mirror_image
from engine.moves import fitting_tiles
from engine.rules import described, game_rules
from engine.svg import board_svg
from engine.tiles import STANDARD_MAX
from service.live import GameRecord, LiveSettings, LiveTable, TableView, Verdict

if TYPE_CHECKING:  # for annotations: the reader and its models load with the first frame read
    from vision.reader import Reader
    from vision.records import Reading

EVENT_KINDS = (*EVENT_TYPES, "undo", "correct")  # the rules' events, and what players do besides

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    created REAL NOT NULL,
    updated REAL NOT NULL,
    players TEXT NOT NULL,
    rules TEXT NOT NULL,
    events TEXT NOT NULL,
    trusted TEXT NOT NULL,
    provisional TEXT NOT NULL DEFAULT '[]',
    options TEXT NOT NULL DEFAULT '{}',
    taken_back TEXT NOT NULL DEFAULT '[]'
)
"""
# One row: whether the frames last read, of any game kept in the file, were mirror images.
CAMERA_SCHEMA = """
CREATE TABLE IF NOT EXISTS camera (id INTEGER PRIMARY KEY CHECK (id = 0), mirror_image INTEGER NOT NULL)
"""


def new_game_id() -> str:
    """An unguessable id (128 random bits) in hex: it never starts with "-", which a command line
    such as ``triominoes live --game ID`` would take for an option."""
    return secrets.token_hex(16)


class UnknownGame(KeyError):
    """No game has that id."""


class StoreError(ValueError):
    """A path that cannot hold the games (a file that is not SQLite's, a folder); one line for
    the user."""


class DamagedGame(StoreError):
    """A stored game that cannot be replayed (its row edited by hand, or written by a version
    whose rules differ): the other games stay usable, and this one can be deleted."""


@dataclass
class GameSession:
    """One game in play: its log, the live table watching it, and a lock so that one game's
    frames and events are handled one at a time (different games run side by side)."""

    id: str
    game: Game
    created: float
    trusted: set[Cell] = field(default_factory=set)  # cells of this round a player placed or corrected by hand
    # Cells of this round's placements committed with a number read unsurely: the reader takes
    # their numbers only as hints until it reads them surely, and a sure reading that differs
    # corrects the placement.
    provisional: set[Cell] = field(default_factory=set)
    # Placements of this round a player took back (undo) that the camera may still read where
    # they were: it does not commit them again while a view that matches the board shows them.
    taken_back: set[PlacedTile] = field(default_factory=set)
    table: LiveTable = field(default_factory=LiveTable)
    status: Verdict = field(default_factory=lambda: Verdict("in_sync", "new game"))
    # The last frame read that showed the table as the game has it (in sync, or the placement
    # just committed): the reader finds a tile added since that its finder misses (a pale tile
    # on pale cloth) as the one cell beside the board that changed. Kept in memory only.
    reference: np.ndarray | None = field(default=None, repr=False, compare=False)
    # Whether the last frame read was a mirror image (a camera set to mirror its picture): the
    # next is read flipped back first, and read as it is only where its tiles say so. A game
    # begins with the way round its store last kept (``GameStore.camera_mirrors``): a mirroring
    # camera found out anew by a new game's first frames commits its first tiles turned over.
    mirror_image: bool = field(default=False, compare=False)
    # Whether a frame read since the game was last saved turned the way round: saving it keeps
    # the new way round for the file's next games.
    camera_turned: bool = field(default=False, compare=False)
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    # The stored row's ``updated`` as this program last wrote or read it: another program's write
    # (``triominoes live`` and ``serve`` on one file) shows as a row updated otherwise.
    stored_at: float = field(default=0.0, compare=False)

    def summary(self) -> dict:
        state = self.game.state
        return {
            "id": self.id,
            "players": list(self.game.players),
            "rules": self.game.rules.name,
            "max_number": self.game.rules.max_number,
            "rounds": self.game.rules.max_rounds,
            "round": state.round,
            "phase": state.phase,
            "turn": state.turn,
            "scores": list(state.scores),
            "winner": state.winner,
            "created": self.created,
        }

    def to_dict(self) -> dict:
        """The whole game: state, score sheet, event log, last placement and live status."""
        last = self._last_placed()
        return {
            **self.summary(),
            **self.game.to_dict(),
            "rules_described": described(self.game.rules),
            "score_sheet": self.game.score_sheet(),
            "last_placement": last.to_dict() if last else None,
            "live": {
                "status": self.status.status,
                "message": self.status.message,
                "choices": [
                    {"cell": list(choice.cell), "corners": list(choice.corners)} for choice in self.status.choices
                ],
            },
            "corrected_cells": sorted(list(c) for c in self.trusted),
            "provisional_cells": sorted(list(c) for c in self.provisional),
            "last_tile_choices": _placed_list(self.last_tile_choices()),
            "taken_back": _placed_list(sorted(self.taken_back, key=_by_cell)),
        }

    def _last_placed(self) -> LogEntry | None:
        """The log's last placement (of any round), or None before the game's first tile."""
        return next((entry for entry in reversed(self.game.log) if entry.placement is not None), None)

    def fitting(self, cell: Cell) -> list[dict]:
        """The tiles ``cell`` may hold beside the rest of the board (``fitting_tiles``), as JSON:
        the page offers each for one click where a player places or corrects a tile by hand."""
        return _placed_list(fitting_tiles(self.game.state.board, cell, self.game.rules.max_number))

    def last_tile_choices(self) -> list[PlacedTile]:
        """Where the last tile was committed from an unsure reading and is still provisional
        (wrong one time in four, docs/decisions.md), every tile the board beside it allows in
        its cell, the one committed first, so that a player confirms or corrects it with one
        click. None for a sure tile, and for the round's first (any tile fits there)."""
        last = self._last_placed()
        if last is None or last.event.cell not in self.provisional:
            return []
        committed = PlacedTile(last.event.cell, last.event.corners)
        fitting = fitting_tiles(self.game.state.board, committed.cell, self.game.rules.max_number)
        return [committed, *(tile for tile in fitting if tile != committed)] if fitting else []

    def board_svg(self) -> str:
        """The board drawn, with the empty cells sharing an edge with it (the opening cell on an
        empty board): the page lets a player pick one to place a tile the camera cannot read."""
        board = self.game.state.board
        last = board.placements[-1].cell if len(board) else None
        beside = sorted(board.frontier()) if len(board) else [(0, 0)]
        title = f"round {self.game.state.round}"
        return board_svg(board, last, [], title=title, provisional=self.provisional, open_cells=beside)

    def score_sheet_csv(self) -> str:
        """The score sheet as a spreadsheet reads it: one row per event, each player's change and
        running total. Text a spreadsheet would take for a formula (a name such as "=1+1") is
        kept as text."""
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        by_player = [_as_text(f"{name} {what}") for name in self.game.players for what in ("change", "total")]
        writer.writerow(["round", "event", "what happened", *by_player])
        for line in self.game.score_sheet():
            numbers = [v for pair in zip(line["deltas"], line["totals"]) for v in pair]
            writer.writerow([line["round"], line["event"], _as_text(line["description"]), *numbers])
        return out.getvalue()

    def apply(self, data: dict) -> dict | None:
        """A player's event (JSON): draw, pass, place, end_round, undo, or correct a misread tile.
        The player defaults to whoever's turn it is. Returns the new log entry (None for undo);
        IllegalEvent, with the game unchanged, if the rules forbid it."""
        if not isinstance(data, dict):
            raise IllegalEvent("an event is a JSON object with a kind")
        kind = data.get("kind")
        if kind not in EVENT_KINDS:
            raise IllegalEvent(f"an event needs a kind, one of {', '.join(EVENT_KINDS)}")
        # A tile named among those the camera saw and could not order keeps what orders the others.
        board_changed = kind not in ("draw", "pass") and not self._names_a_choice(data)
        entry = self._event_applied(kind, data)
        # Only once the event is taken: a refused one leaves what the camera saw as it was.
        self.table.forget(board_changed=board_changed)
        self.reference = None  # the game changed by hand: the table may differ from the last frame
        return entry

    def _event_applied(self, kind: str, data: dict) -> dict | None:
        """``apply``'s event, of a known ``kind``, applied to the game; IllegalEvent, with nothing
        changed, if the rules forbid it."""
        if kind == "undo":
            undone = self.game.undo()
            message = "undone: waiting for the table"
            if isinstance(undone, Place):
                self.trusted.discard(undone.cell)
                self.provisional.discard(undone.cell)
                taken = PlacedTile(undone.cell, undone.corners)
                self.taken_back.add(taken)
                message = f"took back the {taken}: the camera will not count it again while it lies there"
            self.status = Verdict("settling", message)
            return None
        if kind == "correct":
            return self._correct(data)
        if kind in ("draw", "pass", "place") and "player" not in data:
            turn = self.game.state.turn
            data = {**data, "player": turn if turn is not None else 0}
        event = event_from_dict(data)
        entry = self.game.apply(event)
        if isinstance(event, Place):
            self.trusted.add(event.cell)
        if isinstance(event, EndRound):  # the next round starts a board of its own
            self.trusted.clear()
            self.provisional.clear()
            self.taken_back.clear()
        self.status = Verdict("settling", entry.description)
        return entry.to_dict()

    def _names_a_choice(self, data: dict) -> bool:
        """Whether an event places one of the tiles the camera last offered as maybe played first
        (``Verdict.choices``): it saw them all, so what tells the order of the others still
        holds. Cleared, the tile that photo showed beside the one named and the one played
        since came to the next photo as two new tiles at once, to be named again: the 88 studio
        games photographed by hand, a player naming the first tile wherever offered, asked for
        75 namings instead of 51 (placements alike 1,643 instead of 1,646)."""
        if data.get("kind") != "place" or not self.status.choices:
            return False
        try:
            named = PlacedTile(tuple(data["cell"]), tuple(data["corners"]))
        except (KeyError, TypeError, ValueError):
            return False  # the event itself is refused below
        return named in self.status.choices

    def _correct(self, data: dict) -> dict:
        """A player rewrites the numbers of a tile already placed (the camera misread it)."""
        try:
            cell = tuple(data["cell"])
            correction = {cell: tuple(data["corners"])}
        except (KeyError, TypeError):
            raise IllegalEvent("a correction needs the tile's cell [m, k] and its corners [a, b, c]") from None
        before = self.game.state.board.by_cell.get(cell)
        (entry,) = self.game.correct(correction)
        self.trusted.add(cell)
        self.provisional.discard(cell)
        # The same numbers again: a player confirms a tile the camera read unsurely.
        done = "confirmed" if before is not None and before.corners == correction[cell] else "corrected"
        self.status = Verdict("settling", f"{done} the tile at {list(cell)}")
        return entry.to_dict()

    def see(
        self, view: TableView, now: float, opener: int = 0, still: bool = False
    ) -> tuple[Verdict, dict | None, list[dict]]:
        """One view of the table: the verdict, the placement committed from it (if any) and the
        placements it corrected. ``still``: the view is a deliberate photo, judged at once."""
        if still:
            verdict = self.table.judge_photo(view, self._record(opener))
        else:
            verdict = self.table.observe(view, self._record(opener), now)
        corrected: list[dict] = []
        while verdict.corrections or verdict.mirrored:
            numbers = {placed.cell: placed.corners for placed in verdict.corrections}
            try:
                if verdict.mirrored:
                    entries = self.game.mirror_round(numbers)
                    self._mirror_marks()
                else:
                    entries = self.game.correct(numbers)
                corrected += [entry.to_dict() for entry in entries]
                self.provisional -= set(numbers)
            except IllegalEvent as error:
                verdict = Verdict("out_of_sync", f"{verdict.message}, which the rules do not allow: {error}")
                break
            # The view that held is judged again against the corrected game: it may show the
            # next placement too (the tile whose numbers made the corrected one plain).
            done = verdict.message
            verdict = self.table.judge(self.table.shown, self._record(opener))
            verdict = replace(verdict, message=f"{done}; {verdict.message}")
        self.provisional -= verdict.confirmed
        if verdict.taken_back_seen is not None and verdict.status in ("in_sync", "placed"):
            self.taken_back &= verdict.taken_back_seen  # gone from a view of the whole board: played again, it counts
        entry = None
        if verdict.placement is not None:
            entry = self.game.apply(verdict.placement).to_dict()
            if verdict.unsure:
                self.provisional.add(verdict.placement.cell)
        self.status = verdict
        return verdict, entry, corrected

    def _mirror_marks(self) -> None:
        """The round's cells placed by hand, provisional and taken back, where the board turned
        over (``Game.mirror_round``) has them."""
        self.trusted = {mirror_cell(cell) for cell in self.trusted}
        self.provisional = {mirror_cell(cell) for cell in self.provisional}
        self.taken_back = {PlacedTile(*mirror_image(p.cell, p.corners)) for p in self.taken_back}

    def take_up(self, stored: GameSession) -> None:
        """Become the game ``stored`` holds, as another program wrote it: its log and cells. The
        table reads its next frame afresh, as after any change entered by hand."""
        self.game, self.trusted, self.provisional = stored.game, stored.trusted, stored.provisional
        self.taken_back = stored.taken_back
        self.stored_at = stored.stored_at
        self.table.forget()
        self.reference = None

    def check_seat(self, opener: int) -> int:
        """The opener, a seat of this game: one that is no player's would open the round for
        nobody (IllegalEvent, a 422 answer)."""
        if not 0 <= opener < len(self.game.players):
            raise IllegalEvent(f"the opener must be a seat 0..{len(self.game.players) - 1}, not {opener}")
        return opener

    def _record(self, opener: int) -> GameRecord:
        return GameRecord(
            self.game.state,
            self.game.rules,
            opener,
            frozenset(self.trusted),
            frozenset(self.provisional),
            frozenset(self.taken_back),
        )

    def look_at_photo(
        self,
        reader: Reader,
        pixels: np.ndarray,
        now: float,
        opener: int = 0,
        heard: Callable[[dict], None] | None = None,
    ) -> list[dict]:
        """The answers to a photo of the table at rest (one a turn): ``look`` at it as it comes,
        and again each time it commits a tile, as the next frames of a still table would be. Two
        turns played between photos, or a tile the photo before could not commit, are so
        committed one after the other, not one a photo late. ``heard(answer)`` after each look
        (a script's draws told between two turns come between them)."""
        answers: list[dict] = []
        while not answers or answers[-1]["status"] == "placed":
            answers.append(self.look(reader, pixels, now, opener, still=True))
            if heard:
                heard(answers[-1])
        return answers

    def look(self, reader: Reader, pixels: np.ndarray, now: float, opener: int = 0, still: bool = False) -> dict:
        """Read one frame (unless the picture is moving, or unchanged since the last verdict) and
        let the game see it: the answer a page needs to draw, with the placement committed from
        it, if any. The reading runs outside the game's lock; the game is only touched under it.
        An ``opener`` that is no seat of the game is refused before any reading (``check_seat``)."""
        self.check_seat(opener)
        with self.lock:
            if still:
                self.table.photographed(pixels)
            need = "read" if still else self.table.need(pixels, now)
            if need == "read" and not still:
                pixels = self.table.steadied(pixels)  # a noisy still picture: its frames' mean
            # Every tile of the board was seen placed, so the reader expects them, but for those
            # read unsurely then: their numbers are only hints.
            known, hints = self.game.state.board, frozenset(self.provisional)
            reference, mirror_image = self.reference, self.mirror_image
        reading = None
        if need == "read":
            reading = reader.read(
                pixels,
                rules=self.game.rules,
                known=known,
                provisional=hints,
                previous_image=reference,
                mirror_image=mirror_image,
            )
        with self.lock:
            if reading is not None and reading.mirror_image != self.mirror_image:
                self.table.read_the_other_way_round()
                self.mirror_image = reading.mirror_image
                self.camera_turned = True
            entry, corrected, provisional = None, [], set(self.provisional)
            if need == "moving":
                verdict = Verdict("moving", "the picture is moving")
            elif need == "unchanged":
                verdict = self.status  # the table is as it was when this verdict was reached
            else:
                verdict, entry, corrected = self.see(view_of(reading), now, opener, still)
                if verdict.status in ("in_sync", "placed"):
                    self.reference = pixels
            shown = self.table.shown.reading if self.table.shown else None
            changed = entry is not None or bool(corrected) or provisional != self.provisional or self.camera_turned
            return {
                "status": verdict.status,
                "message": verdict.message,
                "placed": entry,
                "corrected": corrected,
                "changed": changed,  # to be saved
                "reading": shown.to_dict() if shown is not None else None,
                # Why this frame reads poorly, for the players to act on (None: not read, or no
                # tile in it to judge the picture by: a hand over the table).
                "advice": list(reading.advice) if reading is not None and (reading.tiles or reading.advice) else None,
                "timing_ms": reading.timing_ms if reading is not None else {},
                "game": self.to_dict(),
            }


def _as_text(cell: str) -> str:
    """A cell a spreadsheet would take for a formula, kept as text by a leading apostrophe."""
    return "'" + cell if cell[:1] in ("=", "+", "-", "@", "\t", "\r") else cell


def view_of(reading: Reading) -> TableView:
    """The live table's view of a reading: joined tiles, and the numbers of the loose face-up
    tiles, with where the joined and the unread tiles lie. Loose tiles matter only as the
    round's opening tile, which no neighbour confirms and on which the whole game is built, so
    one the reader read but flagged unsure counts as unread, as those it left unread do: the
    table then waits for the next tile, and the two are read together (or a player names it from
    its numbers read, ``loose_unsure``)."""
    sure = [t for t in reading.tiles if t.cell is None and not t.ambiguous]
    unsure = [t for t in reading.tiles if t.cell is None and t.ambiguous]
    loose = tuple(t.numbers for t in sure)
    loose_at = tuple(_centre(t.corners) for t in sure)
    unread_at = tuple(_centre(corners) for corners in (*reading.unread, *(t.corners for t in unsure)))
    board_at = tuple((t.cell, _centre(t.corners)) for t in reading.tiles if t.cell is not None)
    unsure_cells = frozenset(t.cell for t in reading.tiles if t.cell is not None and t.ambiguous)
    loose_unsure = tuple(t.numbers for t in unsure)
    return TableView(
        reading.board, loose, reading, loose_at, unread_at, board_at, unsure_cells, loose_unsure, reading.mirror_image
    )


def _centre(corners) -> tuple[float, float]:
    x, y = np.mean(corners, axis=0)
    return float(x), float(y)


def _placed_list(placements: Iterable[PlacedTile]) -> list[dict]:
    """Placements as JSON, in the order given: cell and corners of each."""
    return [{"cell": list(p.cell), "corners": list(p.corners)} for p in placements]


def _by_cell(placed: PlacedTile) -> tuple:
    """A stable order for a set of placements (as stored, and as answered)."""
    return placed.cell, placed.corners


def _opened(path: str) -> sqlite3.Connection:
    """The SQLite file at ``path`` with the games table, made or brought up to date."""
    db = sqlite3.connect(path, check_same_thread=False)
    try:
        db.execute(SCHEMA)
        db.execute(CAMERA_SCHEMA)
        columns = {row[1] for row in db.execute("PRAGMA table_info(games)")}
        if "provisional" not in columns:  # a file written before placements could be provisional
            db.execute("ALTER TABLE games ADD COLUMN provisional TEXT NOT NULL DEFAULT '[]'")
        if "options" not in columns:  # a file written before games chose their set and rounds
            db.execute("ALTER TABLE games ADD COLUMN options TEXT NOT NULL DEFAULT '{}'")
        if "taken_back" not in columns:  # a file written before placements taken back were kept
            db.execute("ALTER TABLE games ADD COLUMN taken_back TEXT NOT NULL DEFAULT '[]'")
        db.commit()
    except sqlite3.DatabaseError:
        db.close()
        raise
    return db


class GameStore:
    """Game sessions in memory, each written through to one SQLite file, and kept in step with
    what other programs write to that file (``sync``)."""

    def __init__(self, path: str | Path = "triominoes-games.sqlite3", settings: LiveSettings | None = None) -> None:
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self.settings = settings or LiveSettings()
        try:
            self._db = _opened(self.path)
        except sqlite3.DatabaseError as error:
            raise StoreError(f"{self.path}: cannot keep games there ({error})") from None
        self._lock = threading.Lock()
        self._sessions: dict[str, GameSession] = {}

    def create(
        self, players: list[str], rules: str, max_number: int = STANDARD_MAX, rounds: int | None = None
    ) -> GameSession:
        """A new game, stored: the preset named ``rules``, played with the set of numbers 0 to
        ``max_number`` and, where the players agree on one, a number of ``rounds``
        (``engine.rules.game_rules``); ValueError for an unknown preset, a choice out of range, or
        players a score sheet could not tell apart (a blank name, or one name twice)."""
        set_up = game_rules(rules, max_number, rounds)
        names = [name.strip() for name in players]
        if not all(names):
            raise ValueError("every player needs a name")
        if not all(name.isprintable() for name in names):
            raise ValueError("a name is printable characters (no line breaks, tabs or control characters)")
        if len({name.casefold() for name in names}) < len(names):
            raise ValueError(
                f"two players share a name ({', '.join(names)}): the score sheet could not tell them apart"
            )
        session = GameSession(new_game_id(), Game(names, set_up), time.time(), mirror_image=self.camera_mirrors())
        session.table = LiveTable(self.settings)
        self.save(session, created=True)
        return session

    def get(self, game_id: str) -> GameSession:
        """The game, as stored now: one another program changed since this one read it is taken
        up (``sync``); UnknownGame where none is stored (deleted, by this program or another)."""
        with self._lock:
            session = self._sessions.get(game_id)
        if session is None:
            stored = self._stored(game_id)
            if stored is None:
                raise UnknownGame(game_id)
            stored.table = LiveTable(self.settings)
            stored.mirror_image = self.camera_mirrors()
            with self._lock:
                return self._sessions.setdefault(game_id, stored)
        if not self.sync(session):
            with self._lock:
                self._sessions.pop(game_id, None)
            raise UnknownGame(game_id)
        return session

    def sync(self, session: GameSession) -> bool:
        """Take up what another program wrote to the session's game since this one last wrote or
        read it (``triominoes live`` keeping a game from its camera while the page, served by
        ``triominoes serve`` on the same file, enters a draw); False where the game is no longer
        stored. Called before each frame and event, so that neither program writes over the
        other's changes with a game that lacks them."""
        seen = session.stored_at
        with self._lock:
            row = self._db.execute("SELECT updated FROM games WHERE id = ?", (session.id,)).fetchone()
        if row is None or row[0] == seen:
            return row is not None
        stored = self._stored(session.id)
        if stored is None:
            return False
        with session.lock:
            if session.stored_at == seen:  # else this program wrote it meanwhile, after the other
                session.take_up(stored)
        return True

    def _stored(self, game_id: str) -> GameSession | None:
        """The game as its row holds it, replayed from its log; None where no row has that id;
        DamagedGame where the log cannot be replayed."""
        with self._lock:
            row = self._db.execute(
                "SELECT players, rules, options, events, trusted, provisional, taken_back, created, updated"
                " FROM games WHERE id = ?",
                (game_id,),
            ).fetchone()
        if row is None:
            return None
        players, preset, options, events, trusted, provisional, taken_back, created, updated = row
        try:  # IllegalEvent and malformed JSON are ValueErrors
            rules = game_rules(preset, **json.loads(options))
            game = Game(json.loads(players), rules, [event_from_dict(e) for e in json.loads(events)])
            cells = [{tuple(c) for c in json.loads(column)} for column in (trusted, provisional)]
            back = {PlacedTile(tuple(p["cell"]), tuple(p["corners"])) for p in json.loads(taken_back)}
        except (ValueError, KeyError, TypeError) as error:
            raise DamagedGame(f"game {game_id} is stored but cannot be replayed ({error}): delete it") from None
        return GameSession(game_id, game, created, *cells, back, stored_at=updated)

    def save(self, session: GameSession, created: bool = False) -> None:
        """Write the game through, under its lock: the game as it is is written, and two saves of
        one game land in the order of the changes they write. (A frame's save, taken outside the
        lock, could write the game as it was before an event another request applied and saved
        meanwhile, and that event was lost at the next restart.) Call it without the lock held."""
        with session.lock:
            updated = time.time()
            rules = session.game.rules
            values = (
                json.dumps(list(session.game.players)),
                rules.name,
                json.dumps({"max_number": rules.max_number, "rounds": rules.max_rounds}),
                json.dumps([event_to_dict(e) for e in session.game.events]),
                json.dumps(sorted(list(c) for c in session.trusted)),
                json.dumps(sorted(list(c) for c in session.provisional)),
                json.dumps(_placed_list(sorted(session.taken_back, key=_by_cell))),
                updated,
                session.id,
            )
            if created:
                statement = (
                    "INSERT INTO games"
                    " (players, rules, options, events, trusted, provisional, taken_back, updated, id, created)"
                    " VALUES (?,?,?,?,?,?,?,?,?,?)"
                )
                values = (*values, session.created)
            else:
                statement = (
                    "UPDATE games SET players=?, rules=?, options=?, events=?, trusted=?, provisional=?, taken_back=?,"
                    " updated=? WHERE id=?"
                )
            with self._lock:
                written = self._db.execute(statement, values).rowcount
                if session.camera_turned:
                    self._db.execute("REPLACE INTO camera (id, mirror_image) VALUES (0, ?)", (session.mirror_image,))
                    session.camera_turned = False
                self._db.commit()
                if written:  # none where the game was deleted meanwhile (its page still streaming): not brought back
                    self._sessions[session.id] = session
                    session.stored_at = updated

    def camera_mirrors(self) -> bool:
        """Whether the frames last read, of any game kept in this file, were mirror images."""
        with self._lock:
            row = self._db.execute("SELECT mirror_image FROM camera").fetchone()
        return bool(row and row[0])

    def list(self) -> list[dict]:
        with self._lock:
            ids = [row[0] for row in self._db.execute("SELECT id FROM games ORDER BY created")]
        games = []
        for game_id in ids:
            try:
                games.append(self.get(game_id).summary())
            except DamagedGame as error:
                games.append({"id": game_id, "error": str(error)})
        return games

    def delete(self, game_id: str) -> None:
        with self._lock:
            deleted = self._db.execute("DELETE FROM games WHERE id = ?", (game_id,)).rowcount
            self._db.commit()
            self._sessions.pop(game_id, None)
        if not deleted:
            raise UnknownGame(game_id)

    def close(self) -> None:
        with self._lock:
            self._db.close()
