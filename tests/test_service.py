"""The web service: every endpoint, every kind of bad input, persistence, the live socket."""

import contextlib
import csv
import io
import json
import re
import signal
import socket
import struct
import subprocess
import sys
import time
import urllib.request
import zlib
from collections import deque
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from engine.board import PlacedTile
from engine.lattice import edge_neighbours
from service.app import Settings, create_app

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
PLAYERS = ["Ann", "Bob", "Cy", "Di"]


@pytest.fixture
def client(tmp_path):
    with TestClient(create_app(Settings(database=str(tmp_path / "games.sqlite3")))) as test_client:
        yield test_client


def new_game(client, players=PLAYERS, rules="pressman-us") -> dict:
    answer = client.post("/v1/games", json={"players": players, "rules": rules})
    assert answer.status_code == 201, answer.text
    return answer.json()


def before_board_events() -> list[dict]:
    """Place events that lay out the sample's earlier photo tile by tile, each touching the ones
    before it (the board of the truth file without its last placement)."""
    truth = json.loads((SAMPLES / "board.truth.json").read_text())
    last = tuple(truth["last_placement"]["cell"])
    tiles = {
        tuple(t["cell"]): [c["value"] for c in t["corners"]]
        for t in truth["tiles"]
        if t["cell"] is not None and tuple(t["cell"]) != last
    }
    order, queue = [], deque([next(iter(tiles))])
    while queue:
        cell = queue.popleft()
        if cell in order:
            continue
        order.append(cell)
        queue.extend(n for n in edge_neighbours(cell) if n in tiles and n not in order)
    assert len(order) == len(tiles)
    return [{"kind": "place", "cell": list(cell), "corners": tiles[cell]} for cell in order]


def upload(path: Path, field: str = "image") -> dict:
    return {field: (path.name, path.read_bytes(), "image/jpeg")}


def test_page_and_openapi_docs(client):
    page = client.get("/")
    assert page.status_code == 200 and "Triominoes" in page.text
    assert client.get("/static/page.js").status_code == 200
    paths = client.get("/openapi.json").json()["paths"]
    assert {"/v1/readings", "/v1/score", "/v1/games", "/v1/games/{game_id}/events"} <= set(paths)
    assert client.get("/v1/rules").json() == ["pressman-us", "pressman-2012", "wikipedia", "children"]


def test_a_preset_is_described_and_an_unknown_one_refused(client):
    answer = client.get("/v1/rules/pressman-2012")
    assert answer.status_code == 200
    preset = answer.json()
    assert preset["name"] == "pressman-2012" and preset["settings"]["max_draws"] == 3
    assert preset["settings"]["hexagon_bonuses"] == [50, 60, 70] and preset["settings"]["draw_while_playable"]
    assert any("may draw even with a tile that fits" in sentence for sentence in preset["described"])
    unknown = client.get("/v1/rules/house")
    assert unknown.status_code == 404 and "house" in unknown.json()["detail"] and "children" in unknown.json()["detail"]


DEEPLY_NESTED = b"[" * 100_000 + b"]" * 100_000


def test_score_a_board_file(client):
    tiles = [{"cell": [0, 0], "corners": [5, 5, 5]}, {"cell": [1, 0], "corners": [5, 3, 5]}]
    board = {"rules": "pressman-us", "tiles": tiles}
    answer = client.post("/v1/score", json=board)
    assert answer.status_code == 200
    assert answer.json()["score"] == {"total": 13, "base": 13, "bonuses": []}
    assert client.post("/v1/score", content=b"{not json").status_code == 422
    photo = client.post("/v1/score", content=b"\xff\xd8\xff\xe0 a JPEG's first bytes")
    assert photo.status_code == 422 and "not a board file" in photo.json()["detail"]
    as_form = client.post("/v1/score", files={"board": ("board.json", json.dumps(board).encode())})
    assert as_form.status_code == 415 and "--data-binary @board.json" in as_form.json()["detail"]
    # curl --data-binary @board.json sends the file as it is, under a form's content type
    form_type = {"content-type": "application/x-www-form-urlencoded"}
    assert client.post("/v1/score", content=json.dumps(board), headers=form_type).json()["score"]["total"] == 13
    assert client.post("/v1/score", json={"tiles": []}).status_code == 422
    unknown = client.post("/v1/score", json={**board, "rules": "house"})
    assert unknown.status_code == 422 and "house" in unknown.json()["detail"]
    deep = client.post("/v1/score", content=DEEPLY_NESTED)  # a RecursionError answered 500
    assert deep.status_code == 422 and "nested too deeply" in deep.json()["detail"]
    with_mark = client.post("/v1/score", content="\ufeff".encode() + json.dumps(board).encode())
    assert with_mark.json()["score"]["total"] == 13  # a byte-order mark, as Windows Notepad writes


