"""A top-down SVG drawing of a board: numbers at the corners, last tile, violations and
provisional tiles marked."""

from __future__ import annotations

from collections.abc import Iterable
from xml.sax.saxutils import escape

from engine.board import Board, Violation
from engine.lattice import Cell, cell_corners, point_xy

TILE_FILL, LAST_FILL, BAD_FILL = "#f4ecd8", "#cfe8ff", "#ffb3b3"


def board_svg(
    board: Board,
    last: Cell | None = None,
    violations: Iterable[Violation] = (),
    edge_px: float = 64.0,
    title: str = "",
    provisional: Iterable[Cell] = (),
    open_cells: Iterable[Cell] = (),
) -> str:
    """The board as an SVG document; ``last`` is drawn blue, cells named by violations red,
    ``provisional`` tiles (numbers a live game's camera has not read surely yet) dashed, and
    ``open_cells`` (empty cells a tile may go in) as faint outlines."""
    provisional, open_cells = set(provisional), list(open_cells)
    bad = {cell for v in violations for cell in v.cells}
    margin = edge_px * 0.6
    xy = {
        cell: [(x * edge_px, y * edge_px) for x, y in map(point_xy, cell_corners(cell))]
        for cell in [p.cell for p in board.placements] + open_cells
    }
    xs = [x for pts in xy.values() for x, _ in pts] or [0.0]
    ys = [y for pts in xy.values() for _, y in pts] or [0.0]
    left, top = min(xs) - margin, min(ys) - margin
    width, height = max(xs) - left + margin, max(ys) - top + margin
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{left:.1f} {top:.1f} {width:.1f} {height:.1f}" '
        f'width="{width:.0f}" height="{height:.0f}" font-family="sans-serif">',
        f"<title>{escape(title or f'{len(board)} tiles')}</title>",
    ]
    font = edge_px * 0.24
    outline = {cell: " ".join(f"{x:.1f},{y:.1f}" for x, y in pts) for cell, pts in xy.items()}
    # Each tile and open cell a group naming its cell (and a tile's numbers), so a page showing the
    # drawing can tell what a player points at (a misread tile to correct, a cell to place one in).
    for cell in open_cells:
        parts.append(
            f'<g data-cell="{_listed(cell)}"><polygon points="{outline[cell]}" fill="#fff" fill-opacity="0" '
            'stroke="#ccc"/></g>'
        )
    for placed in board.placements:
        pts = xy[placed.cell]
        fill = BAD_FILL if placed.cell in bad else LAST_FILL if placed.cell == last else TILE_FILL
        dashed = ' stroke-dasharray="6 4"' if placed.cell in provisional else ""
        parts.append(f'<g data-cell="{_listed(placed.cell)}" data-corners="{_listed(placed.corners)}">')
        parts.append(
            f'<polygon points="{outline[placed.cell]}" fill="{fill}" stroke="#333" stroke-width="1.5"{dashed}/>'
        )
        cx, cy = sum(x for x, _ in pts) / 3, sum(y for _, y in pts) / 3
        for (x, y), number in zip(pts, placed.corners):
            # Numbers sit about halfway between corner and centre, as on real tiles.
            nx, ny = x + (cx - x) * 0.55, y + (cy - y) * 0.55
            parts.append(
                f'<text x="{nx:.1f}" y="{ny:.1f}" font-size="{font:.1f}" text-anchor="middle" '
                f'dominant-baseline="central">{number}</text>'
            )
        parts.append("</g>")
    parts.append("</svg>")
    return "\n".join(parts)


def _listed(numbers: Iterable[int]) -> str:
    """A cell or a tile's numbers as an attribute value: "m,k", "a,b,c"."""
    return ",".join(map(str, numbers))
