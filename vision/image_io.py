"""Loading photos safely: size limits before decoding, truncated and non-image files refused."""

from __future__ import annotations

import io
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, UnidentifiedImageError

MAX_PIXELS = 40_000_000  # a 40-megapixel photo; a bigger one is refused before it is decoded
MAX_BYTES = 60 * 1024 * 1024


class ImageError(ValueError):
    """A file that is not a usable photo; the message is one line for the user. ``kind`` says
    why, for callers that answer with a status code: too_large, not_image or damaged."""

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
        with Image.open(io.BytesIO(data)) as header:  # reads the header only
            width, height = header.size
            kind = header.format
    except Image.DecompressionBombError:
        too_many = f"{name}: the picture is far more than {MAX_PIXELS // 1_000_000} megapixels"
        raise ImageError(too_many, "too_large") from None
    except (UnidentifiedImageError, OSError, ValueError):
        raise ImageError(f"{name}: not an image (or a format that is not supported)", "not_image") from None
    if width * height > MAX_PIXELS:
        raise ImageError(f"{name}: {width}x{height} is more than {MAX_PIXELS // 1_000_000} megapixels", "too_large")
    if _truncated(data, kind):
        raise ImageError(f"{name}: the {kind} file is truncated")
    pixels = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    if pixels is None or pixels.shape[:2] != (height, width):
        raise ImageError(f"{name}: the {kind} data cannot be decoded")
    return pixels


def _truncated(data: bytes, kind: str | None) -> bool:
    """JPEG and PNG carry an end marker; a file cut short has lost it."""
    tail = data[-64:]
    if kind == "JPEG":
        return b"\xff\xd9" not in tail
    if kind == "PNG":
        return b"IEND" not in tail
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
