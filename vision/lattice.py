"""Rebuilding the board's lattice from tile outlines in the photo.

Joined tiles share corners (up to the small gaps of hand placement), so the board is a graph of
triangles glued edge to edge. Walking that graph from one tile gives every joined tile its cell
in the lattice of RULES.md, with no global model of the camera: local gluing tolerates
perspective, lens distortion and sloppy placement. A homography fitted to the glued corners (and
trusted only if it predicts the board's own tile size) then joins other glued groups whose every
tile lines up with its lattice, or that fit one plane with the board as well as the board's own
tiles do (parts of the board an arm over it cuts off), and places, by their
centres, tiles beside the board that glued to nothing: outlines that came out turned or cut,
parts of the board cut off by a missed tile, tiles touching the board only at a point (they get
a cell, so the engine can flag them). Tiles away from the board stay loose (cell None). Every
lattice point is then put where the mean of the trusted tile corners at it lies, so the tiles
meeting there average out the finder's corner errors.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, replace

import cv2
import numpy as np

from engine.lattice import (
    ROW_HEIGHT,
    Cell,
    Point,
    cell_corners,
    cells_around,
    edge_neighbours,
    point_xy,
    points_up,
)
from vision.find import edge_lengths, local_scales, median_side

CENTRE_OFFSET = 0.25  # a loose tile centred this close to a cell's centre (edge units) ...
CENTRE_SIZE = 1.5  # ... and this close to a tile's size there (factor) lies in that cell
APART_OFFSET = 0.15  # every tile of a group apart from the board centred this close to its cell joins it
APART_MISFIT = 0.16  # else a group joins where its corners lie this close (sides) to one plane with the board ...
APART_NOISE = 1.8  # ... and within this factor of the board's own corners' misfit to that plane ...
APART_CLEARER = 0.8  # ... and closer by this factor than in any other placement near there ...
APART_GROUP_AT_LEAST = 3  # ... when it has this many tiles ...
APART_BOARD_AT_LEAST = 6  # ... and the board this many (fewer fit any plane)
PLANE_SIZE_TOLERANCE = 1.3  # the board's plane must predict its median tile's side this closely (factor)
JOIN_TOLERANCE = 0.3  # corners closer than this (tile sides) are one lattice point ...
LOOSER_JOIN = 0.6  # ... or this, when at that tolerance ...
COLLAPSED_BELOW = 0.1  # a cell beside the board with less of an equilateral triangle's area (``_spread``) is no place
GLUED_TOO_FEW = 0.3  # ... fewer than this share of the outlines glued into a board with a trusted plane


@dataclass(frozen=True)
class LatticeFit:
    cells: list[Cell | None]  # per outline; None for a loose tile
    corners: np.ndarray  # (N, 3, 2): a tile on the board has its cell's corners in cell order; a loose tile its outline
    points: dict[Point, np.ndarray]  # where the board's tiles show each lattice point (mean of their corners)
    homography: np.ndarray | None  # lattice plane (edge units) -> image pixels, from the joined tiles
    side_px: float  # median tile side in the photo

    @property
    def on_board(self) -> np.ndarray:
        """(N,) bool: which outlines have a cell (joined to the board)."""
        return np.array([cell is not None for cell in self.cells], bool)

    def where(self, point: Point) -> np.ndarray:
        """A lattice point in the photo: where the board's tiles show it, else where the plane puts it."""
        if point in self.points:
            return self.points[point]
        return cv2.perspectiveTransform(np.array([[point_xy(point)]], np.float64), self.homography)[0, 0]

    def sides_at(self, points: np.ndarray) -> np.ndarray | None:
        """The side a tile would show at each image point, from the board's plane (every tile
        of a set is the same size on the table); None without a board to measure."""
        return None if self.homography is None else _sides_at(self.homography, points)

    def frontier(self, also_taken: Iterable[Cell] = ()) -> tuple[list[Cell], np.ndarray]:
        """Empty cells next to the board (``also_taken`` counts as board too), with where their
        corners would be in the photo, in cell order. Used to look for tiles the finder missed.
        A cell whose corners the board's tiles show collapsed (two lattice points at one place,
        where a board glued wrongly folds over itself) is no place a tile could show: left out."""
        if self.homography is None:
            return [], np.zeros((0, 3, 2))
        occupied = {c for c in self.cells if c is not None} | set(also_taken)
        cells = sorted({n for c in occupied for n in edge_neighbours(c)} - occupied)
        triangles = self.triangles(cells)
        proper = np.flatnonzero(_spread(triangles) >= COLLAPSED_BELOW)
        return [cells[k] for k in proper], triangles[proper]

    def _board_extent(self) -> tuple[np.ndarray, np.ndarray]:
        """The lowest and highest plane x and y (edge units) of the board's lattice points."""
        xy = np.array([point_xy(point) for cell in self.cells if cell is not None for point in cell_corners(cell)])
        return xy.min(0), xy.max(0)

    def foreshortening(self) -> float:
        """How much the camera's slant squashes the board in the photo, at its middle: the
        plane's scale across the slant over its scale along it (1 seen from straight above,
        about 0.7 at 45 degrees off vertical). 1 without a plane."""
        if self.homography is None:  # fitted to the board's tiles, so there is a board wherever there is a plane
            return 1.0
        largest, smallest = local_scales(self.homography, np.mean(self._board_extent(), axis=0))
        return float(smallest / largest)

    def view_from_above(self, side: float, margin: float, most_pixels: float) -> tuple[np.ndarray, tuple[int, int]]:
        """The homography from photo pixels to a view of the board from straight above, and the
        view's size: the board and ``margin`` tile sides around it, ``side`` pixels a tile side
        (fewer where that would take more than ``most_pixels``). Needs the board's plane."""
        low, high = self._board_extent()
        low, high = low - margin, high + margin
        side = min(side, float(np.sqrt(most_pixels / np.prod(high - low))))
        from_plane = np.array([[side, 0, -side * low[0]], [0, side, -side * low[1]], [0, 0, 1]])
        width, height = np.maximum(8, np.round((high - low) * side)).astype(int)
        return from_plane @ np.linalg.inv(self.homography), (int(width), int(height))

    def near_the_board(self, points: np.ndarray, reach: float = 0.7) -> np.ndarray:
        """(N,) whether each photo point lies, in the plane, within ``reach`` tile sides of the
        centre of a board tile: by default, on the board or in a cell sharing an edge with it,
        whose centre lies 0.58 from its neighbour's (the next cells round a corner lie 1.0 and
        more away). Needs the board's plane."""
        centres = np.array([_cell_centre(cell) for cell in self.cells if cell is not None]).reshape(-1, 2)
        points = np.asarray(points, np.float64).reshape(-1, 1, 2)
        plane = cv2.perspectiveTransform(points, np.linalg.inv(self.homography))[:, 0] if len(points) else points[:, 0]
        return (np.linalg.norm(plane[:, None] - centres[None], axis=2) < reach).any(1)

    def triangles(self, cells: Iterable[Cell]) -> np.ndarray:
        """(N, 3, 2) where each cell's corners lie in the photo, in cell order (``where``)."""
        corners = [[self.where(point) for point in cell_corners(cell)] for cell in cells]
        return np.array(corners, np.float64).reshape(-1, 3, 2)


