"""`triominoes live` on a studio game: frames in, the game's true score sheet out."""

import csv
import json
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np
import pytest

from engine.game import Game, Place, event_to_dict
from engine.lattice import LatticeMap
from engine.moves import legal_moves
from engine.rules import DEFAULT_PRESET
from engine.simulate import simulate_game
from engine.tiles import canonical, tile_set
from service.cli import main
from service.games import GameSession, GameStore
from service.play import Frame, StandIn, compare_with_told, play, told_opener


def summary(events: list[dict]) -> list[tuple]:
    """Who did what for how many points; placements by tile (the live game picks its own frame)."""
    return [
        (
            e["event"]["kind"],
            e["event"].get("player"),
            canonical(tuple(e["event"]["corners"])) if "corners" in e["event"] else None,
            tuple(e["deltas"]),
        )
        for e in events
    ]


@pytest.mark.parametrize("source", ["frames", "video.avi"])
def test_live_game_from_frames_or_video_matches_the_truth(short_game, source, tmp_path, capsys):
    # The told script (the studio's log) says who opens: no --opener is needed.
    folder, truth = short_game
    database = tmp_path / "games.sqlite3"
    argv = ["live", "--source", str(folder / source), "--told", str(folder / "events.json"), "--db", str(database)]
    sheet = tmp_path / "sheet.csv"
    code = main([*argv, "--players", *truth["players"], "--json", "--sheet", str(sheet)])
    out = capsys.readouterr().out
    assert code == 0, out
    game = json.loads(out.splitlines()[-1])
    assert game["scores"] == truth["final_scores"]
    rows = list(csv.reader(sheet.open()))
    assert len(rows) == 1 + len(truth["events"]) and [int(t) for t in rows[-1][4::2]] == truth["final_scores"]
    assert summary(game["events"]) == summary(truth["events"])
    placements = sum(e["event"]["kind"] == "place" for e in truth["events"])
    assert f"the first {placements} of its {placements} placements committed alike" in out

    # The game was stored: a second run continues it, and the same table commits nothing new.
    again = main(["live", "--source", str(folder / source), "--db", str(database), "--game", game["id"], "--json"])
    captured = capsys.readouterr()
    assert again == 0, captured.err
    assert json.loads(captured.out.splitlines()[-1])["events"] == game["events"]


def test_photos_taken_one_a_turn_are_judged_each_as_it_comes_with_still(
    short_game, photos_one_a_turn, tmp_path, capsys
):
    """A player who photographs the table after each turn gives one photo a tile: as video frames
    none holds still long enough to count (and the command says what to pass), with --still each
    commits its tile."""
    truth = short_game[1]
    photos, told = photos_one_a_turn
    script = tmp_path / "told.json"
    script.write_text(json.dumps(told))
    argv = ["live", "--source", str(photos), "--told", str(script), "--players", *truth["players"], "--json"]
    assert main([*argv, "--db", str(tmp_path / "frames.sqlite3")]) == 0
    as_frames = capsys.readouterr()
    assert json.loads(as_frames.out.splitlines()[-1])["events"] == []
    assert "pass --still" in as_frames.err
    assert main([*argv, "--db", str(tmp_path / "stills.sqlite3"), "--still"]) == 0
    as_stills = capsys.readouterr()
    game = json.loads(as_stills.out.splitlines()[-1])
    assert summary(game["events"]) == summary(truth["events"]) and game["scores"] == truth["final_scores"]
    assert "--still" not in as_stills.err


def test_a_game_kept_from_the_camera_is_compared_with_the_told_script():
    simulated = simulate_game(4, max_rounds=1).game
    told = [{**event_to_dict(e.event), "frame": k} for k, e in enumerate(simulated.log)]
    placed = [k for k, e in enumerate(simulated.log) if e.placement is not None]
    assert told_opener(told) == simulated.log[placed[0]].event.player
    whole = compare_with_told(Game(simulated.players, simulated.rules, simulated.events), told)
    assert (whole.told, whole.committed, whole.right) == (len(placed), len(placed), len(placed))
    assert whole.scores == whole.told_scores == simulated.state.scores
    # The camera stopped committing after the fifth placement (its game stops there too).
    cut = Game(simulated.players, simulated.rules, simulated.events[: placed[5]])
    partial = compare_with_told(cut, told)
    assert (partial.committed, partial.right) == (5, 5) and partial.scores != partial.told_scores
    # Another game: its first placement differs, so nothing agrees, however many it committed.
    other = simulate_game(5, max_rounds=1).game
    first = next(e.event for e in other.log if e.placement is not None)
    assert first != simulated.log[placed[0]].event
    assert compare_with_told(other, told).right == 0
    # A script of draws and passes alone has nothing to compare.
    assert told_opener(told[placed[0] + 1 : placed[1]]) is None
    assert compare_with_told(cut, [e for e in told if e["kind"] != "place"]) is None


