"""The committed corner classifier: the ONNX wrapper without torch, and torch agreement where installed."""

from pathlib import Path

import numpy as np
import pytest

from models.classes import CLASS_COUNT
from models.classifier import CALL_AT_MOST, DEFAULT_MODEL, CornerClassifier
from models.metrics import confusion, confusion_picture, expected_calibration_error, summary
from models.runtime import ModelError
from vision.crops import CROP_PX

FIXTURE = Path(__file__).parent / "fixtures" / "corner_crops.npz"


@pytest.fixture(scope="module")
def classifier():
    return CornerClassifier()


@pytest.fixture(scope="module")
def fixture_crops():
    with np.load(FIXTURE) as data:
        return data["crops"], data["labels"].astype(np.int64)


def test_golden_answers(classifier):
    """The committed model's answers on the fixture crops, stored when the fixture was made."""
    with np.load(FIXTURE) as data:
        assert (classifier.predict(data["crops"]).argmax(1) == data["answers"]).all()


def test_model_is_small():
    assert DEFAULT_MODEL.stat().st_size <= 1024 * 1024


def test_probabilities_for_a_batch(classifier, fixture_crops):
    crops, _ = fixture_crops
    probabilities = classifier.predict(crops)
    assert probabilities.shape == (len(crops), CLASS_COUNT)
    assert np.allclose(probabilities.sum(1), 1, atol=1e-4) and (probabilities >= 0).all()


def test_batching_does_not_change_answers(classifier, fixture_crops):
    crops, _ = fixture_crops
    together = classifier.predict(crops)
    one_by_one = np.concatenate([classifier.predict(crops[i : i + 1]) for i in range(len(crops))])
    assert np.allclose(together, one_by_one, atol=1e-5)


