"""The machine a benchmark runs on, in one line printed above its figures.

Speed figures are only comparable on one processor: the classifier took 41-46 microseconds a
corner on a CPU with AVX-512 and about 106 on an AMD EPYC with AVX2 only (models/README.md), so
every `triominoes benchmark` run names the processor, the cores it may use and its vector
instructions. Accuracy figures hold for one set of libraries: OpenCV 5.1.0.95 renders and decodes
photos a little differently from 5.0.0.93, with which the documented figures were measured
(`constraints.txt`), so the line names the versions that draw, decode and run the models too.
"""

from __future__ import annotations

import os
import platform
from importlib import metadata
from pathlib import Path

import cv2
import numpy
import onnxruntime

from engine.tiles import counted

CPUINFO = Path("/proc/cpuinfo")


def describe(cpuinfo: str | None = None, cores: int | None = None) -> str:
    """``machine: <processor>, <n> cores, <widest vector instructions>; onnxruntime <version>,
    opencv <version>, numpy <version>``.
    ``cpuinfo``: the text of Linux's /proc/cpuinfo (read when None; elsewhere the processor's name
    comes from ``platform`` and the vector instructions are not known)."""
    if cpuinfo is None:
        try:
            cpuinfo = CPUINFO.read_text(errors="replace")
        except OSError:
            cpuinfo = ""
    fields = dict(_field(line) for line in cpuinfo.splitlines() if ":" in line)
    name = fields.get("model name") or platform.processor() or platform.machine() or "unknown processor"
    flags = set(fields.get("flags", "").split())
    vectors = "AVX-512" if "avx512f" in flags else "AVX2, no AVX-512" if "avx2" in flags else None
    usable = cores if cores is not None else _usable_cores()
    parts = [name, counted(usable, "core", "cores")] + ([vectors] if vectors else [])
    libraries = f"onnxruntime {onnxruntime.__version__}, opencv {_opencv_version()}, numpy {numpy.__version__}"
    return f"machine: {', '.join(parts)}; {libraries}"


def _opencv_version() -> str:
    """The version of the OpenCV wheel installed, as pip names it (5.0.0.93: OpenCV 5.0.0, the
    wheel's 93rd build); OpenCV's own where it came otherwise (built from source)."""
    for wheel in ("opencv-python-headless", "opencv-python", "opencv-contrib-python-headless", "opencv-contrib-python"):
        try:
            return metadata.version(wheel)
        except metadata.PackageNotFoundError:
            continue
    return cv2.__version__


def _field(line: str) -> tuple[str, str]:
    key, _, value = line.partition(":")
    return key.strip(), value.strip()


def _usable_cores() -> int:
    """The cores this process may run on (a container's share, where the system says)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1
