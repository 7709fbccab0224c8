"""The web service: readings, scoring, games with live webcam play, and the page at /.

    uvicorn --factory service.app:create_app      # or: triominoes serve

Every answer to bad input is a 4xx with ``{"detail": "..."}``: bodies over the size limit (413),
bodies without a length (411), photos that are not images (415), damaged or over-large photos
(422 / 413), unknown games (404), malformed JSON, events the rules forbid and forms with two
parts of one name (422).
"""

from __future__ import annotations

import contextlib
import json
import threading
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Literal

import anyio
import anyio.abc
from fastapi import Depends, FastAPI, File, Form, HTTPException, Request, UploadFile, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field
from starlette.concurrency import run_in_threadpool

from engine.boardfile import BoardFileError, json_value, parse_board
from engine.game import IllegalEvent
from engine.rules import DEFAULT_PRESET, MOST_ROUNDS, PRESETS, described, get_rules
from engine.scoring import score_answer
from service.games import DamagedGame, GameSession, GameStore, UnknownGame
from service.live import LiveSettings
from vision.image_io import ImageError, decode_image

if TYPE_CHECKING:  # for annotations: the reader and its models load on the first photo
    import numpy as np

    from vision.reader import Reader

STATIC = Path(__file__).parent / "static"
IMAGE_STATUS = {"too_large": 413, "too_small": 422, "not_image": 415, "damaged": 422}
DAMAGED = (4409, "the game is stored but cannot be replayed")  # a live socket's close code and reason


@dataclass(frozen=True)
class Settings:
    database: str = "triominoes-games.sqlite3"
    max_body_bytes: int = 64 * 1024 * 1024  # two 50 MP phone photos (a reading and the previous one)
    cors_origins: tuple[str, ...] = ()  # closed by default
    live: LiveSettings = field(default_factory=LiveSettings)
    reader_threads: int | None = None


class NewGame(BaseModel):
    players: list[Annotated[str, Field(min_length=1, max_length=40)]] = Field(min_length=2, max_length=6)
    rules: str = DEFAULT_PRESET
    max_number: Literal[5, 6] = Field(5, description="the set played with: numbers 0 to 5 (56 tiles) or 0 to 6 (84)")
    rounds: int | None = Field(
        None, ge=1, le=MOST_ROUNDS, description="end after this many rounds if nobody reaches 400 (none: play to 400)"
    )


@dataclass
class _NewestFrame:
    """What a live socket holds between frames: the newest frame not yet read (a newer one
    replaces it, counted as dropped, so a slow reader never builds a queue), its number, and
    the seat the page last named as the opener."""

    data: bytes | None = None
    number: int = 0
    dropped: int = 0
    opener: int = 0
    ready: anyio.Event = field(default_factory=anyio.Event)  # set while a frame waits

    def put(self, data: bytes) -> None:
        self.dropped += self.data is not None
        self.data, self.number = data, self.number + 1
        self.ready.set()

    async def take(self) -> tuple[bytes, int]:
        """The waiting frame and its number, once there is one."""
        await self.ready.wait()
        self.ready = anyio.Event()
        data, self.data = self.data, None
        return data, self.number


class LimitBody:
    """ASGI middleware: refuses a request body over the limit (413) or of unknown length (411)
    before any of it is read, so a huge upload costs nothing."""

    def __init__(self, app, max_bytes: int) -> None:
        self.app, self.max_bytes = app, max_bytes

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] == "http" and scope["method"] in ("POST", "PUT", "PATCH"):
            headers = dict(scope["headers"])
            length = headers.get(b"content-length")
            problem = None
            if length is None:
                if headers.get(b"transfer-encoding"):
                    problem = (411, "send the body with a Content-Length")
            elif not length.isdigit():
                problem = (400, "bad Content-Length")
            elif int(length) > self.max_bytes:
                problem = (413, f"the body is over {self.max_bytes // 2**20} MiB")
            if problem:
                await JSONResponse({"detail": problem[1]}, problem[0])(scope, receive, send)
                return
        await self.app(scope, receive, send)


async def _illegal_event(request: Request, error: IllegalEvent) -> JSONResponse:
    return JSONResponse({"detail": str(error)}, 422)


async def _unknown_game(request: Request, error: UnknownGame) -> JSONResponse:
    return JSONResponse({"detail": "no game has that id"}, 404)


async def _damaged_game(request: Request, error: DamagedGame) -> JSONResponse:
    return JSONResponse({"detail": str(error)}, 409)  # the game as stored conflicts with these rules