def test_read_a_photo_with_its_previous_photo(client):
    files = {**upload(SAMPLES / "board.jpg"), **upload(SAMPLES / "board_before.jpg", "previous")}
    answer = client.post("/v1/readings", files=files, data={"rules": "pressman-us"})
    assert answer.status_code == 200, answer.text
    reading = answer.json()
    assert len(reading["tiles"]) == 24 and len(reading["face_down"]) >= 7
    assert reading["last_placement"]["tile"] == [1, 3, 4] and reading["last_placement"]["score"]["total"] == 8
    assert reading["timing_ms"]["total"] > 0


def test_read_a_photo_knowing_the_board_so_far(client):
    board = {"tiles": [{"cell": e["cell"], "corners": e["corners"]} for e in before_board_events()]}
    answer = client.post("/v1/readings", files=upload(SAMPLES / "board.jpg"), data={"board": json.dumps(board)})
    assert answer.status_code == 200, answer.text
    placement = answer.json()["last_placement"]
    assert placement["tile"] == [1, 3, 4] and placement["score"]["total"] == 8
    bad = client.post("/v1/readings", files=upload(SAMPLES / "board.jpg"), data={"board": "{not json"})
    assert bad.status_code == 422 and "board: malformed JSON" in bad.json()["detail"]


def test_the_board_so_far_sent_as_a_file_reads_as_sent_as_text(client):
    # curl -F board=@board.json sends the board as a file, -F board=<board.json as text.
    board = {"tiles": [{"cell": e["cell"], "corners": e["corners"]} for e in before_board_events()]}
    as_file = {**upload(SAMPLES / "board.jpg"), "board": ("board.json", json.dumps(board).encode(), "application/json")}
    answer = client.post("/v1/readings", files=as_file)
    assert answer.status_code == 200, answer.text
    assert answer.json()["last_placement"]["tile"] == [1, 3, 4]
    photo = {**upload(SAMPLES / "board.jpg"), **upload(SAMPLES / "board_before.jpg", "board")}
    bad = client.post("/v1/readings", files=photo)
    assert bad.status_code == 422 and "board: not a board file" in bad.json()["detail"]


