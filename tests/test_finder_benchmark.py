"""The finder's own benchmark (``triominoes benchmark finder``): which tiles count as found and as
found whole, and the command on a couple of rendered photos."""

import numpy as np

from models.evaluate_finder import match, on_a_tile

UP = np.array([[0.0, 0.0], [40.0, 0.0], [20.0, 34.64]])  # a tile 40 px a side


def _scaled(triangle: np.ndarray, factor: float, shift=(0.0, 0.0)) -> np.ndarray:
    centre = triangle.mean(0)
    return centre + (triangle - centre) * factor + np.array(shift)


def test_a_tile_is_found_near_its_centre_and_whole_only_at_its_size():
    tiles = np.stack([UP, UP + 100, UP + 200, UP + 300])
    outlines = np.stack(
        [
            _scaled(UP, 1.1, (3, -2)),  # the first tile, a little large and off: whole
            _scaled(UP + 100, 0.6),  # the second, a piece of it: found, not whole
            _scaled(UP + 200, 1.0, (15, 0)),  # 15 px off a 40 px tile: beyond 0.3 of a side
            UP + 1000,  # a speck far away; the fourth tile has no outline
        ]
    )
    found, whole = match(tiles, outlines)
    assert found.tolist() == [True, True, False, False]
    assert whole.tolist() == [True, False, False, False]
    assert on_a_tile(outlines, tiles).tolist() == [True, True, False, False]


def test_nothing_found_where_there_are_no_outlines_or_no_tiles():
    found, whole = match(UP[None], np.zeros((0, 3, 2)))
    assert found.tolist() == [False] and whole.tolist() == [False]
    assert match(np.zeros((0, 3, 2)), UP[None])[0].shape == (0,)
    assert on_a_tile(UP[None], np.zeros((0, 3, 2))).tolist() == [False]


def test_the_finder_benchmark_prints_its_figures_and_fails_fast_without_a_model(tmp_path, monkeypatch, capsys):
    from service.cli import main

    monkeypatch.chdir(tmp_path)  # not the repository: the committed model is found all the same
    assert main(["benchmark", "finder", "--images", "2"]) == 0
    printed = capsys.readouterr().out
    machine, first = printed.splitlines()[:2]
    assert machine.startswith("machine: ") and first == "tile finder on 2 validation photos never trained on"
    overall = next(line for line in printed.splitlines() if line.startswith("face-up tiles found / found whole: "))
    found, whole = (float(share.rstrip("%")) for share in overall.split(": ")[1].split(" (")[0].split(" / "))
    assert 50 <= whole <= found <= 100  # the committed finder finds most of these tiles
    assert "by tile side: " in printed and "face down: " in printed and "outlines on a tile: " in printed
    assert main(["benchmark", "finder", "--images", "2", "--model", "missing.onnx"]) == 2
    assert "no finder model" in capsys.readouterr().err
