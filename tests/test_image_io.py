"""Photos are checked before decoding: non-images, truncated files and pixel bombs are refused."""

import io
import os
import struct
import warnings

import cv2
import numpy as np
import pytest
from PIL import Image, ImageOps

from vision.image_io import EXIF_ORIENTATION, ImageError, decode_image, lines_printed_by, load_image


def encoded(kind=".jpg", shape=(48, 64, 3), noisy=False):
    pixels = np.random.default_rng(0).integers(0, 255, shape, np.uint8) if noisy else np.full(shape, 128, np.uint8)
    ok, data = cv2.imencode(kind, pixels)
    assert ok
    return data.tobytes()


@pytest.mark.parametrize("kind", [".jpg", ".png", ".bmp", ".webp"])
def test_decodes_common_formats(kind):
    assert decode_image(encoded(kind)).shape == (48, 64, 3)


def test_grey_photos_come_back_as_colour():
    assert decode_image(encoded(".png", (30, 40))).shape == (30, 40, 3)


@pytest.mark.parametrize(("kind", "bits"), [(".png", 16), (".png", 12), (".tif", 10), (".png", 8)])
def test_16_bit_photos_keep_the_bits_they_use(kind, bits):
    # A 12-bit camera's values in a 16-bit file: OpenCV alone kept their top byte, a black picture.
    pixels = np.random.default_rng(1).integers(0, 256, (30, 40, 3), np.uint16)
    pixels[0, 0] = 255
    ok, data = cv2.imencode(kind, pixels << (bits - 8) if bits > 8 else pixels.astype(np.uint8))
    assert ok
    decoded = decode_image(data.tobytes())
    assert decoded.dtype == np.uint8 and np.array_equal(decoded, pixels)


def test_grey_16_bit_photos_come_back_as_colour():
    grey = np.arange(30 * 40, dtype=np.uint16).reshape(30, 40) * 50
    assert decode_image(cv2.imencode(".png", grey)[1].tobytes()).shape == (30, 40, 3)


def with_orientation(pixels: np.ndarray, orientation: int, kind: str) -> bytes:
    """The BGR pixels encoded as they are, with an EXIF tag telling how to turn them."""
    picture = Image.fromarray(np.ascontiguousarray(pixels[:, :, ::-1]))
    exif = picture.getexif()
    exif[EXIF_ORIENTATION] = orientation
    buffer = io.BytesIO()
    picture.save(buffer, kind, exif=exif.tobytes(), **({"quality": 95} if kind == "JPEG" else {}))
    return buffer.getvalue()


@pytest.mark.parametrize("orientation", range(1, 9))
def test_photos_are_turned_as_their_exif_orientation_says(orientation):
    # A phone stores a portrait photo as its sensor read it, sideways, with a tag saying how
    # to turn it; before, the turned size did not match the stored one and the photo was refused.
    pixels = np.random.default_rng(orientation).integers(0, 255, (30, 50, 3), np.uint8)
    data = with_orientation(pixels, orientation, "PNG")
    upright = np.asarray(ImageOps.exif_transpose(Image.open(io.BytesIO(data))))[:, :, ::-1]
    assert np.array_equal(decode_image(data), upright)
    assert decode_image(with_orientation(pixels, orientation, "JPEG")).shape == upright.shape


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "empty"),
        (b"{ not a photo }", "not an image"),
        (b"\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic" + bytes(64), "HEIC"),
        (encoded(".jpg", noisy=True)[:-500], "truncated"),
        (encoded(".png", noisy=True)[:-30], "truncated"),
    ],
)
def test_bad_data(data, message):
    with pytest.raises(ImageError, match=message):
        decode_image(data, "upload")


def with_a_thumbnail(jpeg: bytes) -> bytes:
    """The JPEG with an EXIF segment holding a small JPEG (a camera's thumbnail), whose own end
    marker comes before the picture's data."""
    exif = b"Exif\x00\x00" + encoded(".jpg", (8, 8, 3))
    return jpeg[:2] + b"\xff\xe1" + (len(exif) + 2).to_bytes(2, "big") + exif + jpeg[2:]


def test_data_a_phone_appends_after_the_picture_is_no_truncation():
    # A Samsung's trailer, a motion photo's video after the JPEG, a tool's note after a PNG: the
    # end marker was looked for in the file's last bytes, and such photos were refused as truncated.
    jpeg = with_a_thumbnail(encoded(".jpg", noisy=True))
    motion_photo = jpeg + b"\x00\x00\x00\x18ftypmp42" + bytes(range(256)) * 400
    assert decode_image(motion_photo).shape == (48, 64, 3)
    assert decode_image(encoded(".png", noisy=True) + b"appended by a tool" * 20).shape == (48, 64, 3)
    assert decode_image(motion_photo[: len(jpeg) + 1000]).shape == (48, 64, 3)  # its video cut short
    with pytest.raises(ImageError, match="truncated"):  # the thumbnail's end marker is not the picture's
        decode_image(jpeg[:-500])


def test_pixel_bomb_is_refused_before_decoding():
    bomb = encoded(".png", (7000, 8000))  # 56 megapixels of one colour: a small file
    assert len(bomb) < 1_000_000
    with pytest.raises(ImageError, match="megapixels"):
        decode_image(bomb)