def tiny_png_header(width: int, height: int) -> bytes:
    """A PNG whose header claims a huge picture (a decompression bomb) with almost no data."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    data = chunk(b"IDAT", zlib.compress(b"\0" * 64))
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + data + chunk(b"IEND", b"")


def test_bad_photos_get_clear_4xx_answers(client):
    def status(data: bytes, **form) -> tuple[int, str]:
        answer = client.post("/v1/readings", files={"image": ("x.jpg", data, "image/jpeg")}, data=form)
        return answer.status_code, answer.json()["detail"]

    jpeg = (SAMPLES / "board.jpg").read_bytes()
    assert status(b"hello, not a photo")[0] == 415
    assert status(b"")[0] == 415
    code, detail = status(jpeg[: len(jpeg) // 2])
    assert code == 422 and "truncated" in detail
    code, detail = status(jpeg[:5000] + bytes(400) + jpeg[5400:])  # compressed data lost
    assert code == 422 and "damaged" in detail
    code, detail = status(tiny_png_header(30_000, 30_000))
    assert code == 413 and "megapixels" in detail
    code, detail = status(tiny_png_header(4096, 1))
    assert code == 422 and "too small to show a tile" in detail
    code, detail = status(jpeg, rules="house")
    assert code == 422 and "house" in detail
    assert client.post("/v1/readings", data={"rules": "pressman-us"}).status_code == 422  # no photo


def test_two_parts_of_one_name_are_refused_not_read_as_the_last(client):
    photos = [
        ("image", ("a.jpg", (SAMPLES / name).read_bytes(), "image/jpeg")) for name in ("board.jpg", "board_before.jpg")
    ]
    answer = client.post("/v1/readings", files=photos)
    assert answer.status_code == 422 and answer.json()["detail"] == "2 form parts are named 'image'; send one"
    answer = client.post("/v1/readings", files=photos[:1], data={"rules": ["pressman-us", "pressman-2012"]})
    assert answer.status_code == 422 and "named 'rules'" in answer.json()["detail"]
    game = new_game(client)
    answer = client.post(f"/v1/games/{game['id']}/frames", files=photos)
    assert answer.status_code == 422 and client.get(f"/v1/games/{game['id']}").json()["events"] == []


def test_body_limits(tmp_path):
    with TestClient(create_app(Settings(database=str(tmp_path / "g.sqlite3"), max_body_bytes=2048))) as small:
        too_big = small.post("/v1/score", content=b"x" * 4096)
        assert too_big.status_code == 413 and "detail" in too_big.json()
        chunked = small.post("/v1/score", content=(part for part in [b"{", b"}"]))
        assert chunked.status_code == 411


def test_the_tiles_a_cell_may_hold_are_offered_for_one_click(client):
    # The page's buttons when a player picks a cell to place or correct a tile by hand.
    game = new_game(client, ["Ann", "Bob"])
    fitting = f"/v1/games/{game['id']}/fitting"
    for event in (
        {"cell": [0, 0], "corners": [5, 5, 5], "player": 0},
        {"cell": [1, 0], "corners": [5, 3, 5], "player": 1},
    ):
        assert client.post(f"/v1/games/{game['id']}/events", json={"kind": "place", **event}).status_code == 200
    beside = client.get(fitting, params={"m": 1, "k": 0}).json()  # the second tile's cell: one free corner
    assert [tile["corners"] for tile in beside] == [[5, x, 5] for x in (0, 1, 2, 3, 4)]
    assert all(tile["cell"] == [1, 0] for tile in beside)
    assert client.get(fitting, params={"m": 9, "k": 9}).json() == []  # touching no tile
    assert client.get(fitting, params={"m": "one", "k": 0}).status_code == 422
    assert client.get("/v1/games/unknown/fitting", params={"m": 0, "k": 0}).status_code == 404


def test_games_are_created_listed_fetched_and_deleted(client):
    game = new_game(client)
    assert len(game["id"]) >= 20 and game["players"] == PLAYERS and game["turn"] is None
    other = new_game(client, ["Eve", "Fay"], "wikipedia")
    assert {g["id"] for g in client.get("/v1/games").json()} == {game["id"], other["id"]}
    assert client.get(f"/v1/games/{game['id']}").json()["score_sheet"] == []
    assert client.get(f"/v1/games/{game['id']}/board.svg").headers["content-type"].startswith("image/svg+xml")
    assert client.delete(f"/v1/games/{game['id']}").status_code == 204
    assert client.get(f"/v1/games/{game['id']}").status_code == 404
    assert client.delete(f"/v1/games/{game['id']}").status_code == 404
    assert client.post("/v1/games/unknown/events", json={"kind": "draw"}).status_code == 404


@pytest.mark.parametrize(
    "body",
    [
        {"players": ["Solo"]},
        {"players": [f"P{i}" for i in range(7)]},
        {"players": ["A", ""]},
        {"players": "AB"},
        {"players": ["Ann", " "]},
        {"players": ["Ann", "Bob", "ann "]},
        {"players": ["Ann", "Bob\nBob"]},  # a name that breaks the score sheet's lines
        {"players": ["Ann", "\u0000"]},
        {"players": ["Ann", "Bob"], "max_number": 7},
        {"players": ["Ann", "Bob"], "rounds": 0},
        {"players": ["Ann", "Bob"], "rounds": "a few"},
    ],
)
def test_bad_new_games(client, body):
    answer = client.post("/v1/games", json=body)
    assert answer.status_code == 422 and answer.json()["detail"]
    assert client.get("/v1/games").json() == []  # nothing stored


def test_unknown_preset_for_a_new_game(client):
    answer = client.post("/v1/games", json={"players": ["A", "B"], "rules": "house"})
    assert answer.status_code == 422 and "house" in answer.json()["detail"]


def test_events_draw_pass_undo_correct(client):
    game = new_game(client, ["Ann", "Bob"])
    events = f"/v1/games/{game['id']}/events"
    assert client.post(events, json={"kind": "draw"}).status_code == 422  # nothing opened yet
    opened = client.post(events, json={"kind": "place", "cell": [0, 0], "corners": [4, 5, 5]})
    assert opened.status_code == 200 and opened.json()["game"]["scores"] == [14, 0]
    drew = client.post(events, json={"kind": "draw"}).json()["game"]
    assert drew["scores"] == [14, -5] and drew["hand_counts"] == [8, 10]
    assert client.post(events, json={"kind": "pass"}).status_code == 422  # one draw is not three
    assert client.post(events, json={"kind": "undo"}).json()["game"]["scores"] == [14, 0]
    fixed = client.post(events, json={"kind": "correct", "cell": [0, 0], "corners": [5, 5, 5]}).json()
    assert fixed["game"]["scores"] == [15 + 10, 0]  # a triple opens with a bonus
    assert fixed["game"]["corrected_cells"] == [[0, 0]]
    wrong_cell = {"kind": "correct", "cell": [9, 9], "corners": [1, 1, 1]}
    for bad in ({"kind": "teleport"}, wrong_cell, [1, 2], {"kind": "end_round"}):
        assert client.post(events, json=bad).status_code == 422
    unknown = client.post(events, json={"kind": "teleport"}).json()["detail"]
    assert unknown == "an event needs a kind, one of place, draw, pass, end_round, undo, correct"
    # Said in the event's words, not Python's ("Place.__init__() missing 1 required positional argument").
    missing = client.post(events, json={"kind": "place", "cell": [1, 0]}).json()["detail"]
    assert missing == "place events have the fields player, cell, corners; got cell, player"
    # A cell 10**23 away was placed, and the board's drawing was then 536,870,950 pixels wide.
    far = client.post(events, json={"kind": "place", "cell": [10**23 + 1, 0], "corners": [5, 4, 5]}).json()
    assert "within 10000 of 0" in far["detail"]
    assert client.post(events, content=b"{oops").status_code == 422
    assert client.post(events, content=DEEPLY_NESTED).status_code == 422  # a RecursionError answered 500
    assert client.get(f"/v1/games/{game['id']}").json()["scores"] == [25, 0]  # refused events changed nothing


def test_the_score_sheet_downloads_as_csv(client):
    game = new_game(client, ["Ann", "=SUM(A1)"])
    events = f"/v1/games/{game['id']}/events"
    for event in ({"kind": "place", "cell": [0, 0], "corners": [5, 5, 5]}, {"kind": "draw"}):
        assert client.post(events, json=event).status_code == 200
    answer = client.get(f"/v1/games/{game['id']}/sheet.csv")
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/csv")
    assert answer.headers["content-disposition"] == f'attachment; filename="score-sheet-{game["id"][:8]}.csv"'
    rows = list(csv.reader(io.StringIO(answer.text)))
    assert rows[0] == [
        "round",
        "event",
        "what happened",
        "Ann change",
        "Ann total",
        "'=SUM(A1) change",
        "'=SUM(A1) total",
    ]
    assert rows[1][:2] == ["1", "place"] and rows[1][3:] == ["25", "25", "0", "0"]
    assert rows[2][:3] == ["1", "draw", "'=SUM(A1) draws a tile"] and rows[2][3:] == ["0", "25", "-5", "-5"]
    assert len(rows) == 3
    assert client.get("/v1/games/nosuchgame/sheet.csv").status_code == 404


def test_the_board_drawing_offers_the_empty_cells_beside_the_board(client):
    """The page places a tile by hand in a cell picked on the drawing: the opening cell while the
    board is empty, then the empty cells sharing an edge with it."""

    def open_cells() -> set[str]:
        drawing = client.get(f"/v1/games/{game['id']}/board.svg").text
        return {cell for cell, corners in re.findall(r'<g data-cell="([^"]+)"( data-corners)?', drawing) if not corners}

    game = new_game(client)
    before = open_cells()
    placed = client.post(f"/v1/games/{game['id']}/events", json={"kind": "place", "cell": [0, 0], "corners": [5, 5, 5]})
    assert placed.status_code == 200, placed.text
    assert before == {"0,0"}
    assert open_cells() == {",".join(map(str, cell)) for cell in edge_neighbours((0, 0))}


def test_games_survive_a_restart(tmp_path):
    database = str(tmp_path / "games.sqlite3")
    with TestClient(create_app(Settings(database=database))) as first:
        game = new_game(first, ["Ann", "Bob"])
        events = f"/v1/games/{game['id']}/events"
        first.post(events, json={"kind": "place", "cell": [0, 0], "corners": [4, 5, 5]})
        first.post(events, json={"kind": "correct", "cell": [0, 0], "corners": [5, 5, 5]})
        first.post(events, json={"kind": "draw"})
        before = first.get(f"/v1/games/{game['id']}").json()
    with TestClient(create_app(Settings(database=database))) as second:
        after = second.get(f"/v1/games/{game['id']}").json()
    assert after["scores"] == before["scores"] == [25, -5]
    assert after["events"] == before["events"] and after["corrected_cells"] == [[0, 0]]


def test_a_game_keeps_its_set_and_number_of_rounds_over_a_restart(tmp_path):
    database = str(tmp_path / "games.sqlite3")
    body = {"players": ["Ann", "Bob"], "rules": "pressman-2012", "max_number": 6, "rounds": 2}
    with TestClient(create_app(Settings(database=database))) as first:
        game = first.post("/v1/games", json=body).json()
        assert (game["max_number"], game["rounds"], game["pile"]) == (6, 2, 84 - 18)
        assert game["rules_described"][0] == "Played with the 84-tile set, numbers 0 to 6."
        assert game["rules_described"][-1] == "Else it ends after 2 rounds, and the highest score wins."
        events = f"/v1/games/{game['id']}/events"
        assert first.post(events, json={"kind": "place", "cell": [0, 0], "corners": [6, 6, 6]}).status_code == 200
    with TestClient(create_app(Settings(database=database))) as second:
        after = second.get(f"/v1/games/{game['id']}").json()
        assert (after["max_number"], after["rounds"], after["scores"]) == (6, 2, [18, 0])
        plain = new_game(second, ["Cy", "Di"])
        assert (plain["max_number"], plain["rounds"], plain["pile"]) == (5, None, 56 - 18)


def test_a_save_writes_the_game_as_it_is_once_its_lock_is_free(tmp_path):
    """A frame's answer is saved after its look lets go of the game. Taken then, an event that
    another request applied under the lock in between was written over with the game before it,
    and lost at the next restart; the save now waits for the lock and writes the game with it."""
    import threading

    from service.games import GameStore

    store = GameStore(tmp_path / "games.sqlite3")
    session = store.create(["Ann", "Bob"], "pressman-us")
    with session.lock:  # another request is applying an event
        saving = threading.Thread(target=store.save, args=(session,))
        saving.start()
        saving.join(timeout=0.3)
        assert saving.is_alive()  # the save waits for the game
        session.apply({"kind": "place", "cell": [0, 0], "corners": [5, 5, 5]})
    saving.join(timeout=10)
    assert not saving.is_alive()
    restarted = GameStore(tmp_path / "games.sqlite3").get(session.id)
    assert restarted.game.events == session.game.events and len(restarted.game.events) == 1


def test_the_page_shows_and_keeps_what_another_program_wrote_to_its_game(client, tmp_path):
    """`triominoes live` keeping a game on the file the service uses: the service's answers,
    its socket's included, give the game as the other program left it, and its own writes keep
    the other's events."""
    from service.games import GameStore

    game = new_game(client, ["Ann", "Bob"])
    events = f"/v1/games/{game['id']}/events"
    client.post(events, json={"kind": "place", "cell": [0, 0], "corners": [5, 5, 5]})
    camera = GameStore(tmp_path / "games.sqlite3")  # the other program
    with client.websocket_connect(f"/v1/games/{game['id']}/live") as socket:
        kept = camera.get(game["id"])
        kept.apply({"kind": "draw"})
        camera.save(kept)
        socket.send_bytes((SAMPLES / "board_before.jpg").read_bytes())
        assert [e["event"]["kind"] for e in socket.receive_json()["game"]["events"]] == ["place", "draw"]
    assert client.post(events, json={"kind": "draw"}).status_code == 200  # Bob draws again
    assert [type(e).__name__ for e in camera.get(game["id"]).game.events] == ["Place", "Draw", "Draw"]


