"""The overlay picture: tile outlines, the numbers read, violations in red, the last tile and its score."""

from __future__ import annotations

import cv2
import numpy as np

from vision.decode import UNSURE_BELOW
from vision.records import Reading

# BGR, in the page's colours (a back's outline was grey, lost on light tiles and light tables).
GOOD, LOOSE, BAD, LAST = (60, 200, 60), (255, 208, 0), (40, 40, 230), (230, 160, 30)
DOWN, UNSURE = (182, 89, 155), (0, 200, 255)


def draw_overlay(image: np.ndarray, reading: Reading) -> np.ndarray:
    """The photo with its reading drawn on it: the board's tiles green, loose ones cyan, the tile
    added blue, tiles that break a rule red, face-down tiles purple, outlines found but not read
    and numbers read unsurely orange, and the last tile's score and the violations in words."""
    out = image.copy()
    thick = max(1, round(max(image.shape[:2]) / 800))
    bad = {cell for v in reading.violations for cell in v.cells}
    last = reading.last_placement.cell if reading.last_placement else None
    for corners, colour in [(c, DOWN) for c in reading.face_down] + [(c, UNSURE) for c in reading.unread]:
        cv2.polylines(out, [np.round(corners).astype(np.int32)], True, colour, thick, cv2.LINE_AA)
    for tile in reading.tiles:
        colour = LOOSE if tile.cell is None else BAD if tile.cell in bad else LAST if tile.cell == last else GOOD
        cv2.polylines(
            out, [np.round(tile.corners).astype(np.int32)], True, colour, thick + (colour is LAST), cv2.LINE_AA
        )
        centre = tile.corners.mean(0)
        side = float(np.linalg.norm(tile.corners[0] - tile.corners[1]))
        for (x, y), number, confidence in zip(tile.corners, tile.numbers, tile.confidences):
            spot = centre + (np.array([x, y]) - centre) * 0.55
            text = str(number)
            scale = max(0.35, side / 90)
            (w, h), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, thick)
            colour = UNSURE if confidence < UNSURE_BELOW else (255, 255, 255)
            _write(out, text, (int(spot[0] - w / 2), int(spot[1] + h / 2)), scale, colour, thick)
    lines = []
    if reading.last_placement:
        lines.append(f"last tile {reading.last_placement.in_words}")
    lines += [v.message for v in reading.violations[:4]]
    for k, line in enumerate(lines):
        _write(out, line, (10, 28 + 26 * k), 0.7, LAST if k == 0 and reading.last_placement else BAD, 2)
    return out


def _write(out: np.ndarray, text: str, origin: tuple[int, int], scale: float, colour: tuple, thick: int) -> None:
    """Text in ``colour`` on a black rim, legible on any photo (drawn into ``out``)."""
    cv2.putText(out, text, origin, cv2.FONT_HERSHEY_SIMPLEX, scale, (0, 0, 0), thick + 2, cv2.LINE_AA)
    cv2.putText(out, text, origin, cv2.FONT_HERSHEY_SIMPLEX, scale, colour, thick, cv2.LINE_AA)
