"""How blurred a photo's tiles are (``vision.focus``), on drawn tiles of known blur."""

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.focus import BLURRED_ABOVE, BLURRED_ABOVE_UNREAD, BLURRED_FOR_SIDE, blur_over, out_of_focus
from vision.image_io import load_image
from vision.reader import Reader

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
FIXTURES = Path(__file__).resolve().parent / "fixtures"

TILE = np.array([[[100.0, 30.0], [170.0, 151.0], [30.0, 151.0]]])  # one tile, 140 px a side


def _drawn_tile(face: int = 220) -> np.ndarray:
    """A light tile with a dark number-like stroke on a dark table, every edge a sharp step."""
    image = np.full((200, 200, 3), 60, np.uint8)
    cv2.fillConvexPoly(image, TILE[0].astype(np.int32), (face, face, face))
    cv2.line(image, (85, 80), (115, 120), (40, 40, 40), 4)
    return image


def test_a_sharp_tile_measures_the_gradient_filters_own_spread():
    assert 0.5 < blur_over(_drawn_tile(), TILE) < 0.9


@pytest.mark.parametrize("deviation", [1.5, 2.5, 4.0])
def test_a_blurred_tile_measures_about_the_blur_it_was_given(deviation):
    blurred = cv2.GaussianBlur(_drawn_tile(), (0, 0), deviation)
    assert blur_over(blurred, TILE) == pytest.approx(np.hypot(deviation, 0.8), rel=0.15)


def test_tiles_with_no_contrast_or_none_at_all_tell_nothing():
    assert blur_over(np.full((200, 200, 3), 90, np.uint8), TILE) is None  # one flat grey
    assert blur_over(_drawn_tile(), np.zeros((0, 3, 2))) is None
    off_the_photo = np.array([[[-50.0, -50.0], [-40.0, -50.0], [-45.0, -40.0]]])
    assert blur_over(_drawn_tile(), off_the_photo) is None


def test_blur_is_named_only_where_it_is_large_for_the_tiles_size():
    assert out_of_focus(2.0, 40.0)
    assert not out_of_focus(2.0, 2.0 / BLURRED_FOR_SIDE + 10)  # large tiles bear it
    assert not out_of_focus(BLURRED_ABOVE - 0.1, 20.0)  # a sharp camera's tiles, however small
    assert not out_of_focus(None, 40.0) and not out_of_focus(3.0, 0.0)  # nothing measured, no tile read
    between = (BLURRED_ABOVE + BLURRED_ABOVE_UNREAD) / 2  # backs' softer edges bear more
    assert out_of_focus(between, 40.0) and not out_of_focus(between, 40.0, BLURRED_ABOVE_UNREAD)


@pytest.fixture(scope="module")
def reader():
    return Reader()  # loads both models once for the module


def test_a_blurred_photo_is_read_with_advice_to_focus_the_camera(reader):
    # The sample's tiles are about 70 pixels a side; blurred by 3 pixels they measure about 3.
    image = load_image(SAMPLES / "board.jpg")
    assert not any("blurred" in line for line in reader.read(image).advice)
    blurred = cv2.GaussianBlur(image, (0, 0), 3.0)
    reading = reader.read(blurred)
    (advice,) = [line for line in reading.advice if "blurred" in line]
    assert "focus the camera" in advice and advice in reading.notes
    assert blur_over(blurred, np.array([t.corners for t in reading.tiles])) > 2.5


def test_a_blurred_photo_with_no_tile_read_is_measured_over_its_backs(reader):
    # A pile before the game (11 backs, no tile face up, 800x600, tiles about 40 pixels a side):
    # sharp, no advice; blurred by 2 pixels, nothing is read face up and the backs tell the blur.
    image = load_image(FIXTURES / "pile_before_the_game.jpg")
    sharp = reader.read(image)
    assert sharp.tiles == () and len(sharp.face_down) > 5
    assert not any("blurred" in line for line in sharp.advice)
    blurred = reader.read(cv2.GaussianBlur(image, (0, 0), 2.0))
    assert blurred.tiles == ()
    (advice,) = [line for line in blurred.advice if "blurred" in line]
    assert "focus the camera" in advice
