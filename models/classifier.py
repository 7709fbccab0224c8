"""The corner classifier at run time: the committed ONNX model on onnxruntime, loaded once.

All corners of a frame go through in one call. No torch needed.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from models.classes import CLASS_COUNT
from models.runtime import open_model

DEFAULT_MODEL = Path(__file__).with_name("corner.onnx")
# Crops per onnxruntime call. A frame's corners fit in one call (a full 56-tile board and its
# pile are a few hundred); a cloth printed with triangles gives thousands of outlines, and 4,212
# crops in one call took 0.8 GB, against 0.2 GB and less time 512 at a time (the same numbers).
CALL_AT_MOST = 512


class CornerClassifier:
    """``predict`` maps a batch of upright square colour crops (the size the model was trained on,
    ``crop_shape``) to probabilities over 0..6 and none."""

    def __init__(self, path: str | Path = DEFAULT_MODEL, threads: int | None = None) -> None:
        self.session = open_model(path, "classifier", "triominoes train", threads)
        model_input = self.session.get_inputs()[0]
        self.input_name = model_input.name
        self.crop_shape = tuple(model_input.shape[1:])  # (3, height, width): BGR, channels first

    def predict(self, crops: np.ndarray) -> np.ndarray:
        """(N, *crop_shape) uint8 BGR -> (N, 8) float32 probabilities; an empty batch gives (0, 8)."""
        crops = np.asarray(crops)
        if crops.ndim != 4 or crops.shape[1:] != self.crop_shape:
            shape = ", ".join(map(str, self.crop_shape))
            raise ValueError(f"crops must be shaped (N, {shape}), got {crops.shape}")
        if crops.dtype != np.uint8:
            raise ValueError(f"crops must be uint8 pixels, got {crops.dtype}")
        if len(crops) == 0:
            return np.zeros((0, CLASS_COUNT), np.float32)
        calls = [
            self.session.run(None, {self.input_name: np.ascontiguousarray(crops[start : start + CALL_AT_MOST])})[0]
            for start in range(0, len(crops), CALL_AT_MOST)
        ]
        return np.concatenate(calls)