@dataclass
class ScriptedCamera(GameSession):
    """A game whose camera commits each told placement in a lattice frame of its own (``moved``)
    from its frame on, once the placements before it are in; it misreads those in ``misread``
    (a frame late) as another tile the board allows there, and never commits those in
    ``missed``."""

    told: list = field(default_factory=list)
    moved: LatticeMap = field(default_factory=LatticeMap)
    missed: frozenset = frozenset()
    misread: frozenset = frozenset()

    def look(self, reader, pixels, now, opener=0, still=False) -> dict:
        places = [e for e in self.told if e["kind"] == "place"]
        due = sum(isinstance(e, Place) for e in self.game.events)
        entry = None
        if due < len(places) and due not in self.missed and now >= places[due]["frame"] + (due in self.misread):
            event = places[due]
            cell, corners = self.moved.corners(tuple(event["cell"]), tuple(event["corners"]))
            if due in self.misread:
                corners = misreading(self.game, cell, corners)
            entry = self.game.apply(Place(event["player"], cell, corners)).to_dict()
        return {"status": "placed" if entry else "in_sync", "message": "", "placed": entry, "changed": bool(entry)}


def misreading(game: Game, cell: tuple, corners: tuple) -> tuple:
    """Another tile than ``corners`` that the board allows at ``cell``, not yet played."""
    moves = legal_moves(game.state.board, tile_set(game.rules.max_number))
    return next(m.corners for m in moves if m.cell == cell and canonical(m.corners) != canonical(corners))


def test_a_stand_in_enters_by_hand_what_the_camera_misses_or_misreads_in_the_games_own_frame():
    simulated = simulate_game(4, max_rounds=2).game  # two rounds, a board each
    told = [{**event_to_dict(e.event), "frame": 10 * k} for k, e in enumerate(simulated.log)]
    places = [e for e in told if e["kind"] == "place"]
    second_round = sum(e.placement is not None for e in simulated.log[: [e.round for e in simulated.log].index(2)])
    last = len(places) - 1
    camera = ScriptedCamera(
        "g",
        Game(simulated.players, simulated.rules),
        0.0,
        told=told,
        moved=LatticeMap(2, 4, 0),
        # Not the second round's second tile: its opening triple alone would leave the frame open.
        missed=frozenset({2, second_round + 2, last}),
        misread=frozenset({3}),
    )
    stand_in = StandIn(told, simulated.players, simulated.rules)
    heard = []
    source = (Frame(n, float(n), None) for n in range(told[-1]["frame"] + 1))
    play(camera, None, source, told, told_opener(told), lambda n, a: heard.append((n, a["message"])), stand_in=stand_in)
    # Every placement reached the game, the told draws and the round's end after them too.
    assert compare_with_told(camera.game, told).right == len(places)
    assert camera.game.state.scores == simulated.state.scores and camera.game.events[-1] == simulated.events[-1]
    assert (stand_in.missed, stand_in.corrected, stand_in.unsure_frames, stand_in.gave_up) == (3, 1, 0, 0)
    # Those entered by hand lie in the camera's frame, where the table shows them.
    moved = {LatticeMap(2, 4, 0).corners(tuple(e["cell"]), tuple(e["corners"])) for e in places}
    assert {(e.event.cell, e.event.corners) for e in camera.game.log if e.placement} == moved
    # The missed one is entered when the next is played, the last one once the frames end.
    missed = [n for n, message in heard if "missed" in message]
    assert missed == [places[3]["frame"], places[second_round + 3]["frame"], told[-1]["frame"]]
    assert [n for n, message in heard if "misread" in message] == [places[3]["frame"] + 1]


@dataclass
class AdvisedCamera(GameSession):
    """A game whose frames read with the given advice, one a frame (None: a frame not read)."""

    advice: list = field(default_factory=list)

    def look(self, reader, pixels, now, opener=0, still=False) -> dict:
        said = self.advice[int(now)]
        return {"status": "in_sync", "message": "", "placed": None, "changed": False, "advice": said}