def test_a_game_deleted_while_its_page_streams_stays_deleted(tmp_path):
    """A frame answered after its game was deleted saves nothing and brings nothing back."""
    from service.games import GameStore, UnknownGame

    store = GameStore(tmp_path / "games.sqlite3")
    session = store.create(["Ann", "Bob"], "pressman-us")
    store.delete(session.id)
    session.apply({"kind": "place", "cell": [0, 0], "corners": [5, 5, 5]})
    store.save(session)
    for kept in (store, GameStore(tmp_path / "games.sqlite3")):
        with pytest.raises(UnknownGame):
            kept.get(session.id)
    assert store.list() == []


def test_a_games_file_from_before_provisional_placements_game_options_and_tiles_taken_back_still_opens(tmp_path):
    import sqlite3

    from service.games import GameStore

    path = tmp_path / "old.sqlite3"
    old = sqlite3.connect(path)
    old.execute(
        "CREATE TABLE games (id TEXT PRIMARY KEY, created REAL NOT NULL, updated REAL NOT NULL,"
        " players TEXT NOT NULL, rules TEXT NOT NULL, events TEXT NOT NULL, trusted TEXT NOT NULL)"
    )
    place = {"kind": "place", "player": 0, "cell": [0, 0], "corners": [5, 5, 5]}
    old.execute(
        "INSERT INTO games VALUES ('g', 0, 0, '[\"Ann\", \"Bob\"]', 'pressman-us', ?, '[]')", (json.dumps([place]),)
    )
    old.commit()
    old.close()
    store = GameStore(path)
    session = store.get("g")
    assert session.game.state.scores == (25, 0) and session.provisional == set() and session.taken_back == set()
    assert (session.game.rules.max_number, session.game.rules.max_rounds) == (5, None)
    session.provisional.add((0, 0))
    store.save(session)
    assert GameStore(path).get("g").provisional == {(0, 0)}
    session.apply({"kind": "undo"})
    store.save(session)
    assert GameStore(path).get("g").taken_back == {PlacedTile((0, 0), (5, 5, 5))}