def _spread(triangles: np.ndarray) -> np.ndarray:
    """(N,) each of (N, 3, 2) triangles' area over that of an equilateral triangle on its longest
    side: 1 for an equilateral one, 0.5 for one seen 60 degrees off vertical along an edge's
    normal, 0 for corners at one point or on a line."""
    edges = np.roll(triangles, -1, axis=1) - triangles
    area = np.abs(edges[:, 0, 0] * edges[:, 1, 1] - edges[:, 0, 1] * edges[:, 1, 0]) / 2
    longest = edge_lengths(triangles).max(1)
    return area / np.maximum(math.sqrt(3) / 4 * longest**2, 1e-12)


def _clusters(points: np.ndarray, radius: float) -> np.ndarray:
    """Cluster label per point: points closer than ``radius`` (transitively) share a label, the
    lowest index among them. Each pass hands every point its neighbours' lowest label, until no
    label changes: a few passes, as the corners at one lattice point all lie close together (a
    cloth printed with triangles chains thousands of corners through many passes, so the pairs
    are listed once rather than each pass going over every pair of points)."""
    first, second = _pairs_closer_than(points, radius)
    labels = np.arange(len(points))
    while True:
        lowest = labels.copy()
        np.minimum.at(lowest, first, labels[second])
        if np.array_equal(lowest, labels):
            return labels
        labels = lowest