def test_each_kind_of_advice_on_the_camera_is_heard_once():
    # `triominoes live` has no page: a camera too far is said once, though the figures in the
    # advice move from frame to frame; another kind of advice is said too.
    far = "the tiles are about {} pixels a side, too small to read surely: bring the camera closer".format
    hard = "the numbers are hard to read in this photo (the classifier is 40% sure of a corner on average)"
    frames = [[], [far(20)], None, [far(22)], [far(21), hard], [], [hard]]
    camera = AdvisedCamera("g", Game(["A", "B"]), 0.0, advice=frames)
    heard = []
    source = (Frame(n, float(n), None) for n in range(len(frames)))
    play(camera, None, source, (), 0, lambda n, a: heard.append((n, a["status"], a["message"])))
    assert [h for h in heard if h[1] == "camera"] == [(1, "camera", far(20)), (4, "camera", hard)]


def test_a_stand_in_counts_a_frame_the_rounds_tiles_leave_open():
    # An opening triple alone, committed in the camera's frame, turns three ways onto itself.
    told = [
        {"kind": "place", "player": 1, "cell": [0, 0], "corners": [4, 4, 4], "frame": 0},
        {"kind": "place", "player": 0, "cell": [-1, 0], "corners": [3, 4, 4], "frame": 10},
    ]
    camera = ScriptedCamera("g", Game(["A", "B"]), 0.0, told=told, moved=LatticeMap(2, 4, 0), missed=frozenset({1}))
    stand_in = StandIn(told, ["A", "B"], camera.game.rules)
    play(camera, None, (Frame(n, float(n), None) for n in range(12)), told, 1, stand_in=stand_in)
    assert stand_in.unsure_frames == 1 and compare_with_told(camera.game, told).right == 2


def test_live_bad_sources_and_scripts(tmp_path, capsys):
    database = str(tmp_path / "games.sqlite3")
    assert main(["live", "--source", str(tmp_path / "missing.avi"), "--db", database]) == 2
    assert "no such file" in capsys.readouterr().err
    (tmp_path / "empty").mkdir()
    assert main(["live", "--source", str(tmp_path / "empty"), "--db", database]) == 2
    assert GameStore(database).list() == []  # no game is made for a source that gives no frame
    bad_script = tmp_path / "told.json"
    bad_script.write_text("{nope")
    assert main(["live", "--source", str(tmp_path / "empty"), "--told", str(bad_script), "--db", database]) == 2
    assert main(["live", "--source", "0", "--game", "unknown", "--db", database]) == 2
    assert "no such game" in capsys.readouterr().err
    # A seat the game does not have, or no frame rate: told before any game is made.
    games = len(GameStore(database).list())
    assert main(["live", "--source", str(tmp_path / "empty"), "--opener", "2", "--db", database]) == 2
    assert "--opener must be a seat 0..1, not 2" in capsys.readouterr().err
    assert main(["live", "--source", str(tmp_path / "empty"), "--rate", "0", "--db", database]) == 2
    assert "--rate" in capsys.readouterr().err
    assert main(["live", "--source", "0", "--camera-size", "1920", "--db", database]) == 2
    assert "a picture size is WIDTHxHEIGHT" in capsys.readouterr().err
    assert main(["live", "--source", str(tmp_path / "empty"), "--sheet", str(tmp_path), "--db", database]) == 2
    assert "cannot write" in capsys.readouterr().err
    assert len(GameStore(database).list()) == games
    # A script whose placements the rules refuse (one cell played twice) cannot be compared.
    table = tmp_path / "table"
    table.mkdir()
    cv2.imwrite(str(table / "0.png"), np.full((48, 64, 3), 90, np.uint8))
    twice = [{"kind": "place", "player": p, "cell": [0, 0], "corners": [1, 1, 1], "frame": 0} for p in (0, 1)]
    bad_script.write_text(json.dumps(twice))
    assert main(["live", "--source", str(table), "--told", str(bad_script), "--db", database]) == 2
    assert "cannot be replayed" in capsys.readouterr().err
    # A script of the 84-tile set, for a game of the 56: told before a frame is read or a game made.
    games = len(GameStore(database).list())
    sixes = [{"kind": "place", "player": 0, "cell": [0, 0], "corners": [6, 6, 6], "frame": 0}]
    bad_script.write_text(json.dumps(sixes))
    assert main(["live", "--source", str(table), "--told", str(bad_script), "--db", database]) == 2
    assert "--max-number 6" in capsys.readouterr().err and len(GameStore(database).list()) == games
    # A stand-in needs the placements it is to enter; told before a game is made.
    assert main(["live", "--source", str(table), "--stand-in", "--db", database]) == 2
    assert "--stand-in needs a --told script" in capsys.readouterr().err and len(GameStore(database).list()) == games
    assert main(["live", "--source", str(table), "--players", "Ann", "ann", "--db", database]) == 2
    assert "two players share a name" in capsys.readouterr().err and len(GameStore(database).list()) == games


