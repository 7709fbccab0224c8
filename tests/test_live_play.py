"""`triominoes live` on a studio game: frames in, the game's true score sheet out."""

import json

import pytest

from engine.rules import DEFAULT_PRESET
from engine.tiles import canonical
from service.cli import main
from service.games import GameStore


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
    folder, truth = short_game
    opener = next(e["event"]["player"] for e in truth["events"] if e["event"]["kind"] == "place")
    database = tmp_path / "games.sqlite3"
    argv = ["live", "--source", str(folder / source), "--told", str(folder / "events.json"), "--db", str(database)]
    code = main([*argv, "--players", *truth["players"], "--opener", str(opener), "--json"])
    out = capsys.readouterr().out
    assert code == 0, out
    game = json.loads(out.splitlines()[-1])
    assert game["scores"] == truth["final_scores"]
    assert summary(game["events"]) == summary(truth["events"])

    # The game was stored: a second run continues it, and the same table commits nothing new.
    again = main(["live", "--source", str(folder / source), "--db", str(database), "--game", game["id"], "--json"])
    captured = capsys.readouterr()
    assert again == 0, captured.err
    assert json.loads(captured.out.splitlines()[-1])["events"] == game["events"]


def test_live_bad_sources_and_scripts(tmp_path, capsys):
    database = str(tmp_path / "games.sqlite3")
    assert main(["live", "--source", str(tmp_path / "missing.avi"), "--db", database]) == 2
    assert "no such file" in capsys.readouterr().err
    (tmp_path / "empty").mkdir()
    assert main(["live", "--source", str(tmp_path / "empty"), "--db", database]) == 2
    bad_script = tmp_path / "told.json"
    bad_script.write_text("{nope")
    assert main(["live", "--source", str(tmp_path / "empty"), "--told", str(bad_script), "--db", database]) == 2
    assert main(["live", "--source", "0", "--game", "unknown", "--db", database]) == 2
    assert "no such game" in capsys.readouterr().err


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