async def _bad_image(request: Request, error: ImageError) -> JSONResponse:
    return JSONResponse({"detail": str(error)}, IMAGE_STATUS.get(error.kind, 422))


ERROR_ANSWERS = {
    IllegalEvent: _illegal_event,
    UnknownGame: _unknown_game,
    DamagedGame: _damaged_game,
    ImageError: _bad_image,
}


async def _one_part_a_name(request: Request) -> None:
    """Refuses a form with two parts of one name (two photos sent as ``image``), which would
    otherwise be read as its last part without a word."""
    form = await request.form()  # parsed once: the endpoint's own fields come from the same
    for name in form:
        if (count := len(form.getlist(name))) > 1:
            raise HTTPException(422, f"{count} form parts are named {name!r}; send one")


def _rules_or_422(name: str) -> str:
    try:
        return get_rules(name).name
    except ValueError:
        raise HTTPException(422, f"unknown rule preset {name!r}; one of {', '.join(PRESETS)}") from None


async def _photo(upload: UploadFile, name: str) -> np.ndarray:
    return decode_image(await upload.read(), upload.filename or name)


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings()
    app = FastAPI(
        title="Triominoes reader",
        version="0.1.0",
        description="Reads Triominoes boards from photos, scores placements and keeps live games.",
    )
    store = GameStore(settings.database, settings.live)
    readers: list = []
    loading = threading.Lock()

    def reader() -> Reader:
        """The reader, loaded on first use and shared by every request (models load once)."""
        with loading:
            if not readers:
                from vision.reader import Reader

                readers.append(Reader(threads=settings.reader_threads))
        return readers[0]

    app.add_middleware(LimitBody, max_bytes=settings.max_body_bytes)
    if settings.cors_origins:
        from fastapi.middleware.cors import CORSMiddleware

        app.add_middleware(CORSMiddleware, allow_origins=list(settings.cors_origins), allow_methods=["*"])
    for error, answer in ERROR_ANSWERS.items():
        app.add_exception_handler(error, answer)
    _add_reading_routes(app, reader)
    _add_game_routes(app, store, reader)
    _add_live_socket(app, store, reader)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app


def _add_reading_routes(app: FastAPI, reader: Callable[[], Reader]) -> None:
    """The page, the rule presets, reading a photo and scoring a board file."""

    @app.get("/", include_in_schema=False)
    def page() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @app.get("/v1/rules", summary="The rule presets")
    def presets() -> list[str]:
        return list(PRESETS)

    @app.get("/v1/rules/{preset}", summary="A rule preset: where it differs, in words, and its settings")
    def describe_preset(preset: str) -> dict:
        try:
            rules = get_rules(preset)
        except ValueError as error:
            raise HTTPException(404, str(error)) from None
        return {"name": rules.name, "described": described(rules), "settings": asdict(rules)}

    @app.post(
        "/v1/readings",
        summary="Read a photo: tiles, numbers, violations, the last placement",
        dependencies=[Depends(_one_part_a_name)],
    )
    async def read_photo(
        image: Annotated[UploadFile, File()],
        previous: Annotated[UploadFile | None, File()] = None,
        rules: Annotated[str, Form()] = DEFAULT_PRESET,
        board: Annotated[
            UploadFile | str | None, Form(description="the board so far, as a board file (JSON): text or a file")
        ] = None,
    ) -> dict:
        preset = _rules_or_422(rules)
        known = None
        if board is not None and not isinstance(board, str):  # sent as a file (curl -F board=@board.json)
            board = await board.read()
        if board is not None:
            try:
                known, _ = parse_board(board)
            except BoardFileError as error:
                raise HTTPException(422, f"board: {error}") from None
        pixels = await _photo(image, "image")
        earlier = await _photo(previous, "previous") if previous is not None and previous.filename else None

        def work():
            before = reader().read(earlier, rules=preset) if earlier is not None else None
            return (
                reader()
                .read(pixels, previous=before, rules=preset, path=image.filename, previous_image=earlier, known=known)
                .to_dict()
            )

        return await run_in_threadpool(work)

    @app.post("/v1/score", summary="Validate a board file and score its last tile")
    async def score(request: Request) -> dict:
        if request.headers.get("content-type", "").startswith("multipart/form-data"):  # curl -F board=@board.json
            raise HTTPException(415, "send the board file itself as the body (curl --data-binary @board.json)")
        try:
            board, rules = parse_board(await request.body())
        except BoardFileError as error:
            raise HTTPException(422, str(error)) from None
        if not len(board):
            raise HTTPException(422, "the board has no tiles to score")
        return score_answer(board, rules)


