"""The live game loop on the server side (`triominoes live`): frames from a camera, a video file
or a folder of photos, through the same game session the web page uses.

Draws, passes and round ends cannot be seen; at a table players press buttons for them. Here a
script of them can be told (``told``: the studio's events.json, or any list of events with the
frame they happen at): each is applied once the camera has committed every placement before it,
as a player would press "drew a tile" after seeing the last tile registered.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import cv2
import numpy as np

from engine.game import Game, IllegalEvent, Place, event_from_dict
from engine.tiles import canonical
from service.games import GameSession, GameStore, UnknownGame
from vision.image_io import load_image

IMAGE_SUFFIXES = {".jpg", ".jpeg", ".png", ".webp", ".bmp"}


class SourceError(ValueError):
    """A camera or file that cannot be opened; one line for the user."""


@dataclass(frozen=True)
class Frame:
    number: int
    seconds: float  # the frame's time: from the video or folder rate, or the wall clock for a camera
    pixels: np.ndarray


def frames(source: str, rate: float = 5.0) -> Iterator[Frame]:
    """Frames of a camera index ("0"), a video file, or a folder of photos shown at ``rate``.
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
    capture = cv2.VideoCapture(int(source) if camera else str(path))
    if not capture.isOpened():
        raise SourceError(f"{source}: cannot be opened as a {'camera' if camera else 'video'}")
    return _captured(capture, source, camera, rate)


def _captured(capture: cv2.VideoCapture, source: str, camera: bool, rate: float) -> Iterator[Frame]:
    """The frames of an opened capture, timed by the clock for a camera, by the video's rate
    (``rate`` where it gives none) for a file."""
    video_rate = capture.get(cv2.CAP_PROP_FPS) or rate
    start, number = time.monotonic(), 0
    try:
        while True:
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
    data = json.loads(Path(path).read_text(encoding="utf-8"))
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
    reader,
    source: Iterator[Frame],
    told: Sequence[dict] = (),
    opener: int = 0,
    on_change: Callable[[int, dict], None] | None = None,
    store: GameStore | None = None,
    still: bool = False,
) -> GameSession:
    """Run the session over every frame; ``on_change(frame, answer)`` hears each new verdict and
    each told event. With a ``store``, the game is written after every change, and what another
    program wrote to it (a draw entered on the page of ``triominoes serve`` on the same file) is
    taken up before each frame; UnknownGame once another program deleted it. ``still``: every
    frame is a photo of the table at rest (one a turn), judged as it comes
    (``GameSession.look_at_photo``) instead of once the picture has held still over several
    frames."""
    places_before = [sum(e["kind"] == "place" for e in told[:i]) for i in range(len(told))]
    pending, last_status = 0, None

    def heard(number: int, answer: dict) -> None:
        nonlocal pending, last_status
        key = (answer["status"], answer["message"])
        if on_change and (key != last_status or answer["placed"]):
            on_change(number, answer)
        if answer["changed"] and store:
            store.save(session)
        last_status = key
        placed = sum(isinstance(e, Place) for e in session.game.events)
        while pending < len(told) and told[pending].get("frame", 0) <= number:
            event = told[pending]
            if event["kind"] == "place" and placed <= places_before[pending]:
                break  # the camera has not committed this placement yet
            if event["kind"] != "place":
                try:
                    entry = session.apply(_without_frame(event))
                    message = entry["description"] if entry else "undone"
                    if store:
                        store.save(session)
                except IllegalEvent as error:
                    message = f"refused {event['kind']}: {error}"
                if on_change:
                    on_change(number, {"status": "told", "message": message, "placed": None})
            pending += 1

    for frame in source:
        if store and not store.sync(session):
            raise UnknownGame(session.id)  # deleted meanwhile (on the page): nothing left to keep
        if still:
            session.look_at_photo(reader, frame.pixels, frame.seconds, opener, partial(heard, frame.number))
        else:
            heard(frame.number, session.look(reader, frame.pixels, frame.seconds, opener))
    return session


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


def compare_with_told(game: Game, told: Sequence[dict]) -> ComparisonWithTold | None:
    """The camera's game against the told script's, or None when the script lists no placement.
    Placements are compared by player, tile and points, not by cell: the camera's game keeps a
    lattice frame of its own."""
    if told_opener(told) is None:
        return None
    events = [event_from_dict(_without_frame(event)) for event in told]
    script = Game(game.players, game.rules, events)

    def placements(log) -> list[tuple]:
        return [(e.event.player, canonical(e.event.corners), e.placement.score.total) for e in log if e.placement]

    expected, committed = placements(script.log), placements(game.log)
    right = next((i for i, (a, b) in enumerate(zip(expected, committed)) if a != b), min(len(expected), len(committed)))
    return ComparisonWithTold(len(expected), len(committed), right, game.state.scores, script.state.scores)