def _pairs_closer_than(points: np.ndarray, radius: float, rows: int = 512) -> tuple[np.ndarray, np.ndarray]:
    """The (i, j) indices of every ordered pair of points closer than ``radius``, each point with
    itself included. Sorted from left to right, ``rows`` points at a time are measured against
    only the points within ``radius`` of them across (all pairs of thousands of points at once
    would take gigabytes)."""
    order = np.argsort(points[:, 0], kind="stable")
    x, y = points[order, 0], points[order, 1]
    firsts, seconds = [np.zeros(0, np.intp)], [np.zeros(0, np.intp)]
    for start in range(0, len(points), rows):
        block = slice(start, start + rows)
        left = np.searchsorted(x, x[block][0] - radius, side="left")
        right = np.searchsorted(x, x[block][-1] + radius, side="right")
        near = (x[block, None] - x[None, left:right]) ** 2 + (y[block, None] - y[None, left:right]) ** 2 < radius**2
        first, second = np.nonzero(near)
        firsts.append(order[first + start])
        seconds.append(order[second + left])
    return np.concatenate(firsts), np.concatenate(seconds)


def _seed_assignment(outline: np.ndarray) -> tuple[Cell, int]:
    """The first tile's cell and first corner, chosen so the lattice sits upright in the photo:
    a tile pointing up becomes up cell (0, 0) with its top corner first; one pointing down
    becomes down cell (1, 0), whose first corner follows its bottom corner clockwise."""
    centre = outline.mean(0)
    heights = centre[1] - outline[:, 1]  # how far above the centre each corner is
    top = int(np.argmax(heights))
    bottom = int(np.argmin(heights))
    if heights[top] > -heights[bottom]:
        return (0, 0), top
    return (1, 0), (bottom + 1) % 3


def fit_board(outlines: np.ndarray) -> LatticeFit:
    """``fit_lattice`` at the strict join tolerance; when that glues too few of the outlines into
    a board with a trusted plane (the corners of small tiles in steep photos come out too rough
    to meet), glued again more loosely, kept if that gives a larger board with a trusted plane."""
    fit = fit_lattice(outlines, JOIN_TOLERANCE)
    on_board = fit.on_board.sum()
    if fit.homography is not None and on_board >= GLUED_TOO_FEW * len(fit.cells):
        return fit
    looser = fit_lattice(outlines, LOOSER_JOIN)
    if looser.homography is not None and looser.on_board.sum() > on_board:
        return looser
    return fit


def fit_lattice(outlines: np.ndarray, join_tolerance: float = JOIN_TOLERANCE) -> LatticeFit:
    """Cells for (N, 3, 2) clockwise image outlines. Corners closer than ``join_tolerance``
    tile sides count as one lattice point."""
    outlines = np.asarray(outlines, np.float64).reshape(-1, 3, 2)
    n = len(outlines)
    if n == 0:
        return LatticeFit([], outlines, {}, None, 0.0)
    side = median_side(outlines)
    point_of = _clusters(outlines.reshape(-1, 2), join_tolerance * side).reshape(n, 3)
    glued = _glued_edges(point_of)
    components = _components(glued)
    cells: list[Cell | None] = [None] * n
    first: list[int | None] = [0] * n  # which outline corner is the cell's first (None: not trusted)
    lattice_point: dict[int, Point] = {}  # cluster label -> lattice point
    board = max(components, key=len)
    if len(board) > 1:
        start = max(board, key=lambda t: len(glued[t]))
        walked = _walk(start, *_seed_assignment(outlines[start]), glued, set())
        for t in board:
            if t in walked:
                cells[t], first[t] = walked[t]
                for i, point in _points_of(*walked[t]).items():
                    lattice_point.setdefault(int(point_of[t, i]), point)
    homography = _homography(outlines, point_of, lattice_point)
    if homography is not None and not _sizes_its_own_tiles(homography, outlines[[c is not None for c in cells]]):
        homography = None  # a board glued from misshapen outlines: its plane would misplace the rest
    if homography is not None:
        board_tiles = {t: (cells[t], first[t]) for t in range(n) if cells[t] is not None}
        for t, (cell, first_corner) in _place_apart_boards(
            outlines, components, glued, board_tiles, homography, side
        ).items():
            cells[t], first[t] = cell, first_corner
        for t, cell in _place_by_centre(outlines, cells, homography).items():
            cells[t] = cell
            first[t] = _first_corner_if_it_fits(outlines[t], cell, homography, side)
    fit = LatticeFit(cells, outlines, _points_shown(outlines, cells, first), homography, side)
    corners = np.array(
        [o if c is None else [fit.where(point) for point in cell_corners(c)] for o, c in zip(outlines, cells)],
        np.float64,
    )
    return replace(fit, corners=corners)