def _add_game_routes(app: FastAPI, store: GameStore, reader: Callable[[], Reader]) -> None:
    """Games: start, list, show, delete, draw their board and score sheet, take events and photos."""

    @app.post("/v1/games", status_code=201, summary="Start a game")
    def create_game(body: NewGame) -> dict:
        rules = _rules_or_422(body.rules)
        try:
            return store.create(body.players, rules, body.max_number, body.rounds).to_dict()
        except ValueError as error:  # players the score sheet could not tell apart
            raise HTTPException(422, str(error)) from None

    @app.get("/v1/games", summary="Every stored game, in brief")
    def list_games() -> list[dict]:
        return store.list()

    @app.get("/v1/games/{game_id}", summary="A game: players, scores, turn, board, score sheet, event log")
    def get_game(game_id: str) -> dict:
        return store.get(game_id).to_dict()

    @app.delete("/v1/games/{game_id}", status_code=204, summary="Delete a game")
    def delete_game(game_id: str) -> Response:
        store.delete(game_id)
        return Response(status_code=204)

    @app.get("/v1/games/{game_id}/board.svg", summary="A top-down drawing of the game's board")
    def game_board(game_id: str) -> Response:
        return Response(store.get(game_id).board_svg(), media_type="image/svg+xml")

    @app.get("/v1/games/{game_id}/fitting", summary="The tiles that cell [m, k] of the game's board may hold")
    def fitting(game_id: str, m: int, k: int) -> list[dict]:
        return store.get(game_id).fitting((m, k))

    @app.get("/v1/games/{game_id}/sheet.csv", summary="The game's score sheet, for a spreadsheet")
    def game_sheet(game_id: str) -> Response:
        sheet = store.get(game_id).score_sheet_csv()
        download = {"Content-Disposition": f'attachment; filename="score-sheet-{game_id[:8]}.csv"'}
        return Response(sheet, media_type="text/csv; charset=utf-8", headers=download)

    @app.post("/v1/games/{game_id}/events", summary="Draw, pass, place, undo, correct a tile, end a round")
    async def add_event(game_id: str, request: Request) -> dict:
        session = store.get(game_id)
        try:
            data = json_value(await request.body())
        except (json.JSONDecodeError, UnicodeDecodeError):
            raise HTTPException(422, "the event is not valid JSON") from None

        def work():
            with session.lock:
                entry = session.apply(data)
                answer = {"entry": entry, "game": session.to_dict()}
            store.save(session)
            return answer

        return await run_in_threadpool(work)

    @app.post(
        "/v1/games/{game_id}/frames",
        summary="A photo of the table: commits the new tiles it shows, in turn",
        dependencies=[Depends(_one_part_a_name)],
    )
    async def add_frame(game_id: str, image: Annotated[UploadFile, File()], opener: Annotated[int, Form()] = 0) -> dict:
        session = store.get(game_id)
        pixels = await _photo(image, "image")
        return await run_in_threadpool(lambda: see_photo(session, pixels, opener))

    def see_photo(session: GameSession, pixels: np.ndarray, opener: int) -> dict:
        """The answer of the look that committed the photo's last tile (else its only look), the
        game as it ends, and ``placements``: every tile the photo committed, in turn."""
        answers = session.look_at_photo(reader(), pixels, time.monotonic(), opener)
        if any(answer["changed"] for answer in answers):
            store.save(session)
        committed = [look for look in answers if look["placed"]]
        answer = committed[-1] if committed else answers[-1]
        return {**answer, "game": answers[-1]["game"], "placements": [look["placed"] for look in committed]}


