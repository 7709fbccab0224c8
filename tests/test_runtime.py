"""How the ONNX models are opened: settings that the reader's speed depends on."""

import pytest

from models.classifier import DEFAULT_MODEL
from models.runtime import open_model
from vision.find import DEFAULT_FINDER


@pytest.mark.parametrize("path", [DEFAULT_MODEL, DEFAULT_FINDER], ids=["classifier", "finder"])
def test_models_plan_no_memory_pattern_per_input_shape_and_their_threads_do_not_spin(path):
    """Both models meet inputs of many shapes; a memory pattern per shape cost a frame 300-800 ms
    of fresh pages the second time its shape came (docs/decisions.md, *A frame's memory*)."""
    options = open_model(path, "model", "triominoes train").get_session_options()
    assert options.enable_mem_pattern is False
    assert options.get_session_config_entry("session.intra_op.allow_spinning") == "0"
