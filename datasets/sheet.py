"""A contact sheet: sample photos with their truth drawn on, so a newcomer sees what the studio makes."""

from __future__ import annotations

import cv2
import numpy as np

from datasets.studio import render, sample_scene


def draw_truth(image: np.ndarray, truth: dict) -> np.ndarray:
    """Green outlines and corner values for face-up tiles (cell written in the middle), blue for
    face-down ones, red dots on hidden corners."""
    out = image.copy()
    scale = max(1, image.shape[1] // 640)
    for tile in truth["tiles"]:
        pts = np.array([[c["x"], c["y"]] for c in tile["corners"]])
        cv2.polylines(out, [np.round(pts).astype(np.int32)], True, (0, 220, 0), scale, cv2.LINE_AA)
        centre = pts.mean(0)
        for corner, (x, y) in zip(tile["corners"], pts):
            spot = (centre + (np.array([x, y]) - centre) * 0.6).astype(int)
            colour = (0, 0, 255) if corner["hidden"] else (0, 160, 255)
            cv2.putText(
                out,
                str(corner["value"]),
                tuple(spot),
                cv2.FONT_HERSHEY_SIMPLEX,
                0.45 * scale,
                colour,
                scale,
                cv2.LINE_AA,
            )
    for tile in truth["face_down"]:
        cv2.polylines(
            out, [np.round(np.array(tile["corners"])).astype(np.int32)], True, (255, 120, 0), scale, cv2.LINE_AA
        )
    return out


def contact_sheet(seeds: list[int], columns: int = 4, thumb: tuple[int, int] = (320, 240)) -> np.ndarray:
    cells = []
    for seed in seeds:
        rendered = render(sample_scene(seed))
        drawn = draw_truth(rendered.image, rendered.truth)
        h, w = drawn.shape[:2]
        scale = min(thumb[0] / w, thumb[1] / h)
        small = cv2.resize(drawn, (int(w * scale), int(h * scale)), interpolation=cv2.INTER_AREA)
        cell = np.full((thumb[1], thumb[0], 3), 255, np.uint8)
        cell[: small.shape[0], : small.shape[1]] = small
        studio = rendered.truth["studio"]
        label = f"{seed} {studio['style']} {studio['table']} {studio['tilt_deg']:.0f}deg"
        cv2.putText(cell, label, (4, thumb[1] - 6), cv2.FONT_HERSHEY_SIMPLEX, 0.4, (0, 0, 0), 1, cv2.LINE_AA)
        cells.append(cell)
    while len(cells) % columns:
        cells.append(np.full_like(cells[0], 255))
    rows = [np.hstack(cells[i : i + columns]) for i in range(0, len(cells), columns)]
    return np.vstack(rows)
