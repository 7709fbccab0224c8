"""Loading photos safely: size limits before decoding, truncated and non-image files refused."""

from __future__ import annotations

import io
import os
import tempfile
import threading
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import BinaryIO

import cv2
import numpy as np
from PIL import Image, UnidentifiedImageError

MAX_PIXELS = 52_000_000  # a 50-megapixel phone photo (8160x6120); a bigger one is refused before it is decoded
MAX_BYTES = 60 * 1024 * 1024
# A picture under this many pixels across, or a strip this many times longer than it is wide,
# cannot show a tile: the finder's view of it (960 pixels long) would be a few pixels across,
# where a line of noise stretched to its input size read as tiles, and a look shrunk further
# had no pixel left at all.
MIN_SIDE = 24
MAX_ELONGATION = 20
EXIF_ORIENTATION = 0x0112
HEIF_BRANDS = {b"heic", b"heix", b"hevc", b"hevx", b"heim", b"heis", b"mif1", b"msf1"}
# What the image libraries under OpenCV print on stderr while decoding. libjpeg goes on past
# damaged data and says so (the picture comes out shifted, recoloured or grey in part), and libpng
# says why before OpenCV gives up; but bytes skipped between markers (some cameras write them)
# leave the picture whole. OpenCV's own log and libpng's warnings (a colour profile it finds
# wrong) say nothing of the pixels.
DAMAGE_SAID = ("Corrupt JPEG data", "Premature end of JPEG", "Invalid JPEG", "Bogus", "libpng error")
SKIPPED_WITHOUT_HARM = "extraneous bytes before marker"
ALSO_SAID = ("libpng warning", "[ WARN", "[ INFO", "[ERROR")
_STDERR = threading.Lock()  # one block at a time holds the process's stderr (``lines_printed_by``)


class ImageError(ValueError):
    """A file that is not a usable photo; the message is one line for the user. ``kind`` says
    why, for callers that answer with a status code: too_large, too_small, not_image or damaged."""

    def __init__(self, message: str, kind: str = "damaged") -> None:
        super().__init__(message)
        self.kind = kind


def decode_image(data: bytes, name: str = "image") -> np.ndarray:
    """BGR uint8 pixels of an encoded photo (JPEG, PNG, WebP, BMP, TIFF)."""
    if len(data) > MAX_BYTES:
        raise ImageError(f"{name}: file is larger than {MAX_BYTES // 2**20} MiB", "too_large")
    if not data:
        raise ImageError(f"{name}: file is empty", "not_image")
    try:
        with warnings.catch_warnings():
            # Pillow warns of pictures over its own limit; ours is lower and says so in one line.
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data)) as header:  # reads the header only
                width, height = header.size
                kind = header.format
                orientation = _orientation(header)
    except Image.DecompressionBombError:
        too_many = f"{name}: the picture is far more than {MAX_PIXELS // 1_000_000} megapixels"
        raise ImageError(too_many, "too_large") from None
    except (UnidentifiedImageError, OSError, ValueError):
        if _is_heif(data):
            heif = f"{name}: a HEIC/HEIF photo (an iPhone's usual format) is not supported: share it as JPEG"
            raise ImageError(heif, "not_image") from None
        raise ImageError(f"{name}: not an image (or a format that is not supported)", "not_image") from None
    if width * height > MAX_PIXELS:
        raise ImageError(f"{name}: {width}x{height} is more than {MAX_PIXELS // 1_000_000} megapixels", "too_large")
    check_size(width, height, name)
    if _truncated(data, kind):
        raise ImageError(f"{name}: the {kind} file is truncated")
    with lines_printed_by(_said_by_a_decoder) as said:
        flags = cv2.IMREAD_COLOR | cv2.IMREAD_ANYDEPTH | cv2.IMREAD_IGNORE_ORIENTATION
        pixels = cv2.imdecode(np.frombuffer(data, np.uint8), flags)
    damage = [line for line in said if line.startswith(DAMAGE_SAID) and SKIPPED_WITHOUT_HARM not in line]
    if pixels is None or pixels.shape[:2] != (height, width):
        raise ImageError(f"{name}: the {kind} data cannot be decoded" + (f" ({damage[0]})" if damage else ""))
    if damage:
        raise ImageError(f"{name}: the {kind} data is damaged ({damage[0]}): parts of the picture are lost")
    return _upright(_eight_bits(pixels), orientation)