def test_a_picture_over_pillows_own_limit_is_refused_in_one_line():
    # A BMP header claiming 12000x9000 (108 megapixels, over the 89 at which Pillow warns of a
    # bomb): the warning printed a source line on the command line before our own message.
    header = bytearray(encoded(".bmp", (2, 2, 3)))
    header[18:26] = struct.pack("<ii", 12000, 9000)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(ImageError, match="12000x9000 is more than 52 megapixels"):
            decode_image(bytes(header))


@pytest.mark.parametrize(
    ("shape", "message"), [((1, 4096), "too small"), ((23, 400), "too small"), ((30, 4000), "narrow")]
)
def test_a_picture_that_cannot_show_a_tile_is_refused(shape, message):
    # A picture 1 pixel wide and 4096 high crashed the look from above, and one 4096 wide and 1
    # high read tiles on the board: the finder stretched its line of noise to 8 pixels.
    for height, width in (shape, shape[::-1]):
        with pytest.raises(ImageError, match=message) as refused:
            decode_image(encoded(".png", (height, width, 3), noisy=True))
        assert refused.value.kind == "too_small"
    assert decode_image(encoded(".png", (24, 480, 3))).shape == (24, 480, 3)  # the least that is read


def test_a_50_megapixel_phone_photo_is_decoded():
    assert decode_image(encoded(".jpg", (6120, 8160, 3))).shape == (6120, 8160, 3)


def test_load_image_reports_missing_files(tmp_path):
    with pytest.raises(ImageError, match="No such file"):
        load_image(tmp_path / "missing.jpg")
    path = tmp_path / "photo.jpg"
    path.write_bytes(encoded())
    assert load_image(path).shape == (48, 64, 3)


def damaged_jpeg(zeroed: slice) -> bytes:
    """A smooth 320x240 JPEG with part of its compressed data (counted from the start of the
    scan) overwritten with zeros, as a bad disk or a broken transfer leaves it."""
    pixels = cv2.GaussianBlur(np.random.default_rng(0).integers(0, 255, (240, 320, 3), np.uint8), (9, 9), 3)
    data = bytearray(cv2.imencode(".jpg", pixels)[1].tobytes())
    scan = data.find(b"\xff\xda")
    start, stop = scan + zeroed.start, scan + zeroed.stop
    data[start:stop] = bytes(stop - start)
    return bytes(data)


def test_a_damaged_jpeg_is_refused_in_one_line_of_ours(capfd):
    # libjpeg decodes past lost data (the picture comes out shifted or grey in part) and printed
    # its own "Corrupt JPEG data" line on stderr; the photo was then read as if whole.
    with pytest.raises(ImageError, match=r"JPEG data is damaged \(Corrupt JPEG data: premature end") as refused:
        decode_image(damaged_jpeg(slice(500, 900)), "upload")
    assert refused.value.kind == "damaged"
    assert capfd.readouterr().err == ""


def test_a_png_that_cannot_be_decoded_says_why_in_one_line(capfd):
    data = bytearray(encoded(".png", noisy=True))
    compressed = data.find(b"IDAT") + 10
    data[compressed : compressed + 30] = bytes(b ^ 0x55 for b in data[compressed : compressed + 30])
    with pytest.raises(ImageError, match=r"PNG data cannot be decoded \(libpng error: "):
        decode_image(bytes(data), "upload")
    assert capfd.readouterr().err == ""


def test_what_decoders_say_of_harmless_quirks_is_not_shown(capfd):
    # Bytes skipped between markers (some cameras write them) and a colour profile libpng finds
    # wrong leave the picture whole: it is read, and the libraries' warnings are kept off stderr.
    skipped = damaged_jpeg(slice(20, 120))[:-2] + bytes(8) + b"\xff\xd9"
    assert decode_image(skipped).shape == (240, 320, 3)
    buffer = io.BytesIO()
    Image.new("RGB", (40, 30)).save(buffer, "PNG", icc_profile=bytes(200))
    assert decode_image(buffer.getvalue()).shape == (30, 40, 3)
    assert capfd.readouterr().err == ""


def test_others_lines_on_stderr_while_a_photo_is_decoded_are_still_shown(capfd):
    with lines_printed_by(lambda line: line.startswith("libpng")) as said:
        os.write(2, b"libpng warning: iCCP: known incorrect sRGB profile\n")
        os.write(2, b"a log line of the service\n")
    assert said == ["libpng warning: iCCP: known incorrect sRGB profile"]
    assert capfd.readouterr().err == "a log line of the service\n"


def test_a_photo_is_decoded_where_no_temporary_file_can_be_made(monkeypatch):
    # A container whose temporary folder is read-only: the decoders' lines are shown, as before.
    def refused(process):
        raise PermissionError("read-only file system")

    monkeypatch.setattr("vision.image_io._stderr_catcher", refused)
    assert decode_image(encoded(".jpg")).shape == (48, 64, 3)
    with pytest.raises(ImageError, match="truncated"):
        decode_image(encoded(".jpg", noisy=True)[:-500])