def test_a_stored_game_that_cannot_be_replayed_leaves_the_others_usable(tmp_path):
    # A row edited by hand, or written by a version whose rules differ: before, listing the
    # games answered 422 with that game's error, for all of them.
    import sqlite3

    database = str(tmp_path / "games.sqlite3")
    with TestClient(create_app(Settings(database=database))) as first:
        kept, damaged = new_game(first, ["Ann", "Bob"]), new_game(first, ["Cy", "Di"])
    foreign = [{"kind": "place", "player": 0, "cell": [0, 0], "corners": [9, 9, 9]}]
    with sqlite3.connect(database) as db:
        db.execute("UPDATE games SET events = ? WHERE id = ?", (json.dumps(foreign), damaged["id"]))
    db.close()
    with TestClient(create_app(Settings(database=database))) as second:
        listed = second.get("/v1/games")
        assert listed.status_code == 200
        assert [g["id"] for g in listed.json()] == [kept["id"], damaged["id"]]
        assert listed.json()[0]["players"] == ["Ann", "Bob"]
        assert "cannot be replayed" in listed.json()[1]["error"]
        answer = second.get(f"/v1/games/{damaged['id']}")
        assert answer.status_code == 409 and "cannot be replayed" in answer.json()["detail"]
        assert second.get(f"/v1/games/{kept['id']}").status_code == 200
        assert second.delete(f"/v1/games/{damaged['id']}").status_code == 204
        assert [g["id"] for g in second.get("/v1/games").json()] == [kept["id"]]


