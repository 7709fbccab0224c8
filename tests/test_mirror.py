"""Photos seen in a mirror (``vision.mirror``): told apart by the way round their tiles read, and
read flipped back."""

import re
from pathlib import Path

import numpy as np
import pytest

from vision.image_io import load_image
from vision.mirror import (
    MIRRORED_ADVICE,
    MORE_READ_SURELY,
    may_be_mirrored,
    mirrored,
    reads_better,
    share_read_surely,
    way_round,
)
from vision.reader import Reader
from vision.records import Reading, ReadTile

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
FIXTURES = Path(__file__).resolve().parent / "fixtures"


def _read_as(*tiles: tuple[int, int, int], sure: float = 0.97) -> np.ndarray:
    """(N, 3, 8) probabilities of corners read as these numbers, each ``sure``."""
    probabilities = np.full((len(tiles), 3, 8), (1 - sure) / 7)
    for k, numbers in enumerate(tiles):
        probabilities[k, [0, 1, 2], numbers] = sure
    return probabilities


def test_tiles_of_three_numbers_read_surely_show_which_way_round_the_photo_is():
    assert way_round(_read_as((1, 2, 5), (5, 1, 2), (0, 3, 6))) == 3  # rising clockwise, from any corner
    assert way_round(_read_as((1, 5, 2), (2, 1, 5))) == -2  # rising anticlockwise: a mirror image
    assert way_round(_read_as((1, 2, 5), (1, 5, 2), (2, 1, 5))) == -1


def test_tiles_that_cannot_show_it_do_not_count():
    assert way_round(_read_as((3, 3, 5), (5, 3, 3), (4, 4, 4))) == 0  # two equal numbers read alike both ways
    assert way_round(_read_as((1, 5, 2), sure=0.3)) == 0  # read unsurely
    assert way_round(np.full((2, 3, 8), 1 / 8)) == 0
    assert way_round(np.zeros((0, 3, 8))) == 0


def test_a_photo_is_checked_where_few_tiles_read_the_right_way_round_and_flipped_where_more_then_do():
    assert may_be_mirrored(-1, 5) and may_be_mirrored(3, 24) and not may_be_mirrored(4, 24)
    assert not may_be_mirrored(0, 0)  # no tile, nothing to check
    assert reads_better(2, 0) and reads_better(4, 3)
    assert not reads_better(1, -5)  # one tile alone does not turn a photo round
    assert not reads_better(3, 3)


def test_numbers_read_surely_in_a_mirror_turn_a_photo_whose_tiles_cannot_show_it():
    # A round's first tiles have two equal numbers and read alike either way round, but printed
    # numbers mirrored read unsurely: mirrored studio game 2000421's 5-5-5, read as it came,
    # was committed as 2-2-2.
    plain, mirrored_numbers = _read_as((5, 5, 5), (5, 5, 2), sure=0.97), _read_as((5, 5, 5), (5, 5, 2), sure=0.6)
    mirrored_numbers[1, 0, 5] = 0.95  # one corner reads surely all the same
    more = share_read_surely(plain) - share_read_surely(mirrored_numbers)
    assert share_read_surely(plain) == 1.0 and more == pytest.approx(5 / 6) and more >= MORE_READ_SURELY
    assert reads_better(0, 0, more) and not reads_better(0, 0, -more)
    assert not reads_better(0, 0, 1 / 3)  # one corner in three: pips read alike both ways, give or take one
    assert not reads_better(0, 1, more)  # a tile there reads anticlockwise: the numbers do not outvote it
    assert reads_better(1, 1, more)
    assert share_read_surely(np.eye(8)[[7, 7, 7]][None]) == 0.0  # "no number" read surely is no number read
    assert share_read_surely(np.zeros((0, 3, 8))) == 0.0


def _a_reading() -> Reading:
    corners = np.array([[10.0, 5.0], [20.0, 22.0], [0.5, 22.0]])
    tile = ReadTile((0, 0), corners, (1, 2, 5), (0.9, 0.8, 0.99), True, False)
    back = np.array([[30.0, 1.0], [40.0, 18.0], [20.0, 18.0]])
    return Reading("board.jpg", 64, 48, (tile,), (back,), (back + 2,), (), None)


