"""The whole reader on the bundled sample photos (a studio pair with truth): golden answers."""

import io
import json
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest
from PIL import Image

import vision.backs as backs_module
import vision.bare
import vision.complete
import vision.known
import vision.loose
import vision.reader as reader_module
import vision.sizes as sizes_module
from engine.lattice import edge_neighbours
from service.cli import main
from vision.added import looks_alike
from vision.evaluate import board_of, compare
from vision.find import FirstLook
from vision.image_io import EXIF_ORIENTATION, ImageError, decode_image, load_image
from vision.lattice import fit_board
from vision.reader import Reader

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
FIXTURES = Path(__file__).resolve().parent / "fixtures"


def _fixture(name: str) -> tuple[np.ndarray, dict]:
    """A fixture photo and its studio truth."""
    return load_image(FIXTURES / f"{name}.jpg"), json.loads((FIXTURES / f"{name}.json").read_text())


@pytest.fixture(scope="module")
def reader():
    return Reader()


@pytest.fixture(scope="module")
def readings(reader):
    before = reader.read(load_image(SAMPLES / "board_before.jpg"))
    after = reader.read(load_image(SAMPLES / "board.jpg"), previous=before, path="board.jpg")
    return before, after


def test_sample_is_read_exactly(readings):
    _, after = readings
    truth = json.loads((SAMPLES / "board.truth.json").read_text())
    row = compare(truth, after.to_dict())
    assert (row["found"], row["missed"], row["extra"], row["wrong_corners"]) == (24, 0, 0, 0)
    # Every face-down tile is found, and nothing else (a patch of table once passed for one,
    # until outlines the wrong size for a tile beside the board were dropped).
    truth_down = [np.mean(t["corners"], 0) for t in truth["face_down"]]
    found_down = [c.mean(0) for c in after.face_down]
    assert len(truth_down) == len(found_down) == 7
    assert all(min(np.linalg.norm(f - t) for f in found_down) < 20 for t in truth_down)
    assert after.violations == ()
    assert not any("too small to read surely" in note for note in after.notes)  # 70-pixel tiles
    assert after.advice == () and after.to_dict()["advice"] == []
    assert not any("hard to read" in note for note in after.notes) and not any(t.ambiguous for t in after.tiles)


def test_added_tile_and_its_score(readings):
    _, after = readings
    truth = json.loads((SAMPLES / "board.truth.json").read_text())["last_placement"]
    placement = after.last_placement.to_dict()
    assert placement["tile"] == truth["tile"] and placement["score"] == truth["score"] and placement["legal"]


@pytest.fixture(scope="module")
def partial(readings):
    """The earlier reading with one board tile taken out, as if its finder had missed it: two
    tiles then seem new."""
    before, _ = readings
    missed = next(i for i, t in enumerate(before.tiles) if t.cell is not None)
    return replace(before, tiles=before.tiles[:missed] + before.tiles[missed + 1 :])


def test_a_tile_the_earlier_photo_missed_is_looked_for_there_again(reader, partial):
    # Looking again at the earlier photo finds the missed tile where it lay.
    image = load_image(SAMPLES / "board.jpg")
    blind = reader.read(image, previous=partial)
    assert blind.last_placement is None and any("2 tiles were added" in n for n in blind.notes)
    looked = reader.read(image, previous=partial, previous_image=load_image(SAMPLES / "board_before.jpg"))
    truth = json.loads((SAMPLES / "board.truth.json").read_text())["last_placement"]
    placement = looked.last_placement.to_dict()
    assert placement["tile"] == truth["tile"] and placement["score"] == truth["score"]


def test_tiles_that_look_new_where_the_earlier_photo_shows_nothing_stay_new(reader, partial):
    # The earlier photo cut down to a corner of bare table: the cells of the tiles that look
    # new lie outside it, so nothing is taken back (a close-up's earlier frame can miss them).
    corner = load_image(SAMPLES / "board_before.jpg")[:40, :40]
    reading = reader.read(load_image(SAMPLES / "board.jpg"), previous=partial, previous_image=corner)
    assert reading.last_placement is None and any("2 tiles were added" in n for n in reading.notes)


def test_a_tile_the_earlier_photo_shows_in_its_place_is_not_new_when_the_camera_kept_still(reader, readings):
    # The earlier reading cut down to two board tiles, too few to show the board's plane: the
    # tiles it lacks all look new. The camera kept still, so each is looked for where it lies
    # in this photo; all but the one added look the same in the earlier photo.
    before, _ = readings
    board = [t for t in before.tiles if t.cell is not None]
    few = replace(before, tiles=tuple(board[:2]))
    image = load_image(SAMPLES / "board.jpg")
    blind = reader.read(image, previous=few)
    assert blind.last_placement is None
    looked = reader.read(image, previous=few, previous_image=load_image(SAMPLES / "board_before.jpg"))
    truth = json.loads((SAMPLES / "board.truth.json").read_text())["last_placement"]
    placement = looked.last_placement.to_dict()
    assert placement["tile"] == truth["tile"] and placement["score"] == truth["score"]


def test_looks_alike_is_high_for_one_tile_in_two_lights_and_low_against_the_table():
    image = load_image(SAMPLES / "board.jpg")
    truth = json.loads((SAMPLES / "board.truth.json").read_text())
    tiles = np.array([[[c["x"], c["y"]] for c in t["corners"]] for t in truth["tiles"]])
    darker = cv2.convertScaleAbs(image, alpha=0.6, beta=20)
    assert (looks_alike(darker, tiles, image, tiles) > 0.95).all()
    bare = tiles + (0, -250)  # the same triangles moved onto bare table above the board
    assert np.median(looks_alike(image, bare, image, tiles)) < 0.3


def test_the_second_tile_of_a_game_on_a_checked_cloth_joins_the_first(reader):
    # A studio pair from the validation split: the opening tile, then a second one beside it,
    # on a checked cloth whose squares the finder outlines as small triangles (most of its
    # outlines). Their median side was too small for the two tiles' corners to meet, so both
    # stayed loose and nothing was scored; the tiles read show the set's size instead.
    image, truth = _fixture("opening_on_checks")
    before = reader.read(load_image(FIXTURES / "opening_on_checks_before.jpg"))
    after = reader.read(image, previous=before)
    row = compare(truth, {**after.to_dict(), "previous": True})
    assert (row["found"], row["extra"], row["wrong_corners"], row["misplaced"]) == (2, 0, 0, 0)
    assert row["score_right"] == 1


