"""Tile faces: the top of a tile drawn flat, in one of several real-world styles.

A face is drawn once per tile in a canonical triangle (apex up, corners clockwise) and then warped
onto the tile's place in the photo, so corner ``i`` of the face lands on corner ``i`` of the cell.
Each number's top points to the tile's centre (PHYSICAL.md), pips sit in the same place.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import cache

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from datasets.fonts import FONT_NAMES, font_files

FACE_PX = 160  # canonical face texture size
SIDE_PX = 140.0  # side of the canonical triangle inside it
_H = SIDE_PX * math.sqrt(3) / 2
_TOP = (FACE_PX - _H) / 2
FACE_CORNERS = np.array(
    [[FACE_PX / 2, _TOP], [FACE_PX / 2 + SIDE_PX / 2, _TOP + _H], [FACE_PX / 2 - SIDE_PX / 2, _TOP + _H]],
    dtype=np.float32,
)
FACE_CENTRE = FACE_CORNERS.mean(axis=0)

# Colours are BGR, as OpenCV stores images.
VALUE_COLOURS = [
    (20, 20, 20),
    (40, 40, 200),
    (190, 90, 20),
    (40, 140, 30),
    (0, 120, 230),
    (140, 40, 130),
    (30, 70, 120),
]
PIP_COLOURS = [(0, 0, 0), (245, 245, 245), (40, 90, 20), (30, 210, 235), (190, 80, 20), (35, 35, 200), (0, 140, 255)]


# Dot positions of each count in units of the dot spacing, y pointing away from the tile centre.
# Editions arrange their pips differently; a reader that knows one arrangement only would count
# by shape alone.
PIP_LAYOUTS: list[dict[int, list[tuple[float, float]]]] = [
    {  # dice-like groups
        0: [],
        1: [(0, 0)],
        2: [(-0.5, 0), (0.5, 0)],
        3: [(-0.55, 0.35), (0.55, 0.35), (0, -0.5)],
        4: [(-0.5, -0.5), (0.5, -0.5), (-0.5, 0.5), (0.5, 0.5)],
        5: [(-0.6, -0.6), (0.6, -0.6), (0, 0), (-0.6, 0.6), (0.6, 0.6)],
        6: [(-0.5, -0.8), (0.5, -0.8), (-0.5, 0), (0.5, 0), (-0.5, 0.8), (0.5, 0.8)],
    },
    {  # rows across the corner
        0: [],
        1: [(0, 0)],
        2: [(0, -0.5), (0, 0.5)],
        3: [(-0.9, 0), (0, 0), (0.9, 0)],
        4: [(-0.9, -0.45), (0, -0.45), (0.9, -0.45), (0, 0.45)],
        5: [(-0.9, -0.45), (0, -0.45), (0.9, -0.45), (-0.45, 0.45), (0.45, 0.45)],
        6: [(-0.9, -0.45), (0, -0.45), (0.9, -0.45), (-0.9, 0.45), (0, 0.45), (0.9, 0.45)],
    },
    {  # pyramids and a cross
        0: [],
        1: [(0, 0)],
        2: [(-0.5, 0), (0.5, 0)],
        3: [(-0.55, -0.35), (0.55, -0.35), (0, 0.5)],
        4: [(0, -0.9), (-0.8, 0.45), (0.8, 0.45), (0, 0)],
        5: [(0, 0), (0, -0.9), (0, 0.9), (-0.9, 0), (0.9, 0)],
        6: [(-0.9, 0.5), (0, 0.5), (0.9, 0.5), (-0.45, -0.3), (0.45, -0.3), (0, -1.1)],
    },
]


@dataclass(frozen=True)
class TileStyle:
    """How one kind of real set looks. ``ink`` None means numbers coloured by value."""

    name: str
    face: tuple[int, int, int]
    ink: tuple[int, int, int] | None
    pips: bool = False
    pin: bool = False
    grain: bool = False
    back: tuple[int, int, int] | None = None  # face-down colour, default a shade of the face
    # The edition's layout, as fractions of a side (``along``: of the way from corner to centre);
    # each face draws its own value from the range, as hand-made sets vary a little.
    number_height: tuple[float, float] = (0.17, 0.23)
    number_along: tuple[float, float] = (0.42, 0.55)
    pip_layout: int = 0  # index into PIP_LAYOUTS
    pip_spacing: tuple[float, float] = (0.085, 0.1)
    pip_along: tuple[float, float] = (0.45, 0.55)
    border: float = 0.0  # a printed line along the face's edge, as a fraction of a side (0: none)

    def __post_init__(self) -> None:
        if not 0 <= self.pip_layout < len(PIP_LAYOUTS):
            raise ValueError(f"no pip layout {self.pip_layout}")
        if not 0 <= self.border < 0.1:
            raise ValueError(f"a border is a thin line, not {self.border} of a side")
        for low, high in (self.number_height, self.number_along, self.pip_spacing, self.pip_along):
            if not 0 < low <= high < 1:
                raise ValueError(f"a layout range must lie in (0, 1) and run upwards, not {low}..{high}")


STYLES: dict[str, TileStyle] = {
    "ivory": TileStyle("ivory", face=(196, 226, 238), ink=(25, 25, 25), pin=True),
    "white-colour": TileStyle("white-colour", face=(240, 242, 243), ink=None),
    "black-gold": TileStyle("black-gold", face=(28, 28, 30), ink=(60, 170, 215), pin=True),
    "black-white": TileStyle("black-white", face=(30, 30, 30), ink=(235, 235, 235)),
    "wood-pips": TileStyle("wood-pips", face=(60, 105, 150), ink=None, pips=True, grain=True),
}

LIGHT_FACE = 150  # a face whose every channel is above this is a light (cream or white) one
WHITE_FACE = 248  # the whitest face
BLACK_INK = (25, 25, 25)
BORDERED_EDITIONS = 0.3  # the share of other editions with a printed line along the edge

HERSHEY_FONTS = [cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_TRIPLEX, cv2.FONT_HERSHEY_COMPLEX]
FONT_COUNT = len(FONT_NAMES) + len(HERSHEY_FONTS)  # the same on every machine (datasets.fonts)


@cache
def glyph(font_index: int, digit: int, height: int) -> np.ndarray:
    """A digit as a float alpha mask about ``height`` px tall, its ink centred in the array."""
    size = height * 2
    if font_index < len(FONT_NAMES):
        font = ImageFont.truetype(font_files()[font_index], int(height * 1.35))
        canvas = Image.new("L", (size, size), 0)
        ImageDraw.Draw(canvas).text((size / 2, size / 2), str(digit), fill=255, font=font, anchor="mm")
        mask = np.asarray(canvas, dtype=np.float32) / 255
    else:
        face = HERSHEY_FONTS[font_index - len(FONT_NAMES)]
        scale = cv2.getFontScaleFromHeight(face, height, 2)
        (w, h), _ = cv2.getTextSize(str(digit), face, scale, 2)
        mask = np.zeros((size, size), np.uint8)
        cv2.putText(mask, str(digit), ((size - w) // 2, (size + h) // 2), face, scale, 255, 2, cv2.LINE_AA)
        mask = mask.astype(np.float32) / 255
    ys, xs = np.nonzero(mask > 0.1)
    if len(xs):  # recentre on the ink so every font sits at the same spot
        shift = np.float32([[1, 0, size / 2 - (xs.min() + xs.max()) / 2], [0, 1, size / 2 - (ys.min() + ys.max()) / 2]])
        mask = cv2.warpAffine(mask, shift, (size, size))
    return mask


def another_edition(style: TileStyle, rng: np.random.Generator) -> TileStyle:
    """The same look in another edition's layout: numbers from small and deep in the tile to
    large and near the tip, pips in another arrangement and spacing. A light printed set also
    takes any tone from cream to pure white, and may print its numbers black where the studio's
    edition colours them (PHYSICAL.md: white sets exist, and coloured numbers are only some
    editions'), so that neither the face's tone nor the ink's colour tells the number. Some
    faces carry a printed line along the edge (like the dark seam of tiles joined on a dark
    table), which the reader must look past."""
    height = rng.uniform(0.13, 0.25)
    along = rng.uniform(0.38 if height < 0.22 else 0.42, 0.62)  # a large number needs room
    spacing = rng.uniform(0.075, 0.11)
    pip_along = rng.uniform(0.42, 0.58)
    pip_layout = int(rng.integers(len(PIP_LAYOUTS)))
    face, ink = style.face, style.ink
    if not style.pips and min(style.face) > LIGHT_FACE:
        whiteness = rng.uniform()
        face = tuple(round(c + (WHITE_FACE - c) * whiteness) for c in style.face)
        if ink is None and rng.uniform() < 0.5:
            ink = BLACK_INK
    border = rng.uniform(0.01, 0.025) if rng.uniform() < BORDERED_EDITIONS else 0.0
    return replace(
        style,
        face=face,
        ink=ink,
        border=border,
        number_height=(height * 0.95, height * 1.05),
        number_along=(along - 0.02, along + 0.02),
        pip_layout=pip_layout,
        pip_spacing=(spacing * 0.95, spacing * 1.05),
        pip_along=(pip_along - 0.03, pip_along + 0.03),
    )


@cache
def _outline(radius_step: int) -> tuple[np.ndarray, np.ndarray]:
    """Alpha of the face with rounded corners (radius in steps of 1 px) and its soft bevel shade."""
    alpha = _rounded_triangle_mask(float(radius_step))
    rim = cv2.GaussianBlur(alpha, (0, 0), 2.5)
    return alpha, (0.82 + 0.18 * rim)[..., None]


@cache
def _grain_noise() -> np.ndarray:
    """A fixed field of fine noise; each face takes a random shift of it."""
    return np.random.default_rng(0).normal(0, 2.5, (2 * FACE_PX, 2 * FACE_PX, 1)).astype(np.float32)


def _rounded_triangle_mask(radius: float) -> np.ndarray:
    """The face outline with rounded corners, anti-aliased, as float 0..1."""
    inset = FACE_CORNERS + (FACE_CENTRE - FACE_CORNERS) * (2 * radius / (SIDE_PX / math.sqrt(3)))
    mask = np.zeros((FACE_PX, FACE_PX), np.uint8)
    points = np.round(inset * 16).astype(np.int32)
    cv2.fillConvexPoly(mask, points, 255, cv2.LINE_AA, shift=4)
    cv2.polylines(mask, [points], True, 255, max(1, int(2 * radius)), cv2.LINE_AA, shift=4)
    return mask.astype(np.float32) / 255


def draw_face(
    style: TileStyle,
    numbers: tuple[int, int, int] | None,
    rng: np.random.Generator,
    font_index: int = 0,
) -> tuple[np.ndarray, np.ndarray]:
    """A face texture (BGR float 0..255) and its alpha; ``numbers`` None draws a blank back."""
    base = np.array(style.face if numbers is not None else (style.back or style.face), np.float32)
    base = np.clip(base * rng.uniform(0.9, 1.08) + rng.normal(0, 6, 3), 0, 255)
    face = np.empty((FACE_PX, FACE_PX, 3), np.float32)
    face[:] = base
    if style.grain:
        ys, xs = np.mgrid[0:FACE_PX, 0:FACE_PX].astype(np.float32)
        angle = rng.uniform(0, math.pi)
        u = xs * math.cos(angle) + ys * math.sin(angle)
        grain = np.sin(u * rng.uniform(0.15, 0.35) + 3 * np.sin(u * 0.03 + ys * 0.02)) * rng.uniform(8, 18)
        face += grain[..., None]
    dx, dy = rng.integers(0, FACE_PX, 2)
    face += _grain_noise()[dy : dy + FACE_PX, dx : dx + FACE_PX]
    # A soft bevel: the rim is a little darker, as light falls off the rounded edge.
    alpha, bevel = _outline(round(rng.uniform(0.04, 0.09) * SIDE_PX))
    face *= bevel
    if style.border:
        _draw_border(face, base, style.border)
    if numbers is not None:
        if style.pips:
            _draw_pips(face, style, numbers, rng)
        else:
            _draw_numbers(face, style, numbers, rng, font_index)
        if style.pin:
            _draw_pin(face, rng)
    return np.clip(face, 0, 255), alpha


def _draw_border(face: np.ndarray, base: np.ndarray, width: float) -> None:
    """A dark line of ``width`` (a fraction of a side) just inside the face's edge."""
    inset = FACE_CORNERS + (FACE_CENTRE - FACE_CORNERS) * 0.08
    points = np.round(inset * 16).astype(np.int32)
    thickness = max(1, round(width * SIDE_PX))
    cv2.polylines(face, [points], True, tuple(float(c) for c in base * 0.45), thickness, cv2.LINE_AA, shift=4)


def _corner_frame(corner: int, along: float) -> tuple[np.ndarray, np.ndarray, float]:
    """Where a corner's mark sits (``along`` of the way to the centre), the direction to the
    centre, and the rotation that turns a glyph's top toward the centre (degrees, OpenCV sense)."""
    tip = FACE_CORNERS[corner]
    towards = FACE_CENTRE - tip
    towards = towards / np.linalg.norm(towards)
    spot = tip + (FACE_CENTRE - tip) * along
    # Upright glyph top is (0, -1); rotate it onto ``towards``.
    angle = math.degrees(math.atan2(towards[0], -towards[1]))
    return spot, towards, angle


def _draw_numbers(face, style: TileStyle, numbers, rng: np.random.Generator, font_index: int) -> None:
    height = int(SIDE_PX * rng.uniform(*style.number_height))
    along = rng.uniform(*style.number_along)
    for corner, number in enumerate(numbers):
        mask = glyph(font_index, number, height)
        spot, _, angle = _corner_frame(corner, along)
        size = mask.shape[0]
        # Warp the glyph only into the square around its spot, not the whole face.
        x0, y0 = (np.clip(spot - size / 2, 0, FACE_PX - size)).astype(int)
        turn = cv2.getRotationMatrix2D((size / 2, size / 2), -angle + rng.normal(0, 2), 1.0)
        turn[:, 2] += spot - size / 2 - (x0, y0)
        alpha = cv2.warpAffine(mask, turn, (size, size))[..., None]
        ink = np.array(style.ink if style.ink is not None else VALUE_COLOURS[number], np.float32)
        roi = face[y0 : y0 + size, x0 : x0 + size]
        roi *= 1 - alpha
        roi += alpha * ink


def _draw_pips(face, style: TileStyle, numbers, rng: np.random.Generator) -> None:
    spacing = SIDE_PX * rng.uniform(*style.pip_spacing)
    dot = max(2, int(spacing * rng.uniform(0.28, 0.36)))
    for corner, count in enumerate(numbers):
        spot, towards, _ = _corner_frame(corner, rng.uniform(*style.pip_along))
        across = np.array([-towards[1], towards[0]])
        colour = tuple(float(c) for c in PIP_COLOURS[count])
        for dx, dy in PIP_LAYOUTS[style.pip_layout][count]:
            centre = spot + spacing * (dx * across - dy * towards)
            cv2.circle(face, (int(centre[0] * 16), int(centre[1] * 16)), dot * 16, colour, -1, cv2.LINE_AA, 4)


def _draw_pin(face, rng: np.random.Generator) -> None:
    centre = (int(FACE_CENTRE[0] * 16), int(FACE_CENTRE[1] * 16))
    radius = int(SIDE_PX * rng.uniform(0.035, 0.05) * 16)
    cv2.circle(face, centre, radius, (40, 130, 175), -1, cv2.LINE_AA, 4)
    cv2.circle(
        face, (centre[0] - radius // 3, centre[1] - radius // 3), radius // 3, (170, 220, 240), -1, cv2.LINE_AA, 4
    )
