"""The live game loop on the server side (`triominoes live`): frames from a camera, a video file
or a folder of photos, through the same game session the web page uses.

Draws, passes and round ends cannot be seen; at a table players press buttons for them. Here a
script of them can be told (``told``: the studio's events.json, or any list of events with the
frame they happen at): each is applied once the camera has committed every placement before it,
as a player would press "drew a tile" after seeing the last tile registered.
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

import cv2
import numpy as np

from engine.boardfile import json_value
from engine.game import Game, IllegalEvent, LogEntry, Place, event_from_dict
from engine.lattice import Cell, LatticeMap, maps_onto
from engine.rules import Rules
from engine.tiles import Corners, canonical
from service.games import GameSession, GameStore, UnknownGame
from vision.image_io import lines_printed_by, load_image

if TYPE_CHECKING:  # for annotations: the reader and its models load where a game is played
    from vision.reader import Reader

IMAGE_SUFFIXES = {".jpg", ".jpeg", ".png", ".webp", ".bmp"}
# The picture size asked of a camera, which gives the nearest it has. A camera opens at 640x480
# unless asked, where a whole table's tiles are too small to read; the same view with 1.5 times
# the pixels of 1280 reads far better (docs/decisions.md, *More of the camera's pixels*).
CAMERA_SIZE = (1920, 1080)


class SourceError(ValueError):
    """A camera or file that cannot be opened; one line for the user."""


@dataclass(frozen=True)
class Frame:
    number: int
    seconds: float  # the frame's time: from the video or folder rate, or the wall clock for a camera
    pixels: np.ndarray


def frames(
    source: str,
    rate: float = 5.0,
    camera_size: tuple[int, int] = CAMERA_SIZE,
    log: Callable[[str], None] | None = None,
) -> Iterator[Frame]:
    """Frames of a camera index ("0"), a video file, or a folder of photos shown at ``rate``.
    A camera is asked for pictures of ``camera_size``, and ``log`` hears the size it gives.
    The source is checked here, before the first frame is asked for: a game is not started on
    a camera or file that cannot give one."""
    path = Path(source)
    if path.is_dir():
        photos = sorted(p for p in path.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        if not photos:
            raise SourceError(f"{source}: no photos in that folder")
        return (Frame(number, number / rate, load_image(photo)) for number, photo in enumerate(photos))
    camera = source.isdigit()
    if not camera and not path.is_file():
        raise SourceError(f"{source}: no such file, folder or camera")
    with lines_printed_by(_said_by_ffmpeg_or_opencv):  # FFmpeg on a file cut short, OpenCV on a missing camera
        capture = cv2.VideoCapture(int(source) if camera else str(path))
    if not capture.isOpened():
        raise SourceError(f"{source}: cannot be opened as a {'camera' if camera else 'video'}")
    if camera:
        given = _ask_for_size(capture, camera_size)
        if log:
            log(f"camera {source}: {given[0]}x{given[1]} pictures (asked for {camera_size[0]}x{camera_size[1]})")
    return _captured(capture, source, camera, rate)


def _said_by_ffmpeg_or_opencv(line: str) -> bool:
    """Whether a line on stderr is FFmpeg's ("[mov,mp4,m4a,3gp,3g2,mj2 @ 0x...] moov atom not
    found") or OpenCV's log ("[ WARN:0@0.1] global cap_v4l.cpp ... can't open camera by index")."""
    return line.startswith("[")


def _ask_for_size(capture: cv2.VideoCapture, size: tuple[int, int]) -> tuple[int, int]:
    """Asks an opened camera for pictures of ``size``; the width and height it gives."""
    capture.set(cv2.CAP_PROP_FRAME_WIDTH, size[0])
    capture.set(cv2.CAP_PROP_FRAME_HEIGHT, size[1])
    return round(capture.get(cv2.CAP_PROP_FRAME_WIDTH)), round(capture.get(cv2.CAP_PROP_FRAME_HEIGHT))


