"""Comparing readings with the studio's truth: one row per photo and a summary.

Both sides use the reading shape of CONTRACT.md. Face-up tiles are matched by their centres
(closer than 0.3 of a side); matched tiles compare their corners by position, and their cells
once the two lattice frames are matched. Face-down tiles are matched the same way, apart.
"""

from __future__ import annotations

import csv
import json
from collections import Counter
from collections.abc import Callable, Iterable
from pathlib import Path

import numpy as np

from engine.board import Board
from engine.boardfile import json_value
from engine.lattice import LatticeMap, cell_corners
from models.metrics import SIDE_BINS
from vision.decode import UNSURE_BELOW

COLUMNS = [
    "image", "tiles", "found", "missed", "extra", "wrong_corners", "misplaced", "exact", "wrong_tiles",
    "score_right", "placement_hidden", "face_down", "face_down_found", "face_down_extra", "ms", "tile_side_px",
    "wrong_unsure", "right_unsure", "style", "table", "tilt_deg", "corner_offset", "placement",
]  # fmt: skip
LARGE_TILES_FROM = SIDE_BINS[1][0]  # pixels a side: tiles this large read well once found (grouped by set, table, view)
VIEW_BINS = [(0, 30), (30, 45), (45, 90)]  # degrees off vertical
MATCHED_WITHIN = 0.3  # a tile found where a centre lies this share of its side from its own


def tile_corners(tile: dict) -> np.ndarray:
    """A face-up tile's corners (``{"x", "y", ...}`` each) or a face-down one's (``[x, y]``)."""
    return np.array([[c["x"], c["y"]] if isinstance(c, dict) else c for c in tile["corners"]], np.float64)


def partly_hidden(tile: dict) -> bool:
    """Whether a truth tile is partly hidden (a hand, an arm or the photo's edge over where a
    number sits, or would sit on a back): such a tile is neither wanted nor, reported, invented."""
    return bool(tile.get("hidden")) or any(isinstance(c, dict) and c.get("hidden") for c in tile["corners"])


def _whole_and_partly_hidden(tiles: list[dict]) -> tuple[list[dict], list[dict]]:
    """The truth tiles (or backs) in full view, and those partly hidden (``partly_hidden``)."""
    return [t for t in tiles if not partly_hidden(t)], [t for t in tiles if partly_hidden(t)]


def _side(tile: dict) -> float:
    """A tile's side in the photo (its first edge), in pixels."""
    corners = tile_corners(tile)
    return float(np.linalg.norm(corners[0] - corners[1]))


def _take_match(tile: dict, got: list[dict], free: list[int]) -> dict | None:
    """The reported tile or back (among ``free``, which loses it) whose centre is nearest the
    truth tile's, if closer than ``MATCHED_WITHIN`` of a side."""
    if not free:
        return None
    centre = tile_corners(tile).mean(0)
    distances = [np.linalg.norm(tile_corners(got[k]).mean(0) - centre) for k in free]
    best = int(np.argmin(distances))
    return got[free.pop(best)] if distances[best] <= MATCHED_WITHIN * _side(tile) else None


