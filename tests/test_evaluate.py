"""The comparer behind `triominoes evaluate`, on hand-made truth and readings."""

import copy
import json
import shutil
from pathlib import Path

import pytest

from engine.lattice import LatticeMap, cell_corners, point_xy
from service.cli import main
from service.machine import describe
from vision.evaluate import compare, summarise


def tile(cx, values, cell=(0, 0)):
    corners = [(cx, 0.0), (cx + 50, 86.6), (cx - 50, 86.6)]
    return {
        "cell": list(cell),
        "tile": sorted(values),
        "in_set": True,
        "confidence": 1.0,
        "corners": [{"x": x, "y": y, "value": v, "confidence": 1.0} for (x, y), v in zip(corners, values)],
    }


TRUTH = {
    "image": {"path": "a.jpg", "width": 800, "height": 600},
    "tiles": [tile(100, (1, 2, 3)), tile(300, (4, 4, 5), (2, 0)), tile(500, (0, 0, 0), (4, 0))],
    "face_down": [],
    "violations": [],
    "last_placement": None,
}


def test_perfect_reading_is_exact():
    row = compare(TRUTH, {"tiles": copy.deepcopy(TRUTH["tiles"]), "timing_ms": {"total": 40.0}})
    assert (row["found"], row["missed"], row["extra"], row["wrong_corners"], row["exact"]) == (3, 0, 0, 0, 1)


def test_missed_extra_and_misread_tiles_are_counted():
    reading = {"tiles": [tile(100, (1, 2, 4)), tile(300, (4, 4, 5), (2, 0)), tile(700, (1, 1, 1))]}
    row = compare(TRUTH, reading)
    assert (row["found"], row["missed"], row["extra"], row["wrong_corners"]) == (2, 1, 1, 1)
    assert row["wrong_tiles"] == 3 and row["exact"] == 0
    figures = summarise([row, compare(TRUTH, {"tiles": copy.deepcopy(TRUTH["tiles"])})])
    assert figures["tile_recall"] == 5 / 6 and figures["tile_precision"] == 5 / 6
    assert figures["corner_error_rate"] == 1 / 15 and figures["exact_boards"] == 0.5


def test_how_many_wrong_and_right_corners_the_reading_flagged_unsure():
    reading = {"tiles": [tile(100, (1, 2, 4)), tile(300, (4, 5, 5), (2, 0)), tile(500, (0, 0, 0), (4, 0))]}
    reading["tiles"][0]["corners"][2]["confidence"] = 0.6  # the misread 4 is flagged...
    reading["tiles"][2]["corners"][1]["confidence"] = 0.8  # ...and so is a right 0
    del reading["tiles"][2]["corners"][2]["confidence"]  # no confidence given: claims certainty
    row = compare(TRUTH, reading)  # the misread 5 of the second tile is silent
    assert (row["wrong_corners"], row["wrong_unsure"], row["right_unsure"]) == (2, 1, 1)
    figures = summarise([row])
    assert figures["wrong_corners_flagged"] == 1 / 2 and figures["right_corners_flagged"] == 1 / 7
    assert summarise([compare(TRUTH, copy.deepcopy(TRUTH))])["wrong_corners_flagged"] is None  # nothing wrong
    every_corner_wrong = summarise([compare(TRUTH, {"tiles": [tile(100, (4, 4, 5))]})])
    assert every_corner_wrong["wrong_corners_flagged"] == 0 and every_corner_wrong["right_corners_flagged"] is None


def test_how_far_the_corners_read_lie_from_the_true_ones():
    # The first tile's corners reported 5 px right of the truth (its side: 100 px), the others
    # where they are: a mean of 1/3 * 0.05 over the photo's nine corners.
    shifted = copy.deepcopy(TRUTH["tiles"])
    for corner in shifted[0]["corners"]:
        corner["x"] += 5.0
    row = compare(TRUTH, {"tiles": shifted})
    assert abs(row["corner_offset"] - 0.05 / 3) < 1e-4
    one_tile = compare(TRUTH, {"tiles": [copy.deepcopy(shifted[0])]})
    assert one_tile["corner_offset"] == 0.05
    # Over photos, each corner counts once: three tiles at 0.05/3 and one at 0.05 give 0.025.
    assert abs(summarise([row, one_tile])["corner_offset"] - (3 * row["corner_offset"] + 0.05) / 4) < 1e-9
    nothing = compare(TRUTH, {"tiles": []})
    assert nothing["corner_offset"] == "" and summarise([nothing])["corner_offset"] is None


