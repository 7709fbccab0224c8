"""A progress bar on stderr for long batch commands (no dependency beyond the standard library)."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterable, Iterator
from typing import TextIO, TypeVar

T = TypeVar("T")


def progress(items: Iterable[T], total: int, label: str, stream: TextIO | None = None) -> Iterator[T]:
    """Yield ``items`` while drawing ``label [#####.....] done/total rate/s`` on one line."""
    stream = stream or sys.stderr
    start = last = time.perf_counter()
    done = 0

    def draw(final: bool = False) -> None:
        elapsed = max(time.perf_counter() - start, 1e-9)
        filled = int(30 * done / max(total, 1))
        bar = "#" * filled + "." * (30 - filled)
        stream.write(f"\r{label} [{bar}] {done}/{total} {done / elapsed:.1f}/s" + ("\n" if final else ""))
        stream.flush()

    draw()
    for item in items:
        yield item
        done += 1
        if time.perf_counter() - last > 0.2:
            last = time.perf_counter()
            draw()
    draw(final=True)