def test_a_photo_of_the_table_commits_the_one_new_tile(client):
    game = new_game(client)
    events = f"/v1/games/{game['id']}/events"
    for event in before_board_events():
        assert client.post(events, json=event).status_code == 200
    seen = client.post(f"/v1/games/{game['id']}/frames", files=upload(SAMPLES / "board_before.jpg")).json()
    assert seen["status"] == "in_sync", seen["message"]
    turn = seen["game"]["turn"]
    scores = seen["game"]["scores"]
    placed = client.post(f"/v1/games/{game['id']}/frames", files=upload(SAMPLES / "board.jpg")).json()
    assert placed["status"] == "placed", placed["message"]
    assert placed["placed"]["placement"]["tile"] == [1, 3, 4] and placed["placements"] == [placed["placed"]]
    assert placed["game"]["scores"][turn] == scores[turn] + 8
    again = client.post(f"/v1/games/{game['id']}/frames", files=upload(SAMPLES / "board.jpg")).json()
    assert again["status"] == "in_sync" and again["placed"] is None and again["placements"] == []  # nothing twice


def test_a_photo_of_two_tiles_before_the_round_offers_them_and_the_one_named_opens(
    client, photos_one_a_turn, short_game
):
    # The first photo of the round was never sent (or never read): the next shows the opening
    # tile joined by the second, and under rules where any tile may open, nothing tells which
    # lay first. The answer offers both; the player names the opening one, and the next photo
    # commits the other, which the photo before showed, then the tile played since.
    photos, _ = photos_one_a_turn
    truth = [e["event"] for e in short_game[1]["events"] if e["event"]["kind"] == "place"]
    game = new_game(client, short_game[1]["players"], "pressman-2012")
    frames = f"/v1/games/{game['id']}/frames"
    joined = client.post(frames, files=upload(photos / "001.jpg"), data={"opener": truth[0]["player"]}).json()
    assert joined["status"] == "out_of_sync" and joined["placements"] == []
    choices = joined["game"]["live"]["choices"]
    assert sorted(sorted(choice["corners"]) for choice in choices) == sorted(sorted(t["corners"]) for t in truth[:2])
    (opening,) = [choice for choice in choices if sorted(choice["corners"]) == sorted(truth[0]["corners"])]
    named = client.post(
        f"/v1/games/{game['id']}/events", json={"kind": "place", **opening, "player": truth[0]["player"]}
    )
    assert named.status_code == 200 and named.json()["game"]["live"]["choices"] == []
    following = client.post(frames, files=upload(photos / "002.jpg"), data={"opener": truth[0]["player"]}).json()
    assert following["status"] == "placed", following["message"]
    committed = [(sorted(p["placement"]["tile"]), p["event"]["player"]) for p in following["placements"]]
    assert committed == [(sorted(t["corners"]), t["player"]) for t in truth[1:3]]


def test_a_frame_for_an_opener_no_player_is_refused(client):
    # It opened the round for seat 0 before, silently.
    game = new_game(client, ["Eve", "Fay"])
    answer = client.post(f"/v1/games/{game['id']}/frames", files=upload(SAMPLES / "board.jpg"), data={"opener": "2"})
    assert answer.status_code == 422 and "opener must be a seat 0..1, not 2" in answer.json()["detail"]
    assert client.get(f"/v1/games/{game['id']}").json()["events"] == []


