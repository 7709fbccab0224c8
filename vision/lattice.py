"""Rebuilding the board's lattice from tile outlines in the photo.

Joined tiles share corners (up to the small gaps of hand placement), so the board is a graph of
triangles glued edge to edge. Walking that graph from one tile gives every joined tile its cell
in the lattice of RULES.md, with no global model of the camera: local gluing tolerates
perspective, lens distortion and sloppy placement. A homography fitted to the glued corners then
places tiles that touch the board only at a point (they get a cell, so the engine can flag them);
tiles that touch nothing stay loose (cell None). Every lattice point is then put where the mean of
the tile corners at it lies, so the tiles meeting there average out the finder's corner errors.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, replace

import cv2
import numpy as np

from engine.lattice import Cell, Point, cell_corners, cell_from_corners, edge_neighbours, point_xy


@dataclass(frozen=True)
class LatticeFit:
    cells: list[Cell | None]  # per outline; None for a loose tile
    corners: np.ndarray  # (N, 3, 2): a tile on the board has its cell's corners in cell order; a loose tile its outline
    points: dict[Point, np.ndarray]  # where the board's tiles show each lattice point (mean of their corners)
    homography: np.ndarray | None  # lattice plane (edge units) -> image pixels, from the joined tiles
    side_px: float  # median tile side in the photo

    def where(self, point: Point) -> np.ndarray:
        """A lattice point in the photo: where the board's tiles show it, else where the plane puts it."""
        if point in self.points:
            return self.points[point]
        return cv2.perspectiveTransform(np.array([[point_xy(point)]], np.float64), self.homography)[0, 0]

    def sides_at(self, points: np.ndarray) -> np.ndarray | None:
        """The side a tile would show at each image point, from the board's plane (every tile
        of a set is the same size on the table); None without a board to measure."""
        if self.homography is None:
            return None
        points = np.asarray(points, np.float64).reshape(-1, 1, 2)
        plane = cv2.perspectiveTransform(points, np.linalg.inv(self.homography))
        ends = [
            cv2.perspectiveTransform(plane + step, self.homography) for step in (point_xy((2, 0)), point_xy((1, 1)))
        ]
        return np.mean([np.linalg.norm(end - points, axis=2)[:, 0] for end in ends], axis=0)

    def frontier(self, also_taken: Iterable[Cell] = ()) -> tuple[list[Cell], np.ndarray]:
        """Empty cells next to the board (``also_taken`` counts as board too), with where their
        corners would be in the photo, in cell order. Used to look for tiles the finder missed."""
        if self.homography is None:
            return [], np.zeros((0, 3, 2))
        occupied = {c for c in self.cells if c is not None} | set(also_taken)
        cells = sorted({n for c in occupied for n in edge_neighbours(c)} - occupied)
        triangles = [[self.where(point) for point in cell_corners(cell)] for cell in cells]
        return cells, np.array(triangles, np.float64).reshape(-1, 3, 2)


def _clusters(points: np.ndarray, radius: float) -> np.ndarray:
    """Cluster label per point: points closer than ``radius`` (transitively) share a label."""
    labels = np.arange(len(points))

    def root(i: int) -> int:
        while labels[i] != i:
            labels[i] = labels[labels[i]]
            i = labels[i]
        return i

    distances = np.linalg.norm(points[:, None] - points[None], axis=2)
    for i, j in zip(*np.nonzero(np.triu(distances < radius, 1))):
        labels[root(i)] = root(j)
    return np.array([root(i) for i in range(len(points))])


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