def test_a_file_that_cannot_keep_games_is_refused_in_one_line(tmp_path, capsys):
    not_a_database = tmp_path / "games.json"
    not_a_database.write_text('{"games": []}')
    (tmp_path / "empty").mkdir()
    for argv, message in (
        (["live", "--source", str(tmp_path / "empty"), "--db", str(not_a_database)], "cannot keep games there"),
        (["serve", "--db", str(not_a_database)], "cannot keep games there"),
        (["serve", "--db", str(tmp_path)], "is a folder"),
    ):
        assert main(argv) == 2
        assert message in capsys.readouterr().err
    assert not_a_database.read_text() == '{"games": []}'


def test_any_new_game_can_be_continued_from_the_command_line(tmp_path, capsys):
    # url-safe ids started with "-" one time in 64, and argparse took such an id for an option
    database = str(tmp_path / "games.sqlite3")
    store = GameStore(database)
    ids = [store.create(["Ann", "Bob"], DEFAULT_PRESET).id for _ in range(300)]
    store.close()
    assert all(game_id[0].isalnum() for game_id in ids) and len(set(ids)) == len(ids)
    frames = tmp_path / "empty"
    frames.mkdir()
    assert main(["live", "--source", str(frames), "--game", ids[-1], "--db", database]) == 2
    assert "no such game" not in capsys.readouterr().err  # found; only the empty folder is refused


def test_a_continued_game_keeps_its_set_up_and_refuses_options_that_name_another(tmp_path, capsys):
    database = str(tmp_path / "games.sqlite3")
    store = GameStore(database)
    game_id = store.create(["Ann", "Bob"], "wikipedia", 6, 3).id
    store.close()
    frames = tmp_path / "empty"
    frames.mkdir()
    continued = ["live", "--source", str(frames), "--game", game_id, "--db", database]
    # The game's own set-up, named again, is no conflict: only the empty folder is refused.
    assert (
        main([*continued, "--rules", "wikipedia", "--max-number", "6", "--rounds", "3", "--players", "Ann", "Bob"]) == 2
    )
    assert "keeps the set-up" not in capsys.readouterr().err
    assert main([*continued, "--rules", DEFAULT_PRESET, "--max-number", "5", "--players", "Ann", "Cy"]) == 2
    error = capsys.readouterr().err
    assert f"--rules {DEFAULT_PRESET} (it has wikipedia)" in error and "--max-number 5 (it has 6)" in error
    assert "--players Ann Cy (it has Ann Bob)" in error and "--rounds" not in error
    assert main([*continued, "--rounds", "4"]) == 2
    assert "--rounds 4 (it has 3)" in capsys.readouterr().err
    again = GameStore(database).get(game_id).game
    assert (again.rules.name, again.rules.max_number, again.rules.max_rounds) == ("wikipedia", 6, 3)


def test_a_game_kept_from_the_camera_takes_up_what_the_page_enters_meanwhile(tmp_path):
    """`triominoes live` and `triominoes serve` on one file: a draw entered on the page while
    the camera's program keeps the game is taken up before its next frame, and kept in the file
    (it had been written over with the camera's game, which lacked it)."""
    from service.play import Frame, play
    from vision.reader import Reader

    database = tmp_path / "games.sqlite3"
    camera, page = GameStore(database), GameStore(database)  # two programs' stores
    session = camera.create(["Ann", "Bob"], DEFAULT_PRESET)
    session.apply({"kind": "place", "player": 0, "cell": [0, 0], "corners": [5, 5, 5]})
    camera.save(session)
    photo = cv2.imread(str(Path(__file__).resolve().parent.parent / "samples" / "board_before.jpg"))

    def table():
        yield Frame(0, 0.0, photo)
        on_the_page = page.get(session.id)
        on_the_page.apply({"kind": "draw"})  # Bob draws, entered on the page
        page.save(on_the_page)
        yield Frame(1, 0.2, photo)

    kept = play(session, Reader(), table(), store=camera)
    kinds = [event_to_dict(e)["kind"] for e in kept.game.events]
    assert kinds == ["place", "draw"] and kept.game.state.scores == page.get(session.id).game.state.scores
    camera.save(kept)  # the camera's program writes the game again, as after any change
    assert [event_to_dict(e)["kind"] for e in GameStore(database).get(session.id).game.events] == kinds


