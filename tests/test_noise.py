"""Sensor noise: measured in a photo, and smoothed before reading where it is far above the studio's."""

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.evaluate import compare
from vision.image_io import load_image
from vision.noise import NOISY_ABOVE, SMOOTHING_LEVELS, noise_level, smoothed, smoothing_for
from vision.reader import Reader

FIXTURES = Path(__file__).resolve().parent / "fixtures"
SAMPLES = Path(__file__).resolve().parent.parent / "samples"


def noisy(image: np.ndarray, level: float, seed: int = 0) -> np.ndarray:
    """The image with Gaussian noise of ``level`` grey levels added, as a camera in dim light adds it."""
    noise = np.random.default_rng(seed).normal(0, level, image.shape)
    return np.clip(image + noise, 0, 255).astype(np.uint8)


@pytest.mark.parametrize("level", [3, 6, 10, 20])
def test_white_noise_is_measured_at_its_level(level):
    grey_card = np.full((480, 640, 3), 128, np.uint8)
    assert noise_level(noisy(grey_card, level)) == pytest.approx(level, rel=0.1)


def test_edges_and_smooth_shading_are_not_noise():
    ramp = np.tile(np.linspace(0, 255, 640), (480, 1)).astype(np.uint8)
    ramp[:, 320:] = 30  # a hard edge too
    assert noise_level(cv2.merge([ramp] * 3)) < 0.5
    assert noise_level(load_image(SAMPLES / "board.jpg")) < NOISY_ABOVE  # numbers, bevels and a table
    assert noise_level(np.full((30, 30, 3), 90, np.uint8)) == 0.0  # smaller than the window


def test_only_a_photo_noisier_than_the_studios_is_smoothed():
    assert smoothing_for(NOISY_ABOVE) is None
    assert SMOOTHING_LEVELS[0] <= smoothing_for(NOISY_ABOVE + 0.1) < smoothing_for(12.0) <= SMOOTHING_LEVELS[1]
    assert smoothing_for(1000.0) == SMOOTHING_LEVELS[1]
    photo = load_image(SAMPLES / "board.jpg")
    assert smoothed(photo, None) is photo
    quieter = smoothed(noisy(photo, 12), smoothing_for(12.0))
    assert noise_level(quieter) < NOISY_ABOVE < noise_level(noisy(photo, 12))


@pytest.fixture(scope="module")
def reader():
    return Reader()


def test_a_noisy_photo_is_read_as_the_clean_one_and_says_why_it_was_smoothed(reader):
    # A board of 39 small tiles (fixture of a camera kept still): with noise of 12 grey levels
    # read as it is, the finder took specks of noise for 43 tiles and missed 10 (2026-11-30).
    image = load_image(FIXTURES / "board_kept_still.jpg")
    truth = json.loads((FIXTURES / "board_kept_still.json").read_text())
    reading = reader.read(noisy(image, 12))
    row = compare(truth, reading.to_dict())
    assert (row["found"], row["missed"], row["extra"], row["wrong_corners"]) == (39, 0, 0, 0)
    (advice,) = [line for line in reading.advice if "noisy" in line]
    assert "more light" in advice and advice in reading.notes
    assert "denoise" in reading.timing_ms
    assert not any("noisy" in line for line in reader.read(image).advice)


def test_noise_on_a_bare_table_is_not_read_as_tiles(reader):
    image = load_image(FIXTURES / "bare_table.jpg")
    reading = reader.read(noisy(image, 12))
    assert reading.tiles == () and reading.unread == ()