def _placement_right(reader, name: str) -> int:
    """Whether the reader, given the earlier photo of a fixture pair, scores the tile added as the truth has it."""
    image, truth = _fixture(name)
    earlier = load_image(FIXTURES / f"{name}_before.jpg")
    after = reader.read(image, previous=reader.read(earlier), previous_image=earlier)
    return compare(truth, {**after.to_dict(), "previous": True})["score_right"]


def test_tiles_the_earlier_photo_missed_are_found_there_when_the_camera_kept_still(reader, monkeypatch):
    # A validation pair of 39 black tiles on felt (seed 1000371): the earlier reading missed
    # tiles that are there in both photos. The two readings put the tiles they share at the same
    # pixels, so the camera kept still and those cells are compared pixel for pixel. (Since the
    # board is glued again after tiles are found beside it, the earlier reading finds four more
    # tiles, and the tile added is scored right without that comparison: gluing again is turned
    # off here, and so is the look from above, which finds them as well.)
    monkeypatch.setattr(reader_module, "_glued_again", lambda *args: None)
    monkeypatch.setattr(reader_module, "FROM_ABOVE_BELOW", 0.0)
    monkeypatch.setattr(reader_module, "changed_only", lambda *args: None)  # the rule below, on its own
    assert _placement_right(reader, "board_kept_still") == 1
    monkeypatch.setattr(reader_module, "camera_kept_still", lambda *args: False)
    assert _placement_right(reader, "board_kept_still") == 0


def test_of_several_new_tiles_the_one_whose_cell_alone_changed_was_added(reader, monkeypatch):
    # A test pair of black tiles on felt (seed 2000006, 640x480): the earlier reading holds 21
    # tiles, this one 24. Of the tiles that look new, the added tile's cell alone changed, with
    # the photo around it as it was.
    monkeypatch.setattr(reader_module, "changed_only", lambda *args: None)  # the rule below, on its own
    assert _placement_right(reader, "added_among_missed") == 1
    monkeypatch.setattr(reader_module, "changed_alone", lambda *args: None)
    assert _placement_right(reader, "added_among_missed") == 0


def test_the_one_cell_that_changed_holds_the_tile_added_however_the_readings_differ(reader, monkeypatch):
    # A test pair of 22 ivory tiles 28 px a side (seed 2000011, 640x480): each photo misreads
    # other small tiles, so by their numbers the two readings' boards cannot be matched at all.
    # The camera kept still, and of all the tiles read only the added tile's cell changed.
    assert _placement_right(reader, "added_where_readings_differ") == 1
    monkeypatch.setattr(reader_module, "changed_only", lambda *args: None)
    assert _placement_right(reader, "added_where_readings_differ") == 0


def test_a_tile_added_that_the_finder_missed_is_found_where_the_photo_changed(reader, monkeypatch):
    # A test pair of six ivory tiles 45 px a side on white paper, seen 56 degrees off vertical
    # (seed 2000286, 640x480): the finder misses the tile added, pale on pale paper, so no tile
    # read changed. The camera kept still, and one empty cell beside the board changed alone.
    assert _placement_right(reader, "added_missed_by_the_finder") == 1
    monkeypatch.setattr(reader_module, "changed_beside", lambda *args: None)
    assert _placement_right(reader, "added_missed_by_the_finder") == 0


def test_a_live_game_finds_a_tile_added_that_the_finder_missed_where_its_last_frame_differs(reader, monkeypatch):
    # The same pair as a live game sees it: its board known but for the tile added, and the
    # earlier photo as the last frame that showed that board.
    image, truth = _fixture("added_missed_by_the_finder")
    earlier = load_image(FIXTURES / "added_missed_by_the_finder_before.jpg")
    added = truth["last_placement"]["cell"]
    known = board_of(truth).without({tuple(added)})

    def placement_right() -> int:
        reading = reader.read(image, known=known, previous_image=earlier)
        return compare(truth, {**reading.to_dict(), "previous": True})["score_right"]

    assert placement_right() == 1
    monkeypatch.setattr(reader_module, "changed_beside", lambda *args: None)
    assert placement_right() == 0


def test_a_live_game_takes_of_several_new_tiles_the_one_whose_cell_alone_changed_since_its_last_frame(
    reader, monkeypatch
):
    # The pair of 39 black tiles on felt as a live game sees it, its board lacking, besides the
    # tile added, a tile that lies on the table in both frames (as if the game had never seen it
    # placed): two tiles look new, and only the added tile's cell changed since that frame.
    image, truth = _fixture("board_kept_still")
    earlier = load_image(FIXTURES / "board_kept_still_before.jpg")
    added = tuple(truth["last_placement"]["cell"])
    known = board_of(truth).without({added, (0, 0)})

    def placement() -> str:
        reading = reader.read(image, known=known, previous_image=earlier)
        return compare(truth, {**reading.to_dict(), "previous": True})["placement"]

    assert placement() == "scored"
    monkeypatch.setattr(reader_module, "changed_alone", lambda *args: None)
    assert placement() == "declined"


def test_a_shadow_cast_on_an_empty_cell_beside_the_board_is_no_tile_added(reader, monkeypatch):
    # The earlier photo of a fixture pair again, with one empty cell beside the board shaded as
    # by a shadow cast there: that cell alone changed, and its corners show its neighbours'
    # numbers, but the cloth still shows through it.
    earlier = load_image(FIXTURES / "added_among_missed_before.jpg")
    shaded = earlier.copy()
    cv2.fillPoly(shaded, [np.array([[278, 335], [330, 310], [330, 368]], np.int32)], (0, 0, 0))
    shaded = cv2.addWeighted(earlier, 0.5, shaded, 0.5, 0)
    before = reader.read(earlier)
    after = reader.read(shaded, previous=before, previous_image=earlier)
    assert after.last_placement is None and len(after.tiles) == len(before.tiles)
    monkeypatch.setattr(reader_module, "looks_alike", lambda *args: np.zeros(1))
    assert reader.read(shaded, previous=before, previous_image=earlier).last_placement is not None


def test_reading_shape_and_timings(readings):
    before, after = readings
    data = after.to_dict()
    assert set(data) >= {"image", "tiles", "face_down", "unread", "violations", "last_placement", "timing_ms"}
    assert data["unread"] == []  # every tile of the sample is read
    assert {"find", "lattice", "crops", "classify", "decode", "validate", "total"} <= set(data["timing_ms"])
    corners = data["tiles"][0]["corners"]
    (ax, ay), (bx, by), (cx, cy) = [(c["x"], c["y"]) for c in corners]
    assert (bx - ax) * (cy - ay) - (by - ay) * (cx - ax) > 0  # clockwise as seen
    assert len([t for t in before.tiles if t.cell is not None]) == 23