def compare(truth: dict, reading: dict) -> dict:
    """One photo's row: how many truth tiles were found, missed, invented, and misread.

    A tile with a corner hidden (under a hand) cannot be read whole: it is neither wanted nor,
    when the reader reports it anyway, invented. Only tiles reported with numbers count: an
    outline the reader left unread is neither a found tile nor an extra one. Face-down tiles
    are counted in their own columns, and one partly hidden (``"hidden": true``: a hand over
    where a corner's number would be) is neither wanted nor, reported, invented; nor is a back
    reported over a partly hidden face-up tile. For the same reason, when the tile added since
    the previous photo is partly hidden (the hand placing it), reporting no placement is the
    right answer: the reader is asked to say what it cannot settle, not to guess; a placement it
    does report must be the true one."""
    wanted, hidden = _whole_and_partly_hidden(truth["tiles"])
    got = list(reading.get("tiles", []))
    free = list(range(len(got)))
    pairs = [(tile, match) for tile in wanted if (match := _take_match(tile, got, free)) is not None]
    found = len(pairs)
    nearest = [_nearest_corners(t, m) for t, m in pairs]  # for each truth corner, the reported one there
    # Per matched tile, per corner: (read wrong, flagged unsure). A confidence below UNSURE_BELOW
    # warns of a corner; one given without a confidence claims certainty.
    corners = [
        [
            (m["corners"][j]["value"] != corner["value"], m["corners"][j].get("confidence", 1.0) < UNSURE_BELOW)
            for corner, j in zip(t["corners"], near)
        ]
        for (t, m), near in zip(pairs, nearest)
    ]
    wrong = [sum(w for w, _ in tile) for tile in corners]
    wrong_corners = sum(wrong)
    flagged = Counter(w for tile in corners for w, unsure in tile if unsure)
    misplaced = _misplaced(pairs, nearest)
    # How far each matched corner lies from the true one, in sides of its tile: the classifier
    # reads the number where the reader puts the corner.
    offsets = [
        np.linalg.norm(tile_corners(m)[near] - tile_corners(t), axis=1) / _side(t)
        for (t, m), near in zip(pairs, nearest)
    ]
    wrong_tiles = sum(w > 0 or m for w, m in zip(wrong, misplaced))
    missed = len(wanted) - found
    for tile in hidden:
        _take_match(tile, got, free)
    extra = len(free)
    backs_wanted, backs_hidden = _whole_and_partly_hidden(truth.get("face_down", []))
    backs = list(reading.get("face_down", []))
    free_backs = list(range(len(backs)))
    backs_found = sum(_take_match(back, backs, free_backs) is not None for back in backs_wanted)
    for tile in hidden + backs_hidden:
        _take_match(tile, backs, free_backs)
    studio = truth.get("studio", {})
    score_right = placement_hidden = placement = ""
    if truth.get("last_placement") and "last_placement" in reading and reading.get("previous"):
        mine, theirs = reading["last_placement"], truth["last_placement"]
        placement_hidden = int(any(t["cell"] == theirs["cell"] for t in hidden))
        if mine:
            placement = _outcome(mine, theirs)
            score_right = int(placement == "scored")
        else:  # declining is right only where the photo does not show the added tile whole
            placement, score_right = "declined", placement_hidden
    return {
        "image": truth["image"]["path"],
        "tiles": len(wanted),
        "found": found,
        "missed": missed,
        "extra": extra,
        "wrong_corners": wrong_corners,
        "misplaced": sum(misplaced),
        "exact": int(missed == 0 and extra == 0 and wrong_corners == 0 and not any(misplaced)),
        "wrong_tiles": wrong_tiles + missed + extra,
        "score_right": score_right,
        "placement_hidden": placement_hidden,
        "face_down": len(backs_wanted),
        "face_down_found": backs_found,
        "face_down_extra": len(free_backs),
        "ms": round(reading.get("timing_ms", {}).get("total", 0.0), 1),
        "tile_side_px": studio.get("tile_side_px", ""),
        "wrong_unsure": flagged[True],
        "right_unsure": flagged[False],
        "style": studio.get("style", studio.get("look", "")),  # the second renderer names its looks
        "table": studio.get("table", ""),
        "tilt_deg": studio.get("tilt_deg", ""),
        "corner_offset": round(float(np.mean(offsets)), 4) if offsets else "",  # over every matched corner
        "placement": placement,
    }


def _outcome(mine: dict, theirs: dict) -> str:
    """What a reading's placement made of the true one: the tile and its points, another tile,
    or the tile with other points (a bonus missed or invented)."""
    if mine["tile"] != theirs["tile"]:
        return "wrong tile"
    return "scored" if _points(mine) == _points(theirs) else "wrong score"


def _nearest_corners(tile: dict, match: dict) -> list[int]:
    """For each truth corner, which of the matched tile's corners lies nearest it."""
    mine = tile_corners(match)
    return [int(np.argmin(np.linalg.norm(mine - xy, axis=1))) for xy in tile_corners(tile)]