def test_a_reading_mirrored_has_its_pixels_mirrored_and_keeps_its_numbers_with_their_corners():
    reading = _a_reading()
    flipped = mirrored(reading)
    (tile,) = flipped.tiles
    np.testing.assert_allclose(tile.corners, [[53.0, 5.0], [43.0, 22.0], [62.5, 22.0]])
    assert (tile.cell, tile.numbers, tile.confidences) == ((0, 0), (1, 2, 5), (0.9, 0.8, 0.99))
    np.testing.assert_allclose(flipped.face_down[0], [[33.0, 1.0], [23.0, 18.0], [43.0, 18.0]])
    np.testing.assert_allclose(flipped.unread[0][:, 0], [31.0, 21.0, 41.0])
    np.testing.assert_allclose(reading.tiles[0].corners[0], [10.0, 5.0])  # the reading itself is unchanged
    twice = mirrored(flipped)
    np.testing.assert_allclose(twice.tiles[0].corners, reading.tiles[0].corners)
    np.testing.assert_allclose(twice.face_down[0], reading.face_down[0])


@pytest.fixture(scope="module")
def reader():
    return Reader()  # loads both models once for the module


@pytest.fixture(scope="module")
def sample():
    return load_image(SAMPLES / "board.jpg"), load_image(SAMPLES / "board_before.jpg")


def _as_read(reading: Reading, mirror: bool = False) -> list:
    """Each tile's cell, numbers and corners (mirrored back, if ``mirror``), sorted."""
    corners = [t.corners.copy() for t in reading.tiles]
    if mirror:
        for c in corners:
            c[:, 0] = reading.width - 1 - c[:, 0]
    return sorted((t.cell, t.numbers, tuple(c.round(2).ravel())) for t, c in zip(reading.tiles, corners))


def test_a_mirror_image_of_the_sample_reads_as_the_sample_in_its_own_pixels(reader, sample):
    photo, _ = sample
    plain = reader.read(photo)
    assert MIRRORED_ADVICE not in plain.notes
    assert "mirror" not in plain.timing_ms  # its tiles read clockwise: not checked
    reading = reader.read(photo[:, ::-1])
    assert len(reading.tiles) == 24
    assert _as_read(reading, mirror=True) == _as_read(plain)
    assert MIRRORED_ADVICE in reading.advice and MIRRORED_ADVICE in reading.notes
    assert reading.mirror_image and not plain.mirror_image
    assert reading.to_dict()["mirror_image"] is True
    assert reading.timing_ms["total"] > plain.timing_ms["total"]  # both reads counted


def test_a_mirror_image_from_a_camera_known_to_mirror_is_read_flipped_back_first(reader, sample):
    # A live game's frame after one read as a mirror image: read once, flipped back, and not
    # checked, as its tiles then read clockwise.
    photo, _ = sample
    plain, told = reader.read(photo), reader.read(photo[:, ::-1], mirror_image=True)
    assert told.mirror_image and MIRRORED_ADVICE in told.advice
    assert "mirror" not in told.timing_ms
    assert _as_read(told, mirror=True) == _as_read(plain)


def test_a_picture_without_tiles_from_a_camera_known_to_mirror_keeps_its_way_round_and_says_nothing(reader):
    # A hand over the whole table: nothing tells which way round the frame is, so the live game
    # reads the next one flipped back too, and the frame gives no advice on the camera.
    bare = reader.read(np.full((480, 640, 3), 120, np.uint8), mirror_image=True)
    assert bare.tiles == () and bare.mirror_image
    assert MIRRORED_ADVICE not in bare.advice and MIRRORED_ADVICE not in bare.notes


def test_a_lone_tile_of_two_equal_printed_numbers_is_read_flipped_back_by_its_numbers(reader):
    # A round's opening tile (4-4-5) alone, seen in a mirror: it reads alike either way round, so
    # no tile shows the way round, but its printed numbers mirrored read unsurely (as 1-2-1),
    # and flipped back surely. Before, it was read as it came, misread.
    photo = load_image(FIXTURES / "opening_alone.jpg")
    plain, reading = reader.read(photo), reader.read(photo[:, ::-1])
    assert [t.numbers for t in plain.tiles] == [(4, 5, 4)] and not plain.mirror_image
    assert reading.mirror_image and MIRRORED_ADVICE in reading.advice
    assert _as_read(reading, mirror=True) == _as_read(plain)