def test_live_socket_answers_frames_and_survives_bad_ones(client):
    game = new_game(client)
    photo = (SAMPLES / "board_before.jpg").read_bytes()
    with client.websocket_connect(f"/v1/games/{game['id']}/live") as socket:
        socket.send_text(json.dumps({"opener": 1}))
        socket.send_text(json.dumps({"opener": 4}))  # a four-player game has no seat 4
        socket.send_text('{"opener": 1e999}')  # ended the socket (OverflowError)
        socket.send_text('{"opener": 1.5}')  # taken as seat 1
        socket.send_text(DEEPLY_NESTED.decode())  # ended the socket (RecursionError)
        socket.send_bytes(b"not a frame")
        for _ in range(4):
            assert "a seat 0..3" in socket.receive_json()["message"]  # answered before the frame
        assert "not an image" in socket.receive_json()["message"]
        answers = []
        for _ in range(3):
            socket.send_bytes(photo)
            answers.append(socket.receive_json())
    assert answers[0]["status"] == "moving"  # the first frame has nothing to compare with
    assert [a["frame"] for a in answers] == [2, 3, 4]
    assert answers[-1]["game"]["id"] == game["id"] and "timing_ms" in answers[-1]


def test_two_games_streaming_at_once_keep_their_own_state(client):
    playing, opening = new_game(client), new_game(client, ["Eve", "Fay"])
    for event in before_board_events():
        client.post(f"/v1/games/{playing['id']}/events", json=event)
    after = (SAMPLES / "board.jpg").read_bytes()
    before = (SAMPLES / "board_before.jpg").read_bytes()
    with (
        client.websocket_connect(f"/v1/games/{playing['id']}/live") as first,
        client.websocket_connect(f"/v1/games/{opening['id']}/live") as second,
    ):
        for _ in range(12):
            first.send_bytes(after)
            second.send_bytes(before)
            answer, other = first.receive_json(), second.receive_json()
            if answer["status"] == "placed":
                break
        for _ in range(12):  # each game's view holds after frames and time of its own: a frame apart at times
            if other["status"] != "settling":
                break
            second.send_bytes(before)
            other = second.receive_json()
    assert answer["status"] == "placed" and answer["placed"]["placement"]["tile"] == [1, 3, 4]
    assert other["status"] == "out_of_sync" and other["game"]["events"] == []
    assert len(answer["reading"]["tiles"]) == 24 and len(other["reading"]["tiles"]) == 23
    assert client.get(f"/v1/games/{opening['id']}").json()["scores"] == [0, 0]


def test_live_socket_for_an_unknown_game_is_closed(client):
    from starlette.websockets import WebSocketDisconnect

    with pytest.raises(WebSocketDisconnect) as closed, client.websocket_connect("/v1/games/nope/live") as socket:
        socket.receive_json()
    assert closed.value.code == 4404


def test_a_live_socket_of_a_game_deleted_meanwhile_is_closed(client):
    from starlette.websockets import WebSocketDisconnect

    game = new_game(client)
    with client.websocket_connect(f"/v1/games/{game['id']}/live") as socket:
        assert client.delete(f"/v1/games/{game['id']}").status_code == 204  # from another tab
        socket.send_bytes((SAMPLES / "board_before.jpg").read_bytes())
        with pytest.raises(WebSocketDisconnect) as closed:
            socket.receive_json()
    assert closed.value.code == 4404
    assert client.get(f"/v1/games/{game['id']}").status_code == 404


def test_a_live_socket_of_a_game_rewritten_unreplayably_meanwhile_is_closed(client, tmp_path):
    """Another program (another version) writes a log this one cannot replay: 4409, as on connecting."""
    import sqlite3

    from starlette.websockets import WebSocketDisconnect

    game = new_game(client)
    with client.websocket_connect(f"/v1/games/{game['id']}/live") as socket:
        other = sqlite3.connect(tmp_path / "games.sqlite3")
        other.execute('UPDATE games SET events = \'[{"kind": "jump"}]\', updated = 1 WHERE id = ?', (game["id"],))
        other.commit()
        socket.send_bytes((SAMPLES / "board_before.jpg").read_bytes())
        with pytest.raises(WebSocketDisconnect) as closed:
            socket.receive_json()
    assert closed.value.code == 4409


