"""A second renderer, written apart from the studio, to check that the reader does not depend on
the studio's look (the reader is also judged on photos from renderers it never saw).

Nothing here is shared with the studio but the board: tiles are flat drawings (a face, a dark
printed edge, numbers in OpenCV's stroke fonts, no bevel, pin or side faces), pasted with one
affine map each onto a plain, striped, checked or mottled table seen at a tilt, with a few blank
backs and a little blur, noise and JPEG. A quarter of the photos show a wooden pip set instead:
a streaked brown face whose corners carry painted dots in PHYSICAL.md's colours by count, set on
a ring (an arrangement the studio does not draw); and some a white set whose numbers are
coloured by value in a code of its own (the studio's coloured edition uses another). The truth
uses the studio's shape, so `triominoes evaluate` compares readings with it. Photos are single
views (no hands, no earlier photo).
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import cv2
import numpy as np

from engine.lattice import cell_corners, point_xy
from engine.simulate import random_board

Colour = tuple[int, int, int]  # BGR

WIDTH, HEIGHT = 1280, 960
DRAWN_SIDE = 240  # tiles are drawn this large, then shrunk into the photo
DRAWN_HEIGHT = DRAWN_SIDE * math.sqrt(3) / 2
DRAWN_TILE = np.float32([[DRAWN_SIDE / 2, 0], [DRAWN_SIDE, DRAWN_HEIGHT], [0, DRAWN_HEIGHT]])
LOOKS = {  # face and ink (BGR)
    "cream, black numbers": ((225, 235, 240), (20, 20, 20)),
    "white, black numbers": ((245, 245, 245), (30, 30, 30)),
    "black, yellow numbers": ((25, 25, 25), (90, 200, 230)),
}
FONTS = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_TRIPLEX)
PIP_LOOK = "wood, painted pips"
PIP_SHARE = 0.25  # the share of photos showing a wooden pip set
COLOURED_LOOK = "white, numbers coloured by value"
COLOURED_SHARE = 0.15  # the share of photos showing it
WHITE = (240, 242, 242)
# Each value's colour (BGR): 0 grey, 1 blue, 2 green, 3 red, 4 purple, 5 orange, 6 teal.
NUMBER_COLOURS = {
    0: (60, 60, 60),
    1: (170, 70, 20),
    2: (40, 130, 40),
    3: (40, 40, 190),
    4: (130, 40, 120),
    5: (20, 120, 230),
    6: (130, 130, 20),
}
WOOD = (70, 115, 165)  # BGR
# Dot colours by count, as PHYSICAL.md names them: 1 white, 2 dark green, 3 yellow, 4 blue, 5 red
# (a 6, which wooden sets lack, orange).
DOT_COLOURS = {
    1: (235, 235, 230),
    2: (35, 100, 30),
    3: (45, 205, 225),
    4: (175, 95, 25),
    5: (45, 40, 185),
    6: (25, 135, 240),
}


def draw_tile(
    numbers: tuple[int, int, int] | None,
    face: Colour,
    ink: Colour | dict[int, Colour] | None,
    font: int,
    rng: np.random.Generator,
) -> np.ndarray:
    """A tile drawn pointing up, its numbers at apex, bottom right, bottom left (clockwise),
    each number's top toward the centre; ``numbers`` None draws a blank back. ``ink``: one
    colour, a colour for each value, or None for a wooden tile with painted dots."""
    height, width = int(DRAWN_HEIGHT) + 1, DRAWN_SIDE + 1
    tile = np.empty((height, width, 3), np.float32)
    tile[:] = face
    if ink is None:  # wood: soft streaks along one direction
        rows, columns = np.mgrid[:height, :width].astype(np.float32)
        angle = rng.uniform(0, math.pi)
        across = rows * math.cos(angle) + columns * math.sin(angle)
        tile += (12 * np.sin(across / rng.uniform(2, 5)) * np.sin(across / 37 + rng.uniform(0, 6)))[..., None]
    edge = tuple(c * 0.6 for c in face)
    cv2.polylines(tile, [DRAWN_TILE.astype(np.int32)], True, edge, 6, cv2.LINE_AA)
    if numbers is None:
        return tile
    centre = DRAWN_TILE.mean(0)
    if ink is None:
        return _draw_dots(tile, numbers, centre, rng)
    along, tall = rng.uniform(0.36, 0.5), rng.uniform(0.16, 0.22) * DRAWN_SIDE
    box = int(tall * 1.6)
    for tip, number in zip(DRAWN_TILE, numbers):
        text = np.zeros((box, box), np.uint8)
        scale = cv2.getFontScaleFromHeight(font, int(tall), 3)
        (w, h), _ = cv2.getTextSize(str(number), font, scale, 3)
        stroke = max(2, int(tall / 9))
        cv2.putText(text, str(number), ((box - w) // 2, (box + h) // 2), font, scale, 255, stroke, cv2.LINE_AA)
        inward = centre - tip
        turn = cv2.getRotationMatrix2D((box / 2, box / 2), -math.degrees(math.atan2(inward[0], -inward[1])), 1.0)
        turn[:, 2] += tip + along * inward - box / 2
        alpha = cv2.warpAffine(text, turn, (width, height)).astype(np.float32)[..., None] / 255
        colour = ink[number] if isinstance(ink, dict) else ink
        tile = tile * (1 - alpha) + np.float32(colour) * alpha
    return tile


def _draw_dots(tile: np.ndarray, numbers: tuple[int, int, int], centre, rng: np.random.Generator) -> np.ndarray:
    """Each corner's count as dots of its colour: one in the middle, or that many on a ring."""
    along = rng.uniform(0.4, 0.5)  # of the way from the tip to the centre
    ring = rng.uniform(0.065, 0.08) * DRAWN_SIDE
    dot = rng.uniform(0.028, 0.036) * DRAWN_SIDE
    for tip, number in zip(DRAWN_TILE, numbers):
        middle = tip + along * (centre - tip)
        start = rng.uniform(0, 2 * math.pi)
        for k in range(number):
            angle = start + 2 * math.pi * k / number
            spot = middle if number == 1 else middle + ring * np.array([math.cos(angle), math.sin(angle)])
            at = (int(spot[0] * 16), int(spot[1] * 16))  # in 1/16 pixels (shift 4), for smooth edges
            cv2.circle(tile, at, int(dot * 16), DOT_COLOURS[number], -1, cv2.LINE_AA, 4)
    return tile


