"""The reader given a live game's board: its tiles are expected where they lie (bundled sample)."""

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

import vision.complete
import vision.reader
from engine.board import Board, PlacedTile
from engine.boardfile import board_to_dict
from engine.lattice import LatticeMap
from engine.simulate import random_board
from service.cli import main
from vision.evaluate import board_of, compare
from vision.image_io import load_image
from vision.known import KnownBoard, known_matched, known_placed
from vision.reader import Reader
from vision.records import ReadTile

SAMPLES = Path(__file__).resolve().parent.parent / "samples"


@pytest.fixture(scope="module")
def reader():
    return Reader()


@pytest.fixture(scope="module")
def truth():
    return json.loads((SAMPLES / "board.truth.json").read_text())


@pytest.fixture(scope="module")
def image():
    return load_image(SAMPLES / "board.jpg")


def known_before(truth: dict, mapping: LatticeMap | None = None) -> Board:
    """The sample's board without its last tile, as a game that saw the others placed knows it,
    in the lattice frame ``mapping`` gives it (the truth's own by default)."""
    mapping = LatticeMap() if mapping is None else mapping
    last = tuple(truth["last_placement"]["cell"])
    board = board_of(truth)
    return Board(tuple(p for p in board.placements if p.cell != last)).moved(mapping)


def test_the_tile_added_to_a_known_board_is_scored_without_an_earlier_photo(reader, truth, image):
    # The game keeps its board in a frame of its own (here turned and moved): the reader matches it.
    reading = reader.read(image, known=known_before(truth, LatticeMap(2, 4, 0)))
    placement = reading.last_placement.to_dict()
    expected = truth["last_placement"]
    assert placement["tile"] == expected["tile"] and placement["score"] == expected["score"] and placement["legal"]
    assert not any("cannot be matched" in note for note in reading.notes)
    assert compare(truth, reading.to_dict())["wrong_corners"] == 0


def test_a_known_board_the_corners_place_is_decoded_once_expected(reader, truth, image, monkeypatch):
    # Placed by the corners' probabilities, the known board needs no decoding without it first:
    # every decode of the photo expects the game's tiles (a live game reads each still frame so).
    calls = []

    def counted(*args, **kwargs):
        calls.append(args[4] if len(args) > 4 else kwargs.get("expected"))
        return read_numbers(*args, **kwargs)

    read_numbers = vision.reader.read_numbers
    monkeypatch.setattr(vision.reader, "read_numbers", counted)
    reading = reader.read(image, known=known_before(truth))
    assert calls and all(calls)
    assert reading.last_placement.to_dict()["tile"] == truth["last_placement"]["tile"]
    calls.clear()
    reader.read(image)
    assert calls and not any(calls)


def test_a_board_that_is_not_on_the_table_is_not_imposed(reader, truth, image):
    # Another game's board shares some tiles of the set with the photo, each of which sets a
    # frame; none puts three of its tiles where the photo shows them, so nothing is expected.
    other = random_board(3, 20)
    reading = reader.read(image, known=other)
    assert any("cannot be matched" in note for note in reading.notes)
    assert [t.numbers for t in reading.tiles] == [t.numbers for t in reader.read(image).tiles]


def test_a_swapped_tile_shows_what_the_photo_shows(reader, truth, image):
    # The game has another tile where the photo clearly shows one: the photo wins, so a live
    # game can tell that the table no longer matches it.
    known = known_before(truth)
    cell = known.placements[5].cell
    swapped = next(c for c in [(0, 0, 0), (5, 5, 5), (1, 1, 1)] if PlacedTile(cell, c).tile not in known.by_tile)
    changed = Board(tuple(PlacedTile(cell, swapped) if p.cell == cell else p for p in known.placements))
    reading = reader.read(image, known=changed)
    assert swapped not in {t.numbers for t in reading.tiles}
    assert compare(truth, reading.to_dict())["wrong_corners"] == 0


def test_a_known_tile_the_finder_missed_is_read_where_the_game_has_it(reader, truth, image, monkeypatch):
    # The finder misses one board tile, and the search for missed tiles beside the board is off:
    # only the known board brings it back, read where the game has it.
    outlines = reader.finder.find(image, reader.finder.working_size)
    centre = np.mean([[c["x"], c["y"]] for c in truth["tiles"][3]["corners"]], axis=0)
    missed = int(np.argmin(np.linalg.norm(outlines.mean(1) - centre, axis=1)))
    monkeypatch.setattr(reader.finder, "look_closer", lambda *args: np.delete(outlines, missed, axis=0))
    monkeypatch.setattr(vision.complete, "COMPLETION_ROUNDS", 0)
    assert compare(truth, reader.read(image).to_dict())["missed"] == 1
    row = compare(truth, reader.read(image, known=known_before(truth)).to_dict())
    assert (row["missed"], row["extra"], row["wrong_corners"]) == (0, 0, 0)


def test_a_known_cell_covered_up_is_not_filled_in(reader, truth, image):
    # A board tile painted over with the table's colour (a cup set on it): the game knows a tile
    # there, but the photo shows none, so the reader leaves it out rather than inventing it.
    known = known_before(truth)
    tile = next(t for t in truth["tiles"] if tuple(t["cell"]) == known.placements[0].cell)
    corners = np.array([[c["x"], c["y"]] for c in tile["corners"]])
    centre = corners.mean(0)
    covered = image.copy()
    table = tuple(int(v) for v in np.median(image[:40, :40].reshape(-1, 3), axis=0))
    cv2.fillPoly(covered, [np.round(centre + (corners - centre) * 1.1).astype(np.int32)], table)
    row = compare(truth, reader.read(covered, known=known).to_dict())
    assert (row["missed"], row["extra"], row["wrong_corners"]) == (1, 0, 0)


