"""Fixtures shared by several test files."""

import json

import pytest

from datasets.make import SPLITS, make_sequence

# A short studio game (9 events of round 1, black tiles with white numbers on a busy cloth) that
# the reader reads without a mistake. The reader's accuracy is measured by `triominoes evaluate`;
# the tests using this game are about the live loop: stillness, commits, told draws, the page.
SHORT_GAME = {"seed": SPLITS["test"] + 3, "styles": ["black-white"], "still_frames": 5, "max_events": 9}


@pytest.fixture(scope="session")
def short_game(tmp_path_factory):
    """The game's folder (frames/, video.avi, events.json) and its truth (events.json)."""
    folder = make_sequence(out=tmp_path_factory.mktemp("short_game"), max_rounds=1, **SHORT_GAME)
    return folder, json.loads((folder / "events.json").read_text())


@pytest.fixture(scope="session")
def photos_one_a_turn(short_game, tmp_path_factory):
    """The short game as a player who photographs the table after each turn takes it: a folder of
    photos (the first frame after each placement that hides no number: the hand gone), and the
    game's events, each with the photo it follows (``frame``)."""
    folder, truth = short_game
    photos, told = tmp_path_factory.mktemp("photos_one_a_turn"), []
    frames = sorted((folder / "frames").glob("*.jpg"))
    placements = [i for i, e in enumerate(truth["events"]) if e["event"]["kind"] == "place"]
    for n, i in enumerate(placements):
        at_rest = next(
            f for f in frames[truth["events"][i]["frame"] + 1 :] if not _hides_a_number(f.with_suffix(".json"))
        )
        (photos / f"{n:03d}.jpg").write_bytes(at_rest.read_bytes())
        until = placements[n + 1] if n + 1 < len(placements) else len(truth["events"])
        told += [{**e["event"], "frame": n} for e in truth["events"][i:until]]
    return photos, told


def _hides_a_number(truth_file) -> bool:
    tiles = json.loads(truth_file.read_text())["tiles"]
    return any(corner.get("hidden") for tile in tiles for corner in tile["corners"])