def _captured(capture: cv2.VideoCapture, source: str, camera: bool, rate: float) -> Iterator[Frame]:
    """The frames of an opened capture, timed by the clock for a camera, by the video's rate
    (``rate`` where it gives none) for a file."""
    video_rate = capture.get(cv2.CAP_PROP_FPS) or rate
    start, number = time.monotonic(), 0
    try:
        while True:
            with lines_printed_by(_said_by_ffmpeg_or_opencv):  # a damaged frame: as shaky as a hand passing
                ok, pixels = capture.read()
            if not ok:
                break
            yield Frame(number, time.monotonic() - start if camera else number / video_rate, pixels)
            number += 1
    finally:
        capture.release()
    if number == 0:
        raise SourceError(f"{source}: no frames could be read")


def load_told(path: str | Path) -> list[dict]:
    """The told events of a script: a list of events, or an object with "events"; each event
    may carry the "frame" it happens at (a studio log entry's "event" is unwrapped)."""
    data = json_value(Path(path).read_bytes())
    entries = data["events"] if isinstance(data, dict) else data
    told = []
    for entry in entries:
        event = dict(entry.get("event", entry))
        told.append({**event, "frame": entry.get("frame", 0)})
    return told


def _without_frame(event: dict) -> dict:
    """A told event as the game takes it: without the frame it happens at."""
    return {key: value for key, value in event.items() if key != "frame"}


def play(
    session: GameSession,
    reader: Reader,
    source: Iterator[Frame],
    told: Sequence[dict] = (),
    opener: int = 0,
    on_change: Callable[[int, dict], None] | None = None,
    store: GameStore | None = None,
    still: bool = False,
    stand_in: StandIn | None = None,
) -> GameSession:
    """Run the session over every frame; ``on_change(frame, answer)`` hears each new verdict,
    each told event, and each kind of advice on the camera the first time a frame gives it
    (status "camera": the reading's ``advice``). With a ``store``, the game is written after
    every change, and what another program wrote to it (a draw entered on the page of
    ``triominoes serve`` on the same file) is taken up before each frame; UnknownGame once
    another program deleted it. ``still``: every frame is a photo of the table at rest (one a
    turn), judged as it comes (``GameSession.look_at_photo``) instead of once the picture has
    held still over several frames. ``stand_in``: a player who enters by hand the told
    placements the camera misses or misreads (``StandIn``); once the frames end, the placements
    still missing and the told events after them are entered too."""

    def report(frame: int, status: str, message: str) -> None:
        if store:
            store.save(session)
        if on_change:
            on_change(frame, {"status": status, "message": message, "placed": None})

    verdicts = _Verdicts(on_change)
    script = _Script(session, told, stand_in, report)

    def heard(number: int, answer: dict) -> None:
        verdicts.hear(number, answer)
        if answer["changed"] and store:
            store.save(session)
        script.apply_due(number, number)

    last_frame = 0
    for frame in source:
        last_frame = frame.number
        if store and not store.sync(session):
            raise UnknownGame(session.id)  # deleted meanwhile (on the page): nothing left to keep
        if still:
            session.look_at_photo(reader, frame.pixels, frame.seconds, opener, partial(heard, frame.number))
        else:
            heard(frame.number, session.look(reader, frame.pixels, frame.seconds, opener))
    if stand_in:
        script.apply_due(math.inf, last_frame)  # the frames' end: what is still due, told as the last frame
    return session


class _Verdicts:
    """What ``play``'s listener hears of the looks: each new verdict (and each placement), and
    each kind of advice on the camera once, since its figures move from frame to frame and a
    line each frame would bury the verdicts."""

    def __init__(self, on_change: Callable[[int, dict], None] | None) -> None:
        self.on_change = on_change
        self.last: tuple[str, str] | None = None
        self.advised: set[str] = set()

    def hear(self, number: int, answer: dict) -> None:
        key = (answer["status"], answer["message"])
        if self.on_change and (key != self.last or answer["placed"]):
            self.on_change(number, answer)
        for advice in answer.get("advice") or ():
            kind = re.sub(r"\d+", "N", advice)
            if self.on_change and kind not in self.advised:
                self.on_change(number, {"status": "camera", "message": advice, "placed": None})
            self.advised.add(kind)
        self.last = key