def _glued_edges(point_of: np.ndarray) -> list[list[tuple[int, int, int]]]:
    """For each tile, given the lattice-point label of each of its (N, 3) corners, the edges it
    shares with another tile: (own edge index, other tile, other's edge index). An edge is a
    pair of clustered corners; two tiles holding the same pair are glued there."""
    by_edge: dict[frozenset, list[tuple[int, int]]] = {}
    for t in range(len(point_of)):
        for i in range(3):
            key = frozenset((point_of[t, i], point_of[t, (i + 1) % 3]))
            if len(key) == 2:
                by_edge.setdefault(key, []).append((t, i))
    glued: list[list[tuple[int, int, int]]] = [[] for _ in range(len(point_of))]
    for sharers in by_edge.values():
        for t, i in sharers:
            # Neighbours walk a shared edge in opposite directions; the same direction is a
            # second outline of the same tile, not a neighbour.
            glued[t].extend((i, u, j) for u, j in sharers if u != t and point_of[t, i] == point_of[u, (j + 1) % 3])
    return glued


def _points_shown(outlines: np.ndarray, cells: list[Cell | None], first: list[int | None]) -> dict[Point, np.ndarray]:
    """Where the tiles placed by their own corners show each lattice point: the mean of their
    corners there (tiles whose first corner is not trusted show none)."""
    index_of: dict[Point, int] = {}  # each point seen, in the order first seen
    at, corners_there = [], []
    for t, (cell, first_corner) in enumerate(zip(cells, first)):
        if cell is not None and first_corner is not None:
            for i, point in _points_of(cell, first_corner).items():
                at.append(index_of.setdefault(point, len(index_of)))
                corners_there.append(outlines[t, i])
    xy = np.array(corners_there, np.float64).reshape(-1, 2)
    return dict(zip(index_of, _means_of(xy, np.array(at, np.int64), np.arange(len(index_of)))))


def _walk(start: int, cell: Cell, first: int, glued: list, taken: set[Cell]) -> dict[int, tuple[Cell, int]]:
    """Cells (and which outline corner is each cell's first) of the tiles glued to ``start``,
    given its own, found by walking the shared edges. A cell in ``taken`` or given already is not
    given again: a second outline on a cell (a double detection) stays loose."""
    found = {start: (cell, first)}
    taken = taken | {cell}
    queue = deque([start])
    while queue:
        t = queue.popleft()
        points = _points_of(*found[t])  # image corner index -> lattice point
        for i, u, j in glued[t]:
            if u in found:
                continue
            a, b = points[i], points[(i + 1) % 3]  # t's edge i runs a -> b clockwise
            across = [c for c in edge_neighbours(found[t][0]) if {a, b} <= set(cell_corners(c))]
            if len(across) != 1 or across[0] in taken:
                continue
            taken.add(across[0])
            # u walks the shared edge the other way: its corner j sits on b, j + 1 on a.
            found[u] = (across[0], (j - cell_corners(across[0]).index(b)) % 3)
            queue.append(u)
    return found


