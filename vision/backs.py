"""Face-down tiles: which outlines show a back rather than numbers, and which backs to believe (a
set's backs are its tiles' size and colour, and no more of them than the set has tiles left)."""

from __future__ import annotations

import cv2
import numpy as np

from engine.board import edge_components
from engine.lattice import Cell
from models.classes import NO_NUMBER
from vision.crops import to_colour, windows_around
from vision.find import FirstLook, about_centre, edge_lengths, inside
from vision.lattice import LatticeFit
from vision.sizes import (
    BACK_SIZE_TOLERANCE,
    SIZED_AMONG_THEMSELVES,
    SIZING_READ_TILES,
    about_the_size,
    back_sides,
    commonest_side,
)

FACE_DOWN_BELOW = 0.35  # a tile whose corners look this unlike any number is a blank back
SHOWS_A_MARK = 0.5  # a loose tile none of whose corners shows 1 or more this surely shows no mark
HOLE_READS_NONE = 0.5  # a board tile off the faces' colour whose corners read "none" this surely on average is a gap
BACK_COLOUR_TOLERANCE = 30.0  # a back's colour (CIE a*b*) lies this close to the tiles read ...
BACK_LIGHTNESS_TOLERANCE = 45.0  # ... and its lightness (CIE L*) this close
FACE_LIGHTNESS_TOLERANCE = 35.0  # a face off the board (loose, or a missed tile's) is this close in lightness ...
FACE_COLOUR_TOLERANCE = 30.0  # ... and in colour (CIE a*b*) to the board's faces
SURE_CORE_ALONE = 0.9  # with no tile read to go by, a back is an outline the finder marked this surely
SAME_TILE_OVERLAP = 0.1  # outlines (backs, unread) sharing this much of the smaller's area are one tile


def reads_as_none(probabilities: np.ndarray) -> np.ndarray:
    """(N,) how surely each tile's corners read "no number", on average over its three."""
    return probabilities[:, :, NO_NUMBER].mean(1)


def unlike_any_number(probabilities: np.ndarray) -> np.ndarray:
    """Tiles whose corners look unlike any number (a printed back, a hand over the board)."""
    return 1 - reads_as_none(probabilities) < FACE_DOWN_BELOW


def blank_apart(probabilities: np.ndarray, cells: list[Cell | None], unlike_numbers: np.ndarray) -> np.ndarray:
    """Tiles none of whose corners shows a mark (1 and up), loose or joined only to such tiles: a
    pip set's 0 is a blank corner, so the back of a pip tile reads as 0s, like the 0-0-0 tile
    face up. The set has one 0-0-0 tile and every other tile shows a mark, so joined tiles that
    all show none are backs touching in the pile, not a board; a blank tile in a board that shows
    marks is the 0-0-0 played. Tiles that look unlike any number (a back, a hand) join no group."""
    blank = shows_no_mark(probabilities)
    tiles_at: dict[Cell, list[int]] = {}
    for t, cell in enumerate(cells):
        if cell is not None and not unlike_numbers[t]:
            tiles_at.setdefault(cell, []).append(t)
    apart = np.ones(len(cells), bool)  # a loose tile is a group of its own
    for group in edge_components(tiles_at):
        members = [t for cell in group for t in tiles_at[cell]]
        apart[members] = blank[members].all()
    return blank & apart


def shows_no_mark(probabilities: np.ndarray) -> np.ndarray:
    """(N,) tiles none of whose corners shows 1 or more surely (by the likeliest marked corner):
    a back, or a pip set's 0-0-0, whose corners are bare."""
    return probabilities[:, :, 1:NO_NUMBER].sum(2).max(1) < SHOWS_A_MARK


def holes_in_the_board(
    probabilities: np.ndarray,
    cells: list[Cell | None],
    triangles: np.ndarray,
    unlike_numbers: np.ndarray,
    blank_apart: np.ndarray,
    image: np.ndarray,
) -> np.ndarray:
    """(N,) tiles joined to a board that shows marks, blank or read mostly as no number, whose
    middle is not the colour of the board's faces: the table seen through a hole or a notch in
    the board. The finder outlines such a gap like a tile. Where a pip set's bare corners read
    as 0s it would pass for the 0-0-0 played (``blank_apart``); elsewhere its corners, which
    show the edges of its neighbours' numbers, pass for a tile read unsurely. Either way the
    decoder gives it its neighbours' numbers, and lets it outvote a true tile's number at a
    point they share. The 0-0-0 itself shows the set's face, and a tile that reads as numbers
    is kept whatever its middle shows (glare, a shadow, a hand)."""
    on_board = np.array([cell is not None for cell in cells], bool) & ~unlike_numbers
    holes = (shows_no_mark(probabilities) | (reads_as_none(probabilities) > HOLE_READS_NONE)) & on_board & ~blank_apart
    if holes.any():
        holes[holes] = ~faced_like_the_board(triangles[holes], triangles[on_board & ~holes], image)
    return holes