def _misplaced(pairs: list[tuple[dict, dict]], nearest: list[list[int]]) -> list[bool]:
    """Per matched tile, whether the reading puts it in the wrong place: on the board where the
    truth has it loose or the other way round, or in another cell. Each side picks its own
    lattice frame, so the truth's cells are first carried into the reading's frame by the lattice
    symmetry that the most tiles' corners agree on (``nearest``: ``_nearest_corners`` per pair)."""
    votes: Counter[LatticeMap] = Counter()
    for (tile, match), near in zip(pairs, nearest):
        if tile["cell"] is not None and match["cell"] is not None and (mapping := _frame_of(tile, match, near)):
            votes[mapping] += 1
    frame = votes.most_common(1)[0][0] if votes else None
    return [
        (tile["cell"] is None) != (match["cell"] is None)
        or (tile["cell"] is not None and (frame is None or frame.cell(tuple(tile["cell"])) != tuple(match["cell"])))
        for tile, match in pairs
    ]


def _frame_of(tile: dict, match: dict, nearest: list[int]) -> LatticeMap | None:
    """The lattice symmetry that sends each of the truth tile's lattice points onto the point of
    the reported corner lying there in the photo (``nearest``), if there is one."""
    truth_points = cell_corners(tuple(tile["cell"]))
    own_points = cell_corners(tuple(match["cell"]))
    targets = [own_points[j] for j in nearest]
    for rotation in range(6):
        turned = LatticeMap(rotation).point(truth_points[0])
        dm, dk = targets[0][0] - turned[0], targets[0][1] - turned[1]
        if (dm + dk) % 2:
            continue
        mapping = LatticeMap(rotation, dm, dk)
        if all(mapping.point(p) == q for p, q in zip(truth_points, targets)):
            return mapping
    return None


def _points(placement: dict) -> tuple:
    """A placement's score without where its bonuses lie: each reading picks its own lattice
    frame, so the truth's lattice points and the reader's name the same spot differently."""
    score = placement["score"]
    return score["total"], score["base"], sorted((b["kind"], b["points"]) for b in score["bonuses"])


def summarise(rows: list[dict]) -> dict:
    """The figures over all rows (and what the readings made of the placements not scored right,
    by count: ``placements_lost``), then, for studio truth (which knows its tiles' size in the
    photo, the set's style, the table and the camera's angle), the same figures by tile side (how
    close the camera must be for a board to be read), and, over photos of tiles large enough to
    read (``LARGE_TILES_FROM``, where size is not what loses a board), by set style, by table and
    by camera angle."""
    figures = _figures(rows)
    lost = Counter(r["placement"] for r in rows if r.get("score_right") == 0)
    if lost:  # why placements were not scored right, most often first
        figures["placements_lost"] = dict(lost.most_common())
    sized = [r for r in rows if r.get("tile_side_px", "") != ""]
    large = [r for r in sized if float(r["tile_side_px"]) >= LARGE_TILES_FROM]
    groups = {
        "by_tile_side": _binned(sized, "tile_side_px", SIDE_BINS, "px"),
        "by_style": _by_name(large, "style"),
        "by_table": _by_name(large, "table"),
        "by_view": _binned([r for r in large if r.get("tilt_deg", "") != ""], "tilt_deg", VIEW_BINS, "degrees"),
    }
    for name, parts in groups.items():
        if any(parts.values()):
            figures[name] = {label: _untimed_figures(part) for label, part in parts.items() if part}
    return figures


def _untimed_figures(rows: list[dict]) -> dict:
    """``_figures`` without the milliseconds: groups compare accuracy, and time is a whole run's figure."""
    return {k: v for k, v in _figures(rows).items() if not k.endswith("_ms")}


def _by_name(rows: list[dict], column: str) -> dict[str, list[dict]]:
    """The rows by their ``column``'s value (rows without one left out), in alphabetical order."""
    names = sorted({r[column] for r in rows if r.get(column)})
    return {name: [r for r in rows if r.get(column) == name] for name in names}