def test_a_game_deleted_on_the_page_stops_the_camera_program(tmp_path, monkeypatch, capsys):
    """`triominoes live` stops with one line once the game it keeps is deleted elsewhere."""
    import service.play as play_module

    database = tmp_path / "games.sqlite3"
    photos = tmp_path / "photos"
    photos.mkdir()
    for name in ("board_before.jpg", "board.jpg"):
        (photos / name).write_bytes((Path(__file__).resolve().parent.parent / "samples" / name).read_bytes())
    frames = play_module.frames

    def deleting_after_the_first(*args):
        for number, frame in enumerate(frames(*args)):
            if number == 1:
                page = GameStore(database)
                (only,) = page.list()
                page.delete(only["id"])
            yield frame

    monkeypatch.setattr(play_module, "frames", deleting_after_the_first)
    argv = ["live", "--source", str(photos), "--db", str(database), "--players", "Ann", "Bob", "--still"]
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert f"draws, passes and rack totals: on the page of 'triominoes serve --db {database}'" in out
    assert err.count("\n") == 1 and "was deleted from" in err and GameStore(database).list() == []


def test_a_camera_is_asked_for_more_pixels_than_it_opens_with(monkeypatch):
    """A camera opens at 640x480, where a whole table's tiles are too small to read: it is asked
    for CAMERA_SIZE, gives the nearest size it has, and the size it gives is told."""
    import service.play as play_module

    class Webcam:
        sizes = ((640, 480), (1280, 720))

        def __init__(self, index):
            self.index, self.asked, self.left = index, list(self.sizes[0]), 2

        def isOpened(self):
            return True

        def set(self, prop, value):
            self.asked[[cv2.CAP_PROP_FRAME_WIDTH, cv2.CAP_PROP_FRAME_HEIGHT].index(prop)] = value
            return True

        def given(self):
            return min(self.sizes, key=lambda size: abs(size[0] - self.asked[0]) + abs(size[1] - self.asked[1]))

        def get(self, prop):
            return {cv2.CAP_PROP_FRAME_WIDTH: self.given()[0], cv2.CAP_PROP_FRAME_HEIGHT: self.given()[1]}.get(prop, 0)

        def read(self):
            self.left -= 1
            width, height = self.given()
            return self.left >= 0, np.zeros((height, width, 3), np.uint8)

        def release(self):
            pass

    monkeypatch.setattr(play_module.cv2, "VideoCapture", Webcam)
    told = []
    pictures = [frame.pixels.shape for frame in play_module.frames("0", log=told.append)]
    assert play_module.CAMERA_SIZE == (1920, 1080)
    assert pictures == [(720, 1280, 3)] * 2
    assert told == ["camera 0: 1280x720 pictures (asked for 1920x1080)"]
    asked_less = [frame.pixels.shape for frame in play_module.frames("0", camera_size=(640, 480))]
    assert asked_less == [(480, 640, 3)] * 2


def test_a_video_or_camera_that_cannot_be_opened_is_refused_in_one_line_of_ours(tmp_path, capfd):
    # FFmpeg ("moov atom not found") and OpenCV's log ("OpenCV should be configured with
    # libavdevice to open a camera device") printed their own lines to stderr before ours.
    video = tmp_path / "cut.mp4"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"mp4v"), 5, (64, 48))
    for level in range(5):
        writer.write(np.full((48, 64, 3), 40 * level, np.uint8))
    writer.release()
    video.write_bytes(video.read_bytes()[: video.stat().st_size // 2])  # cut short: its index is lost
    database = str(tmp_path / "games.sqlite3")
    for source, kind in ((str(video), "video"), ("99", "camera")):
        assert main(["live", "--source", source, "--db", database]) == 2
        assert capfd.readouterr().err == f"triominoes: error: {source}: cannot be opened as a {kind}\n"