def _place_apart_boards(
    outlines: np.ndarray,
    components: list[list[int]],
    glued: list,
    board: dict[int, tuple[Cell, int]],
    homography: np.ndarray,
    side: float,
) -> dict[int, tuple[Cell, int]]:
    """Other groups of glued tiles that line up with the board's lattice: parts of the board that
    an arm or a hand over it cuts off from the rest. A group joins where the board's plane puts
    it when every one of its tiles is centred on its cell there (tiles lying apart by chance do
    not line up, all of them). Across a wider gap the plane, extrapolated, may miss by a cell; a
    larger group then joins in the placement near there where it and the board fit one plane
    best, when they fit it closely and clearly better than in any other placement. Larger groups
    are placed first."""
    placed: dict[int, tuple[Cell, int]] = {}
    occupied = {cell for cell, _ in board.values()}
    inverse = np.linalg.inv(homography)
    for component in sorted(components, key=len, reverse=True):
        if len(component) < 2 or any(t in board for t in component):
            continue
        start = max(component, key=lambda t: len(glued[t]))
        centre = cv2.perspectiveTransform(outlines[start].mean(0).reshape(1, 1, 2), inverse)[0, 0]
        nearest, _ = _nearest_cell(*centre)
        chosen = None
        if nearest not in occupied:
            walked = _walk(start, nearest, _fit_first_corner(outlines[start], nearest, homography)[0], glued, occupied)
            if len(walked) > 1 and _centred_on_cells(outlines, walked, inverse):
                chosen = walked
        if chosen is None and len(component) >= APART_GROUP_AT_LEAST and len(board) >= APART_BOARD_AT_LEAST:
            chosen = _fitting_one_plane(outlines, start, centre, glued, {**board, **placed}, occupied, homography, side)
        if chosen:
            placed.update(chosen)
            occupied |= {cell for cell, _ in chosen.values()}
    return placed


def _fitting_one_plane(
    outlines: np.ndarray,
    start: int,
    centre: np.ndarray,
    glued: list,
    board: dict[int, tuple[Cell, int]],
    occupied: set[Cell],
    homography: np.ndarray,
    side: float,
) -> dict[int, tuple[Cell, int]] | None:
    """The group of ``start`` walked from the cell near ``centre`` (plane) where it and the board
    fit one plane best, when they fit it closely (``APART_MISFIT``, and nearly as well as the
    board's own corners, ``APART_NOISE``) and clearly better than anywhere else (``APART_CLEARER``)."""
    placements = []  # (the group's misfit, the board's, the group walked from that cell)
    board_corners = _corner_pairs(outlines, board)
    # Only cells pointing the way the tile points in the plane: a plane off by a cell or so is
    # not turned by half a turn.
    in_plane = cv2.perspectiveTransform(outlines[start].reshape(-1, 1, 2), np.linalg.inv(homography))[:, 0]
    up = _points_up(in_plane)
    for cell in _cells_near(*centre):
        if cell not in occupied and points_up(cell) == up:
            walked = _walk(start, cell, _fit_first_corner(outlines[start], cell, homography)[0], glued, occupied)
            if len(walked) > 1:
                placements.append((*_one_plane_misfits(board_corners, _corner_pairs(outlines, walked)), walked))
    if not placements:
        return None
    placements.sort(key=lambda p: p[0])
    misfit, board_misfit, walked = placements[0]
    clearly_best = len(placements) == 1 or misfit < APART_CLEARER * placements[1][0]
    return walked if clearly_best and misfit < min(APART_MISFIT * side, APART_NOISE * board_misfit) else None


def _centred_on_cells(outlines: np.ndarray, walked: dict[int, tuple[Cell, int]], inverse: np.ndarray) -> bool:
    """Whether every walked tile's centre lies within ``APART_OFFSET`` of its cell's in the plane."""
    tiles = list(walked)
    centres = cv2.perspectiveTransform(outlines[tiles].mean(1).reshape(-1, 1, 2), inverse)[:, 0]
    return all(np.linalg.norm(c - _cell_centre(walked[t][0])) < APART_OFFSET for t, c in zip(tiles, centres))


def _points_up(triangle: np.ndarray) -> bool:
    """Whether a triangle in the plane (edge units) has its lone corner toward smaller y, as an
    up cell's apex (``engine.lattice.points_up``) lies a row above its other two corners."""
    y = triangle[:, 1] - triangle[:, 1].mean()
    return bool((y**3).sum() < 0)


def _cells_near(x: float, y: float) -> list[Cell]:
    """The cells whose centres lie within one edge of a plane point (edge units)."""
    row = math.floor(y / ROW_HEIGHT)
    return [
        (col, r)
        for r in range(row - 1, row + 2)
        for col in range(math.floor(2 * x) - 3, math.floor(2 * x) + 4)
        if math.hypot(*(_cell_centre((col, r)) - (x, y))) < 1.0
    ]


