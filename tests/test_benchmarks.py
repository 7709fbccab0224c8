"""The studio's and the service's benchmark commands, run for a moment: each prints its figures
(the reader's, the classifier's and the finder's have tests of their own)."""

import re

from service.cli import main


def _rates(printed: str, pattern: str) -> list[float]:
    return [float(rate) for rate in re.findall(pattern, printed)]


def test_the_studio_benchmark_prints_photos_a_second_for_one_worker_and_all_cores(capsys):
    assert main(["benchmark", "studio", "--seconds", "0.1"]) == 0
    printed = capsys.readouterr().out
    rates = _rates(printed, r"with \d+ worker\(s\): ([\d.]+) per second")
    assert "with 1 worker(s)" in printed and rates and all(rate > 0 for rate in rates)


def test_the_service_benchmark_prints_frames_a_second_for_each_case_and_game_count(capsys):
    assert main(["benchmark", "service", "--seconds", "0.1"]) == 0
    printed = capsys.readouterr().out
    assert "0.1 s a run" in printed  # the run's length as asked, not rounded to 0
    assert "every frame read" in printed and "a still table" in printed
    rates = _rates(printed, r"([\d.]+) frames/s a game")
    assert len(rates) == 4 and all(rate > 0 for rate in rates)  # two cases, 1 and 4 games each
