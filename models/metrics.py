"""Classifier figures: accuracy per class and style, calibration, a confusion-matrix picture."""

from __future__ import annotations

import itertools

import cv2
import numpy as np

from models.classes import CLASS_COUNT, CLASS_NAMES


def expected_calibration_error(probabilities: np.ndarray, labels: np.ndarray, bins: int = 15) -> float:
    """Mean gap between confidence and accuracy, weighted by how many predictions fall in each bin."""
    confidence = probabilities.max(1)
    correct = probabilities.argmax(1) == labels
    edges = np.linspace(0, 1, bins + 1)
    error = 0.0
    for low, high in itertools.pairwise(edges):
        inside = (confidence > low) & (confidence <= high)
        if inside.any():
            error += inside.mean() * abs(correct[inside].mean() - confidence[inside].mean())
    return float(error)


def confusion(predicted: np.ndarray, labels: np.ndarray) -> np.ndarray:
    matrix = np.zeros((CLASS_COUNT, CLASS_COUNT), np.int64)
    np.add.at(matrix, (labels, predicted), 1)
    return matrix


def confusion_picture(matrix: np.ndarray, cell: int = 56) -> np.ndarray:
    """Rows: true class, columns: predicted; cells shaded by row share, with counts written in."""
    n = len(matrix)
    margin = cell
    image = np.full((margin + n * cell, margin + n * cell, 3), 255, np.uint8)

    def write(text: str, at: tuple[int, int], scale: float) -> None:
        cv2.putText(image, text, at, cv2.FONT_HERSHEY_SIMPLEX, scale, (0, 0, 0), 1, cv2.LINE_AA)

    shares = matrix / np.maximum(matrix.sum(1, keepdims=True), 1)
    for i, j in itertools.product(range(n), repeat=2):
        top, left = margin + i * cell, margin + j * cell
        shade = int(255 * (1 - shares[i, j]))
        colour = (255, shade, shade) if i == j else (shade, shade, 255)  # right: blue; wrong: red
        cv2.rectangle(image, (left, top), (left + cell - 2, top + cell - 2), colour, -1)
        if matrix[i, j]:
            write(str(matrix[i, j]), (left + 4, top + cell // 2 + 5), 0.4)
    for k, name in enumerate(CLASS_NAMES[:n]):
        write(name, (8, margin + k * cell + cell // 2 + 5), 0.5)  # the true class, left of its row
        write(name, (margin + k * cell + 8, margin - 12), 0.5)  # the class read, above its column
    write("true \\ read", (2, 14), 0.35)
    return image


SIDE_BINS = [(0, 35), (35, 50), (50, 80), (80, 1000)]


def summary(
    probabilities: np.ndarray,
    labels: np.ndarray,
    styles: np.ndarray,
    style_names: list[str],
    side_px: np.ndarray | None = None,
) -> dict:
    predicted = probabilities.argmax(1)
    correct = predicted == labels
    by_side = {}
    if side_px is not None:
        for low, high in SIDE_BINS:
            inside = (side_px >= low) & (side_px < high)
            if inside.any():
                ece = expected_calibration_error(probabilities[inside], labels[inside])
                by_side[f"{low}-{high} px"] = (float(correct[inside].mean()), int(inside.sum()), ece)
    return {
        "per_side": by_side,
        "crops": len(labels),
        "accuracy": float(correct.mean()),
        "ece": expected_calibration_error(probabilities, labels),
        "per_class": {
            CLASS_NAMES[c]: float(correct[labels == c].mean()) for c in range(CLASS_COUNT) if (labels == c).any()
        },
        "per_style": {
            name: float(correct[styles == s].mean()) for s, name in enumerate(style_names) if (styles == s).any()
        },
        "confusion": confusion(predicted, labels),
    }