def test_hidden_tiles_are_not_required():
    truth = copy.deepcopy(TRUTH)
    truth["tiles"][2]["corners"][0]["hidden"] = True
    row = compare(truth, {"tiles": copy.deepcopy(TRUTH["tiles"][:2])})
    assert row["tiles"] == 2 and row["exact"] == 1
    # Reported anyway (its hidden number guessed), the tile under the hand is not an invented one...
    row = compare(truth, {"tiles": copy.deepcopy(TRUTH["tiles"][:2]) + [tile(500, (0, 0, 4))]})
    assert (row["found"], row["extra"], row["wrong_corners"], row["exact"]) == (2, 0, 0, 1)
    # ...but a tile where there is none still is.
    row = compare(truth, {"tiles": copy.deepcopy(TRUTH["tiles"][:2]) + [tile(700, (0, 0, 4))]})
    assert (row["extra"], row["exact"]) == (1, 0)


def test_evaluate_command_with_predictions(tmp_path, capsys):
    (tmp_path / "a.json").write_text(json.dumps(TRUTH))
    pred = tmp_path / "results.jsonl"
    pred.write_text(json.dumps({"image": {"path": "a.jpg"}, "tiles": TRUTH["tiles"], "timing_ms": {"total": 12}}))
    assert main(["evaluate", str(tmp_path), "--pred", str(pred)]) == 0
    out = capsys.readouterr().out
    assert "tile_recall: 1.0000" in out and "exact_boards: 1.0000" in out
    assert out.startswith(describe() + "\n")  # the processor and the libraries the figures hold for
    assert (tmp_path / "evaluation.csv").read_text().count("\n") == 2
    assert main(["evaluate", str(tmp_path / "nothing")]) == 2
    # A CSV that cannot be written is told before any photo is read.
    assert main(["evaluate", str(tmp_path), "--pred", str(pred), "--csv", str(tmp_path / "no" / "a.csv")]) == 2
    assert "no such folder" in capsys.readouterr().err
    for readings, said in ((tmp_path / "missing.jsonl", "no such file"), (tmp_path, "not a file")):
        assert main(["evaluate", str(tmp_path), "--pred", str(readings)]) == 2
        assert said in capsys.readouterr().err
    # Ways of reading the photos that cannot all hold (before, all but one were dropped unsaid).
    for ways in (
        ["--pred", str(pred), "--live"],
        ["--true-outlines", "--live"],
        ["--pred", str(pred), "--working-size", "640"],
    ):
        assert main(["evaluate", str(tmp_path), *ways]) == 2
        assert "do not go together" in capsys.readouterr().err


def test_photos_the_readings_leave_out_count_as_nothing_found_and_are_counted(tmp_path, capsys):
    for name in ("a", "b"):
        (tmp_path / f"{name}.json").write_text(json.dumps({**TRUTH, "image": {"path": f"{name}.jpg"}}))
    pred = tmp_path / "results.jsonl"
    pred.write_text(json.dumps({"image": {"path": "a.jpg"}, "tiles": TRUTH["tiles"]}))
    assert main(["evaluate", str(tmp_path), "--pred", str(pred)]) == 0
    out = capsys.readouterr().out
    assert "photos_without_reading: 1" in out and "tile_recall: 0.5000" in out


@pytest.mark.parametrize(
    ("truth", "readings", "message"),
    [
        # Readings of another folder's photos scored every photo as nothing found, exit 0.
        (TRUTH, {"image": {"path": "other.jpg"}, "tiles": []}, "reads none of the 1 photos"),
        (TRUTH, "[1, 2]", "line 1: not a reading"),
        # A damaged truth file was "malformed reading or truth: 'image'", naming no file.
        ({"tiles": []}, {"image": {"path": "a.jpg"}, "tiles": []}, "a.json: not a truth file"),
    ],
)
def test_files_that_cannot_be_compared_are_named(tmp_path, capsys, truth, readings, message):
    (tmp_path / "a.json").write_text(json.dumps(truth))
    pred = tmp_path / "results.jsonl"
    pred.write_text(readings if isinstance(readings, str) else json.dumps(readings))
    assert main(["evaluate", str(tmp_path), "--pred", str(pred)]) == 2
    assert message in capsys.readouterr().err