def fit_lattice(outlines: np.ndarray, join_tolerance: float = 0.3) -> LatticeFit:
    """Cells for (N, 3, 2) clockwise image outlines. Corners closer than ``join_tolerance``
    tile sides count as one lattice point."""
    outlines = np.asarray(outlines, np.float64).reshape(-1, 3, 2)
    n = len(outlines)
    if n == 0:
        return LatticeFit([], outlines, {}, None, 0.0)
    side = float(np.median(np.linalg.norm(outlines - np.roll(outlines, 1, axis=1), axis=2)))
    point_of = _clusters(outlines.reshape(-1, 2), join_tolerance * side).reshape(n, 3)
    # Edges as unordered pairs of clustered corners: two tiles sharing one are glued there.
    by_edge: dict[frozenset, list[tuple[int, int]]] = {}
    for t in range(n):
        for i in range(3):
            key = frozenset((point_of[t, i], point_of[t, (i + 1) % 3]))
            if len(key) == 2:
                by_edge.setdefault(key, []).append((t, i))
    glued = [[] for _ in range(n)]  # (own edge index, other tile, other's edge index)
    for sharers in by_edge.values():
        for t, i in sharers:
            # Neighbours walk a shared edge in opposite directions; the same direction is a
            # second outline of the same tile, not a neighbour.
            glued[t].extend((i, u, j) for u, j in sharers if u != t and point_of[t, i] == point_of[u, (j + 1) % 3])
    components = _components(glued)
    cells: list[Cell | None] = [None] * n
    first: list[int] = [0] * n
    lattice_point: dict[int, Point] = {}  # cluster label -> lattice point
    board = max(components, key=len)
    if len(board) > 1:
        start = max(board, key=lambda t: len(glued[t]))
        cells[start], first[start] = _seed_assignment(outlines[start])
        taken = {cells[start]}
        queue = deque([start])
        while queue:
            t = queue.popleft()
            points = _points_of(cells[t], first[t])  # image corner index -> lattice point
            for i, u, j in glued[t]:
                if cells[u] is not None:
                    continue
                a, b = points[i], points[(i + 1) % 3]  # t's edge i runs a -> b clockwise
                across = [c for c in edge_neighbours(cells[t]) if {a, b} <= set(cell_corners(c))]
                if len(across) != 1 or across[0] in taken:
                    continue  # a second outline on a cell already read (a double detection) stays loose
                taken.add(across[0])
                # u walks the shared edge the other way: its corner j sits on b, j + 1 on a.
                order = cell_corners(across[0])
                cells[u] = across[0]
                first[u] = (j - order.index(b)) % 3
                queue.append(u)
        for t in board:
            if cells[t] is not None:
                for i, point in _points_of(cells[t], first[t]).items():
                    lattice_point.setdefault(int(point_of[t, i]), point)
    homography = _homography(outlines, point_of, lattice_point)
    if homography is None:
        return LatticeFit(cells, outlines, {}, None, side)
    for t in range(n):
        if cells[t] is None and any(int(p) in lattice_point for p in point_of[t]):
            placed = _place_by_homography(outlines[t], homography)
            if placed is not None and placed[0] not in cells:
                cells[t], first[t] = placed
    # Lattice points where the tiles placed by their own corners show them.
    seen: dict[Point, list[np.ndarray]] = {}
    for t in range(n):
        if cells[t] is not None:
            for i, point in _points_of(cells[t], first[t]).items():
                seen.setdefault(point, []).append(outlines[t, i])
    points = {point: np.mean(xys, axis=0) for point, xys in seen.items()}
    fit = LatticeFit(cells, outlines, points, homography, side)
    corners = np.array(
        [o if c is None else [fit.where(point) for point in cell_corners(c)] for o, c in zip(outlines, cells)],
        np.float64,
    )
    return replace(fit, corners=corners)


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
    labels = list(lattice_point)
    flat_points, flat_labels = outlines.reshape(-1, 2), point_of.reshape(-1)
    image = np.array([flat_points[flat_labels == label].mean(0) for label in labels])
    plane = np.array([point_xy(lattice_point[label]) for label in labels])
    if len(labels) == 4:
        homography, _ = cv2.findHomography(plane, image)
    else:
        homography, _ = cv2.findHomography(plane, image, cv2.RANSAC, 0.15 * np.linalg.norm(image.std(0)) + 3)
    if homography is None or abs(np.linalg.det(homography)) < 1e-9 * np.abs(homography).max() ** 3:
        return None  # a degenerate fit (corners of misread tiles on a line): no plane to map
    return homography


def _place_by_homography(outline: np.ndarray, homography: np.ndarray) -> tuple[Cell, int] | None:
    """The cell under an outline, by mapping its corners into the lattice plane and rounding."""
    plane = cv2.perspectiveTransform(outline[None].astype(np.float64), np.linalg.inv(homography))[0]
    points = []
    for x, y in plane:
        k = round(y / point_xy((0, 1))[1])
        m = round(2 * x)
        if (m + k) % 2:  # not a lattice point: take the nearer of the two candidates
            m = m + 1 if 2 * x > m else m - 1
        points.append((m, k))
    try:
        cell = cell_from_corners(points)
    except ValueError:
        return None
    return cell, points.index(cell_corners(cell)[0])
