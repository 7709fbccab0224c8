"""Live socket speed: frames per second and answer times for one and for several games at once.

Starts the real service (uvicorn) on a free local port with a throw-away database, opens one
websocket per game, and has each client send the bundled 1280x960 sample photo (with fresh
sensor noise each time), waiting for each answer before sending the next, as the page does.
Two cases: every frame read (the worst case: the live table told never to skip a frame), and
the default settings, where a still table that has settled is not read again until it changes
(or a refresh is due).
"""

from __future__ import annotations

import socket
import tempfile
import threading
import time
from pathlib import Path

import cv2
import httpx
import numpy as np
import uvicorn
from websockets.sync.client import connect

from service.app import Settings, create_app
from service.live import LiveSettings

SAMPLE = Path(__file__).resolve().parent.parent / "samples" / "board.jpg"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _frames(count: int = 8) -> list[bytes]:
    image = cv2.imread(str(SAMPLE))
    rng = np.random.default_rng(0)
    frames = []
    for _ in range(count):
        noisy = np.clip(image.astype(np.int16) + rng.integers(-3, 4, image.shape), 0, 255).astype(np.uint8)
        frames.append(cv2.imencode(".jpg", noisy, [cv2.IMWRITE_JPEG_QUALITY, 85])[1].tobytes())
    return frames


def _client(url: str, frames: list[bytes], seconds: float, times: list[float]) -> None:
    """Frames sent one answer at a time for ``seconds``, and two at least: the first answer only
    sets up motion, so a run shorter than one answer would time nothing."""
    with connect(url, max_size=2**24) as live:
        end = time.perf_counter() + seconds
        k = 0
        while k < 2 or time.perf_counter() < end:
            start = time.perf_counter()
            live.send(frames[k % len(frames)])
            live.recv()
            times.append(time.perf_counter() - start)
            k += 1


def run(games: int, seconds: float, base: str, frames: list[bytes]) -> dict[str, float]:
    ids = [
        httpx.post(f"{base}/v1/games", json={"players": ["Ann", "Bob"]}).raise_for_status().json()["id"]
        for _ in range(games)
    ]
    times: list[list[float]] = [[] for _ in ids]
    ws = base.replace("http", "ws", 1)
    threads = [
        threading.Thread(target=_client, args=(f"{ws}/v1/games/{game}/live", frames, seconds, out))
        for game, out in zip(ids, times)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    answers = [t for per_game in times for t in per_game[1:]]  # the first answer of each game only sets up motion
    per_game = [len(t) / sum(t) for t in times]  # each client waits for an answer before sending on
    return {
        "fps_per_game": float(np.mean(per_game)),
        "fps_total": float(np.sum(per_game)),
        "p50_ms": float(np.percentile(answers, 50) * 1000),
        "p95_ms": float(np.percentile(answers, 95) * 1000),
    }


class BackgroundServer:
    """The service on a free local port in a background thread (for benchmarks and browser tests)."""

    def __init__(self, settings: Settings) -> None:
        port = _free_port()
        self.url = f"http://127.0.0.1:{port}"
        self._server = uvicorn.Server(
            uvicorn.Config(create_app(settings), host="127.0.0.1", port=port, log_level="warning")
        )
        self._thread = threading.Thread(target=self._server.run, daemon=True)
        self._thread.start()
        while not self._server.started:
            time.sleep(0.05)

    def stop(self) -> None:
        self._server.should_exit = True
        self._thread.join()


CASES = {
    "every frame read": LiveSettings(changed_pixels=10**9, refresh_seconds=1e-9),
    "a still table, default settings": LiveSettings(),
}


def main(seconds: float = 10.0, game_counts: tuple[int, ...] = (1, 4)) -> None:
    frames = _frames()
    print(f"live socket, {SAMPLE.name} 1280x960 (24 tiles) with fresh noise per frame, {seconds:g} s a run:")
    with tempfile.TemporaryDirectory() as folder:
        for case, live in CASES.items():
            server = BackgroundServer(Settings(database=f"{folder}/{len(case)}.sqlite3", live=live))
            base = server.url
            run(1, 1.0, base, frames)  # warm up: load the models
            print(f"  {case}:")
            for games in game_counts:
                figures = run(games, seconds, base, frames)
                print(
                    f"    {games} game{'s' if games > 1 else ' '} at once: "
                    f"{figures['fps_per_game']:6.1f} frames/s a game, "
                    f"{figures['fps_total']:6.1f} in all; answer p50 {figures['p50_ms']:6.1f} ms, "
                    f"p95 {figures['p95_ms']:6.1f} ms"
                )
            server.stop()
