"""Opening the committed ONNX models with onnxruntime on the CPU (no torch)."""

from __future__ import annotations

from pathlib import Path

import onnxruntime as ort


class ModelError(ValueError):
    """A model file onnxruntime cannot load (cut short, a Git LFS pointer, another kind of
    file); one line for the user."""


def open_model(path: str | Path, what: str, command: str, threads: int | None = None) -> ort.InferenceSession:
    """An inference session for the model at ``path``; a missing file (FileNotFoundError) or
    one that is no model (ModelError) names the command that makes it."""
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"no {what} model at {path} (train one with '{command}')")
    options = ort.SessionOptions()
    options.log_severity_level = 3
    # Idle worker threads must not spin: the reader runs two models (and the service several
    # readers) by turns on few cores, and a spinning pool steals the next model's time.
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    # Both models take inputs of many shapes (a closer look's part of the photo, a frame's number
    # of corners). With memory patterns on, the second run of each new shape allocates one block
    # for the whole plan, fresh pages every time: 300-800 ms more on that frame, and 180 MB more
    # held (docs/decisions.md, *A frame's memory*). The numbers are the same either way.
    options.enable_mem_pattern = False
    if threads:
        options.intra_op_num_threads = threads
    try:
        return ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
    except Exception as error:  # onnxruntime's own errors derive from Exception alone
        reason = str(error).splitlines()[0] if str(error) else type(error).__name__
        unusable = f"{path} is no {what} model onnxruntime can load ({reason}): make one with '{command}'"
        raise ModelError(unusable) from None
