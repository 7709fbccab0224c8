"""The second renderer: its truth sits on its drawing, and the command writes what evaluate reads."""

import json

import numpy as np
import pytest

from datasets.sketch import COLOURED_LOOK, LOOKS, PIP_LOOK, WHITE, WOOD, sketch
from service.cli import main
from vision.evaluate import compare
from vision.reader import Reader


@pytest.mark.parametrize("seed", [2, 5, 10])  # printed numbers, wooden pips, numbers coloured by value
def test_every_truth_tile_shows_its_face_at_its_centre_and_sits_on_the_lattice(seed):
    photo, truth = sketch(seed)
    faces = np.array([face for face, _ in LOOKS.values()] + [WOOD, WHITE], np.float64)
    centres = np.array([[[c["x"], c["y"]] for c in t["corners"]] for t in truth["tiles"]]).mean(1)
    colours = photo[np.round(centres[:, 1]).astype(int), np.round(centres[:, 0]).astype(int)].astype(np.float64)
    look = np.argmin(np.linalg.norm(faces - colours.mean(0), axis=1))
    assert np.median(np.linalg.norm(colours - faces[look], axis=1)) < 50  # a lamp's falloff, blur and noise
    numbers_at = {}
    for tile in truth["tiles"]:  # tiles meeting at a lattice point show it one number, at one spot
        for corner in tile["corners"]:
            spot = (round(corner["x"]), round(corner["y"]))
            near = [v for xy, v in numbers_at.items() if abs(xy[0] - spot[0]) <= 1 and abs(xy[1] - spot[1]) <= 1]
            assert all(v == corner["value"] for v in near)
            numbers_at[spot] = corner["value"]


def test_the_reader_reads_a_sketch_it_never_learnt():
    photo, truth = sketch(7)
    row = compare(truth, Reader().read(photo).to_dict())
    assert row["found"] >= 0.9 * row["tiles"] and row["extra"] == 0
    assert row["wrong_corners"] <= 0.05 * 3 * row["found"]


def test_the_reader_reads_a_pip_set_drawn_otherwise_and_takes_no_hole_in_the_board_for_a_tile():
    # Sketch 2000041: wooden tiles whose dots sit on a ring, and a gap in the board showing the
    # table, which the finder outlines like a tile and whose bare corners read as a pip set's 0s.
    photo, truth = sketch(2000041)
    assert truth["studio"]["look"] == PIP_LOOK
    row = compare(truth, Reader().read(photo).to_dict())
    assert row["found"] == row["tiles"] and row["extra"] == 0 and row["wrong_corners"] == 0


def test_numbers_coloured_in_a_code_of_its_own_read_right_greyed():
    # Sketch 2000101: a white set whose numbers are coloured by value in the renderer's own code.
    # Read in colour, 19 corners took the number the studio paints that colour; the classifier
    # is surer of the greyed crops, so the photo is read greyed.
    photo, truth = sketch(2000101)
    assert truth["studio"]["look"] == COLOURED_LOOK
    row = compare(truth, Reader().read(photo).to_dict())
    assert row["found"] == row["tiles"] and row["extra"] == 0 and row["wrong_corners"] == 0


def test_the_sketch_command_writes_photos_and_truth_the_same_for_a_seed(tmp_path):
    for folder in ("a", "b"):
        assert main(["datasets", "sketch", "--out", str(tmp_path / folder), "--n", "2", "--split", "test"]) == 0
    names = sorted(p.name for p in (tmp_path / "a").iterdir())
    assert names == ["2000000.jpg", "2000000.json", "2000001.jpg", "2000001.json"]
    assert all((tmp_path / "a" / n).read_bytes() == (tmp_path / "b" / n).read_bytes() for n in names)
    truth = json.loads((tmp_path / "a" / "2000000.json").read_text())
    assert truth["image"] == {"path": "2000000.jpg", "width": 1280, "height": 960}
    assert truth["tiles"] and truth["studio"]["renderer"] == "sketch"
