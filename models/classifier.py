"""The corner classifier at run time: the committed ONNX model on onnxruntime, loaded once.

All corners of a frame go through in one call. No torch needed.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from models.classes import CLASS_COUNT
from models.runtime import open_model

DEFAULT_MODEL = Path(__file__).with_name("corner.onnx")
CROP_SHAPE = (3, 32, 32)  # BGR, channels first


class CornerClassifier:
    """``predict`` maps a batch of upright 32x32 colour crops to probabilities over 0..6 and none."""

    def __init__(self, path: str | Path = DEFAULT_MODEL, threads: int | None = None) -> None:
        self.session = open_model(path, "classifier", "triominoes train", threads)
        self.input_name = self.session.get_inputs()[0].name

    def predict(self, crops: np.ndarray) -> np.ndarray:
        """(N, 3, 32, 32) uint8 BGR -> (N, 8) float32 probabilities; an empty batch gives (0, 8)."""
        crops = np.asarray(crops)
        if crops.ndim != 4 or crops.shape[1:] != CROP_SHAPE:
            raise ValueError(f"crops must be shaped (N, 3, 32, 32), got {crops.shape}")
        if crops.dtype != np.uint8:
            raise ValueError(f"crops must be uint8 pixels, got {crops.dtype}")
        if len(crops) == 0:
            return np.zeros((0, CLASS_COUNT), np.float32)
        (probabilities,) = self.session.run(None, {self.input_name: np.ascontiguousarray(crops)})
        return probabilities
