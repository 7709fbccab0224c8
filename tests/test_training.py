"""The training commands end to end, at a toy size (torch, where installed): each writes a model
the reader can load, and the same seed writes the same bytes, as the committed models' cards
promise of the full-size commands."""

import numpy as np
import pytest

from service.cli import main

pytest.importorskip("torch")
pytest.importorskip("onnx")


def test_train_writes_a_classifier_and_the_same_seed_writes_it_again(tmp_path, monkeypatch):
    from models.classes import NO_NUMBER
    from models.classifier import CornerClassifier

    monkeypatch.chdir(tmp_path)  # the training crops are cached under data/ here
    toy = ["train", "--images", "10", "--epochs", "1"]
    for name, seed in (("first", "3"), ("again", "3"), ("other", "4")):
        assert main([*toy, "--seed", seed, "--out", f"{name}.onnx"]) == 0
    model = (tmp_path / "first.onnx").read_bytes()
    assert (tmp_path / "again.onnx").read_bytes() == model
    assert (tmp_path / "other.onnx").read_bytes() != model
    assert (tmp_path / "first.pt").is_file()  # the weights the ONNX-versus-torch test loads
    crops = np.random.default_rng(0).integers(0, 256, (5, 3, 32, 32), dtype=np.uint8)
    probabilities = CornerClassifier(tmp_path / "first.onnx").predict(crops)
    assert probabilities.shape == (5, NO_NUMBER + 1)
    assert np.allclose(probabilities.sum(1), 1, atol=1e-5)


def test_train_finder_writes_a_finder_and_the_same_seed_writes_it_again(tmp_path):
    from vision.find import TileFinder

    toy = ["train-finder", "--images", "10", "--steps", "2", "--seed", "3"]
    for name in ("first", "again"):
        assert main([*toy, "--out", str(tmp_path / f"{name}.onnx")]) == 0
    assert (tmp_path / "again.onnx").read_bytes() == (tmp_path / "first.onnx").read_bytes()
    finder = TileFinder(tmp_path / "first.onnx")
    assert finder.core_growth > 0  # measured by the command and stored in the model
    outlines = finder.find(np.full((240, 320, 3), 128, np.uint8))
    assert outlines.ndim == 3 and outlines.shape[1:] == (3, 2)
