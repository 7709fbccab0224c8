"""`triominoes read` refuses bad input with one line and exit status 2, before loading any model;
its summary for people."""

from pathlib import Path

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
        (["read", "samples/board.jpg", "--out", "/proc/readings.jsonl"], "cannot write /proc/readings.jsonl"),
        (["datasets", "crops", "--out", "/proc/crops.npz", "--n", "1", "--seed", "0"], "cannot write /proc/crops.npz"),
    ],
)
def test_bad_input(files, capsys, args, message):
    assert main([a.format(d=files) for a in args]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1 and message in captured.err


def test_the_summary_lists_the_board_row_by_row_then_loose_tiles_by_where_they_lie_in_the_photo():
    def tile(cell, corners, ambiguous=False):
        return ReadTile(
            cell, np.array(corners, float), (1, 2, 3), (0.99, 0.4 if ambiguous else 0.99, 0.99), True, ambiguous
        )

    lower_loose = tile(None, [[100, 350], [130, 400], [70, 400]])
    loose = tile(None, [[100, 50], [130, 100], [70, 100]], ambiguous=True)
    board = tile((0, 0), [[300, 50], [330, 100], [270, 100]])
    below = tile((-1, 1), [[270, 100], [300, 150], [240, 150]])
    beside = tile((1, 0), [[300, 50], [360, 50], [330, 100]])
    read = (lower_loose, loose, below, beside, board)
    reading = Reading("p.jpg", 640, 480, read, (), (), (), None, {"total": 5.0})
    lines = _summary(reading).splitlines()
    assert lines[1:] == [
        "  1-2-3 at [0, 0]",
        "  1-2-3 at [1, 0]",
        "  1-2-3 at [-1, 1]",
        "  1-2-3 loose near pixel (100, 83)  uncertain",
        "  1-2-3 loose near pixel (100, 383)",
    ]
    assert lines[0] == "p.jpg: 3 tiles on the board, 2 loose, 0 unread, 0 face down (5 ms)"
    alone = Reading("p.jpg", 640, 480, (board,), (), (), (), None, {"total": 5.0})
    assert _summary(alone).splitlines()[0] == "p.jpg: 1 tile on the board, 0 loose, 0 unread, 0 face down (5 ms)"


def test_an_output_is_tried_before_the_work_and_left_as_it_was(tmp_path):
    """Trying a file: one that is there keeps its bytes and time, one made only to try goes."""
    from service.cli import _writable_file

    there = tmp_path / "readings.jsonl"
    there.write_text("earlier\n")
    before = there.stat().st_mtime_ns
    _writable_file(str(there))
    assert there.read_text() == "earlier\n" and there.stat().st_mtime_ns == before
    _writable_file(str(tmp_path / "new.jsonl"))
    assert not (tmp_path / "new.jsonl").exists()


def test_a_full_disk_mid_way_is_told_in_a_line(capsys):
    """/dev/full takes the file but refuses its bytes, as a disk that fills up while writing."""
    assert main(["score", "samples/board.json", "--svg", "/dev/full"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "No space left on device" in err


def test_a_damaged_photo_is_refused_in_one_line_with_nothing_of_the_decoders(tmp_path, capfd):
    # The sample photo with 400 bytes of its compressed data lost: libjpeg printed "Corrupt JPEG
    # data" straight to the process's stderr (past capsys), then the photo was read as if whole.
    data = bytearray(Path("samples/board.jpg").read_bytes())
    data[5000:5400] = bytes(400)
    (tmp_path / "damaged.jpg").write_bytes(bytes(data))
    assert main(["read", str(tmp_path / "damaged.jpg")]) == 2
    captured = capfd.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1 and "JPEG data is damaged" in captured.err
