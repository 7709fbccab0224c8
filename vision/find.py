"""Finding tiles: the finder network marks tile cores; each core becomes a triangle.

A core is a tile's top face shrunk toward its centre (``CORE_SCALE``), so tiles that touch in a
joined board still give separate cores. The smallest triangle around a core, grown back about its
centre, is the tile's outline.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from models.finder_data import CORE_SCALE, READ_LONG_SIDE, working_scale
from models.runtime import open_model

DEFAULT_FINDER = Path(__file__).resolve().parent.parent / "models" / "finder.onnx"
MIN_CORE_PX = 6  # cores smaller than this (working-scale pixels) are noise
SURE_CORE = 0.95  # probability that marks a core's centre, splitting cores that blur together
SPLIT_ABOVE = 1.6  # a core region this many typical cores large holds several tiles
# |mean z^3| over a filled triangle whitened to unit covariance: circumradius r = sqrt(8), and the
# mean of z^3 over a triangle centred at 0 is r^3 / 10.
TRIANGLE_THIRD_MOMENT = 8**1.5 / 10
SURE_TRIANGLE = 0.8  # triangularity of a core that is surely one tile's
MERGED_BELOW = 0.5  # a core less triangular than this may be two merged ones ...
SURE_TRIANGLE_HALVES = 0.7  # both halves of a cut must be at least this triangular
CUT_ABOVE = 1.3  # ... and at least this many typical single cores large
CUT_ANGLES = np.radians(np.arange(0, 180, 10))
IDENTITY = np.eye(2)
ZOOM_TO_SIDE = 30.0  # small tiles are looked at again at a scale where they show this many pixels ...
ZOOM_AT_LEAST = 1.4  # ... when that is at least this much closer than the first look
SECOND_LOOK_COST = 2.0  # the closer look covers at most this many times the first look's pixels
LARGEST_FOUND_WELL = 90.0  # tiles larger than this (pixels at the scale looked at) the network finds poorly
MOST_ENLARGED = 2.0  # a closer look asked to enlarge the photo enlarges it at most this much


@dataclass(frozen=True)
class FirstLook:
    """What the finder saw of the whole photo: (N, 3, 2) outlines in photo pixels, found with
    the photo at ``scale`` (shrunk to ``working_size``), and the core probability map they came
    from (at that scale; None: not kept)."""

    outlines: np.ndarray
    scale: float
    working_size: int
    core: np.ndarray | None = None

    def core_at(self, triangles: np.ndarray) -> np.ndarray:
        """(N,) the core probability in the middle of each of the (N, 3, 2) triangles (photo
        pixels): the mean at the centre and a third of the way from it to each corner. A tile
        whose outline the finder lost (its core ran into a neighbour's) still shows its core."""
        triangles = np.asarray(triangles, np.float64).reshape(-1, 3, 2)
        if self.core is None or not len(triangles):
            return np.zeros(len(triangles))
        points = np.concatenate([triangles.mean(1, keepdims=True), about_centre(triangles, 1 / 3)], axis=1) * self.scale
        height, width = self.core.shape
        x = np.clip(np.round(points[..., 0]).astype(int), 0, width - 1)
        y = np.clip(np.round(points[..., 1]).astype(int), 0, height - 1)
        return self.core[y, x].mean(1)

    def __post_init__(self) -> None:
        if self.outlines.ndim != 3 or self.outlines.shape[1:] != (3, 2):
            raise ValueError(f"outlines must be (N, 3, 2), not {self.outlines.shape}")
        if not (self.scale > 0 and self.working_size > 0):
            raise ValueError("a look's scale and working size must be positive")


class TileFinder:
    """Loads the finder model once; ``find`` returns (N, 3, 2) clockwise outlines in pixels."""

    def __init__(
        self, path: str | Path = DEFAULT_FINDER, threads: int | None = None, working_size: int = READ_LONG_SIDE
    ) -> None:
        self.session = open_model(path, "finder", "triominoes train-finder", threads)
        self.working_size = working_size  # photos are shrunk to this long side (more: slower, finds smaller tiles)
        # How much larger than the true cores the network draws them, measured at training time.
        metadata = self.session.get_modelmeta().custom_metadata_map
        self.core_growth = float(metadata.get("core_growth", 1.0))
        self.mirror_closer_looks = True  # closer looks and views from above mirrored too (``core_probability``)

    def core_probability(
        self, image: np.ndarray, scale: float | None = None, mirrored_too: bool = False
    ) -> tuple[np.ndarray, float]:
        """The core probability map at working scale (or ``scale``), and that scale.
        ``mirrored_too``: the mean of the network's map and its map of the view mirrored left to
        right (mirrored back), at twice the network's time. The two maps miss in different places,
        so a small tile's core holds together in their mean more often (``look_closer``,
        ``look_through``; the first look is not mirrored, docs/decisions.md)."""
        height, width = image.shape[:2]
        scale = scale or working_scale(width, height, self.working_size)
        size = (max(8, round(width * scale)), max(8, round(height * scale)))
        enlarging = size[0] > width
        small = cv2.resize(image, size, interpolation=cv2.INTER_LINEAR if enlarging else cv2.INTER_AREA)
        pad_h, pad_w = -size[1] % 8, -size[0] % 8
        small = np.pad(small, ((0, pad_h), (0, pad_w), (0, 0)), mode="edge").transpose(2, 0, 1)
        views = np.stack([small, small[:, :, ::-1]]) if mirrored_too else small[None]
        (core,) = self.session.run(None, {"image": np.ascontiguousarray(views)})
        core = (core[0, 0] + core[1, 0, :, ::-1]) / 2 if mirrored_too else core[0, 0]
        return core[: size[1], : size[0]], scale

    def find(self, image: np.ndarray, working_size: int | None = None) -> np.ndarray:
        """Outlines of every tile (face up or down): a first look, then a closer one where the
        tiles came out small. ``working_size``: the long side the photo is shrunk to for the
        first look (default: the finder's)."""
        return self.look_closer(image, self.first_look(image, working_size))

    def first_look(self, image: np.ndarray, working_size: int | None = None) -> FirstLook:
        """The whole photo looked at, shrunk to ``working_size`` (default: the finder's)."""
        height, width = image.shape[:2]
        working_size = working_size or self.working_size
        core, scale = self.core_probability(image, working_scale(width, height, working_size))
        return FirstLook(outlines_from_cores(core, scale, self.core_growth), scale, working_size, core)

    def look_through(self, image: np.ndarray, to_view: np.ndarray, size: tuple[int, int]) -> np.ndarray:
        """Outlines (photo pixels) of the tiles found in a view of the photo warped by ``to_view``
        (a homography from photo pixels to the view's, ``size`` wide and high): a board seen at a
        slant, warped to a view from straight above (``LatticeFit.view_from_above``). Where the
        view would shrink the photo, the photo is first shrunk by area to about the view's scale,
        so the warp skips over no detail. The view is looked at mirrored too, as a closer look is."""
        centre = np.array(size, np.float64) / 2
        shrink = min(1.0, 1.0 / local_scales(np.linalg.inv(to_view), centre)[1])
        photo = image if shrink == 1.0 else cv2.resize(image, None, fx=shrink, fy=shrink, interpolation=cv2.INTER_AREA)
        to_view = to_view @ np.diag([1 / shrink, 1 / shrink, 1.0])
        view = cv2.warpPerspective(photo, to_view, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        core, _ = self.core_probability(view, 1.0, self.mirror_closer_looks)
        outlines = outlines_from_cores(core, 1.0, self.core_growth)
        if not len(outlines):
            return outlines
        in_photo = cv2.perspectiveTransform(outlines.reshape(-1, 1, 2), np.linalg.inv(to_view)) / shrink
        return clockwise(in_photo.reshape(-1, 3, 2))

    def look_closer(self, image: np.ndarray, first: FirstLook, enlarge_to: float | None = None) -> np.ndarray:
        """The first look's outlines, or, when its tiles came out small and the photo has more
        pixels, those of a closer look at the part of the photo holding them (``closer_view``):
        the network learnt tiles from about 8 pixels up, but finds the smallest ones poorly.
        Tiles of the first look too large for the network at the closer scale (a phone photo's,
        where specks of the table came out small too) are kept from the first look. The closer
        view is looked at mirrored too (``core_probability``): its tiles are the small ones."""
        view = closer_view(image.shape, first, enlarge_to)
        if view is None:
            return first.outlines
        zoom, (left, top, right, bottom) = view
        core, _ = self.core_probability(image[top:bottom, left:right], zoom, self.mirror_closer_looks)
        closer = outlines_from_cores(core, zoom, self.core_growth) + (left, top)
        # Tiles the first look found too large for the closer one to see (beyond the sizes the
        # network learnt) stay, where the closer look found nothing inside them.
        large = first.outlines[edge_lengths(first.outlines).mean(1) * zoom > LARGEST_FOUND_WELL]
        unseen = ~inside(closer.mean(1), large).any(0)
        return np.concatenate([closer, large[unseen]])


def closer_view(
    shape: tuple[int, ...], first: FirstLook, enlarge_to: float | None = None
) -> tuple[float, tuple[int, int, int, int]] | None:
    """The scale and the part of a photo (left, top, right, bottom) that ``look_closer`` shows
    the network, or None when it keeps the first look. By default the closer look brings the
    median tile to ``ZOOM_TO_SIDE`` and never enlarges the photo; ``enlarge_to`` brings it to
    that side instead, enlarging the photo (at most ``MOST_ENLARGED`` times) where it has too
    few pixels. The closer look covers the tiles with a margin of two tiles, at no more pixels
    than ``SECOND_LOOK_COST`` times the first look's (time grows with them), and only when it is
    at least ``ZOOM_AT_LEAST`` times closer."""
    outlines, scale = first.outlines, first.scale
    if not len(outlines):
        return None
    height, width = shape[:2]
    side = median_side(outlines)
    zoom = min(MOST_ENLARGED, enlarge_to / side) if enlarge_to else min(1.0, ZOOM_TO_SIDE / side)
    left, top = np.maximum(0, np.floor(outlines.min((0, 1)) - 2 * side)).astype(int)
    right, bottom = np.minimum([width, height], np.ceil(outlines.max((0, 1)) + 2 * side)).astype(int)
    zoom = min(zoom, scale * np.sqrt(SECOND_LOOK_COST * width * height / ((right - left) * (bottom - top))))
    if zoom < ZOOM_AT_LEAST * scale:
        return None
    return float(zoom), (int(left), int(top), int(right), int(bottom))


def seen_scale(shape: tuple[int, ...], first: FirstLook, enlarge_to: float | None = None) -> float:
    """The scale at which ``look_closer`` shows the photo to the network: the closer look's,
    else the first look's."""
    view = closer_view(shape, first, enlarge_to)
    return first.scale if view is None else view[0]


def local_scales(homography: np.ndarray, point: np.ndarray) -> np.ndarray:
    """(2,) how much a homography stretches the plane at ``point`` (its Jacobian's singular
    values, largest first): for the board's plane seen at a slant, the scale along the slant's
    axis and the one across it, squashed."""
    steps = np.array([point, point + (1e-3, 0), point + (0, 1e-3)], np.float64).reshape(-1, 1, 2)
    mapped = cv2.perspectiveTransform(steps, homography)[:, 0]
    jacobian = np.stack([mapped[1] - mapped[0], mapped[2] - mapped[0]], axis=1) / 1e-3
    return np.linalg.svd(jacobian, compute_uv=False)


def about_centre(polygons: np.ndarray, factor: float) -> np.ndarray:
    """(..., K, 2) polygons grown (``factor`` above 1) or shrunk about their own centres."""
    centres = polygons.mean(-2, keepdims=True)
    return centres + (polygons - centres) * factor


def inside(points: np.ndarray, triangles: np.ndarray) -> np.ndarray:
    """(P, T): whether each point lies inside each of the (T, 3, 2) triangles, of either winding."""
    edges = np.roll(triangles, -1, axis=1) - triangles  # (T, 3, 2)
    to_point = points[:, None, None, :] - triangles[None]  # (P, T, 3, 2)
    cross = edges[None, :, :, 0] * to_point[..., 1] - edges[None, :, :, 1] * to_point[..., 0]
    return (cross > 0).all(2) | (cross < 0).all(2)


def overlapping(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """(A, B) whether each of the (A, 3, 2) triangles overlaps each of the (B, 3, 2): the centre
    of either lies inside the other."""
    return inside(a.mean(1), b) | inside(b.mean(1), a).T


def in_view(triangles: np.ndarray, image: np.ndarray) -> np.ndarray:
    """(N,) whether each of the (N, 3, 2) triangles lies wholly inside the photo."""
    height, width = image.shape[:2]
    return ((triangles >= 0) & (triangles < (width, height))).all((1, 2))


def edge_lengths(outlines: np.ndarray) -> np.ndarray:
    """(N, 3) lengths of each outline's edges, in pixels."""
    return np.linalg.norm(outlines - np.roll(outlines, 1, axis=1), axis=2)


def median_side(outlines: np.ndarray) -> float:
    """The median edge of (N, 3, 2) outlines (N at least 1), in pixels: their tiles' size."""
    return float(np.median(edge_lengths(outlines)))


def outlines_from_cores(cores: np.ndarray, scale: float, core_growth: float = 1.0) -> np.ndarray:
    """One clockwise triangle (full-size pixels) per tile core of a core map (boolean, or
    probabilities); ``core_growth`` is how much too large the map draws cores."""
    probability = cores.astype(np.float32)
    left, top, width, height = cv2.boundingRect((probability > 0.5).astype(np.uint8))  # work where cores are
    if width == 0:
        return np.zeros((0, 3, 2))
    regions = core_regions(probability[top : top + height, left : left + width])
    xs, ys = pixels_of(regions > 0).T
    labels = regions[ys, xs]
    points = np.column_stack([xs + left, ys + top]).astype(np.float64)
    moments = RegionMoments.of(points, labels, int(regions.max()) + 1)
    kept = (moments.count >= MIN_CORE_PX) & moments.whitened
    single = kept & (moments.triangularity > SURE_TRIANGLE)
    typical_area = float(np.median(moments.count[single])) if single.any() else np.inf
    typical_shape = np.median(moments.shape[single], axis=0) if single.any() else IDENTITY
    merged = kept & (moments.triangularity < MERGED_BELOW) & (moments.count > CUT_ABOVE * typical_area)
    triangles, core_triangles = moments.triangles, []
    for region in np.flatnonzero(kept):
        if merged[region]:
            parts = split_merged(points[labels == region], CUT_ABOVE * typical_area, typical_shape)
            core_triangles += [RegionMoments.of(part).triangles[0] for part in parts]
        else:
            core_triangles.append(triangles[region])
    core_triangles = np.array(core_triangles, np.float64).reshape(-1, 3, 2)
    core_triangles = core_triangles[~np.isnan(core_triangles).any((1, 2))]
    centres = core_triangles.mean(1, keepdims=True)
    return clockwise((centres + (core_triangles - centres) / (CORE_SCALE * core_growth)) / scale)


def pixels_of(mask: np.ndarray) -> np.ndarray:
    """(P, 2) the x, y of every nonzero pixel of a 2-D mask, row by row as ``np.nonzero`` lists
    them (OpenCV's scan takes a quarter to a half of its time on a photo's core map)."""
    found = cv2.findNonZero(mask.astype(np.uint8, copy=False))
    return np.zeros((0, 2), np.int64) if found is None else found.reshape(-1, 2).astype(np.int64)


def core_regions(probability: np.ndarray) -> np.ndarray:
    """Label image with one label per tile core.

    On small tiles the network's cores of neighbouring tiles blur into each other over the thin
    gap between them (bow ties, or four tiles as one big triangle), so a connected region above
    one half can hold several tiles. Each tile keeps a sure centre above ``SURE_CORE`` though.
    A region is split only when it holds several sure centres and is clearly larger than a
    typical core (``SPLIT_ABOVE`` times the median area per sure centre): on dim or ragged tiles
    one tile can show several sure patches, and those stay one. Split pixels join the nearest
    sure centre.
    """
    core = (probability > 0.5).astype(np.uint8)
    count, regions, stats, _ = cv2.connectedComponentsWithStats(core, connectivity=8)
    sure = (probability > SURE_CORE).astype(np.uint8)
    centres, centre_labels = cv2.connectedComponents(sure, connectivity=8)
    region_of_centre = np.zeros(centres, np.int64)  # each sure centre lies inside one region
    x, y = pixels_of(sure).T
    sure_pixels = y * sure.shape[1] + x
    region_of_centre[centre_labels.flat[sure_pixels]] = regions.flat[sure_pixels]
    per_region = np.bincount(region_of_centre[1:], minlength=count)
    areas = stats[:, cv2.CC_STAT_AREA]
    seeded = np.nonzero(per_region[1:])[0] + 1
    if not len(seeded):
        return regions
    typical = np.median(areas[seeded] / per_region[seeded])
    next_label = count
    for region in seeded[(per_region[seeded] > 1) & (areas[seeded] > SPLIT_ABOVE * typical)]:
        x, y, w, h = stats[region, :4]
        window = regions[y : y + h, x : x + w]
        inside = window == region
        seeds = (sure[y : y + h, x : x + w] > 0) & inside
        _, nearest = cv2.distanceTransformWithLabels(
            (~seeds).astype(np.uint8), cv2.DIST_L2, 3, labelType=cv2.DIST_LABEL_CCOMP
        )
        window[inside] = nearest[inside] + next_label
        next_label += int(nearest[inside].max()) + 1
    return regions


@dataclass(frozen=True)
class RegionMoments:
    """Each region's pixel count, centre, spread and three-fold turn, from its pixels' moments up
    to the third, for all regions of a label image at once (no Python loop over regions).

    A filled triangle is an affine image of an equilateral one: whitening a region's pixels
    (dividing out their covariance) makes a triangle equilateral, with circumradius sqrt(8) for
    unit covariance, and the phase of the whitened third-order moment points at its corners.
    Moments suit the rounded, blurred cores a network draws better than fitting sharp corners does.
    """

    count: np.ndarray  # (R,) pixels
    centre: np.ndarray  # (R, 2)
    covariance: np.ndarray  # (R, 2, 2)
    third: np.ndarray  # (R,) complex: mean of z^3 over the whitened pixels z = x + iy
    whitened: np.ndarray  # (R,) bool: the region spreads in every direction (not empty, not a line)

    @classmethod
    def of(cls, points: np.ndarray, labels: np.ndarray | None = None, regions: int = 1) -> RegionMoments:
        """Moments of (P, 2) pixel positions grouped by ``labels`` (0..regions-1; all one region
        when None)."""
        labels = np.zeros(len(points), np.int64) if labels is None else labels
        count = np.bincount(labels, minlength=regions)
        per_pixel = np.maximum(count, 1)
        centre = np.stack([np.bincount(labels, points[:, k], regions) for k in (0, 1)], 1) / per_pixel[:, None]
        dx, dy = (points - centre[labels]).T
        xx, xy, yy = (np.bincount(labels, w, regions) / per_pixel for w in (dx * dx, dx * dy, dy * dy))
        covariance = np.stack([xx, xy, xy, yy], 1).reshape(-1, 2, 2)
        values, vectors = np.linalg.eigh(covariance)
        whitened = (count > 0) & (values.min(1) > 1e-6)
        # The inverse square root of each covariance, V diag(1 / sqrt(values)) V^T (symmetric).
        inverse_root = vectors @ (vectors / np.sqrt(np.maximum(values, 1e-6))[:, None, :]).transpose(0, 2, 1)
        a, b, d = (inverse_root[:, i, j][labels] for i, j in ((0, 0), (0, 1), (1, 1)))
        cube = (a * dx + b * dy + 1j * (b * dx + d * dy)) ** 3
        third = (np.bincount(labels, cube.real, regions) + 1j * np.bincount(labels, cube.imag, regions)) / per_pixel
        return cls(count, centre, covariance, third, whitened)

    @property
    def triangularity(self) -> np.ndarray:
        """How much each region looks like one filled triangle, seen under any perspective: the
        size of its whitened third-order moment over a triangle's (1 for a triangle, 0 for any
        shape with a centre of symmetry: the parallelogram or bow tie of two merged cores, a blob)."""
        return np.where(self.whitened, np.abs(self.third) / TRIANGLE_THIRD_MOMENT, 0.0)

    @property
    def shape(self) -> np.ndarray:
        """Each covariance scaled to determinant 1: elongation and direction, not size (the
        identity for a tile seen from straight above)."""
        return self.covariance / np.sqrt(np.maximum(np.linalg.det(self.covariance), 1e-12))[:, None, None]

    @property
    def triangles(self) -> np.ndarray:
        """(R, 3, 2) the triangle with each region's centre, spread and three-fold turn; NaN
        where a region has no spread or no three-fold turn."""
        values, vectors = np.linalg.eigh(self.covariance)
        root = vectors @ (vectors * np.sqrt(np.maximum(values, 0))[:, None, :]).transpose(0, 2, 1)
        turn = np.angle(self.third)[:, None] / 3 + np.array([0, 2 * np.pi / 3, 4 * np.pi / 3])
        corners = np.sqrt(8) * np.stack([np.cos(turn), np.sin(turn)], 2)
        triangles = self.centre[:, None] + corners @ root.transpose(0, 2, 1)
        turned = self.whitened & (np.abs(self.third) >= 1e-9)
        return np.where(turned[:, None, None], triangles, np.nan)


def triangularity(points: np.ndarray) -> float:
    """``RegionMoments.triangularity`` of one region's pixels."""
    return float(RegionMoments.of(points).triangularity[0])


def split_merged(
    points: np.ndarray, above_area: float, typical_shape: np.ndarray = IDENTITY, depth: int = 2
) -> list[np.ndarray]:
    """A region of more than ``above_area`` pixels that is not triangular is two tiles' cores
    merged over the seam between them. Cut it through its centre into two triangular halves;
    of the cuts that give two (a parallelogram has two diagonals), take the one whose halves are
    shaped most like the photo's single cores (``typical_shape``), then look at each half again,
    ``depth`` cuts at most. A region no cut turns into two triangles stays whole."""
    if depth == 0 or len(points) <= above_area or triangularity(points) >= MERGED_BELOW:
        return [points]
    # Every cut at once: half h of cut c is region 2c + h.
    beyond = (points - points.mean(0)) @ np.stack([np.cos(CUT_ANGLES), np.sin(CUT_ANGLES)]) >= 0  # (P, cuts)
    labels = (2 * np.arange(len(CUT_ANGLES)) + beyond).T.ravel()
    halves = RegionMoments.of(np.tile(points, (len(CUT_ANGLES), 1)), labels, 2 * len(CUT_ANGLES))
    smaller_half = halves.count.reshape(-1, 2).min(1)
    less_triangular_half = halves.triangularity.reshape(-1, 2).min(1)
    both_triangles = (smaller_half >= MIN_CORE_PX) & (less_triangular_half >= SURE_TRIANGLE_HALVES)
    if not both_triangles.any():
        return [points]
    misfit = np.linalg.norm(halves.shape - typical_shape, axis=(1, 2)).reshape(-1, 2).max(1)
    cut = int(np.argmin(np.where(both_triangles, misfit, np.inf)))
    return [
        part
        for half in (points[~beyond[:, cut]], points[beyond[:, cut]])
        for part in split_merged(half, above_area, typical_shape, depth - 1)
    ]


def clockwise(triangles: np.ndarray) -> np.ndarray:
    """A (3, 2) triangle's corners, or each of a stack's (..., 3, 2), ordered clockwise as seen
    (y pointing down)."""
    triangles = np.asarray(triangles)
    a, b, c = np.moveaxis(triangles, -2, 0)
    turning = (b[..., 0] - a[..., 0]) * (c[..., 1] - a[..., 1]) - (b[..., 1] - a[..., 1]) * (c[..., 0] - a[..., 0])
    return np.where((turning > 0)[..., None, None], triangles, triangles[..., ::-1, :])