def _eight_bits(pixels: np.ndarray) -> np.ndarray:
    """8-bit pixels of a photo decoded at 8 or 16 bits. A 16-bit file often holds a 10-, 12- or
    14-bit camera's values, which kept to their top 8 of 16 bits (as OpenCV would) left the
    picture nearly black; so the bits used are kept, the brightest value in the top bit."""
    if pixels.dtype == np.uint8:
        return pixels
    used = max(8, int(pixels.max()).bit_length())
    return (pixels >> (used - 8)).astype(np.uint8)


def _said_by_a_decoder(line: str) -> bool:
    """Whether a line on stderr is libjpeg's, libpng's or OpenCV's log's."""
    return line.startswith(DAMAGE_SAID + ALSO_SAID)


@contextmanager
def lines_printed_by(theirs: Callable[[str], bool]) -> Iterator[list[str]]:
    """The lines that C libraries (an image decoder, FFmpeg, OpenCV's log) print straight to the
    process's stderr while the block runs, those that are ``theirs`` caught instead of shown, so
    that bad input gives one line of ours and nothing else. Other lines (another thread's, in the
    service) are written out again afterwards. Where that cannot be done (no stderr, no
    writable temporary folder) the block runs as it is, the libraries' lines shown."""
    said: list[str] = []
    with _STDERR:
        try:
            caught, shown = _stderr_catcher(os.getpid()), os.dup(2)
        except OSError:
            caught = shown = None
        if caught is None:
            yield said
            return
        caught.seek(0)
        caught.truncate()
        os.dup2(caught.fileno(), 2)
        try:
            yield said
        finally:
            os.dup2(shown, 2)
            os.close(shown)
            caught.seek(0)
            for line in caught.read().decode(errors="replace").splitlines():
                if theirs(line):
                    said.append(line.strip())
                else:
                    os.write(2, (line + "\n").encode())


@cache
def _stderr_catcher(process: int) -> BinaryIO:
    """The temporary file ``lines_printed_by`` points stderr at, made once a process (a forked
    one must not share its parent's) and emptied before each use, rather than made and deleted
    for every photo or frame."""
    return tempfile.TemporaryFile()


def as_photo(pixels: np.ndarray, name: str = "image") -> np.ndarray:
    """(H, W, 3) BGR uint8 pixels of a photo given as BGR, BGRA or grey (H, W) or (H, W, 1)
    8- or 16-bit pixels, as OpenCV reads them (16 bits kept to the bits they use, as
    ``decode_image`` keeps them); ImageError for other pixels (floats, another shape) or a
    picture that cannot show a tile (``check_size``)."""
    pixels = np.asarray(pixels)
    if pixels.dtype == np.uint16:
        pixels = _eight_bits(pixels)
    if pixels.dtype != np.uint8:
        raise ImageError(f"{name}: pixels must be 8- or 16-bit (uint8, uint16) BGR, got {pixels.dtype}", "not_image")
    channels = pixels.shape[2] if pixels.ndim == 3 else 1 if pixels.ndim == 2 else 0
    if channels not in (1, 3, 4):
        raise ImageError(f"{name}: pixels must be (height, width, 3) BGR, got {pixels.shape}", "not_image")
    check_size(pixels.shape[1], pixels.shape[0], name)
    if channels == 3:
        return pixels
    return cv2.cvtColor(pixels, cv2.COLOR_BGRA2BGR if channels == 4 else cv2.COLOR_GRAY2BGR)


