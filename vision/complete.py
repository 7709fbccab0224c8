"""Completing the board: tiles the finder missed beside it, found by reading the empty cells.

The lattice says where a tile could lie beside the board, and the classifier can read a cell's
three corners whether or not the finder outlined a tile there. A cell whose corners all read
numbers surely holds a tile; so does a cell between tiles of the board where the finder marked a
tile's core (there neighbouring cores run together, and the finder can lose a tile's outline
while its core stays). A hole in the board shows its neighbours' numbers at its corners but no
core, and the table shows no face: a cell's middle must show a face the board's colour.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from engine.lattice import Cell, edge_neighbours
from models.classes import NO_NUMBER
from vision.backs import faced_like_the_board
from vision.find import FirstLook, edge_lengths, in_view, overlapping
from vision.lattice import LatticeFit

COMPLETION_ROUNDS = 2  # passes looking for missed tiles beside the board
MISSED_NONE_BELOW = 0.25  # an empty cell beside the board holds a missed tile when no corner reads "none" ...
MISSED_NUMBER_ABOVE = 0.6  # ... this surely, and every corner reads one number this surely;
MISSED_ENCLOSED_BY = 2  # or, when it shares edges with this many tiles of the board ...
MISSED_CORE_ABOVE = 0.5  # ... when the finder marked a core in its middle this surely ...
MISSED_CORE_NONE_BELOW = 0.5  # ... and no corner reads "none" this surely
ONE_TILE_SIZE = 1.6  # an outline within this factor of a cell's side is one tile's; larger, several run together

# (N, 3, 2) clockwise tile corners in the photo -> (N, 3, 8) probabilities of each corner's number.
CornerReader = Callable[[np.ndarray], np.ndarray]


def completed(
    image: np.ndarray,
    fit: LatticeFit,
    cells: list[Cell | None],
    corners: np.ndarray,
    probabilities: np.ndarray,
    outlines: np.ndarray,
    first_look: FirstLook,
    read_corners: CornerReader,
) -> tuple[list[Cell | None], np.ndarray, np.ndarray, np.ndarray]:
    """The board's cells, corners, probabilities and outlines with the tiles ``missed_beside``
    finds beside it, in up to ``COMPLETION_ROUNDS`` passes (a tile found opens the cells beside
    it). ``read_corners``: the classifier, reading the photo as the board's corners were read."""
    for _ in range(COMPLETION_ROUNDS):
        found_cells, found_corners, found_probabilities = missed_beside(
            image, fit, cells, outlines, first_look, read_corners
        )
        if not found_cells:
            break
        cells = cells + found_cells
        corners = np.concatenate([corners, found_corners])
        probabilities = np.concatenate([probabilities, found_probabilities])
        outlines = np.concatenate([outlines, found_corners])
    return cells, corners, probabilities, outlines


def missed_beside(
    image: np.ndarray,
    fit: LatticeFit,
    cells: list[Cell | None],
    outlines: np.ndarray,
    first_look: FirstLook,
    read_corners: CornerReader,
) -> tuple[list[Cell], np.ndarray, np.ndarray]:
    """Tiles the finder missed: empty cells beside the board whose three corners all read as
    numbers; or, for a cell between tiles of the board (``MISSED_ENCLOSED_BY``), where the
    finder marked a tile's core and no corner reads as none (studio game 1000061's 20th tile, a
    blank 0 of a pip set unsure). Either way the cell's middle must show a face the board's
    colour (``faced_like_the_board``), not the table. Returns their cells, corners (cell
    order) and corner probabilities."""
    taken = {c for c in cells if c is not None}
    candidates, triangles = fit.frontier(also_taken=taken)
    # Only cells in view whose middle shows a face are read: most show the table.
    faced = in_view(triangles, image)
    faced[faced] = faced_like_the_board(triangles[faced], fit.corners[fit.on_board], image)
    if not faced.any():
        return no_cells()
    candidates, triangles = [c for c, yes in zip(candidates, faced) if yes], triangles[faced]
    probabilities = read_corners(triangles)
    none = probabilities[:, :, NO_NUMBER]
    sure_numbers = probabilities[:, :, :NO_NUMBER].max(2) > MISSED_NUMBER_ABOVE
    reads_numbers = ((none < MISSED_NONE_BELOW) & sure_numbers).all(1)
    enclosed = np.array([sum(n in taken for n in edge_neighbours(c)) >= MISSED_ENCLOSED_BY for c in candidates])
    shows_a_core = (
        enclosed
        & (first_look.core_at(triangles) > MISSED_CORE_ABOVE)
        & (none < MISSED_CORE_NONE_BELOW).all(1)
        & ~a_found_tile_across(triangles, outlines)
    )
    keep = np.nonzero(reads_numbers | shows_a_core)[0]
    return [candidates[k] for k in keep], triangles[keep], probabilities[keep]


def no_cells() -> tuple[list[Cell], np.ndarray, np.ndarray]:
    """No cells found, as ``missed_beside`` and the reader's search for a known board's missed
    tiles return their finds: cells, corners (N, 3, 2) and corner probabilities (N, 3, 8)."""
    return [], np.zeros((0, 3, 2)), np.zeros((0, 3, NO_NUMBER + 1), np.float32)


def a_found_tile_across(cells: np.ndarray, outlines: np.ndarray) -> np.ndarray:
    """(N,) whether each of the (N, 3, 2) cells overlaps an outline found of about its size
    (``ONE_TILE_SIZE``): a loose tile lying across cells beside the board, whose core is no
    missed tile. A larger outline is the finder's cores of several tiles run together."""
    ratio = edge_lengths(outlines).mean(1)[None] / edge_lengths(cells).mean(1)[:, None]
    return (overlapping(cells, outlines) & (np.abs(np.log(ratio)) < np.log(ONE_TILE_SIZE))).any(1)
