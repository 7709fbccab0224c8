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