def _add_live_socket(app: FastAPI, store: GameStore, reader: Callable[[], Reader]) -> None:
    """The live socket a page streams its camera's frames to, one camera a game."""
    streams: dict[str, anyio.Event] = {}  # per game, set when another page takes its camera over

    def see_frame(session: GameSession, pixels: np.ndarray, opener: int) -> dict:
        if not store.sync(session):  # the game as stored now: another program may keep it too
            raise UnknownGame(session.id)  # deleted meanwhile
        answer = session.look(reader(), pixels, time.monotonic(), opener)
        if answer["changed"]:
            store.save(session)
        return answer

    @app.websocket("/v1/games/{game_id}/live")
    async def live(socket: WebSocket, game_id: str) -> None:
        """The browser sends frames (JPEG/PNG bytes) and may send {"opener": i} as text; each
        answer is for the newest frame (``_LiveStream``)."""
        try:
            session = store.get(game_id)
        except UnknownGame:
            await socket.close(code=4404, reason="no game has that id")
            return
        except DamagedGame:
            await socket.close(*DAMAGED)
            return
        # One camera per game: frames of two cameras in turn would look like a picture that never
        # holds still, and no tile would be committed. The newest page takes over; the one before
        # is told so and closed.
        taken_over = anyio.Event()
        if game_id in streams:
            streams[game_id].set()
        streams[game_id] = taken_over
        await socket.accept()
        try:
            closing = await _LiveStream(socket, session, taken_over, see_frame).run()
        finally:
            if streams.get(game_id) is taken_over:
                del streams[game_id]
        if closing:
            with contextlib.suppress(RuntimeError):  # the page left meanwhile
                await socket.close(*closing)


class _LiveStream:
    """One page's camera streaming one game: frames received, the newest read in a worker
    thread (``see_frame``) and answered, until the page leaves, another page takes the camera
    over (``taken_over``) or the game goes away. Frames that arrive while one is being read
    replace the waiting one (dropped, counted), so a slow reader never builds a queue."""

    def __init__(
        self,
        socket: WebSocket,
        session: GameSession,
        taken_over: anyio.Event,
        see_frame: Callable[[GameSession, np.ndarray, int], dict],
    ) -> None:
        self.socket, self.session, self.taken_over, self.see_frame = socket, session, taken_over, see_frame
        self.newest = _NewestFrame()
        self.closing: tuple[int, str] | None = None  # the code and reason to close with, if any

    async def run(self) -> tuple[int, str] | None:
        """Streams until the end; the code and reason to close the socket with (None: the page
        left)."""
        async with anyio.create_task_group() as group:
            group.start_soon(self._receive, group)
            group.start_soon(self._answer, group)
            group.start_soon(self._watch, group)
        return self.closing

    def _end(self, group: anyio.abc.TaskGroup, closing: tuple[int, str] | None = None) -> None:
        """Stops the stream; the first reason to close it is the one the page is told."""
        self.closing = self.closing or closing
        group.cancel_scope.cancel()

    async def _watch(self, group: anyio.abc.TaskGroup) -> None:
        await self.taken_over.wait()
        self._end(group, (4001, "another page streams this game's camera now"))

    async def _receive(self, group: anyio.abc.TaskGroup) -> None:
        while True:
            message = await self.socket.receive()
            if message["type"] == "websocket.disconnect":
                self._end(group)
                return
            if message.get("bytes") is not None:
                self.newest.put(message["bytes"])
            elif message.get("text"):
                try:
                    self.newest.opener = self.session.check_seat(_opener_in(message["text"]))
                except ValueError:  # IllegalEvent too: no such seat
                    seats = len(self.session.game.players)
                    usage = f'text messages are {{"opener": i}}, i a seat 0..{seats - 1}'
                    await self.socket.send_json({"status": "error", "message": usage})

    async def _answer(self, group: anyio.abc.TaskGroup) -> None:
        while True:
            data, number = await self.newest.take()
            started = time.perf_counter()
            try:
                pixels = decode_image(data, f"frame {number}")
                reply = await run_in_threadpool(self.see_frame, self.session, pixels, self.newest.opener)
            except ImageError as error:
                reply = {"status": "error", "message": str(error)}
            except (UnknownGame, DamagedGame) as gone:  # deleted, or rewritten unreplayably, by another program
                self._end(group, (4404, "the game was deleted") if isinstance(gone, UnknownGame) else DAMAGED)
                return
            reply.update(frame=number, dropped=self.newest.dropped)
            reply["answer_ms"] = round((time.perf_counter() - started) * 1000, 1)
            try:
                await self.socket.send_json(reply)
            except (WebSocketDisconnect, RuntimeError):
                return  # the page went away while its frame was being read


def _opener_in(text: str) -> int:
    """The seat a socket's text message names as the opener: ``{"opener": i}``, i a whole
    number (a float such as 1.5, 1e999 or true names no seat); ValueError otherwise."""
    message = json_value(text)  # JSONDecodeError is a ValueError
    opener = message.get("opener", 0) if isinstance(message, dict) else None
    if not isinstance(opener, int) or isinstance(opener, bool):
        raise ValueError(f"not a seat: {opener!r}")
    return opener