def test_a_batch_of_thousands_is_read_in_bounded_calls(classifier, fixture_crops, monkeypatch):
    # A cloth printed with triangles gives thousands of outlines; 4,212 crops in one call took
    # 0.8 GB of memory. Larger batches are read CALL_AT_MOST at a time, with the same answers.
    crops, _ = fixture_crops
    many = np.concatenate([crops] * (2 * CALL_AT_MOST // len(crops) + 1))
    run = classifier.session.run
    sizes = []

    def counted(outputs, feeds):
        sizes.append(len(next(iter(feeds.values()))))
        return run(outputs, feeds)

    monkeypatch.setattr(classifier.session, "run", counted)
    probabilities = classifier.predict(many)
    assert len(sizes) == -(-len(many) // CALL_AT_MOST) > 1 and max(sizes) == CALL_AT_MOST and sum(sizes) == len(many)
    copies = len(many) // len(crops)
    assert np.allclose(probabilities, np.concatenate([classifier.predict(crops)] * copies), atol=1e-5)


def test_reads_most_fixture_crops(classifier, fixture_crops):
    # A random sample of the test split, hard crops included: far above the 1-in-8 of guessing.
    crops, labels = fixture_crops
    assert (classifier.predict(crops).argmax(1) == labels).mean() >= 0.8


def test_model_reads_the_crops_the_reader_cuts(classifier):
    assert classifier.crop_shape == (3, CROP_PX, CROP_PX)


def test_bad_batches(classifier):
    size = CROP_PX
    assert classifier.predict(np.zeros((0, 3, size, size), np.uint8)).shape == (0, CLASS_COUNT)
    wrong_shape = rf"\(N, 3, {size}, {size}\)"
    with pytest.raises(ValueError, match=wrong_shape):
        classifier.predict(np.zeros((4, 3, size + 4, size + 4), np.uint8))
    with pytest.raises(ValueError, match=wrong_shape):
        classifier.predict(np.zeros((4, size, size), np.uint8))  # grey crops: the model reads colour
    with pytest.raises(ValueError, match="uint8"):
        classifier.predict(np.zeros((4, 3, size, size), np.float32))
    with pytest.raises(FileNotFoundError, match="triominoes train"):
        CornerClassifier("/no/such/model.onnx")


def test_a_file_that_is_no_model_is_refused_in_one_line(tmp_path, capsys):
    # A model cut short or left a Git LFS pointer ended in onnxruntime's protobuf traceback.
    from service.cli import main

    pointer = tmp_path / "corner.onnx"
    pointer.write_text("version https://git-lfs.github.com/spec/v1\noid sha256:0\nsize 269000\n")
    with pytest.raises(ModelError, match="is no classifier model onnxruntime can load"):
        CornerClassifier(pointer)
    assert main(["benchmark", "classifier", "--images", "1", "--model", str(pointer)]) == 2
    assert "make one with 'triominoes train'" in capsys.readouterr().err


def test_onnx_and_torch_agree(classifier, fixture_crops):
    torch = pytest.importorskip("torch")
    from models.net import CornerNet
    from models.train import Calibrated

    model = Calibrated(CornerNet(), 1.0)
    model.load_state_dict(torch.load(DEFAULT_MODEL.with_suffix(".pt")))
    model.eval()
    crops, _ = fixture_crops
    with torch.no_grad():
        expected = model(torch.from_numpy(crops)).numpy()
    assert np.allclose(classifier.predict(crops), expected, atol=1e-4)


def test_calibration_error_and_confusion():
    labels = np.array([0, 1, 1, 7])
    sure = np.eye(CLASS_COUNT)[labels]
    assert expected_calibration_error(sure, labels) == pytest.approx(0)
    wrong = np.eye(CLASS_COUNT)[[1, 1, 1, 7]]
    assert expected_calibration_error(wrong, labels) == pytest.approx(0.25)
    matrix = confusion(wrong.argmax(1), labels)
    assert matrix[0, 1] == 1 and matrix[1, 1] == 2 and matrix.sum() == 4
    # The picture (`benchmark classifier --confusion`): a row per true class, a column per class
    # read; right readings shaded blue, wrong ones red, classes never met left white.
    picture, cell = confusion_picture(matrix), 56
    assert picture.shape == ((CLASS_COUNT + 1) * cell, (CLASS_COUNT + 1) * cell, 3)

    def shade(true: int, read: int) -> np.ndarray:  # a cell's colour beside its count
        top, left = (1 + true) * cell, (1 + read) * cell
        return picture[top + cell - 6, left + cell - 6].astype(int)  # B, G, R

    assert tuple(shade(1, 1)) == (255, 0, 0) and tuple(shade(7, 7)) == (255, 0, 0)  # every 1 and "none" right
    assert tuple(shade(0, 1)) == (0, 0, 255) and tuple(shade(0, 0)) == (255, 255, 255)  # the 0 read as 1
    assert tuple(shade(3, 3)) == (255, 255, 255)  # no 3 shown


def test_training_augmentation_keeps_crops_valid_and_repeats_with_its_seed(fixture_crops):
    torch = pytest.importorskip("torch")
    from models.train import augment

    crops = torch.from_numpy(fixture_crops[0])
    first = augment(crops, torch.Generator().manual_seed(3))
    assert first.shape == crops.shape and first.min() >= 0 and first.max() <= 255
    assert torch.equal(first, augment(crops, torch.Generator().manual_seed(3)))
    assert not torch.equal(first, augment(crops, torch.Generator().manual_seed(4)))


def test_summary_gives_accuracy_and_calibration_by_tile_side():
    # Small tiles read surely and wrongly, large ones surely and rightly: by side, the small
    # bin's calibration error is 1 and the large one's 0.
    labels = np.array([1, 2, 3, 4])
    probabilities = np.eye(8)[[2, 3, 3, 4]]  # the first two are wrong, each with confidence 1
    sides = np.array([20.0, 30.0, 60.0, 70.0])
    figures = summary(probabilities, labels, np.zeros(4, int), ["ivory"], sides)
    assert figures["per_side"] == {"0-35 px": (0.0, 2, 1.0), "50-80 px": (1.0, 2, 0.0)}


def test_a_pip_sets_blank_zero_and_no_number_taken_for_each_other_are_counted_apart():
    from datasets.faces import STYLES
    from models.evaluate import blank_pip_misreads

    pips, printed = list(STYLES).index("wood-pips"), list(STYLES).index("ivory")
    labels = np.array([0, 7, 0, 0, 7, 3])
    predicted = np.array([7, 0, 7, 5, 0, 7])
    styles = np.array([pips, pips, printed, pips, printed, pips])
    # Only the first two: a printed 0 is a mark, and a pip 0 read as 5 is a misread.
    assert blank_pip_misreads(predicted, labels, styles) == 2


def test_the_classifier_benchmark_runs_from_any_folder_and_fails_fast_without_a_model(tmp_path, monkeypatch, capsys):
    from service.cli import main

    monkeypatch.chdir(tmp_path)  # not the repository: the committed model is found all the same
    assert main(["benchmark", "classifier", "--images", "1"]) == 0
    printed = capsys.readouterr().out
    assert "accuracy" in printed and "misreads are a pip set's 0" in printed
    assert main(["benchmark", "classifier", "--images", "2", "--model", "missing.onnx"]) == 2
    assert "no classifier model" in capsys.readouterr().err
    assert not list((tmp_path / "data").glob("*_0_2_*"))  # no test crops rendered for a missing model
    # Outputs that cannot be written are told before the work, not after it.
    nowhere = str(tmp_path / "no" / "out")
    rendered = set((tmp_path / "data").glob("*"))
    for argv in (
        ["benchmark", "classifier", "--images", "2", "--confusion", nowhere + ".png"],
        ["benchmark", "classifier", "--images", "2", "--confusion", str(tmp_path / "confusion.txt")],
        ["train", "--images", "10", "--out", nowhere + ".onnx"],
        ["train-finder", "--images", "10", "--out", nowhere + ".onnx"],
        ["train", "--images", "10", "--out", str(tmp_path)],
    ):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert any(why in err for why in ("no such folder", "use a .png", "is a folder"))
    assert set((tmp_path / "data").glob("*")) == rendered  # nothing rendered for them


def test_crops_under_a_warm_lamp_are_cached_apart_and_redder(tmp_path, monkeypatch, capsys):
    """``benchmark classifier --warmth`` measures the same test photos in light the camera did
    not balance: the same corners and labels, a file of their own, red over blue higher."""
    from datasets import make
    from service.cli import main

    monkeypatch.chdir(tmp_path)
    assert main(["benchmark", "classifier", "--images", "1", "--warmth", "0.35"]) == 0
    assert "light the camera did not balance (warmth +0.35)" in capsys.readouterr().out
    warm = make.load_crops("test", 1, warmth=0.35)  # from the file the benchmark wrote
    plain = make.load_crops("test", 1)
    assert sorted(p.name for p in (tmp_path / "data").glob("*.npz")) == [
        f"crops_test_0_1_bgr{CROP_PX}.npz",
        f"crops_test_0_1_warmth0.35_bgr{CROP_PX}.npz",
    ]
    assert np.array_equal(plain["labels"], warm["labels"])

    def red_over_blue(crops: np.ndarray) -> float:
        channels = crops.astype(np.float64).mean((0, 2, 3))  # blue, green, red
        return channels[2] / channels[0]

    assert red_over_blue(warm["crops"]) > 1.3 * red_over_blue(plain["crops"])