def table(rng: np.random.Generator) -> np.ndarray:
    """A plain, striped, checked or mottled cloth under a lamp's falloff."""
    photo = np.empty((HEIGHT, WIDTH, 3), np.float32)
    photo[:] = rng.integers(20, 200, 3)
    rows, columns = np.mgrid[:HEIGHT, :WIDTH].astype(np.float32)
    kind = rng.integers(4)
    if kind == 1:
        photo += 25 * np.sin(rows / rng.uniform(3, 9) + columns / 200)[..., None]
    elif kind == 2:
        square = int(rng.integers(20, 60))
        photo += ((rows // square + columns // square) % 2 * 50 - 25)[..., None] * rng.uniform(0.3, 1, 3)
    elif kind == 3:
        photo += cv2.GaussianBlur(rng.normal(0, 30, (HEIGHT, WIDTH)).astype(np.float32), (0, 0), 3)[..., None]
    lamp = rng.uniform(0, WIDTH), rng.uniform(0, HEIGHT)
    falloff = np.hypot(columns - lamp[0], rows - lamp[1]) / math.hypot(WIDTH, HEIGHT)
    return photo * (1.15 - 0.35 * falloff)[..., None]


def sketch(seed: int) -> tuple[np.ndarray, dict]:
    """One photo (BGR uint8) and its truth."""
    rng = np.random.default_rng(seed)
    board = random_board(seed, int(rng.integers(6, 40)))
    look = list(LOOKS)[rng.integers(len(LOOKS))]
    face, ink = LOOKS[look]
    kind = np.random.default_rng([seed, 2]).uniform()  # a stream of its own: the other photos stay the same
    if kind < PIP_SHARE:
        look, face, ink = PIP_LOOK, WOOD, None
    elif kind < PIP_SHARE + COLOURED_SHARE:
        look, face, ink = COLOURED_LOOK, WHITE, NUMBER_COLOURS
    font = FONTS[rng.integers(len(FONTS))]
    side, tilt, spin = rng.uniform(40, 80), math.radians(rng.uniform(0, 50)), rng.uniform(0, 2 * math.pi)
    middle = np.mean([point_xy(p) for t in board.placements for p in cell_corners(t.cell)], axis=0)
    turn = np.array([[math.cos(spin), math.sin(spin)], [-math.sin(spin), math.cos(spin)]])

    def in_photo(points) -> np.ndarray:
        """Board positions (edge units) to pixels: turned, foreshortened by the tilt, nearer rows larger."""
        x, y = ((np.asarray(points, np.float64) - middle) * side @ turn).T
        y = y * math.cos(tilt)
        nearness = 1 / (1 + y * math.sin(tilt) / 800)
        return np.stack([WIDTH / 2 + x * nearness, HEIGHT / 2 + y * nearness], -1)

    photo = table(rng)
    shape = np.zeros((int(DRAWN_HEIGHT) + 1, DRAWN_SIDE + 1), np.uint8)
    cv2.fillPoly(shape, [DRAWN_TILE.astype(np.int32)], 255)

    def paste(corners: np.ndarray, numbers) -> None:
        nonlocal photo
        centre = corners.mean(0)
        placed = centre + (corners - centre) * (1 - rng.uniform(0.01, 0.04))  # hand-placed gaps
        move = cv2.getAffineTransform(DRAWN_TILE, placed.astype(np.float32))
        drawn = cv2.warpAffine(draw_tile(numbers, face, ink, font, rng), move, (WIDTH, HEIGHT), flags=cv2.INTER_AREA)
        cover = cv2.warpAffine(shape, move, (WIDTH, HEIGHT)).astype(np.float32)[..., None] / 255
        shadow = cv2.GaussianBlur(cover, (0, 0), side / 15)[..., None]
        photo = photo * (1 - 0.35 * shadow) * (1 - cover) + drawn * cover

    tiles = []
    for placed in board.placements:
        corners = in_photo([point_xy(p) for p in cell_corners(placed.cell)])
        paste(corners, placed.corners)
        tiles.append(
            {
                "cell": list(placed.cell),
                "tile": sorted(placed.corners),
                "corners": [
                    {"x": round(float(x), 2), "y": round(float(y), 2), "value": v, "confidence": 1.0, "hidden": False}
                    for (x, y), v in zip(corners, placed.corners)
                ],
            }
        )
    backs = []
    for _ in range(int(rng.integers(0, 5))):  # the pile, along the near edge
        centre = np.array([rng.uniform(0.1, 0.9) * WIDTH, rng.uniform(0.82, 0.95) * HEIGHT])
        angles = rng.uniform(0, 2 * math.pi) + np.arange(3) * 2 * math.pi / 3  # clockwise as seen (y down)
        corners = centre + side / math.sqrt(3) * np.stack([np.cos(angles), np.sin(angles) * math.cos(tilt)], -1)
        paste(corners, None)
        backs.append({"corners": np.round(corners, 2).tolist()})
    photo = cv2.GaussianBlur(photo, (0, 0), rng.uniform(0.4, 1.2)) + rng.normal(0, rng.uniform(2, 6), photo.shape)
    truth = {
        "image": {"path": f"{seed}.jpg", "width": WIDTH, "height": HEIGHT},
        "tiles": tiles,
        "face_down": backs,
        "violations": [],
        "studio": {
            "renderer": "sketch",
            "seed": seed,
            "look": look,
            "tile_side_px": round(side, 2),
            "tilt_deg": round(math.degrees(tilt), 1),
        },
    }
    return np.clip(photo, 0, 255).astype(np.uint8), truth


def write_sketch(seed: int, out: Path) -> None:
    photo, truth = sketch(seed)
    quality = int(np.random.default_rng([seed, 1]).integers(70, 95))
    cv2.imwrite(str(out / f"{seed}.jpg"), photo, [cv2.IMWRITE_JPEG_QUALITY, quality])
    (out / f"{seed}.json").write_text(json.dumps(truth))