class _Script:
    """A told script's events, each applied once the frames reach it and the placements before
    it are in (entered by the ``stand_in`` where the camera missed one it had the time to see);
    ``report(frame, status, message)`` hears each event applied."""

    def __init__(
        self,
        session: GameSession,
        told: Sequence[dict],
        stand_in: StandIn | None,
        report: Callable[[int, str, str], None],
    ) -> None:
        self.session, self.told, self.stand_in, self.report = session, told, stand_in, report
        self.places_before = [sum(e["kind"] == "place" for e in told[:i]) for i in range(len(told))]
        self.pending = 0

    def apply_due(self, number: float, frame: int) -> None:
        """The events due by frame ``number``, reported as at ``frame``."""
        session, stand_in = self.session, self.stand_in
        for message in stand_in.correct(session, number) if stand_in else ():
            self.report(frame, "by hand", message)
        placed = sum(isinstance(e, Place) for e in session.game.events)
        while self.pending < len(self.told) and self.told[self.pending].get("frame", 0) <= number:
            event, places_before = self.told[self.pending], self.places_before[self.pending]
            if event["kind"] == "place" and placed <= places_before:
                entered = stand_in.enter_missed(session, places_before, number) if stand_in else None
                if entered is None:
                    break  # the camera has not committed this placement yet
                self.report(frame, "by hand", entered)
                placed += 1
            elif event["kind"] != "place":
                try:
                    entry = session.apply(_without_frame(event))
                    message = entry["description"] if entry else "undone"
                except IllegalEvent as error:
                    message = f"refused {event['kind']}: {error}"
                self.report(frame, "told", message)
            self.pending += 1


def told_opener(told: Sequence[dict]) -> int | None:
    """The player who plays the first placement of a told script (a studio log), if it has one."""
    return next((event["player"] for event in told if event["kind"] == "place"), None)


@dataclass(frozen=True)
class ComparisonWithTold:
    """How a game kept from the camera matches the game a told script (a studio log, which lists
    every placement too) describes."""

    told: int  # placements in the script
    committed: int  # placements the camera committed
    right: int  # told placements committed alike (player, tile and points), in order, before the first that is not
    scores: tuple[int, ...]  # the camera's game
    told_scores: tuple[int, ...]  # the script's game, replayed by the engine

    def __post_init__(self) -> None:
        if not 0 <= self.right <= min(self.told, self.committed):
            raise ValueError(f"{self.right} placements alike, of {self.told} told and {self.committed} committed")


def _placements(log: Sequence[LogEntry]) -> list[tuple]:
    """A game's placements as the score sheet tells them apart: player, tile and points."""
    return [(e.event.player, canonical(e.event.corners), e.placement.score.total) for e in log if e.placement]


def _replayed(players: Sequence[str], rules: Rules, told: Sequence[dict]) -> Game:
    """The told script's game, played by the engine (IllegalEvent, or KeyError, TypeError or
    ValueError for a malformed event, where it cannot be)."""
    return Game(tuple(players), rules, [event_from_dict(_without_frame(event)) for event in told])


def compare_with_told(game: Game, told: Sequence[dict]) -> ComparisonWithTold | None:
    """The camera's game against the told script's, or None when the script lists no placement.
    Placements are compared by player, tile and points, not by cell: the camera's game keeps a
    lattice frame of its own."""
    if told_opener(told) is None:
        return None
    script = _replayed(game.players, game.rules, told)
    expected, committed = _placements(script.log), _placements(game.log)
    right = next((i for i, (a, b) in enumerate(zip(expected, committed)) if a != b), min(len(expected), len(committed)))
    return ComparisonWithTold(len(expected), len(committed), right, game.state.scores, script.state.scores)


