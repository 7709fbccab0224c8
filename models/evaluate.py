"""Classifier figures on the test split (seeds never trained on): accuracy per class and style,
calibration, the confusion matrix, and time per corner in a frame-sized batch."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

from datasets.faces import STYLES
from datasets.make import load_crops
from models.classes import NO_NUMBER
from models.classifier import CornerClassifier
from models.metrics import confusion_picture, summary

FRAME_CORNERS = 168  # 56 tiles


def time_per_corner(classifier: CornerClassifier, crops: np.ndarray, repeats: int = 200) -> float:
    """Median microseconds per corner over batches of one full frame."""
    batch = np.resize(crops, (FRAME_CORNERS, *crops.shape[1:]))
    classifier.predict(batch)
    timings = []
    for _ in range(repeats):
        start = time.perf_counter()
        classifier.predict(batch)
        timings.append(time.perf_counter() - start)
    return float(np.median(timings)) / FRAME_CORNERS * 1e6


def blank_pip_misreads(predicted: np.ndarray, labels: np.ndarray, styles: np.ndarray) -> int:
    """Misreads of a pip set's 0 as "no number" or the reverse. A pip set's 0 is a bare corner,
    which no crop tells from the corner of a back; the decoder settles it from the tile's other
    corners and the board."""
    pip_styles = [index for index, style in enumerate(STYLES.values()) if style.pips]
    swapped = ((labels == 0) & (predicted == NO_NUMBER)) | ((labels == NO_NUMBER) & (predicted == 0))
    return int((swapped & np.isin(styles, pip_styles)).sum())


def evaluate(
    model: str | Path, images: int, report: Callable | None = None, other_editions: float = 0.0, warmth: float = 0.0
) -> dict:
    classifier = CornerClassifier(model)  # first: a missing model fails before the crops are rendered
    data = load_crops("test", images, report, other_editions=other_editions, warmth=warmth)
    probabilities = np.concatenate(
        [classifier.predict(data["crops"][i : i + 4096]) for i in range(0, len(data["crops"]), 4096)]
    )
    figures = summary(probabilities, data["labels"].astype(np.int64), data["styles"], list(STYLES), data.get("side_px"))
    predicted = probabilities.argmax(1)
    figures["misreads"] = int((predicted != data["labels"]).sum())
    figures["blank_pip_misreads"] = blank_pip_misreads(predicted, data["labels"], data["styles"])
    figures["us_per_corner"] = time_per_corner(classifier, data["crops"])
    figures["model_bytes"] = os.path.getsize(model)
    return figures


def main(
    model: str | Path,
    images: int,
    confusion_png: str | None = None,
    report: Callable | None = None,
    other_editions: float = 0.0,
    warmth: float = 0.0,
) -> None:
    figures = evaluate(model, images, report, other_editions, warmth)
    editions = f", {other_editions:.0%} of the sets in another edition's layout" if other_editions else ""
    light = f", light the camera did not balance (warmth {warmth:+g})" if warmth else ""
    print(f"test split: {images} photos{editions}{light}, {figures['crops']} corner crops")
    print(f"accuracy {figures['accuracy']:.4%}, expected calibration error {figures['ece']:.4f}")
    blank = figures["blank_pip_misreads"]
    print(
        f'{blank} of the {figures["misreads"]} misreads are a pip set\'s 0 (a bare corner) and "no number" '
        f"taken for each other, which no crop tells apart; counted right, accuracy would be "
        f"{1 - (figures['misreads'] - blank) / figures['crops']:.4%}"
    )
    print("per class: " + ", ".join(f"{k} {v:.4%}" for k, v in figures["per_class"].items()))
    print("per style: " + ", ".join(f"{k} {v:.4%}" for k, v in figures["per_style"].items()))
    if figures["per_side"]:
        sides = [f"{k} {v:.4%} ({n} crops, calibration error {e:.4f})" for k, (v, n, e) in figures["per_side"].items()]
        print("by tile side: " + ", ".join(sides))
    print(
        f"{figures['us_per_corner']:.1f} microseconds per corner in batches of {FRAME_CORNERS}; "
        f"model {figures['model_bytes'] / 1024:.0f} KiB"
    )
    if confusion_png:
        cv2.imwrite(confusion_png, confusion_picture(figures["confusion"]))
        print(f"wrote {confusion_png}")
