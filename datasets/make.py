"""Writing datasets: photos with truth, before/after pairs, game sequences and corner crops.

Image ``seed`` is its own identity: the same seed gives the same bytes, and seed ranges split the
data (``SPLITS``) so that no evaluation ever sees a training seed.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from datasets.studio import (
    LARGE_SET_SHARE,
    Rendered,
    Scene,
    before_the_game,
    closer,
    render,
    sample_scene,
    with_defocus,
    with_mirror,
    with_more_pixels,
    with_noise,
    with_sharpening,
    with_warmth,
)
from engine.board import Board
from engine.game import Place
from engine.rules import game_rules
from engine.simulate import simulate_game
from engine.tiles import STANDARD_MAX
from models.classes import NO_NUMBER
from vision.crops import CROP_PX, corner_crops

SPLITS = {"train": 0, "val": 1_000_000, "test": 2_000_000}


@dataclass(frozen=True)
class RenderJob:
    """What to make for one seed; a job is a plain value so worker processes can take it."""

    seed: int
    styles: tuple[str, ...] | None = None
    pair: bool = False
    masks: bool = False
    n_tiles: int | None = None
    size: tuple[int, int] | None = None
    large_set: float = LARGE_SET_SHARE  # the chance of a scene with the 0..6 set
    more_pixels: float = 1.0  # the same view with this many times the pixels a side (studio.with_more_pixels)
    closer: float = 1.0  # the middle of the view zoomed this many times (studio.closer)
    other_editions: float = 0.0  # the chance of a set in another edition's layout (studio.sample_scene)
    warmth: float = 0.0  # light the camera did not balance (studio.with_warmth)
    sharpen: float = 0.0  # a camera's sharpening (studio.with_sharpening)
    defocus: float | None = None  # a camera out of focus: blur in place of the scene's own (studio.with_defocus)
    noise: float = 0.0  # a camera in dim light: sensor noise on top of the scene's own (studio.with_noise)
    mirror: bool = False  # a camera that mirrors its picture (studio.with_mirror)
    only: str | None = None  # "pile" or "table": the table before the game (studio.before_the_game)

    def scene(self) -> Scene:
        """The seed's scene, seen with more pixels, from closer, in unbalanced light, noisier,
        out of focus, sharpened, mirrored or before the game when the job asks."""
        scene = sample_scene(
            self.seed,
            list(self.styles) if self.styles else None,
            self.n_tiles,
            pair=self.pair,
            size=self.size,
            large_set=self.large_set,
            other_editions=self.other_editions,
        )
        if self.more_pixels != 1.0:
            scene = with_more_pixels(scene, self.more_pixels)
        if self.closer != 1.0:
            scene = closer(scene, self.closer)
        if self.warmth:
            scene = with_warmth(scene, self.warmth)
        if self.noise:
            scene = with_noise(scene, self.noise)
        if self.defocus is not None:
            scene = with_defocus(scene, self.defocus)
        if self.sharpen:
            scene = with_sharpening(scene, self.sharpen)
        if self.mirror:
            scene = with_mirror(scene)
        if self.only:
            scene = before_the_game(scene, pile=self.only == "pile")
        return scene


def encode_jpeg(image: np.ndarray, quality: int) -> bytes:
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, int(quality)])
    if not ok:
        raise RuntimeError("JPEG encoding failed")
    return data.tobytes()


def through_jpeg(image: np.ndarray, quality: int) -> np.ndarray:
    """The image as a camera saves it: encoded as JPEG at ``quality`` and decoded again."""
    return cv2.imdecode(np.frombuffer(encode_jpeg(image, quality), np.uint8), cv2.IMREAD_COLOR)


def _write(out: Path, name: str, rendered: Rendered, quality: int, masks: bool) -> None:
    (out / f"{name}.jpg").write_bytes(encode_jpeg(rendered.image, quality))
    truth = dict(rendered.truth, image={**rendered.truth["image"], "path": f"{name}.jpg"})
    (out / f"{name}.json").write_text(json.dumps(truth))
    if masks:
        cv2.imwrite(str(out / f"{name}.mask.png"), rendered.mask)


def make_image(job: RenderJob, out: Path) -> str:
    """Render one seed into ``out``: NAME.jpg and NAME.json (and the 'before' photo of a pair)."""
    scene = job.scene()
    name = f"{job.seed:07d}"
    quality = scene.options["jpeg"]
    if job.pair:
        _write(out, f"{name}_before", render(scene, board_tiles=len(scene.board) - 1, frame=1), quality, job.masks)
    _write(out, name, render(scene), quality, job.masks)
    return name


def run_jobs(function: Callable, jobs: Sequence, *args, workers: int | None = None) -> Iterator:
    """Results of ``function(job, *args)`` in job order, spread over worker processes."""
    workers = workers or min(len(jobs), os.cpu_count() or 1)
    if workers <= 1:
        for job in jobs:
            yield function(job, *args)
        return
    with ProcessPoolExecutor(workers) as pool:
        yield from pool.map(function, jobs, *([a] * len(jobs) for a in args), chunksize=1)


def make_sequence(
    seed: int,
    out: Path,
    styles: Sequence[str] | None = None,
    still_frames: int = 5,
    max_events: int | None = None,
    max_rounds: int | None = None,
    max_number: int = STANDARD_MAX,
    noise: float = 0.0,
    defocus: float | None = None,
    mirror: bool = False,
    more_pixels: float = 1.0,
) -> Path:
    """The frames of a simulated two-player game: for each placement, a frame with the player's
    hand still on the new tile, then frames of the still board; draws and passes show the still
    board (a camera cannot see them). Each round is shot with one camera, refitted when the next
    round starts on a cleared table. Writes frames/NNNNNN.jpg with truth, video.avi (MJPG,
    5 frames a second, one size throughout) and events.json (each event with its frame). The
    game is played with the set of numbers 0 to ``max_number``, shot with sensor ``noise`` on top
    of the studio's (a webcam in dim light, ``studio.with_noise``), drawn afresh each frame, and
    out of focus by ``defocus`` pixels at 1280 wide in place of the scene's own (``studio.with_defocus``),
    by a camera that mirrors its picture where ``mirror`` (``studio.with_mirror``), and with
    ``more_pixels`` times the pixels a side (``studio.with_more_pixels``: a camera asked for larger
    pictures)."""
    played = simulate_game(seed, players=2, rules=game_rules("pressman-us", max_number), max_rounds=max_rounds or 60)
    game = played.game
    folder = out / f"sequence_{seed:07d}"
    (folder / "frames").mkdir(parents=True, exist_ok=True)
    entries = game.log[:max_events]
    # A clip cut short by max_events frames only the tiles it shows, so they come out larger.
    shown = [sum(isinstance(e.event, Place) and e.round == r for e in entries) for r in range(1, 1 + entries[-1].round)]
    # A still photo's scene may have a hand over a random tile; a game's frames draw the hand only
    # on the tile just put down, so the still board between turns is seen whole.
    scenes = [
        sample_scene(
            seed,
            list(styles) if styles else None,
            board=Board(board.placements[:count]),
            loose_tiles=False,
            random_hand=False,
        )
        for board, count in zip(played.final_boards, shown)
    ]
    if more_pixels != 1.0:
        scenes = [with_more_pixels(scene, more_pixels) for scene in scenes]
    if noise:
        scenes = [with_noise(scene, noise) for scene in scenes]
    if defocus is not None:
        scenes = [with_defocus(scene, defocus) for scene in scenes]
    if mirror:
        scenes = [with_mirror(scene) for scene in scenes]
    size = scenes[0].camera.size
    video = cv2.VideoWriter(str(folder / "video.avi"), cv2.VideoWriter_fourcc(*"MJPG"), 5, size)
    frame, events = 0, []

    def shoot(scene, board_tiles: int, hand_over: int | None) -> None:
        nonlocal frame
        rendered = render(scene, board_tiles=board_tiles, hand_over=hand_over, frame=frame)
        rendered.truth["studio"]["hand"] = hand_over is not None
        _write(folder / "frames", f"{frame:06d}", rendered, 90, masks=False)
        video.write(rendered.image if rendered.image.shape[1::-1] == size else cv2.resize(rendered.image, size))
        frame += 1

    for number, scene in enumerate(scenes, start=1):
        placed = 0
        shoot(scene, 0, None)
        for entry in (e for e in entries if e.round == number):
            if isinstance(entry.event, Place):
                placed += 1
                shoot(scene, placed, placed - 1)  # the player's hand is still on the tile just put down
            events.append({"frame": frame, **entry.to_dict()})
            for _ in range(still_frames if isinstance(entry.event, Place) else 1):
                shoot(scene, placed, None)
    video.release()
    sheet = {
        "players": list(game.players),
        "rules": game.rules.name,
        "max_number": game.rules.max_number,
        "events": events,
        "final_scores": [sum(e["deltas"][i] for e in events) for i in range(len(game.players))],
    }
    (folder / "events.json").write_text(json.dumps(sheet))
    return folder


def write_y4m(frames: Sequence[Path], out: Path, rate: str = "5:1", size: tuple[int, int] | None = None) -> Path:
    """Frames as an uncompressed Y4M video (the format Chromium's fake webcam plays), all at
    the first frame's size or ``size`` (even width and height); ``rate`` is frames per second
    as a fraction."""
    first = cv2.imread(str(frames[0]))
    width, height = size or (first.shape[1] // 2 * 2, first.shape[0] // 2 * 2)
    with open(out, "wb") as video:
        video.write(f"YUV4MPEG2 W{width} H{height} F{rate} Ip A1:1 C420jpeg\n".encode())
        for path in frames:
            image = cv2.resize(cv2.imread(str(path)), (width, height), interpolation=cv2.INTER_AREA)
            video.write(b"FRAME\n" + cv2.cvtColor(image, cv2.COLOR_BGR2YUV_I420).tobytes())
    return out


def crops_for_seed(job: RenderJob) -> tuple[np.ndarray, np.ndarray, int, float]:
    """Labelled corner crops from one rendered photo, cut like the reader cuts them but from
    slightly wrong corners (position jitter, up to 20 degrees of turn), plus "no number" crops
    of face-down tiles, hidden corners and bare table."""
    scene = job.scene()
    rendered = render(scene)
    rng = np.random.default_rng([job.seed, 7])
    side = rendered.truth["studio"]["tile_side_px"]
    triangles, labels = [], []
    for tile in rendered.truth["tiles"]:
        triangles.append([[c["x"], c["y"]] for c in tile["corners"]])
        labels.extend(NO_NUMBER if c["hidden"] else c["value"] for c in tile["corners"])
    for tile in rendered.truth["face_down"]:
        triangles.append(tile["corners"])
        labels.extend([NO_NUMBER] * 3)
    h, w = rendered.mask.shape
    for _ in range(max(1, len(triangles) // 6)):  # bare table, where the mask shows no tile
        centre = rng.uniform((side, side), (w - side, h - side))
        if rendered.mask[int(centre[1]), int(centre[0])] == 0:
            angle = rng.uniform(0, 2 * math.pi)
            offsets = [(math.cos(angle + k * 2.0944), math.sin(angle + k * 2.0944)) for k in range(3)]
            triangles.append((centre + np.array(offsets) * side / math.sqrt(3)).tolist())
            labels.extend([NO_NUMBER] * 3)
    triangles = np.array(triangles, np.float32).reshape(-1, 3, 2)
    centres = triangles.mean(1, keepdims=True)
    turn = np.radians(rng.uniform(-20, 20, len(triangles)))
    rot = np.stack([np.cos(turn), -np.sin(turn), np.sin(turn), np.cos(turn)], 1).reshape(-1, 2, 2)
    jittered = centres + np.einsum("tij,tkj->tki", rot, triangles - centres)
    jittered += rng.normal(0, 0.03 * side, jittered.shape)
    # Cut from what the reader sees: the photo after JPEG at this scene's quality.
    crops = corner_crops(through_jpeg(rendered.image, scene.options["jpeg"]), jittered)
    return crops, np.array(labels, np.int8), _style_index(scene.style.name), side


def _style_index(name: str) -> int:
    from datasets.faces import STYLES

    return list(STYLES).index(name)


DATA = Path("data")


def load_crops(
    split: str,
    images: int,
    report: Callable | None = None,
    large_set: float = LARGE_SET_SHARE,
    other_editions: float = 0.0,
    warmth: float = 0.0,
) -> dict[str, np.ndarray]:
    """Crops of the first ``images`` seeds of ``split``, rendered once and cached in data/
    (the same file ``triominoes datasets crops`` writes); ``large_set`` is the chance of a
    scene with the 0..6 set (the studio's own share unless asked), ``other_editions`` the chance
    of a set in another edition's layout, ``warmth`` a light the camera did not balance
    (``studio.with_warmth``) in every photo."""
    share = "" if large_set == LARGE_SET_SHARE else f"_large{large_set:g}"
    share += f"_editions{other_editions:g}" if other_editions else ""
    share += f"_warmth{warmth:g}" if warmth else ""
    path = DATA / f"crops_{split}_0_{images}{share}_bgr{CROP_PX}.npz"
    if path.is_file():
        with np.load(path) as stored:
            return {k: stored[k] for k in ("crops", "labels", "styles", "side_px") if k in stored}
    first = SPLITS[split]
    jobs = [
        RenderJob(first + k, large_set=large_set, other_editions=other_editions, warmth=warmth) for k in range(images)
    ]
    results = run_jobs(crops_for_seed, jobs)
    parts = list(report(results, len(jobs), f"crops {split}") if report else results)
    data = crop_arrays(parts)
    DATA.mkdir(exist_ok=True)
    np.savez_compressed(path, **data, first_seed=first, n=images)
    return data


def crop_arrays(parts: list[tuple]) -> dict[str, np.ndarray]:
    """One dataset from the per-photo results of ``crops_for_seed``: crops, labels, and each
    crop's style index and tile side in pixels."""
    return {
        "crops": np.concatenate([p[0] for p in parts]),
        "labels": np.concatenate([p[1] for p in parts]),
        "styles": np.concatenate([np.full(len(p[1]), p[2], np.int8) for p in parts]),
        "side_px": np.concatenate([np.full(len(p[1]), p[3], np.float32) for p in parts]),
    }
