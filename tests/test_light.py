"""How dark a photo is (``vision.light``), and the reader's word for a dark photo it cannot read."""

from pathlib import Path

import numpy as np
import pytest

from vision.image_io import load_image
from vision.light import DARK_BELOW, brightest_level, dark
from vision.reader import Reader

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
FIXTURES = Path(__file__).resolve().parent / "fixtures"


def _scaled(image: np.ndarray, brightness: float) -> np.ndarray:
    return np.round(image.astype(np.float32) * brightness).astype(np.uint8)


def test_the_brightest_parts_are_the_grey_that_all_but_a_few_pixels_lie_under():
    image = np.full((400, 400, 3), 30, np.uint8)
    image[:2] = 250  # a lamp's reflection: half a percent of the pixels
    assert brightest_level(image) == 30
    image[:40] = 250  # a tenth of the photo is bright
    assert brightest_level(image) == 250


def test_only_photos_darker_than_the_bar_are_dark():
    assert dark(DARK_BELOW - 1) and not dark(DARK_BELOW)


@pytest.fixture(scope="module")
def reader():
    return Reader()  # loads both models once for the module


def _dark_advice(reading) -> list[str]:
    return [line for line in reading.advice if "dark" in line]


def test_a_dark_photo_that_reads_nothing_is_called_dark(reader):
    # A pile before the game (11 backs, no tile face up): as it is, nothing to say of its light;
    # at a tenth of its brightness (brightest parts at 25 grey levels) the player is told.
    image = load_image(FIXTURES / "pile_before_the_game.jpg")
    assert not _dark_advice(reader.read(image))
    reading = reader.read(_scaled(image, 0.1))
    assert reading.tiles == ()
    (advice,) = _dark_advice(reading)
    assert "light the table" in advice and advice in reading.notes


def test_a_dark_photo_that_reads_well_is_read_without_a_word_of_its_light(reader):
    # The sample at a tenth of its brightness (brightest parts at 23 grey levels) still reads its
    # 24 tiles surely: the classifier evens out each crop's contrast.
    image = _scaled(load_image(SAMPLES / "board.jpg"), 0.1)
    assert dark(brightest_level(image))
    reading = reader.read(image)
    assert len(reading.tiles) == 24
    assert not _dark_advice(reading)
