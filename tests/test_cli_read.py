"""`triominoes read` refuses bad input with one line and exit status 2, before loading any model."""

import pytest

from service.cli import main


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
