"""The tile added since an earlier photo: the two photos' lattice frames matched by the tiles both
show, the tile in a cell the earlier photo had empty, and, where several look new, the pixels
of two photos taken from one place compared in their cells."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence

import cv2
import numpy as np

from engine.board import Board, PlacedTile
from engine.lattice import Cell, LatticeMap, maps_onto
from engine.rules import Rules
from engine.scoring import PlacementResult, judge_placement
from engine.tiles import Tile, counted
from vision.crops import to_colour, to_grey, windows_around
from vision.find import about_centre, edge_lengths
from vision.records import ReadTile

LOOK_AGAIN_TILES = 3  # board tiles of the previous photo needed to put a cell there by their plane
STILL_SHIFT = 0.1  # tiles of both photos this close (tile sides) show a camera kept still
CHANGED_BY = 20  # a pixel of two photos from one place changed when a colour moved more levels than this ...
CHANGE_OVER_NOISE = 4.0  # ... or than this many times the photos' median difference (past their shift)
CHANGE_NOISE_PX = 640  # the photos are compared whole shrunk to this long side, for that median
CELL_MIDDLE = 0.8  # a cell's middle: its triangle shrunk this much about its centre ...
CELL_CHANGED = 0.2  # ... changed when this share of its pixels did
AROUND_INNER, AROUND_OUTER = 1.15, 2.0  # around a cell: between its triangle grown these much
STILL_BELOW = 0.1  # a tile read whose middle changed less than this share lay there in both photos
QUIETER_AROUND = 0.5  # the tile added changed its surroundings less than this share of any other's
LOOK_PX = 24  # the side of the patch two photos of one cell are compared in

# A judge of the tiles that look new (the frame map, the new tiles): the cells the earlier photo shows after all.
ShownBefore = Callable[[LatticeMap, list[PlacedTile]], Collection[Cell]]


def frame_map(previous: Board, current: Board) -> LatticeMap | None:
    """The lattice symmetry taking the previous photo's frame to this one's, found from the tiles
    both photos show (each photo picks its own frame)."""
    votes: dict[LatticeMap, int] = {}
    last: LatticeMap | None = None  # the one symmetry the last tile fitted: most tiles fit it too
    for placed in previous.placements:
        now = current.by_tile.get(placed.tile)
        if now is None:
            continue
        # A tile that is no triple fits at most one of the three symmetries its cells allow, so
        # one that fits the last tile's fits no other (a shortcut: 1.6 -> 0.4 ms on 39 tiles).
        if (
            last is not None
            and not placed.tile.is_triple
            and last.corners(placed.cell, placed.corners) == (now.cell, now.corners)
        ):
            votes[last] += 1
            continue
        fitting = [
            m for m in maps_onto(placed.cell, now.cell) if m.corners(placed.cell, placed.corners)[1] == now.corners
        ]
        for mapping in fitting:
            votes[mapping] = votes.get(mapping, 0) + 1
        last = fitting[0] if len(fitting) == 1 else None
    return max(votes, key=votes.get) if votes else None


def last_placement(
    previous: Board,
    current: Board,
    rules: Rules,
    loose_before: Collection[Tile] = (),
    shown_before: ShownBefore | None = None,
    previous_is_known: bool = False,
    changed: Cell | None = None,
) -> tuple[PlacementResult | None, str | None]:
    """The one tile added since the previous photo, judged against the rest; or a note why not.

    A tile is new where the previous photo had no tile in its cell: a tile misread in one of the
    photos keeps its cell, so it is not taken for a new one. Of several new tiles, those the
    previous photo showed lying off the board (``loose_before``: a lone opening tile has no
    lattice to sit on) were there already, and so were those that ``shown_before`` (given the
    frame map and the new tiles, in this photo's frame) says the previous photo shows after all.
    Of those still left, a reading no set holds or a tile already on the board is not the one a
    player added (the finder's phantom in a bay of three tiles reads the numbers its neighbours
    show there, rarely a new set tile); only last, as a misread tile of the previous photo's
    reading can share the new tile's numbers, and only for a tile that is then legal.
    Tiles the previous photo could not see (under a hand, past the frame's edge) look new too:
    then no tile is scored, rather than a guess.
    ``previous_is_known``: the previous board is the game's own (every tile placed and scored),
    so the added tile is judged against it rather than against this photo's other tiles, which
    can hold a phantom beside it or miss a neighbour under a hand.
    ``changed``: the cell of this photo that alone changed since the previous one, taken from
    the same place (``changed_only``): the tile there is the one added, whatever the two
    readings made of the others (small tiles read otherwise in each photo look new, and
    mislead the frame map), and it is judged against this photo's other tiles.
    Judged so (not ``previous_is_known``), a bonus counts only where the tiles the previous
    photo's reading shows make it too (``_against_this_photo``)."""
    if changed is not None:
        if changed not in current:
            return None, "the tile added since the previous photo is not on the board"
        return _against_this_photo(previous, current, current.by_cell[changed], rules), None
    mapping = frame_map(previous, current) if len(previous) else LatticeMap()
    if mapping is None:
        return None, "the previous photo's tiles cannot be matched to this one"
    earlier = {mapping.cell(p.cell) for p in previous.placements}
    new = [p for p in current.placements if p.cell not in earlier]
    if len(new) > 1:
        new = [p for p in new if p.tile not in loose_before] or new
    if len(new) > 1 and shown_before is not None:
        there = shown_before(mapping, new)
        new = [p for p in new if p.cell not in there] or new
    looked_new = len(new)
    if len(new) > 1:
        new = [p for p in new if p.tile is not None and p.tile not in previous.by_tile] or new
    if len(new) != 1:
        return None, f"{len(new)} tiles were added since the previous photo, not one"
    gone = len(earlier - {p.cell for p in current.placements})
    missing = counted(gone, "tile of the previous photo is", "tiles of the previous photo are")
    note = f"{missing} missing" if gone else None
    if previous_is_known:
        result = judge_placement(previous.moved(mapping), new[0], rules)
    else:
        result = _against_this_photo(previous, current, new[0], rules, mapping)
    if looked_new > 1 and not result.legal:  # the others set aside: then only a legal tile is worth a score
        return None, f"{looked_new} tiles were added since the previous photo, not one"
    return result, note


def _against_this_photo(
    previous: Board, current: Board, placed: PlacedTile, rules: Rules, mapping: LatticeMap | None = None
) -> PlacementResult:
    """The tile ``placed`` judged against this photo's other tiles (``current``), less a bonus
    that only tiles the previous photo's reading lacks would make: the finder's phantom in a
    hole beside the new tile (the table between tiles, whose corners show the neighbours'
    numbers) completes a hexagon there, or gives the tile a second side, 40-50 points
    (validation pairs 1000066 and 1000079, fresh pair 2000183). The bonus goes only where the
    tile is still legal without those tiles: a neighbour the previous reading missed may be
    what the tile is placed against.
    ``mapping``: the frame map from the previous photo's frame to this one's, if known."""
    result = judge_placement(current.without({placed.cell}), placed, rules)
    if not result.score.bonuses or not len(previous):
        return result
    mapping = mapping or frame_map(previous, current)
    if mapping is None:
        return result
    seen_before = {mapping.cell(p.cell) for p in previous.placements} - {placed.cell}
    others = Board(tuple(p for p in current.placements if p.cell in seen_before))
    if not len(others):  # judged alone, the tile would be an opening one
        return result
    without = judge_placement(others, placed, rules)
    return without if without.legal and without.score.total < result.score.total else result


def camera_kept_still(board: Sequence[ReadTile], here: dict[Cell, np.ndarray], mapping: LatticeMap) -> bool:
    """Whether the camera kept still between two photos: the tiles both read on the board
    (``board`` of the earlier photo, ``here`` this one's corners by cell, ``mapping`` from the
    earlier frame to this one) lie where they lay, within ``STILL_SHIFT`` of a side."""
    pairs = [(t.corners, here[cell]) for t in board if (cell := mapping.cell(t.cell)) in here]
    if len(pairs) < LOOK_AGAIN_TILES:
        return False
    before, now = (np.array(side, np.float64) for side in zip(*pairs))
    shift = np.linalg.norm(before.mean(1) - now.mean(1), axis=1)
    return bool(np.median(shift) < STILL_SHIFT * np.median(edge_lengths(now)))


def changed_alone(earlier: np.ndarray, image: np.ndarray, triangles: np.ndarray) -> int | None:
    """Of (N, 3, 2) tiles that look new in ``image``, taken from where ``earlier`` was (the
    camera kept still), the one whose cell alone changed, or None: its middle changed, and
    around it the photo changed less than ``QUIETER_AROUND`` times as much as in its middle and
    as around any other whose middle changed. A tile a player added changes the photo in its
    own cell; a tile that a hand, a sleeve or a cup hid in the earlier photo changes around it
    too, where that thing moved away; a tile whose middle did not change lay there in both
    photos (one past the frame's edge, which the earlier photo's reading left out), so it is no
    rival."""
    changes = _cell_changes(earlier, image, triangles)
    if changes is None:
        return None
    inside, around = changes
    candidates = np.nonzero(inside >= CELL_CHANGED)[0]
    if not len(candidates):
        return None
    best = candidates[np.argmin(around[candidates])]
    quieter_than = np.append(around[candidates[candidates != best]], inside[best])
    return int(best) if around[best] < QUIETER_AROUND * quieter_than.min() else None


def changed_only(earlier: np.ndarray, image: np.ndarray, triangles: np.ndarray) -> int | None:
    """Of all (N, 3, 2) tiles read in ``image``, taken from where ``earlier`` was, the one whose
    middle changed where no other's did, around it the photo changing less than
    ``QUIETER_AROUND`` times as much as in its middle (a hand still near it changes that too);
    or None. Nothing else moved: that is the tile a player added."""
    changes = _cell_changes(earlier, image, triangles)
    return None if changes is None else _the_one_changed(*changes)


def changed_beside(earlier: np.ndarray, image: np.ndarray, board: np.ndarray, empty: np.ndarray) -> int | None:
    """Of the (M, 3, 2) empty cells beside the board of ``image``, taken from where ``earlier``
    was, the one where a tile appeared that the finder missed (a light tile on pale paper, a
    wooden one on a wooden table): its middle changed where no other empty cell's did, around
    it the photo changing less than ``QUIETER_AROUND`` times as much, and no tile of the (N, 3,
    2) ``board`` read changed even ``STILL_BELOW`` of its middle (a tile the finder found, half
    out of the frame, changes a little and spills into the cell beside it); or None."""
    changes = _cell_changes(earlier, image, np.concatenate([board, empty]))
    if changes is None or (changes[0][: len(board)] >= STILL_BELOW).any():
        return None
    inside, around = (share[len(board) :] for share in changes)
    return _the_one_changed(inside, around)


def _the_one_changed(inside: np.ndarray, around: np.ndarray) -> int | None:
    """The one of the cells whose middles changed (``inside``, shares of their pixels:
    ``CELL_CHANGED``) while no other's did, the photo around it (``around``) changing less than
    ``QUIETER_AROUND`` times as much as its middle; or None."""
    changed = np.nonzero(inside >= CELL_CHANGED)[0]
    if len(changed) != 1 or around[changed[0]] >= QUIETER_AROUND * inside[changed[0]]:
        return None
    return int(changed[0])


def _cell_changes(
    earlier: np.ndarray, image: np.ndarray, triangles: np.ndarray
) -> tuple[np.ndarray, np.ndarray] | None:
    """(N,) shares of changed pixels in the middle of each of the (N, 3, 2) tiles of ``image``
    and in a ring around it, against ``earlier`` taken from the same place; None where the two
    photos differ in size or there is no tile. A pixel counts as changed when any of its colours
    moved more than ``CHANGED_BY`` levels (more in noisy photos) past the shift the whole photo
    took (the light, the camera's exposure): a wooden tile on a blue cloth can show the
    cloth's grey. The photos are compared once over the part that holds the tiles and their
    rings, not tile by tile: the rings overlap."""
    if earlier.shape != image.shape or not len(triangles):
        return None
    before, now = (to_colour(photo) for photo in (earlier, image))
    small = min(1.0, CHANGE_NOISE_PX / max(now.shape))
    shrunk = [cv2.resize(g, None, fx=small, fy=small, interpolation=cv2.INTER_AREA) for g in (before, now)]
    # The light or the exposure changed everywhere: each colour's median shift.
    offset = np.median(shrunk[1].reshape(-1, 3).astype(np.int16) - shrunk[0].reshape(-1, 3), axis=0)
    threshold = max(CHANGED_BY, CHANGE_OVER_NOISE * float(np.median(_moved(*shrunk, offset))))
    windows = windows_around(about_centre(triangles, AROUND_OUTER), now.shape)
    left, top = windows[:, :2].min(0)
    right, bottom = windows[:, 2:].max(0)
    blurred = (cv2.GaussianBlur(photo[top:bottom, left:right], (5, 5), 0) for photo in (before, now))
    changed = _moved(*blurred, offset) > threshold
    inside, around = np.zeros(len(triangles)), np.zeros(len(triangles))
    for k, (triangle, (x0, y0, x1, y1)) in enumerate(zip(triangles, windows - (left, top, left, top))):
        here = changed[y0:y1, x0:x1]  # one small window per tile
        middle, cell, outer_mask = (np.zeros(here.shape, np.uint8) for _ in range(3))
        for mask, scale in ((middle, CELL_MIDDLE), (cell, AROUND_INNER), (outer_mask, AROUND_OUTER)):
            cv2.fillPoly(mask, [np.round(about_centre(triangle, scale) - (left + x0, top + y0)).astype(np.int32)], 1)
        ring = (outer_mask > 0) & (cell == 0)
        inside[k] = here[middle > 0].mean() if middle.any() else 0.0
        around[k] = here[ring].mean() if ring.any() else 1.0
    return inside, around


def _moved(before: np.ndarray, now: np.ndarray, offset: np.ndarray) -> np.ndarray:
    """(H, W) uint8: how far the colour of each pixel of two (H, W, 3) uint8 photos moved past
    ``offset`` (3,) levels, in the channel that moved most."""
    shifted = cv2.add(before, tuple(float(x) for x in offset) + (0.0,))  # saturating: a pixel past white stays white
    blue, green, red = cv2.split(cv2.absdiff(now, shifted))
    return cv2.max(cv2.max(blue, green), red)


def looks_alike(
    earlier: np.ndarray, triangles_before: np.ndarray, image: np.ndarray, triangles: np.ndarray
) -> np.ndarray:
    """(N,) how alike two photos look inside matching (N, 3, 2) triangles: the normalised
    correlation of their grey middles (the inner 75%, away from edges and neighbours' shadows),
    each warped corner to corner onto one patch. Near 1 for the same tile, whatever the light;
    near 0 for a tile against bare table or a hand."""
    canvas = np.float32([[LOOK_PX / 2, 1], [LOOK_PX - 1, LOOK_PX - 2], [1, LOOK_PX - 2]])
    middle = about_centre(canvas, 0.75)
    mask = np.zeros((LOOK_PX, LOOK_PX), np.uint8)
    cv2.fillPoly(mask, [np.round(middle).astype(np.int32)], 1)

    def middles(photo: np.ndarray, corners: np.ndarray) -> np.ndarray:
        grey = to_grey(photo)
        flags = cv2.INTER_AREA | cv2.WARP_INVERSE_MAP
        warped = [
            cv2.warpAffine(grey, cv2.getAffineTransform(canvas, np.float32(c)), (LOOK_PX, LOOK_PX), flags=flags)
            for c in corners
        ]
        values = np.array(warped, np.float32).reshape(len(corners), LOOK_PX, LOOK_PX)[:, mask.astype(bool)]
        return values - values.mean(1, keepdims=True)

    a, b = middles(earlier, triangles_before), middles(image, triangles)
    return (a * b).sum(1) / (np.sqrt((a * a).sum(1) * (b * b).sum(1)) + 1e-6)