def lying_face_down(unlike_numbers: np.ndarray, blank_apart: np.ndarray) -> np.ndarray:
    """Which tiles show their blank back (or are no tile: a hand over the board): corners that
    look unlike any number; or, of the rest, blank tiles apart from any board (``blank_apart``)
    when there are several (backs come in a pile, and the set has one 0-0-0 tile: a lone one may
    be that tile, face up)."""
    blank = blank_apart & ~unlike_numbers
    return unlike_numbers | (blank if blank.sum() > 1 else False)


def like_the_read_tiles(
    outlines: tuple[np.ndarray, ...], read: np.ndarray, fit: LatticeFit, look: FirstLook | None = None
) -> tuple[np.ndarray, ...]:
    """The outlines (backs, unread tiles) that could be tiles beside the tiles read: not centred
    inside a read tile (a fragment of it: tiles lie side by side, not on top of each other) and
    close to a tile's size there (``back_sides``; a set's tiles are one size, table patterns cut
    into triangles mostly are not; with no tile read and no board, the size most of the outlines
    share: ``commonest_side``). Nothing is read from these outlines, so the size check is
    tighter than the one that decides which outlines are read at all. Outlines overlapping one
    another are one tile: only one of them is kept. ``look``, given for backs: the finder's look
    that found them; with no tile read and no board to go by, only outlines whose middle its core
    map marks ``SURE_CORE_ALONE`` surely stay (``FirstLook.core_at``: prints of the cloth mostly
    show weaker cores than a pile's backs), and the commonest side is theirs."""
    if not outlines:
        return outlines
    candidates = np.array(outlines)
    centres = candidates.mean(1)
    keep = ~inside(centres, read).any(1)
    expected = back_sides(candidates, fit, read)
    if expected is None:  # no tile read to go by: the backs go by each other
        if look is not None:
            keep &= look.core_at(candidates) >= SURE_CORE_ALONE
        if keep.sum() >= SIZED_AMONG_THEMSELVES:
            expected = commonest_side(candidates[keep])
    if expected is not None:
        keep &= about_the_size(candidates, expected, BACK_SIZE_TOLERANCE)
    # One outline per tile: of outlines overlapping one another (a back's grain or glare can
    # break it into fragments), the one closest to a tile's size is kept, else the largest.
    sides = edge_lengths(candidates).mean(1)
    misfit = np.abs(np.log(sides / expected)) if expected is not None else -sides
    # Only outlines closer than the sum of their circumradii can overlap.
    may_overlap = np.linalg.norm(centres[:, None] - centres[None], axis=2) < (sides[:, None] + sides[None]) / np.sqrt(3)
    kept: list[int] = []
    for i in sorted(np.flatnonzero(keep), key=lambda i: misfit[i]):
        if all(_overlap(candidates[i], candidates[k]) < SAME_TILE_OVERLAP for k in kept if may_overlap[i, k]):
            kept.append(i)
    return tuple(outlines[i] for i in sorted(kept))


def coloured_like(
    backs: tuple[np.ndarray, ...], read: np.ndarray, image: np.ndarray, room: int
) -> tuple[np.ndarray, ...]:
    """The backs whose colour is the tiles' own: a back is the underside of a tile of the set,
    the same plastic or wood as the faces read (their median colour, when ``SIZING_READ_TILES``
    are read; else, with ``SIZED_AMONG_THEMSELVES`` backs or more, the backs' own median colour:
    a pile's backs are one colour). Patches of a patterned cloth that the finder took for tiles
    and that read as blank mostly are not. Colour is compared by its hue and saturation (CIE
    a*b*), which the light changes less than brightness, and, more loosely, by its lightness (CIE
    L*: glare, shade and the faces' own numbers move it some, but a black set's back is never a
    pale print on the cloth, nor an ivory one a dark spot; in a grey photo it is all there is to
    go by). The set holds ``room`` more tiles at most, so of more backs than that only the
    ``room`` closest in colour stay (a checked cloth's light squares, a few a*b* units off ivory,
    can outnumber the pile many times over)."""
    if not backs:
        return backs
    if len(read) >= SIZING_READ_TILES:
        reference = read
    elif len(backs) >= SIZED_AMONG_THEMSELVES:
        reference = None  # no tiles read to go by: the backs go by each other
    else:
        return backs
    lightness, distance = _colour_off(image, np.array(backs), reference)
    alike = ~(lightness > BACK_LIGHTNESS_TOLERANCE) & ~(distance > BACK_COLOUR_TOLERANCE)
    candidates = np.flatnonzero(alike)  # NaN (outside the photo) stays, and comes last
    closest = candidates[np.argsort(distance[candidates], kind="stable")][: max(room, 0)]
    return tuple(backs[i] for i in sorted(closest))


