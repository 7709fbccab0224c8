"""What a reading says of itself, in words: how its tiles were found, what it could not read,
and why the photo reads poorly with how to take one that reads better (the advice a live game's
page shows by the camera)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from engine.board import Board, Violation
from engine.tiles import counted
from vision.decode import UNSURE_BELOW
from vision.find import median_side
from vision.focus import BLURRED_ABOVE_UNREAD, blur_over, out_of_focus
from vision.light import brightest_level, dark
from vision.noise import smoothing_for
from vision.records import ReadTile, outlines_of
from vision.sight import Sight

SURELY_READ_SIDE = 25.0  # tiles smaller than this (photo pixels) lose a third of their corners to misreads


def blur_named(
    image: np.ndarray, tiles: Sequence[ReadTile], sight: Sight, face_down: Sequence[np.ndarray]
) -> float | None:
    """The photo's blur (``vision.focus.blur_over``) where it is out of focus for its tiles, else
    None. Measured over the tiles read; where none is read (a camera so far out of focus that no
    number reads), over the outlines found instead, backs and tiles left unread, whose softer
    edges bear a higher bar (``BLURRED_ABOVE_UNREAD``)."""
    if tiles:
        blur = blur_over(image, outlines_of(tiles))
        return blur if out_of_focus(blur, sight.photo_tile_side) else None
    found = np.array([*sight.unread, *face_down], np.float64).reshape(-1, 3, 2)
    if not len(found):
        return None
    blur = blur_over(image, found)
    return blur if out_of_focus(blur, median_side(found), BLURRED_ABOVE_UNREAD) else None


def dark_named(image: np.ndarray, tiles: Sequence[ReadTile], sight: Sight) -> float | None:
    """The grey level of the photo's brightest parts (``vision.light``) where the photo is dark
    and reads no tile or reads its numbers unsurely, else None: the studio's dark photos that
    read well are read as they come, and their players need no word of it."""
    if tiles and not sight.hard_to_read:
        return None
    level = brightest_level(image)
    return level if dark(level) else None


def photo_advice(sight: Sight, noise: float, blur: float | None, darkness: float | None) -> list[str]:
    """The notes that say why the photo reads poorly and how to take one that reads better: a
    live game's page shows them by the camera, where a player can act on them. ``noise``: the
    photo's (``vision.noise.noise_level``); ``blur``: its blur where it is out of focus
    (``blur_named``), else None; ``darkness``: its brightest parts' grey level where it is too
    dark (``dark_named``), else None."""
    advice = []
    if darkness is not None:
        advice.append(
            f"the photo is dark (its brightest parts are {darkness:.0f} grey levels of 255): light the table,"
            " or let the camera take in more light"
        )
    if smoothing_for(noise) is not None:
        advice.append(
            f"the photo is noisy (about {noise:.0f} grey levels: a camera in dim light raises its gain), so it was"
            " smoothed before reading: more light reads better"
        )
    if blur is not None:
        advice.append(
            f"the photo is blurred (its edges spread over about {blur:.1f} pixels: a camera out of focus, or"
            " moving): focus the camera and hold it still, as blur loses small numbers and the seams between tiles"
        )
    if 0 < sight.photo_tile_side < SURELY_READ_SIDE:
        advice.append(
            f"the tiles are about {sight.photo_tile_side:.0f} pixels a side, too small to read surely:"
            " bring the camera closer, or use more pixels"
        )
    if sight.hard_to_read:
        advice.append(
            f"the numbers are hard to read in this photo (the classifier is {sight.read_surely:.0%} sure of a"
            " corner on average: blur, glare or small tiles), so the numbers read from it are flagged uncertain"
        )
    if sight.pattern:
        advice.append(
            f"{sight.pattern} triangles found, far more than a game's tiles: a cloth printed with triangles,"
            " not a game, so none is read"
        )
    return advice


def uncertain_corners(tiles: Sequence[ReadTile], sight: Sight) -> list[str]:
    """A note for each number read unsurely (none where the whole photo reads so: its advice
    says it once)."""
    return [
        f"corner {i} of the {'loose ' if t.cell is None else ''}tile {t.place} is uncertain ({c:.2f})"
        for t in tiles
        if t.ambiguous and not sight.hard_to_read
        for i, c in enumerate(t.confidences)
        if c < UNSURE_BELOW
    ]


def reading_notes(
    sight: Sight,
    first: Sight,
    known: Board | None,
    violations: Sequence[Violation],
    advice: Sequence[str],
) -> list[str]:
    """What a reading says of itself, but for its uncertain corners (``uncertain_corners``):
    tiles it could not read, how the tiles were found (``first``: the first look, to say how the
    chosen one differs), why the photo may read poorly (``advice``), and what the rules or the
    game cannot match."""
    notes = []
    if sight.unread:
        tiles = counted(len(sight.unread), "loose tile", "loose tiles")
        notes.append(f"{tiles} could not be read (table patterns, backs or tiles too small)")
    if sight.from_above:
        notes.append("the board is seen at a slant: its tiles were found in a view of it from straight above")
    elif sight.working_size < first.working_size:
        notes.append(f"the tiles are large (a close-up): found with the photo shrunk to {sight.working_size} px")
    elif sight.working_size > first.working_size:
        notes.append(f"the tiles are small in the frame: found with the photo shrunk to {sight.working_size} px only")
    elif sight is not first:
        notes.append("the tiles are small: found with the photo enlarged")
    notes += advice
    if sight.lone_blank:
        notes.append("a loose tile shows no mark: the 0-0-0 tile face up, or a pip tile's back")
    if known is not None and len(known) and not sight.knows_the_board:
        notes.append("the game's board cannot be matched to the tiles in this photo")
    if unjoined := sum(v.kind == "no_edge_contact" for v in violations):
        notes.append(
            f"{counted(unjoined, 'tile is', 'tiles are')} not joined to the board in the photo: a hand, or tiles"
            " the reader did not find, may hide what joins them"
        )
    return notes
