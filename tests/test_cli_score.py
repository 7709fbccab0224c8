"""`triominoes score`: the contract's shapes in, out, and one-line errors with exit status 2."""

import json
import subprocess
import sys

import pytest

from service.cli import EXIT_BROKEN_PIPE, main

CONTRACT_BOARD = {
    "rules": "pressman-us",
    "tiles": [{"cell": [0, 0], "corners": [5, 5, 5]}, {"cell": [1, 0], "corners": [5, 3, 5]}],
}


def write(tmp_path, data, name="board.json"):
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    return str(path)


def test_contract_example(tmp_path, capsys):
    assert main(["score", write(tmp_path, CONTRACT_BOARD)]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert {k: answer[k] for k in ("cell", "tile", "legal", "violations", "score")} == {
        "cell": [1, 0],
        "tile": [3, 5, 5],
        "legal": True,
        "violations": [],
        "score": {"total": 13, "base": 13, "bonuses": []},
    }


def test_a_board_file_saved_with_a_byte_order_mark_is_read(tmp_path, capsys):
    # Windows Notepad starts a UTF-8 file with one; it was refused as malformed JSON.
    assert main(["score", write(tmp_path, "\ufeff" + json.dumps(CONTRACT_BOARD))]) == 0
    assert json.loads(capsys.readouterr().out)["score"]["total"] == 13


def test_rules_option_and_svg(tmp_path, capsys):
    board = {"tiles": [{"cell": [0, 0], "corners": [5, 5, 5]}]}
    svg = tmp_path / "board.svg"
    assert main(["score", write(tmp_path, board), "--rules", "pressman-2012", "--svg", str(svg)]) == 0
    assert json.loads(capsys.readouterr().out)["score"]["total"] == 15
    assert svg.read_text().startswith("<svg") and svg.read_text().count("<polygon") == 1
    for nowhere in (tmp_path / "no" / "board.svg", tmp_path):  # a missing folder, a folder
        assert main(["score", write(tmp_path, board), "--svg", str(nowhere)]) == 2
        assert "cannot write" in capsys.readouterr().err


def test_the_presets_are_described(capsys):
    assert main(["rules"]) == 0
    every = capsys.readouterr().out
    assert [line for line in every.splitlines() if not line.startswith(" ")] == [
        "pressman-us:",
        "pressman-2012:",
        "wikipedia:",
        "children:",
    ]
    assert main(["rules", "children"]) == 0
    children = capsys.readouterr().out
    assert children.startswith("children:\n  A tile scores 1 point;") and children in every
    assert main(["rules", "house"]) == 2
    assert "invalid choice: 'house'" in capsys.readouterr().err


def test_a_board_of_the_84_tile_set_says_so(tmp_path, capsys):
    board = {"max_number": 6, "tiles": [{"cell": [0, 0], "corners": [6, 6, 6]}, {"cell": [1, 0], "corners": [6, 3, 6]}]}
    assert main(["score", write(tmp_path, board)]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["legal"] and answer["tile"] == [3, 6, 6] and answer["score"]["total"] == 15
    assert main(["score", write(tmp_path, {"tiles": board["tiles"]})]) == 2
    assert '0..5 (a board of the 84-tile set says "max_number": 6)' in capsys.readouterr().err


def test_illegal_last_tile_and_earlier_problems_are_reported(tmp_path, capsys):
    board = {
        "tiles": [
            {"cell": [0, 0], "corners": [5, 5, 5]},
            {"cell": [1, 0], "corners": [4, 3, 4]},
            {"cell": [9, 0], "corners": [0, 1, 2]},
        ]
    }
    assert main(["score", write(tmp_path, board)]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert not answer["legal"] and [v["kind"] for v in answer["violations"]] == ["no_edge_contact"]
    assert [v["kind"] for v in answer["earlier_violations"]] == ["edge_mismatch"]


@pytest.mark.parametrize(
    ("content", "args", "message"),
    [
        ("{not json", [], "malformed JSON"),
        (CONTRACT_BOARD, ["--rules", "house"], "unknown rule preset 'house'"),
        (
            {"tiles": [{"cell": [0, 0], "corners": [1, 2, 3]}, {"cell": [0, 0], "corners": [1, 1, 1]}]},
            [],
            "given twice",
        ),
        ({"tiles": [{"cell": [0, 0], "corners": [1, 2, 9]}]}, [], "corners must be numbers 0..5"),
        ({"tiles": [{"cell": [0, 0]}]}, [], 'needs "cell" and "corners"'),
        ({"tiles": []}, [], "no tiles"),
        ({"tiles": [{"cell": [10**23, 0], "corners": [1, 2, 3]}]}, [], "lie within 10000 of 0"),
        ([1, 2], [], '"tiles" list'),
        ({"rules": 7, "tiles": [{"cell": [0, 0], "corners": [1, 2, 3]}]}, [], '"rules" must be a preset name'),
        ({"tiles": [{"cell": "0,0", "corners": [1, 2, 3]}]}, [], "tile 0: cell and corners are lists"),
        ({"max_number": 7, "tiles": [{"cell": [0, 0], "corners": [1, 2, 3]}]}, [], '"max_number" is 5'),
        ({"max_number": True, "tiles": [{"cell": [0, 0], "corners": [1, 2, 3]}]}, [], '"max_number" is 5'),
        (b"\xff\xfe".decode("latin-1"), [], "malformed JSON"),
        # Nested deeper than Python's parser goes: a RecursionError and its traceback before.
        ("[" * 100_000 + "]" * 100_000, [], "malformed JSON: arrays or objects nested too deeply"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(tmp_path, capsys, content, args, message):
    assert main(["score", write(tmp_path, content), *args]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert message in captured.err and captured.err.count("\n") == 1


def test_a_photo_given_as_a_board_file_is_named_not_a_board_file(tmp_path, capsys):
    photo = tmp_path / "board.jpg"
    photo.write_bytes(b"\xff\xd8\xff\xe0 a JPEG's first bytes")
    assert main(["score", str(photo)]) == 2
    captured = capsys.readouterr()
    assert "not a board file" in captured.err and captured.err.count("\n") == 1


def test_missing_file_and_unknown_command(capsys):
    assert main(["score", "/no/such/board.json"]) == 2
    assert "cannot read" in capsys.readouterr().err
    assert main(["scour"]) == 2
    assert "invalid choice" in capsys.readouterr().err


def test_output_cut_short_by_its_reader_ends_quietly():
    """`triominoes simulate | head -1`: the pipe closes before the board is printed."""
    command = [sys.executable, "-c", "import sys; from service.cli import main; sys.exit(main(sys.argv[1:]))"]
    process = subprocess.Popen([*command, "simulate", "--tiles", "40"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    process.stdout.close()
    error = process.stderr.read().decode()
    assert process.wait(timeout=60) == EXIT_BROKEN_PIPE
    assert error == ""
