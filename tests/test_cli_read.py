"""`triominoes read` refuses bad input with one line and exit status 2, before loading any model;
its summary for people."""

import numpy as np
import pytest

from service.cli import _summary, main
from vision.records import Reading, ReadTile


@pytest.fixture
def files(tmp_path):
    (tmp_path / "notes.jpg").write_text("this is not a photo")
    (tmp_path / "empty.png").write_bytes(b"")
    return tmp_path


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["read", "{d}/notes.jpg"], "not an image"),
        (["read", "{d}/empty.png"], "empty"),
        (["read", "{d}/missing.jpg"], "No such file"),
        (["read", "{d}/notes.jpg", "--rules", "house"], "unknown rule preset"),
        (["read", "{d}/*.webp"], "no photos match"),
        (["read", "{d}/notes.jpg", "{d}/empty.png"], "--out"),
        (["read", "{d}/notes.jpg", "{d}/empty.png", "--out", "{d}/r.jsonl", "--previous", "{d}/x.jpg"], "one photo"),
        (["read", "{d}/notes.jpg", "{d}/empty.png", "--out", "{d}/r.jsonl", "--overlay", "{d}/o.png"], "one photo"),
        (["read", "samples/board.jpg", "--overlay", "{d}/out.gif"], "png or .jpg"),
        (["read", "samples/board.jpg", "--previous", "{d}/notes.jpg"], "not an image"),
        (["read", "samples/board.jpg", "--working-size", "100"], "--working-size: must be 320..4096"),
        (["read", "samples/board.jpg", "--working-size", "0"], "--working-size: must be 320..4096"),
    ],
)
def test_bad_input(files, capsys, args, message):
    assert main([a.format(d=files) for a in args]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1 and message in captured.err


def test_the_summary_lists_loose_tiles_by_where_they_lie_in_the_photo():
    def tile(cell, corners, ambiguous=False):
        return ReadTile(
            cell, np.array(corners, float), (1, 2, 3), (0.99, 0.4 if ambiguous else 0.99, 0.99), True, ambiguous
        )

    loose = tile(None, [[100, 50], [130, 100], [70, 100]], ambiguous=True)
    board = tile((0, 0), [[300, 50], [330, 100], [270, 100]])
    reading = Reading("p.jpg", 640, 480, (loose, board), (), (), (), None, {"total": 5.0})
    lines = _summary(reading).splitlines()
    assert lines[1:] == ["  1-2-3 at [0, 0]", "  1-2-3 loose near pixel (100, 83)  uncertain"]