def test_a_portrait_phone_photo_is_read_upright(reader):
    # The sample stored sideways with EXIF orientation 6 (a quarter turn clockwise), as a phone
    # held upright stores it: it is turned back and read like the sample itself.
    picture = Image.open(SAMPLES / "board.jpg")
    sideways = picture.transpose(Image.Transpose.ROTATE_90)  # stored a quarter turn anticlockwise
    exif = sideways.getexif()
    exif[EXIF_ORIENTATION] = 6
    buffer = io.BytesIO()
    sideways.save(buffer, "JPEG", quality=95, exif=exif.tobytes())
    image = decode_image(buffer.getvalue())
    assert image.shape == load_image(SAMPLES / "board.jpg").shape
    reading = reader.read(image)
    truth = json.loads((SAMPLES / "board.truth.json").read_text())
    row = compare(truth, reading.to_dict())
    assert (row["found"], row["extra"], row["wrong_corners"]) == (24, 0, 0) and len(reading.face_down) == 7


@pytest.mark.parametrize("turn", [cv2.ROTATE_90_CLOCKWISE, cv2.ROTATE_180])
def test_the_sample_photographed_from_another_side_reads_the_same(reader, turn):
    """Players sit all round the table: the sample and its earlier photo turned a quarter or a
    half turn (no EXIF tag to turn them back) read the same tiles, backs and placement, only
    turned. The truth's corners are turned with the photo."""
    before, after = (cv2.rotate(load_image(SAMPLES / name), turn) for name in ("board_before.jpg", "board.jpg"))
    height, width = load_image(SAMPLES / "board.jpg").shape[:2]

    def turned(x: float, y: float) -> tuple[float, float]:
        return (height - 1 - y, x) if turn == cv2.ROTATE_90_CLOCKWISE else (width - 1 - x, height - 1 - y)

    truth = json.loads((SAMPLES / "board.truth.json").read_text())
    for tile in truth["tiles"]:
        for corner in tile["corners"]:
            corner["x"], corner["y"] = turned(corner["x"], corner["y"])
    truth["face_down"] = [{"corners": [turned(x, y) for x, y in back["corners"]]} for back in truth["face_down"]]
    reading = reader.read(after, previous=reader.read(before))
    row = compare(truth, reading.to_dict())
    assert (row["found"], row["missed"], row["extra"], row["wrong_corners"], row["misplaced"]) == (24, 0, 0, 0, 0)
    assert row["face_down_found"] == 7 and row["face_down_extra"] == 0
    placement, true_placement = reading.last_placement.to_dict(), truth["last_placement"]
    assert (placement["tile"], placement["score"]) == (true_placement["tile"], true_placement["score"])


def test_a_photo_with_no_tiles_is_an_empty_reading(reader):
    import numpy as np

    table = np.full((480, 640, 3), (40, 90, 140), np.uint8)
    reading = reader.read(table)
    assert reading.tiles == () and reading.face_down == () and reading.violations == ()