def test_a_second_page_streaming_a_games_camera_takes_over_from_the_first(client):
    """Frames of two cameras in turn never hold still: the page that streams last keeps the game,
    the other is closed with 4001 and its reason."""
    from starlette.websockets import WebSocketDisconnect

    game = new_game(client)
    photo = (SAMPLES / "board_before.jpg").read_bytes()
    with client.websocket_connect(f"/v1/games/{game['id']}/live") as first:
        first.send_bytes(photo)
        assert first.receive_json()["frame"] == 1
        with client.websocket_connect(f"/v1/games/{game['id']}/live") as second:
            first.send_bytes(photo)  # not answered: the first page is closed instead
            with pytest.raises(WebSocketDisconnect) as closed:
                first.receive_json()
            second.send_bytes(photo)
            assert second.receive_json()["frame"] == 1  # the newer page streams on
    assert (closed.value.code, closed.value.reason) == (4001, "another page streams this game's camera now")


def test_serve_refuses_a_bad_port_or_folder(tmp_path, capsys):
    from service.cli import main

    assert main(["serve", "--port", "70000"]) == 2
    assert main(["serve", "--db", str(tmp_path / "missing" / "games.sqlite3")]) == 2
    assert "no such folder" in capsys.readouterr().err


def test_serve_on_a_port_in_use_says_so_before_serving(tmp_path, capsys):
    from service.cli import main

    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        assert main(["serve", "--port", str(port), "--db", str(tmp_path / "games.sqlite3")]) == 2
    said = capsys.readouterr()
    assert f"serving on 127.0.0.1:{port} is in use: another server listens there" in said.err
    assert "serving on http" not in said.out
    assert main(["serve", "--host", "no-such-host.invalid", "--db", str(tmp_path / "games.sqlite3")]) == 2
    assert "serving on no-such-host.invalid:8000 is not possible" in capsys.readouterr().err


def test_serve_answers_and_ctrl_c_stops_it_with_exit_0(tmp_path):
    with socket.create_server(("127.0.0.1", 0)) as probe:
        port = probe.getsockname()[1]  # a free port, freed again for the server
    command = [sys.executable, "-m", "service.cli", "serve", "--port", str(port), "--db", str(tmp_path / "g.sqlite3")]
    server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        answer = None
        for _ in range(300):
            with contextlib.suppress(OSError):
                answer = urllib.request.urlopen(f"http://127.0.0.1:{port}/v1/rules", timeout=5).read()
                break
            time.sleep(0.1)
        assert answer is not None and "pressman-us" in json.loads(answer)
    finally:
        server.send_signal(signal.SIGINT)
        out, err = server.communicate(timeout=30)
    assert server.returncode == 0, err
    assert out.startswith(f"serving on http://127.0.0.1:{port}/")


def test_frames_sent_faster_than_they_are_read_are_dropped_not_queued(client):
    game = new_game(client)
    photo = (SAMPLES / "board_before.jpg").read_bytes()
    with client.websocket_connect(f"/v1/games/{game['id']}/live") as socket:
        for _ in range(8):
            socket.send_bytes(photo)
        answers = [socket.receive_json()]
        while answers[-1]["frame"] < 8:
            answers.append(socket.receive_json())
    assert len(answers) < 8 and answers[-1]["dropped"] == 8 - len(answers)


def test_cross_origin_requests_are_not_allowed_by_default(client, tmp_path):
    preflight = {"Origin": "https://elsewhere.example", "Access-Control-Request-Method": "POST"}
    assert "access-control-allow-origin" not in client.options("/v1/games", headers=preflight).headers
    settings = Settings(database=str(tmp_path / "cors.sqlite3"), cors_origins=("https://table.example",))
    with TestClient(create_app(settings)) as open_client:
        allowed = {**preflight, "Origin": "https://table.example"}
        answer = open_client.options("/v1/games", headers=allowed)
        assert answer.headers["access-control-allow-origin"] == "https://table.example"


def test_a_whole_round_through_the_api_is_settled_and_the_next_one_opens(client):
    from engine.game import event_to_dict
    from engine.simulate import simulate_game

    played = simulate_game(4, players=3, max_rounds=2).game
    first_round = [entry for entry in played.log if entry.round == 1]
    game = new_game(client, list(played.players))
    events = f"/v1/games/{game['id']}/events"
    for entry in first_round:
        if entry is first_round[-1]:  # the round's end: told by the players
            assert client.get(f"/v1/games/{game['id']}").json()["phase"] == "settling"
        answer = client.post(events, json=event_to_dict(entry.event))
        assert answer.status_code == 200, answer.text
    after = answer.json()["game"]
    assert after["round"] == 2 and after["phase"] == "opening" and after["board"] == []
    # The cells placed by hand were trusted in their round only: the next round's tiles there are
    # checked by the camera again.
    assert after["corrected_cells"] == []
    assert after["scores"] == [sum(e.deltas[i] for e in first_round) for i in range(3)]
    assert client.post(events, json={"kind": "end_round", "racks": [0, 0, 0]}).status_code == 422