def _binned(rows: list[dict], column: str, bins: list[tuple[int, int]], unit: str) -> dict[str, list[dict]]:
    """The rows whose ``column`` falls in each bin (low inclusive), by the bin's label."""
    return {f"{low}-{high} {unit}": [r for r in rows if low <= float(r[column]) < high] for low, high in bins}


def _figures(rows: list[dict]) -> dict:
    tiles = sum(r["tiles"] for r in rows)
    found = sum(r["found"] for r in rows)
    extra = sum(r["extra"] for r in rows)
    scored = [r["score_right"] for r in rows if r["score_right"] != ""]
    hidden = [r["placement_hidden"] for r in rows if r.get("placement_hidden", "") != ""]
    backs = sum(r["face_down"] for r in rows)
    backs_found = sum(r["face_down_found"] for r in rows)
    backs_reported = backs_found + sum(r["face_down_extra"] for r in rows)
    times = [r["ms"] for r in rows]
    wrong = sum(r["wrong_corners"] for r in rows)
    offsets = [(r["corner_offset"], r["found"]) for r in rows if r.get("corner_offset", "") != ""]
    return {
        "photos": len(rows),
        "tile_recall": found / tiles if tiles else 1.0,
        "tile_precision": found / (found + extra) if found + extra else 1.0,
        "corner_error_rate": wrong / (3 * found) if found else 0.0,
        # the mean over every matched corner: each photo's mean weighed by its tiles found
        "corner_offset": sum(o * n for o, n in offsets) / sum(n for _, n in offsets) if offsets else None,
        "wrong_corners_flagged": sum(r["wrong_unsure"] for r in rows) / wrong if wrong else None,
        "right_corners_flagged": sum(r["right_unsure"] for r in rows) / (3 * found - wrong)
        if 3 * found > wrong
        else None,
        "exact_boards": float(np.mean([r["exact"] for r in rows])) if rows else 0.0,
        "at_most_one_wrong_tile": float(np.mean([r["wrong_tiles"] <= 1 for r in rows])) if rows else 0.0,
        "placements_scored_right": float(np.mean(scored)) if scored else None,
        "placements_partly_hidden": float(np.mean(hidden)) if hidden else None,
        "face_down_recall": backs_found / backs if backs else 1.0,
        "face_down_precision": backs_found / backs_reported if backs_reported else 1.0,
        "p50_ms": float(np.percentile(times, 50)) if times else 0.0,
        "p95_ms": float(np.percentile(times, 95)) if times else 0.0,
    }


class EvaluationError(ValueError):
    """A truth file or a file of readings that cannot be compared; the message names it."""


def truth_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.glob("*.json") if not p.name.endswith("_before.json"))


def _truth(file: Path) -> dict:
    """A truth file (the studio's shape: the photo's path, its tiles); EvaluationError naming the
    file where it is not one."""
    try:
        truth = json_value(file.read_bytes())
        if isinstance(truth["image"]["path"], str) and isinstance(truth["tiles"], list):
            return truth
    except (json.JSONDecodeError, UnicodeDecodeError, KeyError, TypeError):
        pass
    raise EvaluationError(f"{file}: not a truth file (JSON with the photo's image.path and its tiles)")


def evaluate(
    folder: Path,
    predictions: Path | None,
    csv_path: Path,
    report: Callable[[Iterable, int, str], Iterable] | None = None,
    working_size: int | None = None,
    true_outlines: bool = False,
    live: bool = False,
) -> dict:
    """Rows for every truth file in ``folder`` (readings from ``predictions``, else read now;
    ``true_outlines``: only the truth's own tiles read, at their true corners and cells;
    ``live``: each photo read as a live game reads it, knowing the board of the earlier photo's
    truth instead of reading that photo)."""
    files = truth_files(folder)
    truths = [_truth(file) for file in files]  # each read once, and every one checked before any photo is read
    without_reading = 0
    if true_outlines:
        readings = _read_at_true_outlines(folder, truths)
    elif predictions is not None:
        readings, without_reading = _predicted(predictions, truths)
    else:
        readings = _read_all(folder, files, truths, working_size, live)
    rows = []
    pairs = zip(truths, readings)
    for truth, reading in report(pairs, len(files), "evaluate") if report else pairs:
        rows.append(compare(truth, reading))
    with open(csv_path, "w", newline="") as out:
        writer = csv.DictWriter(out, COLUMNS)
        writer.writeheader()
        writer.writerows(rows)
    figures = summarise(rows)
    if not without_reading:
        return figures
    return {"photos": figures["photos"], "photos_without_reading": without_reading, **figures}