def test_read_command_with_the_games_board(tmp_path, truth, capsys):
    board = tmp_path / "board.json"
    board.write_text(json.dumps(board_to_dict(known_before(truth))))
    assert main(["read", str(SAMPLES / "board.jpg"), "--board", str(board), "--json"]) == 0
    placement = json.loads(capsys.readouterr().out)["last_placement"]
    assert placement["tile"] == truth["last_placement"]["tile"] and placement["score"]["total"] == 8
    board.write_text("{not json")
    assert main(["read", str(SAMPLES / "board.jpg"), "--board", str(board)]) == 2
    assert "malformed JSON" in capsys.readouterr().err


def test_a_known_board_larger_than_the_photo(reader, truth, image):
    # A close-up of part of the board: the known cells it leaves out lie outside the photo and
    # are not looked for; the tiles it shows read as the game has them.
    part = image[:, : image.shape[1] // 2 + 60]
    reading = reader.read(part, known=known_before(truth))
    row = compare(truth, reading.to_dict())
    assert row["found"] >= 5 and (row["extra"], row["wrong_corners"]) == (0, 0)
    assert not any("cannot be matched" in note for note in reading.notes)


def known_here(known: Board, placements, shown=None, provisional=()) -> dict:
    """Where the reader expects ``known``, for tiles decoded as ``placements`` (cell, numbers),
    read surely (pixels do not matter here): placed by the corners' probabilities, else matched
    by the tiles decoded. ``shown``: the numbers their corners favour instead, 0.45 against 0.55
    for the numbers decoded, as where small tiles are misread; ``provisional``: cells of
    ``known`` placed from an unsure reading."""
    tiles = [ReadTile(cell, np.zeros((3, 2)), corners, (1.0, 1.0, 1.0), True, False) for cell, corners in placements]
    probabilities = np.full((len(tiles), 3, 8), 0.0)
    for t, (_, corners) in enumerate(placements):
        for i, n in enumerate(corners):
            if shown is None:
                probabilities[t, i, n] = 1.0
            else:
                probabilities[t, i, n] += 0.55
                probabilities[t, i, shown[t][i]] += 0.45
    game, cells = KnownBoard(known, frozenset(provisional)), [c for c, _ in placements]
    sure, hints = known_placed(game, probabilities, cells)
    if not sure:
        sure, hints = known_matched(game, tiles, cells)
    return {**sure, **hints}


def test_a_frame_that_leaves_most_tiles_read_off_the_known_board_is_not_taken():
    # Three tiles read as the game has them, where it has them, set the frame; but six more tiles
    # read lie off the game's board there. A game adds one tile at a time: those three were
    # misreads that happen to be known tiles, so nothing is expected.
    known = random_board(5, 20)
    agreeing = [(p.cell, p.corners) for p in known.placements[:3]]
    unknown = next(
        c for c in [(0, 0, 0), (1, 1, 1), (2, 2, 2), (3, 3, 3)] if PlacedTile((0, 0), c).tile not in known.by_tile
    )
    far = [((40 + 2 * k, 0), unknown) for k in range(6)]
    assert len(known_here(known, agreeing + far)) == 0
    # The same three tiles and one new tile beside them: that frame is the game's.
    here = known_here(known, agreeing + far[:1])
    assert here == {p.cell: p.corners for p in known.placements}


def test_a_known_board_misread_all_over_is_placed_by_its_corners():
    # Every tile decoded wrong (each of its numbers one more), so no tile decoded matches the
    # game's; the corners still give its numbers 0.45 each, which places it.
    known = random_board(6, 20)
    moved = LatticeMap(1, 2, 0)
    truth = [moved.corners(p.cell, p.corners) for p in known.placements]
    misread = [(cell, tuple((n + 1) % 6 for n in numbers)) for cell, numbers in truth]
    assert known_here(known, misread) == {}
    assert known_here(known, misread, shown=[numbers for _, numbers in truth]) == dict(truth)


def test_tiles_placed_unsurely_keep_the_frame_though_read_otherwise():
    # A game placed three of its seven tiles from unsure readings; the photo reads those three
    # otherwise, and one tile more. The four sure tiles set the frame, and the board is expected
    # there (the three others only a little: ``read_numbers``).
    board = random_board(7, 8)
    known, added = Board(board.placements[:7]), board.placements[7]
    provisional = [p.cell for p in known.placements[4:]]
    read = [
        (p.cell, tuple((n + 1) % 6 for n in p.corners) if p.cell in provisional else p.corners)
        for p in known.placements
    ]
    read.append((added.cell, added.corners))
    assert known_here(known, read, provisional=provisional) == {p.cell: p.corners for p in known.placements}
    # Told only of the sure tiles, four of the eight tiles read lie off that board: nothing is expected.
    assert known_here(Board(known.placements[:4]), read) == {}


def test_a_known_board_the_corners_cannot_place_is_matched_by_the_tiles_decoded():
    # Corners that favour no number place the board nowhere; the tiles decoded from them (by
    # the game's constraints) still match it, and it is expected there.
    known = random_board(5, 12)
    moved = LatticeMap(3, -2, 2)
    read = [moved.corners(p.cell, p.corners) for p in known.placements]
    game, cells = KnownBoard(known, frozenset()), [cell for cell, _ in read]
    chance = np.full((len(read), 3, 8), 1 / 8)
    assert known_placed(game, chance, cells) == ({}, {})
    tiles = [ReadTile(cell, np.zeros((3, 2)), corners, (1.0, 1.0, 1.0), True, False) for cell, corners in read]
    assert known_matched(game, tiles, cells) == (dict(read), {})