def placement(total, bonus_at):
    bonuses = [{"kind": "bridge", "points": 40, "points_at": [bonus_at]}]
    score = {"total": total, "base": total - 40, "bonuses": bonuses}
    return {"cell": [0, 0], "tile": [2, 2, 4], "legal": True, "score": score}


def test_a_placement_is_scored_right_whatever_lattice_frame_the_reader_picked():
    truth = dict(TRUTH, last_placement=placement(48, [-1, 5]))
    reading = {"tiles": copy.deepcopy(TRUTH["tiles"]), "previous": True}
    # The same bridge, named from the reader's own frame.
    assert compare(truth, dict(reading, last_placement=placement(48, [4, -2])))["score_right"] == 1
    assert compare(truth, dict(reading, last_placement=placement(49, [-1, 5])))["score_right"] == 0
    assert compare(truth, dict(reading, last_placement=None))["score_right"] == 0


def test_each_placement_says_what_the_reading_made_of_it_and_the_summary_counts_those_lost():
    truth = dict(TRUTH, last_placement=placement(48, [-1, 5]))
    reading = {"tiles": copy.deepcopy(TRUTH["tiles"]), "previous": True}
    other_tile = dict(placement(48, [-1, 5]), tile=[2, 4, 4])
    rows = [
        compare(truth, dict(reading, last_placement=placed))
        for placed in (placement(48, [4, -2]), other_tile, placement(8, [-1, 5]), None, None)
    ]
    assert [r["placement"] for r in rows] == ["scored", "wrong tile", "wrong score", "declined", "declined"]
    assert summarise(rows)["placements_lost"] == {"declined": 2, "wrong tile": 1, "wrong score": 1}
    assert compare(TRUTH, reading)["placement"] == ""  # no tile added to judge
    assert "placements_lost" not in summarise(rows[:1])  # nothing lost


def test_declining_to_score_is_right_only_where_the_added_tile_is_partly_hidden():
    added = dict(placement(48, [-1, 5]), cell=[4, 0])
    truth = dict(copy.deepcopy(TRUTH), last_placement=added)
    reading = {"tiles": copy.deepcopy(TRUTH["tiles"][:2]), "previous": True}
    shown = compare(truth, dict(reading, last_placement=None))
    assert (shown["score_right"], shown["placement_hidden"]) == (0, 0)  # in full view
    truth["tiles"][2]["corners"][1]["hidden"] = True  # the hand placing it covers a corner
    covered = compare(truth, dict(reading, last_placement=None))
    assert (covered["score_right"], covered["placement_hidden"]) == (1, 1)
    assert (shown["placement"], covered["placement"]) == ("declined", "declined")
    assert summarise([shown, covered])["placements_partly_hidden"] == 0.5
    assert summarise([shown, covered])["placements_lost"] == {"declined": 1}  # the hidden one is no loss
    assert compare(truth, dict(reading, last_placement=placement(49, [-1, 5])))["score_right"] == 0
    assert compare(truth, dict(reading, last_placement=placement(48, [4, -2])))["score_right"] == 1


def test_studio_photos_are_also_summed_up_by_tile_size():
    small = dict(copy.deepcopy(TRUTH), studio={"tile_side_px": 24.0})
    large = dict(copy.deepcopy(TRUTH), studio={"tile_side_px": 60.0})
    rows = [
        compare(small, {"tiles": [tile(100, (1, 2, 4))]}),  # one misread tile, two missed
        compare(large, {"tiles": copy.deepcopy(TRUTH["tiles"])}),
    ]
    by_side = summarise(rows)["by_tile_side"]
    assert list(by_side) == ["0-35 px", "50-80 px"]
    assert by_side["0-35 px"]["tile_recall"] == 1 / 3 and by_side["0-35 px"]["exact_boards"] == 0.0
    assert by_side["50-80 px"]["exact_boards"] == 1.0 and by_side["50-80 px"]["photos"] == 1
    assert "by_tile_side" not in summarise([compare(TRUTH, {"tiles": []})])  # no studio truth: no sizes


