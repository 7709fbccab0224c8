"""Photos are checked before decoding: non-images, truncated files and pixel bombs are refused."""

import cv2
import numpy as np
import pytest

from vision.image_io import ImageError, decode_image, load_image


def encoded(kind=".jpg", shape=(48, 64, 3), noisy=False):
    pixels = np.random.default_rng(0).integers(0, 255, shape, np.uint8) if noisy else np.full(shape, 128, np.uint8)
    ok, data = cv2.imencode(kind, pixels)
    assert ok
    return data.tobytes()


@pytest.mark.parametrize("kind", [".jpg", ".png", ".bmp", ".webp"])
def test_decodes_common_formats(kind):
    assert decode_image(encoded(kind)).shape == (48, 64, 3)


def test_grey_photos_come_back_as_colour():
    assert decode_image(encoded(".png", (20, 30))).shape == (20, 30, 3)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "empty"),
        (b"{ not a photo }", "not an image"),
        (encoded(".jpg", noisy=True)[:-500], "truncated"),
        (encoded(".png", noisy=True)[:-30], "truncated"),
    ],
)
def test_bad_data(data, message):
    with pytest.raises(ImageError, match=message):
        decode_image(data, "upload")


def test_pixel_bomb_is_refused_before_decoding():
    bomb = encoded(".png", (6000, 8000))  # 48 megapixels of one colour: a small file
    assert len(bomb) < 1_000_000
    with pytest.raises(ImageError, match="megapixels"):
        decode_image(bomb)


def test_load_image_reports_missing_files(tmp_path):
    with pytest.raises(ImageError, match="No such file"):
        load_image(tmp_path / "missing.jpg")
    path = tmp_path / "photo.jpg"
    path.write_bytes(encoded())
    assert load_image(path).shape == (48, 64, 3)