def _printed_with_triangles(height: int, width: int, side: int) -> np.ndarray:
    """A cloth printed with light triangles edge to edge, a digit in each: no game's tiles."""
    image = np.full((height, width, 3), 40, np.uint8)
    digits = np.random.default_rng(0)
    for y in range(0, height, side):
        for x in range(0, width, side):
            triangle = np.array([[x, y + side - 3], [x + side - 3, y + side - 3], [x + (side - 3) // 2, y + 3]])
            cv2.fillPoly(image, [triangle.astype(np.int32)], (230, 230, 220))
            cv2.putText(image, str(digits.integers(0, 6)), (x + 10, y + 22), cv2.FONT_HERSHEY_PLAIN, 0.8, (0, 0, 0), 1)
    return image


def test_a_cloth_printed_with_triangles_is_read_as_no_game(reader):
    # 1,404 outlines: read, they gave 56 backs and 3 unread tiles in 4.9 s and 2 GB (a finer
    # print took 100 s and 3.5 GB), where no set has more than 84 tiles.
    reading = reader.read(_printed_with_triangles(960, 1280, 30))
    assert (reading.tiles, reading.face_down, reading.unread) == ((), (), ())
    assert any("a cloth printed with triangles" in note for note in reading.notes)


def test_more_tiles_joined_than_a_set_has_are_no_board(reader, monkeypatch):
    # The sample's 24 tiles, had the large set only 20: the reader reads them as a pattern.
    monkeypatch.setattr(reader_module, "MOST_TILES", 20)
    reading = reader.read(load_image(SAMPLES / "board.jpg"))
    assert reading.tiles == () and any("24 triangles found" in note for note in reading.notes)


def test_grey_bgra_and_16_bit_pixels_are_read_as_bgr_and_others_refused(reader, readings):
    # Grey pixels failed deep in the lattice (a broadcast error), BGRA and floats in onnxruntime.
    image = load_image(SAMPLES / "board.jpg")
    numbers = sorted((t.cell, t.numbers) for t in readings[1].tiles)
    twelve_bits = image.astype(np.uint16) << 4  # a 12-bit camera's values, as cv2.IMREAD_UNCHANGED gives them
    for pixels in (cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), cv2.cvtColor(image, cv2.COLOR_BGR2BGRA), twelve_bits):
        assert sorted((t.cell, t.numbers) for t in reader.read(pixels).tiles) == numbers
    for pixels, message in ((image.astype(np.float32) / 255, "uint8"), (np.zeros((64, 64, 5), np.uint8), "BGR")):
        with pytest.raises(ImageError, match=message):
            reader.read(pixels)


def test_read_command_prints_json_and_draws_the_overlay(tmp_path, capsys):
    overlay = tmp_path / "overlay.png"
    assert main(["read", str(SAMPLES / "board.jpg"), "--json", "--overlay", str(overlay)]) == 0
    assert len(json.loads(capsys.readouterr().out)["tiles"]) == 24
    assert overlay.stat().st_size > 10_000


def test_read_command_summarises_the_board_and_scores_the_tile_added(capsys):
    """The README's first command: the board, the backs and the tile added since the earlier
    photo with its score, for people."""
    assert main(["read", str(SAMPLES / "board.jpg"), "--previous", str(SAMPLES / "board_before.jpg")]) == 0
    printed = capsys.readouterr().out
    tile, score = (
        json.loads((SAMPLES / "board.truth.json").read_text())["last_placement"][k] for k in ("tile", "score")
    )
    assert "24 tiles on the board, 0 loose, 0 unread, 7 face down" in printed
    last = next(line for line in printed.splitlines() if line.lstrip().startswith("last tile"))
    assert (
        score["bonuses"] == []
        and f"last tile {tile} at " in last
        and last.endswith(f": {score['base']} = {score['total']}")
    )


def test_read_many_photos_to_jsonl(tmp_path, capsys):
    (tmp_path / "broken.jpg").write_text("not a photo")
    out = tmp_path / "results.jsonl"
    assert main(["read", str(SAMPLES / "*.jpg"), str(tmp_path), "--out", str(out)]) == 0
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(lines) == 3 and sum("error" in line for line in lines) == 1
    assert "1 of 3 photos could not be read" in capsys.readouterr().err
    # Where none can be read (a folder of photos in a format not read), the batch fails: exit 0 before.
    assert main(["read", str(tmp_path), "--out", str(out)]) == 2
    assert "none of the 1 photos could be read" in capsys.readouterr().err
    assert "error" in json.loads(out.read_text())
    assert main(["read", str(SAMPLES / "*.jpg"), "--out", str(tmp_path)]) == 2  # a folder: told first
    assert "is a folder" in capsys.readouterr().err


def test_one_photo_read_into_a_file_keeps_its_earlier_photo_and_overlay(tmp_path):
    # Before, --out took the path for many photos, which reads each on its own: the tile added
    # since --previous was never scored and no overlay was drawn, without a word.
    out, overlay = tmp_path / "result.jsonl", tmp_path / "overlay.png"
    argv = ["read", str(SAMPLES / "board.jpg"), "--previous", str(SAMPLES / "board_before.jpg")]
    assert main([*argv, "--out", str(out), "--overlay", str(overlay)]) == 0
    (line,) = out.read_text().splitlines()
    assert json.loads(line)["last_placement"]["tile"] == [1, 3, 4] and overlay.stat().st_size > 10_000


def test_small_tiles_in_a_large_photo_are_read_by_looking_again_closer(reader):
    # The sample at half size in the middle of a 2880x2160 photo of bare table: shrunk to the
    # finder's working size its tiles are 12 pixels, too small to find; the finder looks again
    # at the tiles' part of the photo at a scale where they are large enough.
    image = load_image(SAMPLES / "board.jpg")
    small = cv2.resize(image, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
    canvas = np.empty((2160, 2880, 3), np.uint8)
    canvas[:] = np.median(np.concatenate([small[0], small[-1]]), axis=0)
    canvas[900 : 900 + small.shape[0], 1200 : 1200 + small.shape[1]] = small
    truth = json.loads((SAMPLES / "board.truth.json").read_text())
    for tile in truth["tiles"]:
        for corner in tile["corners"]:
            corner["x"], corner["y"] = corner["x"] / 2 + 1200, corner["y"] / 2 + 900
    reading = reader.read(canvas)
    row = compare(truth, reading.to_dict())
    assert (row["found"], row["extra"], row["wrong_corners"]) == (24, 0, 0)
    assert len(reading.face_down) == 7


def test_a_far_board_is_found_again_with_the_photo_enlarged(reader, monkeypatch):
    # A studio photo (validation split, seed 1000086, 1280x720) of a board far away: its tiles
    # are 21 pixels a side, fewer than the finder finds well, and the photo has no pixels to
    # spare for its closer look. Enlarged so the tiles show 36 pixels, the board is found whole
    # and in place (its pips, a few pixels each, are another matter: most of its corners read
    # right only with the game's board known; of its two loose tiles, one reads too unsurely to
    # report, and the other is misread, 5-1-1 for 3-1-1 at 0.93: unreported from the decoder's
    # search of 2026-11-23 (28 -> 27 found, 25 -> 21 wrong corners), reported again since it
    # also renumbers both points of a tile side together (27 -> 28 found, 21 -> 23 wrong)).
    # Since the closer looks are mirrored too (2026-11-28), the look from above joins one tile
    # more than the enlarged look and is read (28 found, 21 corners wrong); it is turned off for
    # the rest, to keep to the look this test is about (27 found, 6 corners wrong).
    image, truth = _fixture("far_board")
    row = compare(truth, reader.read(image).to_dict())
    assert (row["tiles"], row["found"], row["extra"], row["misplaced"]) == (29, 28, 0, 0)
    monkeypatch.setattr(reader_module, "FROM_ABOVE_BELOW", 0.0)
    reading = reader.read(image)
    row = compare(truth, reading.to_dict())
    assert (row["tiles"], row["found"], row["extra"], row["misplaced"]) == (29, 27, 0, 0)
    assert "the tiles are small: found with the photo enlarged" in reading.notes
    assert any("too small to read surely: bring the camera closer" in note for note in reading.notes)
    # That note is advice a live game's page shows by the camera; how the tiles were found is not.
    assert [note for note in reading.advice if "too small" in note] and set(reading.advice) <= set(reading.notes)
    assert "the tiles are small: found with the photo enlarged" not in reading.advice
    monkeypatch.setattr("vision.sight.FAR_TILE_SIDE", 0.0)  # without that look, half the board is lost
    assert compare(truth, reader.read(image).to_dict())["found"] <= 20


def test_a_steep_phone_photo_whose_first_look_reads_nothing_is_looked_at_again_nearer(reader, monkeypatch):
    # A studio photo at phone size (validation seed 1000041, 5760x3240, tilted 58 degrees): the
    # board cut out and the rest of the table filled by stretching its edges. Shrunk to the
    # working size (a sixth), its tiles are 13 pixels a side, squashed to half that by the tilt,
    # and merge; the first look joins none. Shrunk to 1920 pixels only, the board is found.
    crop, truth = _fixture("steep_phone_board")
    left, top = truth["image"]["cut_at"]
    right, bottom = truth["image"]["width"] - left - crop.shape[1], truth["image"]["height"] - top - crop.shape[0]
    image = cv2.copyMakeBorder(crop, top, bottom, left, right, cv2.BORDER_REPLICATE)
    # (The look from above, taken on the board that look finds, would read it again; it is
    # turned off here: ``test_a_steep_board_is_looked_at_from_above``.)
    monkeypatch.setattr(reader_module, "FROM_ABOVE_BELOW", 0.0)
    reading = reader.read(image)
    row = compare(truth, reading.to_dict())
    assert (row["tiles"], row["extra"]) == (30, 0) and row["found"] >= 22 and row["wrong_corners"] <= 2
    assert "the tiles are small in the frame: found with the photo shrunk to 1920 px only" in reading.notes
    # Without that look, most of the board is lost: 3 tiles found, 9 since the first look's
    # outlines, too small and broken up, are also looked for enlarged, 11 since the closer looks
    # are mirrored too.
    monkeypatch.setattr("vision.reader.NEARER_BELOW_SCALE", 0.0)
    assert compare(truth, reader.read(image).to_dict())["found"] <= 11


def test_a_close_ups_backs_are_taken_from_the_look_from_farther(reader, monkeypatch):
    # A studio close-up (test photo 2000023 with --closer 3, shrunk to 960x720: black tiles
    # about 97 pixels a side). The first look reads the board best; the two backs at the foot of
    # the photo it finds only in parts, while the look from farther finds them whole.
    image, truth = _fixture("close_up_with_backs")
    row = compare(truth, reader.read(image).to_dict())
    assert (row["found"], row["extra"], row["wrong_corners"]) == (17, 0, 0)
    assert (row["face_down"], row["face_down_found"], row["face_down_extra"]) == (2, 2, 0)
    monkeypatch.setattr("vision.reader._backs_from_farther", lambda chosen, looks: chosen.face_down)
    assert compare(truth, reader.read(image).to_dict())["face_down_found"] == 0


def test_backs_far_from_a_small_board_are_sized_by_its_tiles(reader):
    # A photo from the second renderer (``datasets sketch``, test split 2000014, 1280x960: nine
    # cream tiles about 59 pixels a side, 37 degrees off vertical, three backs in a far corner).
    # The plane fitted to the small board's corners put tiles there at 30-34 pixels, and two of
    # the backs, 48-53, were dropped as too large to be tiles there.
    image, truth = _fixture("backs_far_from_board")
    row = compare(truth, reader.read(image).to_dict())
    assert (row["found"], row["extra"], row["wrong_corners"], row["misplaced"]) == (9, 0, 0, 0)
    assert (row["face_down"], row["face_down_found"], row["face_down_extra"]) == (3, 3, 0)


def test_a_pile_before_the_game_goes_by_its_own_backs(reader):
    # A studio test scene (2000184, 800x600) before the game: only its eleven wooden backs, about
    # 34 pixels a side, on a cloth printed with triangles of many sizes and colours
    # (``triominoes datasets render --only pile --split test --seed 184 --n 1``). With no tile face
    # up to size the backs by, nine prints passed for backs too; the pile's backs are one size
    # and one colour, so the backs now go by each other.
    image, truth = _fixture("pile_before_the_game")
    reading = reader.read(image)
    row = compare(truth, reading.to_dict())
    assert reading.tiles == ()
    assert (row["face_down"], row["face_down_found"], row["face_down_extra"]) == (11, 11, 0)


def test_a_bare_table_shows_no_backs_where_the_finder_is_unsure_of_its_prints(reader, monkeypatch):
    # A studio test scene (2000112, 800x600) with no tile on it: a patterned table seen 55
    # degrees off vertical (``triominoes datasets render --only table --split test --seed 112 --n
    # 1``). Two of its prints read as blank and passed for backs of the same size and colour; the
    # finder marked neither's core surely, as it marks a pile's backs.
    image, truth = _fixture("bare_table")
    reading = reader.read(image)
    row = compare(truth, reading.to_dict())
    assert (row["tiles"], row["face_down"], reading.tiles, reading.face_down) == (0, 0, (), ())
    monkeypatch.setattr(backs_module, "SURE_CORE_ALONE", 0.0)  # any outline, as before
    assert len(reader.read(image).face_down) == 2


def test_a_back_left_alone_in_the_lattice_is_read_as_a_loose_tile(reader, monkeypatch):
    # A studio test scene (2000120, 1024x768: ``triominoes datasets render --only pile --split
    # test --seed 120 --n 1``) of eight backs and no tile face up. Two touching backs joined in
    # the lattice; one read as no number and went to the backs, the other, its grain read as
    # 1-2-1 at 0.19-0.48, stayed as a board of one tile. Alone, it is read as a loose tile, too
    # unsurely to report.
    image, truth = _fixture("lone_back_read_as_a_tile")
    reading = reader.read(image)
    row = compare(truth, reading.to_dict())
    assert (row["tiles"], row["extra"], reading.tiles) == (0, 0, ())
    assert (row["face_down"], row["face_down_found"], row["face_down_extra"]) == (8, 8, 0)
    monkeypatch.setattr(vision.loose, "BOARD_AT_LEAST", 1)  # a lone tile in the lattice a board, as before
    (alone,) = reader.read(image).tiles
    assert alone.cell is not None and alone.ambiguous


def test_the_opening_tile_alone_on_an_empty_table_is_the_board_and_the_tile_added(reader):
    # Two frames of a studio game (sequence 1000023 of ``triominoes datasets render --sequence
    # --n 4 --seed 20 --split val --rounds 1 --max-events 40``, 640x480, black tiles about 46
    # pixels a side): the table with two backs, then the opening 4-4-5 played alone. A tile lying
    # alone is read as a loose one; after a photo with no tile face up, it was played first.
    image, truth = _fixture("opening_alone")
    earlier = load_image(FIXTURES / "opening_alone_before.jpg")
    before = reader.read(earlier)
    after = reader.read(image, previous=before, previous_image=earlier)
    row = compare(truth, {**after.to_dict(), "previous": True})
    assert (row["found"], row["extra"], row["wrong_corners"], row["score_right"]) == (1, 0, 0, 1)
    assert [t.cell for t in after.tiles] == [(0, 0)]
    assert (after.last_placement.legal, after.last_placement.score.total) == (True, 13)
    # Where the earlier photo shows the tile in its place (here this photo itself stands for it),
    # the tile lay there already, missed by the earlier reading: no opening.
    again = reader.read(image, previous=before, previous_image=image)
    assert (again.last_placement, again.tiles[0].cell) == (None, None)


def test_tiles_the_board_tiles_size_are_read_where_a_small_boards_plane_runs_wild(reader, monkeypatch):
    # A studio test photo (2000206, 640x480: black tiles about 37 pixels a side on a checked
    # cloth, an arm across the board). The plane fitted to the 12 tiles joined left of the arm
    # put tiles of 77-155 pixels beyond it, where they show 34-49, and dropped them unread.
    image, truth = _fixture("board_beyond_a_hand")
    row = compare(truth, reader.read(image).to_dict())
    assert (row["tiles"], row["found"], row["extra"], row["wrong_corners"], row["misplaced"]) == (29, 28, 0, 0, 0)
    monkeypatch.setattr(sizes_module, "AS_LARGE_AS_THE_BOARDS", 1.0)  # the plane alone, as before
    assert compare(truth, reader.read(image).to_dict())["found"] == 14


def test_tiles_an_arm_hides_the_join_of_are_not_flagged_where_the_game_saw_them_joined(reader):
    # Studio test photo 2000206 (an arm across a board of black tiles): alone, the photo shows
    # two groups of tiles that no edge joins, and the reading flags the smaller ones. A live
    # game saw every tile placed, joined: with its board known, nothing is flagged.
    image, truth = _fixture("board_beyond_a_hand")
    alone = reader.read(image)
    assert {v.kind for v in alone.violations} == {"no_edge_contact"} and len(alone.violations) >= 5
    said = f"{len(alone.violations)} tiles are not joined to the board in the photo: a hand, or tiles"
    assert any(note.startswith(said) for note in alone.notes)
    known = reader.read(image, known=board_of(truth))
    assert known.violations == () and not any("not joined" in note for note in known.notes)


def test_tiles_an_arm_cuts_off_join_the_known_board_with_the_tile_added_among_them(reader, monkeypatch):
    # A studio test photo (2000281, 800x600: white tiles with coloured numbers about 50 pixels a
    # side, an arm across the board) read as a live game reads it, knowing the board before the
    # last tile (the earlier photo's truth). Beyond the arm lie three known tiles and the tile
    # just added: the known ones join the cells the game has them in, the new one beside them.
    image, truth = _fixture("board_cut_by_an_arm")
    known = board_of(json.loads((FIXTURES / "board_cut_by_an_arm_before.json").read_text()))

    def judged() -> dict:
        return compare(truth, {**reader.read(image, known=known).to_dict(), "previous": True})

    row = judged()
    assert (row["found"], row["extra"], row["wrong_corners"], row["misplaced"], row["score_right"]) == (9, 0, 0, 0, 1)
    monkeypatch.setattr(vision.known, "_glued_beside", lambda *args: {})  # the known tiles alone
    row = judged()
    assert (row["misplaced"], row["score_right"]) == (1, 0)
    monkeypatch.setattr(reader_module, "placed_as_known", lambda *args: {})  # as before
    row = judged()
    assert (row["misplaced"], row["score_right"]) == (4, 0)


def test_a_closer_look_that_breaks_the_tiles_up_is_weighed_against_the_first(reader, monkeypatch):
    # A studio test photo (2000231, 1920x1080: 52 wooden pip tiles about 48 pixels a side on a
    # wooden table, both greenish in the photo). The grain breaks the finder's cores into pieces,
    # so the first look's tiles seem small; the closer look it then takes finds fragments, which
    # join 2 tiles into a board. The first look's own outlines join many more.
    image, truth = _fixture("wooden_board_on_wood")
    row = compare(truth, reader.read(image).to_dict())
    assert (row["tiles"], row["found"], row["extra"], row["wrong_corners"]) == (52, 21, 0, 2)
    monkeypatch.setattr(reader_module, "CLOSER_JOINS_AT_LEAST", 0.0)  # the closer look alone, as before
    assert compare(truth, reader.read(image).to_dict())["found"] == 11  # 6 before it was mirrored too


def test_backs_the_plane_finds_the_wrong_size_to_read_are_still_backs(reader, monkeypatch):
    # A studio test photo (2000008, 640x480: wooden pip tiles about 47 pixels a side under an
    # arm, 33 degrees off vertical, five backs beyond it). The plane first fitted, before specks
    # were dropped, put tiles of 93-113 pixels where the backs show 40-53, so they were not
    # read; they show no number, and are a back's size by the plane fitted again.
    image, truth = _fixture("backs_set_aside")
    row = compare(truth, reader.read(image).to_dict())
    assert (row["found"], row["extra"], row["wrong_corners"], row["misplaced"]) == (11, 0, 0, 0)
    assert (row["face_down"], row["face_down_found"], row["face_down_extra"]) == (5, 5, 0)
    monkeypatch.setattr(reader_module, "back_sized", lambda outlines, fit: outlines[:0])
    # Three are the board tiles' size, so read whatever the plane says (and found blank); the
    # other two are found only among the outlines set aside.
    assert compare(truth, reader.read(image).to_dict())["face_down_found"] == 3


def test_tiles_that_show_well_from_twice_as_far_are_looked_at_from_there(reader, monkeypatch):
    # A studio close-up (test photo 2000026 with --closer 3, 640x480: three ivory tiles about 84
    # pixels a side, 53 degrees off vertical, seven backs). The finder outlines them short (read
    # under 90 pixels), so only the 60-pixel bar sends it farther, where six of the seven backs
    # are found (the classifier reads the three tiles right from either look since 2026-11-26).
    image, truth = _fixture("close_up_small_board")
    reading = reader.read(image)
    row = compare(truth, reading.to_dict())
    assert (row["found"], row["extra"], row["wrong_corners"], row["misplaced"]) == (3, 0, 0, 0)
    assert (row["face_down"], row["face_down_found"], row["face_down_extra"]) == (7, 6, 0)
    assert any("close-up" in note for note in reading.notes)
    monkeypatch.setattr("vision.sight.FARTHER_ABOVE_SIDE", 90.0)  # the bar before 2026-11-25
    row = compare(truth, reader.read(image).to_dict())
    assert row["face_down_found"] == 3


@pytest.mark.parametrize("zoom", [2.2, 4.0])
def test_a_close_up_is_read_by_looking_again_from_farther(reader, zoom):
    # The middle of the sample blown up: its tiles come out 170 (2.2x) or 310 (4x) pixels a side
    # at the finder's working size, larger than it learnt. At 2.2x it outlines them too roughly
    # to join; at 4x it takes their numbers and pips for tiles. Shrunk further, they read whole.
    image = load_image(SAMPLES / "board.jpg")
    height, width = image.shape[:2]
    left, top = round(width / 2 - width / zoom / 2), round(height / 2 - height / zoom / 2)
    crop = image[top : top + round(height / zoom), left : left + round(width / zoom)]
    close_up = cv2.resize(crop, (width, height), interpolation=cv2.INTER_CUBIC)
    truth = json.loads((SAMPLES / "board.truth.json").read_text())
    for tile in truth["tiles"]:
        for corner in tile["corners"]:
            corner["x"] = (corner["x"] - left) * width / crop.shape[1]
            corner["y"] = (corner["y"] - top) * height / crop.shape[0]
            corner["hidden"] = not (0 <= corner["x"] < width and 0 <= corner["y"] < height)
    whole = sum(not any(c["hidden"] for c in t["corners"]) for t in truth["tiles"])
    reading = reader.read(close_up)
    row = compare(truth, reading.to_dict())
    assert whole >= 10 and (row["found"], row["extra"], row["wrong_corners"], row["misplaced"]) == (whole, 0, 0, 0)
    assert any("close-up" in note for note in reading.notes)


def test_a_tile_between_board_tiles_whose_outline_the_finder_lost_is_read_from_its_core(reader, monkeypatch):
    # The finder marks a board tile's core but loses its outline (its core ran into a
    # neighbour's), and its corners are not read surely enough for the search by numbers alone
    # (turned off here): the core in the middle of a cell between board tiles brings it back.
    # Without the core (a hole in the board), the cell stays empty.
    image = load_image(SAMPLES / "board.jpg")
    truth = json.loads((SAMPLES / "board.truth.json").read_text())
    cells = {tuple(t["cell"]) for t in truth["tiles"] if t["cell"] is not None}
    lost = next(
        t for t in truth["tiles"] if t["cell"] and sum(n in cells for n in edge_neighbours(tuple(t["cell"]))) == 3
    )
    centre = np.mean([[c["x"], c["y"]] for c in lost["corners"]], axis=0)
    outlines = reader.finder.find(image)
    dropped = np.delete(outlines, np.argmin(np.linalg.norm(outlines.mean(1) - centre, axis=1)), axis=0)
    monkeypatch.setattr(reader.finder, "look_closer", lambda *args: dropped)
    monkeypatch.setattr(vision.complete, "MISSED_NUMBER_ABOVE", 1.0)
    row = compare(truth, reader.read(image).to_dict())
    assert (row["missed"], row["extra"], row["wrong_corners"]) == (0, 0, 0)
    monkeypatch.setattr(FirstLook, "core_at", lambda self, triangles: np.zeros(len(triangles)))
    assert compare(truth, reader.read(image).to_dict())["missed"] == 1


def test_tiles_found_beside_the_board_join_the_part_that_glued_apart_beyond_them(reader, monkeypatch):
    # A studio test photo (2000200, 1280x720: 13 wooden pip tiles about 55 pixels a side on felt,
    # 54 degrees off vertical). The finder missed two board tiles, and three tiles beyond them
    # glued apart from the board and stayed loose (the board's plane, fitted to the six tiles on
    # one side, does not put them on their cells). The missed tiles, found beside the board,
    # bridge the gap: glued again, the three join.
    image, truth = _fixture("board_bridged_by_a_found_tile")
    row = compare(truth, reader.read(image).to_dict())
    assert (row["tiles"], row["found"], row["extra"], row["wrong_corners"], row["misplaced"]) == (13, 13, 0, 0, 0)
    # As before (the look from above, which finds the two missed tiles too, turned off as well):
    monkeypatch.setattr(reader_module, "_glued_again", lambda *args: None)
    monkeypatch.setattr(reader_module, "FROM_ABOVE_BELOW", 0.0)
    row = compare(truth, reader.read(image).to_dict())
    assert (row["found"], row["misplaced"]) == (11, 3)


def test_a_print_on_the_cloth_the_colour_of_no_face_is_no_loose_tile(reader, monkeypatch):
    # A studio test photo (2000279, 1024x768: 17 ivory tiles about 32 pixels a side on a cloth
    # printed with magenta triangles). One print, about half a tile's size, reads 5-5-5 by its
    # colour alone (the white sets print their 5s in magenta) and was reported as a loose tile;
    # its face is far darker and redder than the board's ivory.
    image, truth = _fixture("print_read_as_a_tile")
    reading = reader.read(image)
    row = compare(truth, reading.to_dict())
    assert (row["tiles"], row["found"], row["extra"], row["wrong_corners"], row["misplaced"]) == (17, 17, 0, 0, 0)
    assert (5, 5, 5) not in [t.numbers for t in reading.tiles if t.cell is None]
    monkeypatch.setattr(vision.loose, "faced_like_the_board", lambda loose, board, image: np.ones(len(loose), bool))
    reading = reader.read(image)
    assert compare(truth, reading.to_dict())["extra"] == 1
    assert (5, 5, 5) in [t.numbers for t in reading.tiles if t.cell is None]


def test_a_photo_whose_corners_the_classifier_reads_unsurely_has_every_number_flagged(reader, monkeypatch):
    # A studio test photo (2000186, 1280x720: 53 white tiles about 27 pixels a side on a patterned
    # cloth, under two lamps' glare). The classifier is about half sure of a corner on average;
    # the game's constraints still choose a board that holds together, but it is a consistent
    # misreading, most of whose numbers looked certain. Now every number is flagged, with a note.
    image, truth = _fixture("board_hard_to_read")
    reading = reader.read(image)
    row = compare(truth, reading.to_dict())
    assert row["wrong_corners"] > 0 and row["wrong_unsure"] == row["wrong_corners"]
    assert all(t.ambiguous for t in reading.tiles)
    assert sum("hard to read" in note for note in reading.notes) == 1
    assert not any(note.startswith("corner ") for note in reading.notes)  # one note, not one per corner
    monkeypatch.setattr("vision.sight.HARD_TO_READ_BELOW", 0.0)  # as before
    row = compare(truth, reader.read(image).to_dict())
    assert row["wrong_unsure"] < row["wrong_corners"] / 4


def test_a_live_games_tiles_stay_sure_in_a_photo_hard_to_read(reader):
    # The same photo read as a live game reads it, its board known but for the tile just added:
    # the tiles read as the game has them are the game's, not guesses, so only the others (the
    # tile added, loose tiles) are flagged.
    image, truth = _fixture("board_hard_to_read")
    added = truth["last_placement"]["cell"]
    known = board_of(truth).without({tuple(added)})
    reading = reader.read(image, known=known)
    assert any("hard to read" in note for note in reading.notes)
    flagged = [t for t in reading.tiles if t.ambiguous]
    assert 0 < len(flagged) <= 3 < len(reading.tiles)
    row = compare(truth, reading.to_dict())
    assert row["wrong_unsure"] == row["wrong_corners"]


def test_an_empty_cell_beside_the_board_showing_the_table_is_no_missed_tile(reader, monkeypatch):
    # A studio test photo (2000278, 1600x1200: 50 wooden pip tiles about 28 pixels a side on blue
    # felt, 51 degrees off vertical). The corners of an empty cell beside the board show its
    # neighbours' pips, and read as numbers surely enough to take it for a tile the finder
    # missed; its middle shows the blue felt, not a wooden face. (The rule was made on the
    # reading without the look from above, where the cell read 0-6-2; since the closer looks are
    # mirrored too, that reading has 7 extra tiles, and the look from above, which reads the board
    # as the set of 0..5 it is, is read. There the cell is at [9, 0], read 0-4-2.)
    image, truth = _fixture("table_beside_the_board")
    reading = reader.read(image)
    extra = compare(truth, reading.to_dict())["extra"]
    assert (9, 0) not in [t.cell for t in reading.tiles]
    monkeypatch.setattr(vision.complete, "faced_like_the_board", lambda loose, board, image: np.ones(len(loose), bool))
    reading = reader.read(image)
    assert compare(truth, reading.to_dict())["extra"] == extra + 1
    assert ((9, 0), (0, 4, 2)) in [(t.cell, t.numbers) for t in reading.tiles]


def test_a_small_board_whose_first_look_breaks_up_is_looked_for_enlarged(reader, monkeypatch):
    # A frame of studio game 2000400 (1600x1200, wooden pip tiles about 31 pixels a side, 59
    # degrees off vertical): its first three tiles. At the working size they are 19 pixels and
    # their cores run together, so the first look reads no tile, leaves an outline unread and
    # takes two for backs: it seemed too close and was looked at only from farther, where the
    # tiles shrink to 9 pixels and are lost. Looked for enlarged too, all three join, read right.
    image, truth = _fixture("small_board_in_pieces")
    reading = reader.read(image)
    row = compare(truth, reading.to_dict())
    assert (row["found"], row["extra"], row["wrong_corners"], row["misplaced"]) == (3, 0, 0, 0)
    assert reading.face_down == () and reading.unread == ()
    assert "the tiles are small: found with the photo enlarged" in reading.notes
    monkeypatch.setattr("vision.reader._looks_small", lambda *look: False)  # from farther only
    assert compare(truth, reader.read(image).to_dict())["found"] == 0


def test_a_steep_board_is_looked_at_from_above(reader, monkeypatch):
    # A studio test photo (2000105, 1024x768: 26 black tiles with white numbers about 39 pixels a
    # side on a patterned cloth, 46 degrees off vertical). Squashed by the slant, the cores of
    # touching tiles run together: three tiles are missed and the board around them is read
    # wrong. Warped by the board's plane into a view from straight above, every tile is found.
    image, truth = _fixture("steep_board_on_a_patterned_cloth")
    reading = reader.read(image)
    row = compare(truth, reading.to_dict())
    assert (row["tiles"], row["found"], row["extra"], row["wrong_corners"], row["misplaced"]) == (26, 26, 0, 0, 0)
    assert "the board is seen at a slant: its tiles were found in a view of it from straight above" in reading.notes
    monkeypatch.setattr(reader_module, "FROM_ABOVE_BELOW", 0.0)
    row = compare(truth, reader.read(image).to_dict())
    assert row["found"] == 23 and row["wrong_corners"] > 0


@pytest.mark.parametrize("enlarged", [1, 3])
def test_the_finder_looking_from_above_outlines_the_tiles_where_they_lie(reader, enlarged):
    # The same photo, its board's plane fitted to the true outlines: every tile the finder
    # outlines in the view from above comes back to the photo on a true tile, all 26 of them;
    # also with the photo enlarged three times, where the view shrinks it (from a copy shrunk
    # by area first).
    image, truth = _fixture("steep_board_on_a_patterned_cloth")
    image = cv2.resize(image, None, fx=enlarged, fy=enlarged, interpolation=cv2.INTER_LINEAR)
    true = np.array([[[c["x"], c["y"]] for c in tile["corners"]] for tile in truth["tiles"]]) * enlarged
    fit = fit_board(true)
    assert fit.foreshortening() < 0.8
    to_view, size = fit.view_from_above(36.0, 2.0, 2 * 960 * 720)
    found = reader.finder.look_through(image, to_view, size)
    side = float(np.median(np.linalg.norm(true - np.roll(true, 1, axis=1), axis=2)))
    distance = np.linalg.norm(found.mean(1)[:, None] - true.mean(1)[None], axis=2)  # (found, true)
    assert (distance.min(0) < 0.2 * side).all()  # each true tile outlined
    sides = np.linalg.norm(found - np.roll(found, 1, axis=1), axis=2).mean(1)[distance.min(1) < 0.2 * side]
    assert (np.abs(np.log(sides / side)) < np.log(1.25)).all()  # whole tiles, not pieces


def test_a_loose_pip_tile_whose_bare_zeros_read_as_no_number_is_read(reader, monkeypatch):
    # A studio test photo (2001388 of ``triominoes datasets render --split test --pairs --n 120
    # --seed 1300``, 1280x720, wooden tiles about 47 pixels a side): a board of 18 and a loose
    # 0-0-3, whose bare corners the classifier reads as "no number" (0.79-0.92). The board's own
    # zeros read bare too, so those corners are read as 0, and so is a board tile's bare 0 that no
    # neighbour shares, which was flagged.
    image, truth = _fixture("loose_pip_tile_with_bare_zeros")
    reading = reader.read(image)
    row = compare(truth, reading.to_dict())
    assert (row["found"], row["missed"], row["extra"], row["wrong_corners"], row["exact"]) == (19, 0, 0, 0, 1)
    assert row["right_unsure"] == 0
    (loose,) = [tile for tile in reading.tiles if tile.cell is None]
    assert sorted(loose.numbers) == [0, 0, 3] and loose.confidence >= 0.9
    assert reading.unread == ()
    monkeypatch.setattr(vision.bare, "BARE_ZEROS_SHOWN", 10**6)  # never bare, as before
    before = reader.read(image)
    assert [tile.cell for tile in before.tiles].count(None) == 0 and len(before.unread) == 1
    assert compare(truth, before.to_dict())["right_unsure"] == 1


def test_a_notch_of_table_between_board_tiles_is_no_tile(reader, monkeypatch):
    # A studio test photo (2001467 of ``triominoes datasets render --split test --pairs --n 120
    # --seed 1400``, 1280x720, white tiles with coloured numbers about 76 pixels a side on dark
    # wood): the finder outlines a notch of table between tiles like a tile, whose corners read
    # "no number" but for the edges of its neighbours' 4s. Its middle shows the wood, so it is a
    # hole, and the board of 44 reads exactly; taken for a tile, it read 0-4-4 and turned a true
    # tile's 5 at the point they share into a 0.
    image, truth = _fixture("notch_between_tiles")
    row = compare(truth, reader.read(image).to_dict())
    assert (row["found"], row["missed"], row["extra"], row["wrong_corners"], row["exact"]) == (44, 0, 0, 0, 1)
    monkeypatch.setattr(backs_module, "HOLE_READS_NONE", 1.0)  # only blank gaps are holes, as before
    row = compare(truth, reader.read(image).to_dict())
    assert (row["extra"], row["wrong_corners"], row["exact"]) == (1, 1, 0)