def test_a_photo_said_wrongly_to_be_a_mirror_image_is_read_as_it_is(reader, sample):
    # The camera's mirroring turned off during a game: flipped, its tiles read anticlockwise, so
    # it is checked the other way round and read as it is.
    photo, _ = sample
    plain, told = reader.read(photo), reader.read(photo, mirror_image=True)
    assert not told.mirror_image and MIRRORED_ADVICE not in told.advice
    assert "mirror" in told.timing_ms
    assert _as_read(told) == _as_read(plain)


def test_a_tile_added_between_two_mirror_images_is_scored_as_between_the_photos(reader, sample):
    photo, before = sample
    plain = reader.read(photo, previous=reader.read(before), previous_image=before)
    flipped_before = before[:, ::-1]
    earlier = reader.read(flipped_before)
    reading = reader.read(photo[:, ::-1], previous=earlier, previous_image=flipped_before)
    assert plain.last_placement is not None
    assert reading.last_placement == plain.last_placement
    assert _as_read(reading, mirror=True) == _as_read(plain)


def test_a_photo_after_a_mirror_image_is_read_flipped_back_first(reader, sample):
    # Two photos from one camera: the earlier one read as a mirror image, the later is read
    # flipped back first, and, its tiles then reading clockwise, is not checked.
    photo, before = sample
    earlier = reader.read(before[:, ::-1])
    reading = reader.read(photo[:, ::-1], previous=earlier, previous_image=before[:, ::-1])
    assert earlier.mirror_image and reading.mirror_image
    assert "mirror" not in reading.timing_ms


def test_an_earlier_reading_made_the_other_way_round_is_made_again_from_its_photo(reader, sample, monkeypatch):
    # The later photo reads as a mirror image, but the earlier reading was made as its photo is
    # (here: the earlier photo unmirrored, as a reading of its mirror image would come out where
    # too few tiles show which way round it is). The earlier photo is read again flipped back,
    # so the tile added is found between two readings made the same way round.
    photo, before = sample
    plain = reader.read(photo, previous=reader.read(before), previous_image=before)
    seen = []
    read_as_shown = reader._read_as_shown

    def spy(image, *args):
        seen.append(image)
        return read_as_shown(image, *args)

    monkeypatch.setattr(reader, "_read_as_shown", spy)
    reading = reader.read(photo[:, ::-1], previous=reader.read(before), previous_image=before[:, ::-1])
    assert reading.mirror_image
    assert sum(np.array_equal(image, before) for image in seen) == 2  # as the earlier reading, and flipped back
    assert reading.last_placement == plain.last_placement


def test_a_photo_hard_to_read_is_checked_but_read_as_it_is(reader):
    # Tiny tiles, read unsurely: hardly any tile reads surely either way round, in the photo or
    # in its mirror image, so it is checked (the "mirror" stage) and not flipped.
    reading = reader.read(load_image(FIXTURES / "board_hard_to_read.jpg"))
    assert "mirror" in reading.timing_ms
    assert MIRRORED_ADVICE not in reading.notes
    assert len(reading.tiles) > 40


def _loose_tiles_named(reading: Reading) -> list[tuple[int, int, int]]:
    """(corner, x, y) of each note on an uncertain corner of a loose tile, named by its pixels."""
    found = re.findall(r"corner (\d) of the loose tile near pixel \((\d+), (\d+)\)", "\n".join(reading.notes))
    return sorted(tuple(map(int, match)) for match in found)


def test_a_loose_tile_in_a_mirror_image_is_named_by_where_it_lies_in_that_photo(reader):
    # Its notes are made once the reading is back in the photo's own pixels.
    photo = load_image(FIXTURES / "table_beside_the_board.jpg")
    plain, reading = reader.read(photo), reader.read(photo[:, ::-1])
    assert MIRRORED_ADVICE in reading.advice
    named = _loose_tiles_named(plain)
    assert named
    expected = sorted((corner, photo.shape[1] - 1 - x, y) for corner, x, y in named)
    assert len(_loose_tiles_named(reading)) == len(expected)
    for got, want in zip(_loose_tiles_named(reading), expected):
        assert got[0] == want[0] and abs(got[1] - want[1]) <= 1 and got[2] == want[2]
