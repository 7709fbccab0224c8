"""The corner classifier at run time: the committed ONNX model on onnxruntime, loaded once.

All corners of a frame go through in one call. No torch needed.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnxruntime as ort

from models.classes import CLASS_COUNT

DEFAULT_MODEL = Path(__file__).with_name("corner.onnx")
CROP_SHAPE = (32, 32)


class CornerClassifier:
    """``predict`` maps a batch of upright 32x32 grey crops to probabilities over 0..6 and none."""

    def __init__(self, path: str | Path = DEFAULT_MODEL, threads: int | None = None) -> None:
        path = Path(path)
        if not path.is_file():
            raise FileNotFoundError(f"no classifier model at {path} (train one with 'triominoes train')")
        options = ort.SessionOptions()
        if threads:
            options.intra_op_num_threads = threads
        options.log_severity_level = 3
        self.session = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
        self.input_name = self.session.get_inputs()[0].name
        self.path = path

    def predict(self, crops: np.ndarray) -> np.ndarray:
        """(N, 32, 32) uint8 -> (N, 8) float32 probabilities; an empty batch gives (0, 8)."""
        crops = np.asarray(crops)
        if crops.ndim != 3 or crops.shape[1:] != CROP_SHAPE:
            raise ValueError(f"crops must be shaped (N, 32, 32), got {crops.shape}")
        if crops.dtype != np.uint8:
            raise ValueError(f"crops must be uint8 pixels, got {crops.dtype}")
        if len(crops) == 0:
            return np.zeros((0, CLASS_COUNT), np.float32)
        (probabilities,) = self.session.run(None, {self.input_name: np.ascontiguousarray(crops[:, None])})
        return probabilities