@dataclass
class StandIn:
    """A player at the table who keeps the score sheet right by hand, as the page lets one, while
    a told script (a studio log) is played to the camera: a told placement the camera has not
    committed by the frame the next one is played (``missed``; the last one, once the frames
    end) is entered by hand, one it committed otherwise than told (another tile or points) is
    taken back and entered right at once (``corrected``), and one it committed where no tile
    has been played yet is taken back (``undone``). So every told placement reaches the game,
    and the counts say how often players at a table would step in. A placement is entered
    in the game's lattice frame, moved there from the script's by the round's tiles both hold
    (``LatticeMap``); where those leave the turn open (a round's opening triple alone),
    ``unsure_frames`` counts it. ``gave_up`` counts placements the game refused as entered."""

    told: Sequence[dict]
    players: Sequence[str]
    rules: Rules
    missed: int = 0
    corrected: int = 0
    undone: int = 0
    unsure_frames: int = 0
    gave_up: int = 0

    def __post_init__(self) -> None:
        self.expected = _placements(_replayed(self.players, self.rules, self.told).log)
        self.places: list[dict] = []
        rounds: list[int] = []  # each told placement's round, by the round ends told before it
        ended = 0
        for event in self.told:
            ended += event["kind"] == "end_round"
            if event["kind"] == "place":
                self.places.append(event)
                rounds.append(ended)
        self.round_start = [rounds.index(r) for r in rounds]  # each round's first told placement
        self.refused: set[int] = set()  # placements the game refused as entered: not tried again
        self.frames: dict[int, LatticeMap] = {}  # each round's frame (by its first told placement)

    def correct(self, session: GameSession, number: float) -> list[str]:
        """Take back each placement the camera has just committed otherwise than told (the last
        event of the game): where the told one has been played by frame ``number``, enter it
        instead (``corrected``); else no tile was played (``undone``). One line for each."""
        done = []
        while session.game.log and session.game.log[-1].placement is not None:
            committed = _placements(session.game.log)
            index = len(committed) - 1
            if index in self.refused or (index < len(self.expected) and committed[index] == self.expected[index]):
                return done
            undone = session.game.log[-1].event.corners
            session.apply({"kind": "undo"})
            if index < len(self.places) and number >= self.places[index].get("frame", 0):
                self.corrected += 1
                done.append(self._enter(session, index, "misread"))
            else:
                self.undone += 1
                done.append(f"a player took back the tile {list(undone)}: none was played")
        return done

    def enter_missed(self, session: GameSession, index: int, number: float) -> str | None:
        """Told placement ``index``, which the camera has not committed, entered by hand once
        frame ``number`` reaches the next told placement's (the camera had the time to see it
        alone); what was done in words, or None while the camera still may commit it."""
        deadline = self.places[index + 1].get("frame", 0) if index + 1 < len(self.places) else math.inf
        if number < deadline or index in self.refused:
            return None
        self.missed += 1
        return self._enter(session, index, "missed")

    def _enter(self, session: GameSession, index: int, why: str) -> str:
        """Told placement ``index`` entered by hand in the game's frame; what was done, in words."""
        event = self.places[index]
        cell, corners = self._in_game_frame(session.game, index)
        try:
            session.apply({"kind": "place", "player": event["player"], "cell": list(cell), "corners": list(corners)})
        except IllegalEvent as error:
            self.refused.add(index)
            self.gave_up += 1
            return f"a player could not enter the {why} tile {list(event['corners'])}: {error}"
        return f"a player entered the {why} tile {list(event['corners'])} at {list(cell)} by hand"

    def _in_game_frame(self, game: Game, index: int) -> tuple[Cell, Corners]:
        """Where told placement ``index`` lies in the game's lattice frame: the lattice symmetry
        that sends the round's earlier told tiles onto the game's board (the script's frame
        itself on an empty board)."""
        event = self.places[index]
        told_cell, told_corners = tuple(event["cell"]), tuple(event["corners"])
        start = self.round_start[index]
        pairs = list(zip(self.places[start:index], game.state.board.placements))
        if not pairs:  # the round's first tile: the game takes the script's frame from it
            maps = [LatticeMap()]
        else:
            first, placed = pairs[0]
            maps = [
                mapping
                for mapping in maps_onto(tuple(first["cell"]), placed.cell)
                if all(mapping.corners(tuple(t["cell"]), tuple(t["corners"])) == (p.cell, p.corners) for t, p in pairs)
            ]
        if self.frames.get(start) not in maps:  # a frame taken before holds while the board agrees
            if len(maps) != 1:
                self.unsure_frames += 1
            self.frames[start] = maps[0] if maps else LatticeMap()
        return self.frames[start].corners(told_cell, told_corners)