def _corner_pairs(outlines: np.ndarray, tiles: dict[int, tuple[Cell, int]]) -> tuple[np.ndarray, np.ndarray]:
    """(K, 2) lattice points (edge units) and (K, 2) image corners of the given tiles' corners."""
    plane = [point_xy(point) for cell_first in tiles.values() for point in _points_of(*cell_first).values()]
    image = [outlines[t, i] for t, cell_first in tiles.items() for i in _points_of(*cell_first)]
    return np.array(plane, np.float64).reshape(-1, 2), np.array(image, np.float64).reshape(-1, 2)


def _one_plane_misfits(
    board: tuple[np.ndarray, np.ndarray], group: tuple[np.ndarray, np.ndarray]
) -> tuple[float, float]:
    """How far (pixels, median over corners) the group's corners and the board's (``_corner_pairs``)
    lie from one plane fitted to them all."""
    plane, image = np.concatenate([group[0], board[0]]), np.concatenate([group[1], board[1]])
    homography, _ = cv2.findHomography(plane, image, 0)
    if homography is None:
        return math.inf, math.inf
    misfits = np.linalg.norm(cv2.perspectiveTransform(plane.reshape(-1, 1, 2), homography)[:, 0] - image, axis=1)
    in_group = len(group[0])
    return float(np.median(misfits[:in_group])), float(np.median(misfits[in_group:]))


def _points_of(cell: Cell, first: int) -> dict[int, Point]:
    """Image corner index -> lattice point, for a tile whose image corner ``first`` is the cell's
    first corner (both listed clockwise)."""
    order = cell_corners(cell)
    return {(first + k) % 3: order[k] for k in range(3)}


def _components(glued: list[list[tuple[int, int, int]]]) -> list[list[int]]:
    seen, components = set(), []
    for start in range(len(glued)):
        if start in seen:
            continue
        seen.add(start)
        component, stack = [start], [start]
        while stack:
            for _, u, _ in glued[stack.pop()]:
                if u not in seen:
                    seen.add(u)
                    component.append(u)
                    stack.append(u)
        components.append(component)
    return components


def _homography(outlines, point_of, lattice_point: dict[int, Point]) -> np.ndarray | None:
    if len(lattice_point) < 4:
        return None
    labels = np.array(list(lattice_point))
    image = _means_of(outlines.reshape(-1, 2), point_of.reshape(-1), labels)  # where the board shows each point
    plane = np.array([point_xy(lattice_point[label]) for label in labels])
    if len(labels) == 4:
        homography, _ = cv2.findHomography(plane, image)
    else:
        homography, _ = cv2.findHomography(plane, image, cv2.RANSAC, 0.15 * np.linalg.norm(image.std(0)) + 3)
    if homography is None or abs(np.linalg.det(homography)) < 1e-9 * np.abs(homography).max() ** 3:
        return None  # a degenerate fit (corners of misread tiles on a line): no plane to map
    return homography


def _means_of(xy: np.ndarray, labels: np.ndarray, wanted: np.ndarray) -> np.ndarray:
    """(W, 2) the mean of the (P, 2) ``xy`` that carry each of the ``wanted`` labels (each carried
    by one at least), all at once."""
    size = max(int(labels.max(initial=-1)), int(wanted.max(initial=-1))) + 1
    sums = np.stack([np.bincount(labels, xy[:, k], size)[wanted] for k in (0, 1)], 1)
    return sums / np.bincount(labels, minlength=size)[wanted][:, None]


def _sizes_its_own_tiles(homography: np.ndarray, board: np.ndarray) -> bool:
    """Whether the plane predicts the side of the board's own tiles (the median tile within
    ``PLANE_SIZE_TOLERANCE``): a plane fitted to a few wrongly glued outlines can be wild."""
    sides = edge_lengths(board).mean(1)
    misfit = np.abs(np.log(sides / _sides_at(homography, board.mean(1))))
    return bool(np.median(misfit) < np.log(PLANE_SIZE_TOLERANCE))