def check_size(width: int, height: int, name: str = "image") -> None:
    """ImageError (too_small) for a picture too small or too narrow to show a tile."""
    size = f"{name}: {width}x{height} is"
    if min(width, height) < MIN_SIDE:
        raise ImageError(f"{size} too small to show a tile ({MIN_SIDE} pixels across at least)", "too_small")
    if max(width, height) > MAX_ELONGATION * min(width, height):
        narrow = f"{size} over {MAX_ELONGATION} times as long as it is wide: too narrow to show a tile"
        raise ImageError(narrow, "too_small")


def _orientation(header: Image.Image) -> int:
    """The EXIF orientation tag, 1 (as stored) where there is none. A PNG may keep its EXIF
    after the pixels: in a file cut short it is lost, and the truncation check says so."""
    try:
        return int(header.getexif().get(EXIF_ORIENTATION, 1))
    except (OSError, ValueError, SyntaxError, TypeError):
        return 1


def _upright(pixels: np.ndarray, orientation: int) -> np.ndarray:
    """The pixels as the photo is meant to be seen: a camera stores a photo taken in portrait,
    or upside down, as its sensor read it and says how to turn it in the EXIF orientation tag
    (1 as stored; 2 mirrored; 3 half a turn; 4 flipped; 5 transposed; 6 a quarter turn
    clockwise; 7 transposed the other way; 8 a quarter turn anticlockwise). Unknown values
    leave the pixels as stored."""
    if orientation in (5, 7):
        pixels = np.swapaxes(pixels, 0, 1)  # transposed: then 5 is done, 7 needs half a turn
    turn = {3: 2, 6: -1, 7: 2, 8: 1}.get(orientation, 0)  # quarter turns anticlockwise
    pixels = np.rot90(pixels, turn)
    if orientation == 2:
        pixels = pixels[:, ::-1]
    elif orientation == 4:
        pixels = pixels[::-1]
    return np.ascontiguousarray(pixels)


def _is_heif(data: bytes) -> bool:
    """Whether the data is a HEIF image (an ISO box file whose brand is a HEIF one)."""
    return data[4:8] == b"ftyp" and data[8:12] in HEIF_BRANDS


def _truncated(data: bytes, kind: str | None) -> bool:
    """JPEG and PNG carry an end marker; a file cut short has lost it. It is looked for after
    the picture's data, not at the file's end: phones append data after it (a Samsung's trailer,
    a motion photo's video), which the decoders skip."""
    if kind == "JPEG":
        scan = _jpeg_first_scan(data)
        return data.find(b"\xff\xd9", scan) < 0 if scan is not None else b"\xff\xd9" not in data[-64:]
    if kind == "PNG":
        return not _png_has_its_end(data)
    return False


def _jpeg_first_scan(data: bytes) -> int | None:
    """Where a JPEG's first scan (its SOS marker) starts, the segments before it skipped by their
    lengths: the EXIF thumbnail among them is a JPEG with its own end marker. In the scans' data
    a 0xFF byte is never followed by 0xD9, so the first end marker after this is the picture's.
    None where the segments do not lead to a scan."""
    at = 2  # past the start-of-image marker
    while at + 4 <= len(data) and data[at] == 0xFF:
        marker = data[at + 1]
        if marker == 0xDA:
            return at
        if marker == 0xFF:  # fill byte
            at += 1
        elif marker == 0x01 or 0xD0 <= marker <= 0xD8:  # markers without a length
            at += 2
        else:
            at += 2 + int.from_bytes(data[at + 2 : at + 4], "big")
    return None


def _png_has_its_end(data: bytes) -> bool:
    """Whether a PNG's chunks, walked by their lengths, reach its IEND chunk."""
    at = 8  # past the signature
    while at + 12 <= len(data):
        if data[at + 4 : at + 8] == b"IEND":
            return True
        at += 12 + int.from_bytes(data[at : at + 4], "big")
    return False


def load_image(path: str | Path) -> np.ndarray:
    path = Path(path)
    try:
        if path.stat().st_size > MAX_BYTES:
            raise ImageError(f"{path}: file is larger than {MAX_BYTES // 2**20} MiB", "too_large")
        data = path.read_bytes()
    except OSError as error:
        raise ImageError(f"{path}: {error.strerror or error}") from None
    return decode_image(data, str(path))