def test_photos_of_large_tiles_are_also_summed_up_by_set_style_table_and_camera_angle():
    def studio_row(side, style, tilt, reading_tiles, table="felt"):
        studio = {"tile_side_px": side, "style": style, "table": table, "tilt_deg": tilt}
        truth = dict(copy.deepcopy(TRUTH), studio=studio)
        return compare(truth, {"tiles": reading_tiles})

    rows = [
        studio_row(60.0, "wood-pips", 50.0, [tile(100, (1, 2, 4))]),  # one misread tile, two missed
        studio_row(40.0, "ivory", 10.0, copy.deepcopy(TRUTH["tiles"])),
        studio_row(45.0, "ivory", 35.0, copy.deepcopy(TRUTH["tiles"]), table="wood"),
        studio_row(20.0, "ivory", 50.0, []),  # small tiles: counted by size only
    ]
    assert (rows[0]["style"], rows[0]["table"], rows[0]["tilt_deg"]) == ("wood-pips", "felt", 50.0)
    figures = summarise(rows)
    by_style, by_view = figures["by_style"], figures["by_view"]
    assert list(by_style) == ["ivory", "wood-pips"]
    assert by_style["ivory"]["photos"] == 2 and by_style["ivory"]["exact_boards"] == 1.0
    assert by_style["wood-pips"]["tile_recall"] == 1 / 3 and by_style["wood-pips"]["exact_boards"] == 0.0
    assert [part["photos"] for part in figures["by_table"].values()] == [2, 1]  # felt, wood
    assert list(by_view) == ["0-30 degrees", "30-45 degrees", "45-90 degrees"]
    assert [part["photos"] for part in by_view.values()] == [1, 1, 1]
    assert by_view["45-90 degrees"]["exact_boards"] == 0.0 and "p50_ms" not in by_view["45-90 degrees"]
    assert figures["by_tile_side"]["0-35 px"]["photos"] == 1
    assert "by_style" not in summarise([compare(TRUTH, {"tiles": []})])  # no studio truth: no groups
    sketch = dict(copy.deepcopy(TRUTH), studio={"renderer": "sketch", "look": "cream, black numbers"})
    assert compare(sketch, {"tiles": []})["style"] == "cream, black numbers"  # the second renderer's looks


def board_tile(cell, values, frame=None):
    """A tile where its cell lies in a photo of the board (100 px a side), its cell named in the
    lattice frame ``frame`` takes the truth's to (each reading picks its own)."""
    frame = frame or LatticeMap()
    seen = {frame.point(p): (point_xy(p), v) for p, v in zip(cell_corners(cell), values)}
    own_cell = frame.cell(cell)
    corners = [seen[p] for p in cell_corners(own_cell)]
    return {
        "cell": list(own_cell),
        "corners": [{"x": 400 + 100 * x, "y": 300 + 100 * y, "value": v, "confidence": 1.0} for (x, y), v in corners],
    }


BOARD = [((0, 0), (1, 2, 3)), ((1, 0), (3, 2, 2)), ((2, 0), (3, 4, 2)), ((-1, 0), (1, 1, 2))]


def test_a_tile_read_in_the_wrong_place_spoils_an_exact_board():
    truth = dict(TRUTH, tiles=[board_tile(cell, values) for cell, values in BOARD])
    other_frame = LatticeMap(rotation=2, dm=3, dk=-1)
    tiles = [board_tile(cell, values, other_frame) for cell, values in BOARD]
    row = compare(truth, {"tiles": tiles})
    assert (row["misplaced"], row["exact"]) == (0, 1)  # the same board named from another frame
    loose = copy.deepcopy(tiles)
    loose[3]["cell"] = None
    row = compare(truth, {"tiles": loose})
    assert (row["wrong_corners"], row["misplaced"], row["wrong_tiles"], row["exact"]) == (0, 1, 1, 0)
    moved = copy.deepcopy(tiles)
    moved[1]["cell"] = list(other_frame.cell((3, 0)))
    assert compare(truth, {"tiles": moved})["misplaced"] == 1
    # A tile loose in the truth and on the board in the reading is misplaced too.
    truth["tiles"][0]["cell"] = None
    assert compare(truth, {"tiles": tiles})["misplaced"] == 1