def _predicted(predictions: Path, truths: list[dict]) -> tuple[list[dict], int]:
    """The readings of ``predictions`` (one JSON line per photo, as ``read --out`` writes), in the
    order of ``truths``, matched by the photo's file name, and how many photos have none (each
    counts as no tile found). EvaluationError where a line is not a reading, or where no line
    names a photo of the folder (readings of another folder would count as nothing found,
    silently)."""
    by_name = {}
    for number, line in enumerate(predictions.read_text().splitlines(), 1):
        try:
            reading = json_value(line)
            by_name[Path(reading["image"]["path"]).name] = reading
        except (json.JSONDecodeError, KeyError, TypeError) as error:
            raise EvaluationError(f"{predictions} line {number}: not a reading ({error!r})") from None
    names = [truth["image"]["path"] for truth in truths]
    if names and not by_name.keys() & set(names):
        raise EvaluationError(f"{predictions} reads none of the {len(names)} photos (readings match by file name)")
    return [by_name.get(name, {"tiles": []}) for name in names], sum(name not in by_name for name in names)


def _read_all(folder: Path, files: list[Path], truths: list[dict], working_size: int | None = None, live: bool = False):
    from vision.image_io import load_image
    from vision.reader import Reader

    reader = Reader(working_size=working_size)
    for file, truth in zip(files, truths):
        image_path = folder / truth["image"]["path"]
        previous, known = None, None
        before = image_path.with_name(image_path.stem + "_before" + image_path.suffix)
        earlier = load_image(before) if before.exists() else None  # a live game's last still frame
        if live:
            earlier_truth = file.with_name(file.stem + "_before.json")
            known = board_of(_truth(earlier_truth)) if earlier_truth.exists() else None
        elif earlier is not None:
            previous = reader.read(earlier)
        image = load_image(image_path)
        reading = reader.read(image, previous=previous, path=str(image_path), previous_image=earlier, known=known)
        yield {**reading.to_dict(), "previous": previous is not None or known is not None}


def board_of(truth: dict) -> Board:
    """The board a truth file shows: its tiles with a cell, numbers in cell order."""
    return Board.of(
        (tuple(t["cell"]), tuple(c["value"] for c in t["corners"])) for t in truth["tiles"] if t["cell"] is not None
    )


def _read_at_true_outlines(folder: Path, truths: list[dict]):
    """Each truth file's own tiles, at their true corners and cells, read by the classifier and
    the decoder alone: the corner errors left when the finder and the lattice make none."""
    from vision.crops import corner_crops
    from vision.find import median_side
    from vision.image_io import load_image
    from vision.reader import Reader, read_colour_or_grey, read_numbers

    reader = Reader()
    for truth in truths:
        tiles, _ = _whole_and_partly_hidden(truth["tiles"])
        if not tiles:
            yield {"tiles": []}
            continue
        corners = np.array([tile_corners(t) for t in tiles])
        cells = [tuple(t["cell"]) if t["cell"] is not None else None for t in tiles]
        image = load_image(folder / truth["image"]["path"])
        probabilities, _ = read_colour_or_grey(reader.classifier, corner_crops(image, corners), median_side(corners))
        read, _ = read_numbers(probabilities.reshape(len(corners), 3, -1), corners, cells, reader.rules)
        yield {"tiles": [tile.to_dict() for tile in read]}