def _sides_at(homography: np.ndarray, points: np.ndarray) -> np.ndarray:
    points = np.asarray(points, np.float64).reshape(-1, 1, 2)
    plane = cv2.perspectiveTransform(points, np.linalg.inv(homography))
    ends = [cv2.perspectiveTransform(plane + step, homography) for step in (point_xy((2, 0)), point_xy((1, 1)))]
    return np.mean([np.linalg.norm(end - points, axis=2)[:, 0] for end in ends], axis=0)


def _cell_centre(cell: Cell) -> np.ndarray:
    """A cell's centre in the plane (edge units)."""
    (x0, y0), (x1, y1), (x2, y2) = (point_xy(p) for p in cell_corners(cell))
    return np.array([(x0 + x1 + x2) / 3, (y0 + y1 + y2) / 3])


def _nearest_cell(x: float, y: float) -> tuple[Cell, float]:
    """Of the cells in a plane point's row (edge units), the one whose centre is nearest, and how
    far that centre is. A point closer to it than the inradius (0.29) lies inside it."""
    row = math.floor(y / ROW_HEIGHT)
    best: tuple[float, Cell] | None = None
    for col in range(math.floor(2 * x) - 1, math.floor(2 * x) + 2):
        centre = _cell_centre((col, row))
        offset = math.hypot(x - centre[0], y - centre[1])
        if best is None or offset < best[0]:
            best = (offset, (col, row))
    return best[1], best[0]


def _place_by_centre(outlines: np.ndarray, cells: list[Cell | None], homography: np.ndarray) -> dict[int, Cell]:
    """Loose outlines whose centre sits on an empty cell touching the board, with a tile's size:
    they are tiles on the board whose outline came out turned or cut (small tiles in steep
    photos), or a part of the board that a missed tile cut off. Two tiles cannot overlap, so a
    tile centred on a cell beside the board lies in that cell whatever its outline says. The
    board grows outward one ring of touching cells at a time."""
    loose = [t for t, cell in enumerate(cells) if cell is None]
    if not loose:
        return {}
    centres = outlines[loose].mean(1)
    plane = cv2.perspectiveTransform(centres.reshape(-1, 1, 2), np.linalg.inv(homography))[:, 0]
    sides = edge_lengths(outlines[loose]).mean(1)
    size_ratio = sides / _sides_at(homography, centres)
    offers = []
    for t, (x, y), ratio in zip(loose, plane, size_ratio):
        cell, offset = _nearest_cell(x, y)
        if offset < CENTRE_OFFSET and 1 / CENTRE_SIZE < ratio < CENTRE_SIZE:
            offers.append((offset, t, cell))
    offers.sort()
    occupied = {cell for cell in cells if cell is not None}
    placed: dict[int, Cell] = {}
    while True:
        grown = False
        for _, t, cell in offers:
            if t in placed or cell in occupied:
                continue
            if any(c in occupied for point in cell_corners(cell) for c in cells_around(point)):
                placed[t] = cell
                occupied.add(cell)
                grown = True
        if not grown:
            return placed


def _first_corner_if_it_fits(outline: np.ndarray, cell: Cell, homography: np.ndarray, side: float) -> int | None:
    """Which outline corner is the cell's first, when the outline's corners lie where the plane
    puts the cell's (within a fifth of a side); None for an outline too far off to trust."""
    first, misfit = _fit_first_corner(outline, cell, homography)
    return first if misfit < 0.2 * side else None


def _fit_first_corner(outline: np.ndarray, cell: Cell, homography: np.ndarray) -> tuple[int, float]:
    """The outline corner that best takes the cell's first place, and how far (pixels) the
    outline's corners then lie from where the plane puts the cell's, at worst."""
    plane = np.array([[point_xy(p) for p in cell_corners(cell)]], np.float64)
    return first_corner(outline, cv2.perspectiveTransform(plane, homography)[0])


def first_corner(outline: np.ndarray, cell: np.ndarray, turns: Iterable[int] = range(3)) -> tuple[int, float]:
    """Of the outline corners ``turns`` allows, the one that best takes the first place of a
    cell seen at ``cell`` ((3, 2) pixels, in cell order), and how far (pixels) the outline's
    corners then lie from the cell's, at worst."""
    misfits = {first: float(np.linalg.norm(np.roll(outline, -first, axis=0) - cell, axis=1).max()) for first in turns}
    first = min(misfits, key=misfits.get)
    return first, misfits[first]
