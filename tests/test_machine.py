"""The machine line above every benchmark's figures (``service.machine.describe``)."""

from service.cli import main
from service.machine import describe

EPYC = """processor\t: 0
model name\t: AMD EPYC 7R13 Processor
flags\t\t: fpu sse2 avx avx2 fma
processor\t: 1
model name\t: AMD EPYC 7R13 Processor
flags\t\t: fpu sse2 avx avx2 fma
"""


def test_the_processor_its_cores_and_its_widest_vector_instructions_are_named():
    line = describe(EPYC, cores=2)
    assert line.startswith("machine: AMD EPYC 7R13 Processor, 2 cores, AVX2, no AVX-512; onnxruntime ")
    with_avx512 = describe(EPYC.replace("avx2 fma", "avx2 avx512f avx512bw"), cores=1)
    assert ", 1 core, AVX-512;" in with_avx512


def test_without_cpuinfo_the_processor_is_still_named_and_nothing_is_guessed():
    line = describe("", cores=4)
    assert line.startswith("machine: ") and ", 4 cores; onnxruntime " in line and "AVX" not in line


def test_every_benchmark_names_the_machine_first(capsys):
    assert main(["benchmark", "engine", "--seconds", "0.1"]) == 0
    assert capsys.readouterr().out.startswith(describe() + "\n")


def test_the_libraries_the_figures_depend_on_are_named_with_their_versions():
    import cv2
    import numpy
    import onnxruntime

    libraries = describe("", cores=1).split("; ", 1)[1]
    assert libraries.startswith(f"onnxruntime {onnxruntime.__version__}, opencv {cv2.__version__}")
    assert libraries.endswith(f", numpy {numpy.__version__}")