def back(cx: float) -> dict:
    """A face-down tile in a truth or reading, like ``tile``'s at ``cx``."""
    return {"corners": [[c["x"], c["y"]] for c in tile(cx, (0, 0, 0))["corners"]]}


def test_face_down_tiles_are_matched_apart_and_a_back_over_a_hidden_tile_is_not_extra():
    truth = dict(copy.deepcopy(TRUTH), face_down=[back(900), back(1100)])
    truth["tiles"][2]["corners"][0]["hidden"] = True  # a hand over it: the reader may call it a back
    reading = {"tiles": copy.deepcopy(TRUTH["tiles"][:2]), "face_down": [back(905), back(500), back(1400)]}
    row = compare(truth, reading)
    assert (row["face_down"], row["face_down_found"], row["face_down_extra"]) == (2, 1, 1)
    assert row["exact"] == 1  # backs are figures of their own, not part of the board
    figures = summarise([row])
    assert figures["face_down_recall"] == 0.5 and figures["face_down_precision"] == 0.5


def test_a_partly_hidden_back_is_neither_wanted_nor_extra():
    # A back with a hand over a corner (the studio marks it ``hidden``), like a face-up tile so:
    # missing it costs nothing, and reporting it invents nothing.
    truth = dict(copy.deepcopy(TRUTH), face_down=[back(900), dict(back(1100), hidden=True)])
    missed = compare(truth, {"tiles": copy.deepcopy(TRUTH["tiles"]), "face_down": [back(905)]})
    assert (missed["face_down"], missed["face_down_found"], missed["face_down_extra"]) == (1, 1, 0)
    reported = compare(truth, {"tiles": copy.deepcopy(TRUTH["tiles"]), "face_down": [back(905), back(1105)]})
    assert (reported["face_down"], reported["face_down_found"], reported["face_down_extra"]) == (1, 1, 0)
    assert summarise([missed])["face_down_recall"] == 1.0 and summarise([reported])["face_down_precision"] == 1.0


def test_the_truths_own_tiles_can_be_read_at_their_true_outlines(tmp_path, capsys):
    # The classifier and decoder alone, at the true corners and cells: the bundled sample's 24
    # tiles all read right. A truth with a tile read wrong at its true place would show corner errors.
    samples = Path(__file__).resolve().parent.parent / "samples"
    shutil.copy(samples / "board.jpg", tmp_path / "board.jpg")
    truth = json.loads((samples / "board.truth.json").read_text())
    (tmp_path / "board.json").write_text(json.dumps(truth))
    assert main(["evaluate", str(tmp_path), "--true-outlines"]) == 0
    out = capsys.readouterr().out
    assert "tile_recall: 1.0000" in out and "corner_error_rate: 0.0000" in out
    wrong = copy.deepcopy(truth)
    corner = wrong["tiles"][0]["corners"][0]
    corner["value"] = (corner["value"] + 1) % 6
    (tmp_path / "board.json").write_text(json.dumps(wrong))
    assert main(["evaluate", str(tmp_path), "--true-outlines"]) == 0
    assert f"corner_error_rate: {1 / 72:.4f}" in capsys.readouterr().out


def test_live_evaluation_reads_each_photo_knowing_the_earlier_truths_board(tmp_path, capsys):
    # The bundled sample with, as its earlier truth, the same board less the tile added: read as
    # a live game reads it (no earlier photo), the tile added is found and scored right.
    samples = Path(__file__).resolve().parent.parent / "samples"
    shutil.copy(samples / "board.jpg", tmp_path / "board.jpg")
    truth = json.loads((samples / "board.truth.json").read_text())
    (tmp_path / "board.json").write_text(json.dumps(truth))
    before = copy.deepcopy(truth)
    before["tiles"] = [t for t in truth["tiles"] if t["cell"] != truth["last_placement"]["cell"]]
    (tmp_path / "board_before.json").write_text(json.dumps(before))
    assert main(["evaluate", str(tmp_path), "--live"]) == 0
    out = capsys.readouterr().out
    assert "placements_scored_right: 1.0000" in out and "corner_error_rate: 0.0000" in out
    (tmp_path / "board_before.json").unlink()  # no earlier truth: nothing to score against
    assert main(["evaluate", str(tmp_path), "--live"]) == 0
    assert "placements_scored_right: None" in capsys.readouterr().out