def faced_like_the_board(triangles: np.ndarray, board: np.ndarray, image: np.ndarray) -> np.ndarray:
    """(N,) whether each of the ``triangles`` (loose tiles read, or empty cells beside the board
    whose corners read as a missed tile's) shows a face the colour of the ``board`` tiles' (the
    colour of its middle): a set's faces are one plastic or wood, so a triangle far lighter,
    darker or of another hue that read as a tile is none (a print on the cloth, a square of a
    checked cloth cut by its neighbours, whose corners read as numbers by their colour alone; a
    cell showing the table, whose corners show its neighbours' numbers). Faces are held to a
    tighter lightness than backs (``coloured_like``): a back has no ink and may be another
    finish, a face is the same face. Without ``SIZING_READ_TILES`` board tiles to compare with,
    every triangle stays."""
    if not len(triangles) or len(board) < SIZING_READ_TILES:
        return np.ones(len(triangles), bool)
    lightness, distance = _colour_off(image, triangles, board)
    return ~(lightness > FACE_LIGHTNESS_TOLERANCE) & ~(distance > FACE_COLOUR_TOLERANCE)  # NaN stays


def _colour_off(
    image: np.ndarray, triangles: np.ndarray, reference: np.ndarray | None
) -> tuple[np.ndarray, np.ndarray]:
    """How far each of the (N, 3, 2) ``triangles``' middles lies in colour from the median of the
    ``reference`` triangles' (tiles read; None: the triangles' own, each measured once): (N,) the
    difference in lightness (CIE L*) and the distance in hue and saturation (CIE a*b*); NaN for a
    triangle outside the photo."""
    colours = lab_colours(image, triangles if reference is None else np.concatenate([triangles, reference]))
    reference_colours = colours if reference is None else colours[len(triangles) :]
    off = colours[: len(triangles)] - np.nanmedian(reference_colours, axis=0)
    return np.abs(off[:, 0]), np.linalg.norm(off[:, 1:], axis=1)


def lab_colours(image: np.ndarray, triangles: np.ndarray) -> np.ndarray:
    """(N, 3) CIE L*a*b* of the mean colour of each triangle's middle (its inner 70%, away from
    edges, bevels and shadows); NaN for a triangle outside the photo."""
    colour = to_colour(image)
    inner = about_centre(triangles, 0.7)
    means = np.full((len(triangles), 3), np.nan, np.float32)
    bounds = windows_around(inner, colour.shape)
    corners = np.round(inner - bounds[:, None, :2]).astype(np.int32)  # in each triangle's window
    for k, (left, top, right, bottom) in enumerate(bounds.tolist()):  # one small window per triangle
        if right <= left or bottom <= top:
            continue  # wholly above, below or beside the photo
        window = colour[top:bottom, left:right]
        mask = np.zeros(window.shape[:2], np.uint8)
        cv2.fillPoly(mask, [corners[k]], 1)
        if mask.any():
            means[k] = cv2.mean(window, mask)[:3]
    return np.where(np.isnan(means), np.nan, _cie_lab(np.nan_to_num(means) / 255))


# sRGB's linear primaries to CIE XYZ, and the D65 white in XYZ (the values OpenCV uses).
SRGB_TO_XYZ = np.array([[0.412453, 0.357580, 0.180423], [0.212671, 0.715160, 0.072169], [0.019334, 0.119193, 0.950227]])
D65_WHITE = SRGB_TO_XYZ.sum(1)


def _cie_lab(bgr: np.ndarray) -> np.ndarray:
    """(N, 3) sRGB colours as BGR in 0..1 -> (N, 3) CIE L*a*b*. Written out for the few colours
    the reader compares: OpenCV's conversion fills lookup tables on its first call (90 ms of a
    program's first reading) and scikit-image's costs 220 ms of imports."""
    rgb = bgr[:, ::-1]
    linear = np.where(rgb > 0.04045, ((rgb + 0.055) / 1.055) ** 2.4, rgb / 12.92)
    xyz = linear @ SRGB_TO_XYZ.T / D65_WHITE
    f = np.where(xyz > (6 / 29) ** 3, np.cbrt(xyz), xyz / (3 * (6 / 29) ** 2) + 4 / 29)
    return np.stack([116 * f[:, 1] - 16, 500 * (f[:, 0] - f[:, 1]), 200 * (f[:, 1] - f[:, 2])], axis=1)


def _overlap(a: np.ndarray, b: np.ndarray) -> float:
    """The area two triangles share, as a share of the smaller one's."""
    a, b = a.astype(np.float32), b.astype(np.float32)
    shared, _ = cv2.intersectConvexConvex(a, b)
    smaller = min(abs(cv2.contourArea(a)), abs(cv2.contourArea(b)))
    return shared / smaller if smaller > 0 else 1.0
