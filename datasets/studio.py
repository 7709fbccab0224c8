"""The photo studio: seeded scenes of real games rendered with exact ground truth.

A scene is built in millimetres on the table plane (z up): the board of an engine-simulated game,
loose tiles, a face-down pile, clutter. A pinhole camera (tilt up to about 60 degrees, any turn,
lens distortion) looks at it; tiles are prisms drawn far to near with side faces, soft shadows
and their face textures; then light, blur, noise and JPEG. The truth is the projected top-face
corners in the reading shape of CONTRACT.md.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from datasets import faces, tables
from engine.board import Board
from engine.lattice import cell_corners, point_xy
from engine.rules import Rules, get_rules
from engine.scoring import judge_last
from engine.simulate import random_board
from engine.tiles import LARGE_MAX, STANDARD_MAX, Tile, canonical, tile_set

LARGE_SET_SHARE = 0.15  # scenes played with the 0..6 set (the rest with the standard 0..5)
RESOLUTIONS = [(640, 480), (800, 600), (1024, 768), (1280, 720), (1280, 960), (1600, 1200), (1920, 1080)]


@dataclass(frozen=True)
class SceneTile:
    """One tile on the table: its top-face corners in mm (clockwise seen from above, in the
    order of its cell's corners), numbers (None: face down) and cell (None: loose)."""

    top: np.ndarray  # (3, 2) float, table-plane mm
    numbers: tuple[int, int, int] | None
    cell: tuple[int, int] | None
    font: int
    face_seed: int


@dataclass
class Camera:
    K: np.ndarray
    R: np.ndarray  # world -> camera rotation
    C: np.ndarray  # camera centre in world mm
    size: tuple[int, int]
    k1: float = 0.0  # radial distortion
    tilt_deg: float = 0.0

    def project(self, points: np.ndarray) -> np.ndarray:
        """World points (N, 3) to distorted pixel coordinates (N, 2)."""
        cam = (points - self.C) @ self.R.T
        normal = cam[:, :2] / cam[:, 2:3]
        if self.k1:
            normal = normal * (1 + self.k1 * (normal**2).sum(1, keepdims=True))
        return normal * self.K[0, 0] + self.K[:2, 2]

    def project_plain(self, points: np.ndarray) -> np.ndarray:
        cam = (points - self.C) @ self.R.T
        return cam[:, :2] / cam[:, 2:3] * self.K[0, 0] + self.K[:2, 2]

    def plane_homography(self, height: float) -> np.ndarray:
        """Undistorted homography from table-plane mm at ``height`` to pixels."""
        M = self.K @ np.column_stack([self.R[:, 0], self.R[:, 1], self.R @ (np.array([0, 0, height]) - self.C)])
        return M / M[2, 2]


@dataclass
class Scene:
    seed: int
    style: faces.TileStyle
    tiles: list[SceneTile]
    board: Board
    camera: Camera
    table: str
    side_mm: float
    thickness_mm: float
    light: np.ndarray  # direction the light travels (unit, z < 0)
    rules: Rules  # pressman-us on the standard or the large set
    side_px: float  # mean tile side in the photo, for sizing blur, shadows and clutter
    options: dict = field(default_factory=dict)


def _tile_on_table(centre, rotation, side) -> np.ndarray:
    angles = rotation + np.array([-math.pi / 2, math.pi / 6, 5 * math.pi / 6])
    # Table plane has y pointing away from the viewer of a top-down lattice drawing; listing the
    # corners at these angles in a right-handed (x, y) plane gives clockwise seen from above.
    return np.asarray(centre) + side / math.sqrt(3) * np.column_stack([np.cos(angles), -np.sin(angles)])


def _board_tiles(board: Board, rng: np.random.Generator, side: float, style_fonts: int) -> list[SceneTile]:
    gap = rng.uniform(0.005, 0.08)
    pitch = side * (1 + gap)
    # Hand placement: a tile turns and slips only as far as the gap lets it without overlapping.
    turn, slip = min(3.0, gap * 40) * rng.uniform(0.3, 1), gap * rng.uniform(0.1, 0.3)
    font = int(rng.integers(style_fonts))
    placed = []
    for tile in board.placements:
        # Lattice y points down; the table plane's y points up, so mirror y to stay right-handed.
        pts = np.array([point_xy(p) for p in cell_corners(tile.cell)]) * pitch * np.array([1, -1])
        centre = pts.mean(0)
        pts = centre + (pts - centre) * (side / pitch)
        wobble = math.radians(rng.normal(0, turn / 2))
        rot = np.array([[math.cos(wobble), -math.sin(wobble)], [math.sin(wobble), math.cos(wobble)]])
        pts = centre + (pts - centre) @ rot.T + rng.normal(0, slip * side, 2)
        placed.append(SceneTile(pts, tile.corners, tile.cell, font, int(rng.integers(2**31))))
    return placed


def _free_spot(rng, taken: list[np.ndarray], centre, spread, min_gap) -> np.ndarray | None:
    for _ in range(60):
        spot = centre + rng.normal(0, spread, 2)
        if all(np.linalg.norm(spot - t) > min_gap for t in taken):
            return spot
    return None


def sample_scene(
    seed: int,
    styles: list[str] | None = None,
    n_tiles: int | None = None,
    pair: bool = False,
    board: Board | None = None,
    loose_tiles: bool = True,
    random_hand: bool = True,
    size: tuple[int, int] | None = None,
    large_set: float = LARGE_SET_SHARE,
    other_editions: float = 0.0,
) -> Scene:
    """Everything random about one photo, drawn from ``seed`` alone. ``board`` replaces the
    seeded board (a game's frames share one board); ``pair`` asks for at least two tiles;
    ``loose_tiles`` and ``random_hand`` allow loose tiles and a hand over a random tile;
    ``large_set`` is the chance that the scene is played with the 0..6 set; ``other_editions``
    the chance that its set has another edition's layout (``faces.another_edition``), drawn from
    a stream of its own so that the rest of the scene stays the seed's."""
    rng = np.random.default_rng(seed)
    style = faces.STYLES[rng.choice(styles or list(faces.STYLES))]
    if other_editions > 0:
        edition_rng = np.random.default_rng([seed, 3])
        if edition_rng.uniform() < other_editions:
            style = faces.another_edition(style, edition_rng)
    side = rng.uniform(23, 27) if not style.pips else rng.uniform(26, 32)
    thickness = rng.uniform(4.5, 7) if not style.pips else rng.uniform(7, 10)
    if n_tiles is None:
        n_tiles = int(rng.choice([rng.integers(1, 8), rng.integers(8, 30), rng.integers(30, 57)], p=[0.2, 0.4, 0.4]))
    n_tiles = max(2, n_tiles) if pair else n_tiles
    rules = replace(get_rules("pressman-us"), max_number=LARGE_MAX if rng.uniform() < large_set else STANDARD_MAX)
    board_seed, bias = int(rng.integers(2**31)), rng.uniform(0.3, 0.9)
    if board is None:
        board = random_board(board_seed, min(n_tiles, len(tile_set(rules.max_number))), rules, bonus_bias=bias)
    else:
        largest = max((max(p.corners) for p in board.placements), default=0)
        rules = replace(rules, max_number=LARGE_MAX if largest > STANDARD_MAX else STANDARD_MAX)
    tiles = _board_tiles(board, rng, side, faces.FONT_COUNT)
    # Turn and move the whole board on the table.
    angle = rng.uniform(0, 2 * math.pi)
    turn = np.array([[math.cos(angle), -math.sin(angle)], [math.sin(angle), math.cos(angle)]])
    centres = [t.top.mean(0) for t in tiles]
    middle = np.mean(centres, axis=0)
    tiles = [SceneTile((t.top - middle) @ turn.T, t.numbers, t.cell, t.font, t.face_seed) for t in tiles]
    taken = [t.top.mean(0) for t in tiles]
    extent = max(np.linalg.norm(c) for c in taken) + side
    spare = [t for t in tile_set(rules.max_number) if t not in board.by_tile]
    rng.shuffle(spare)
    font = tiles[0].font
    loose = int(rng.integers(0, 5)) if rng.uniform() < 0.6 and loose_tiles else 0
    loose_placed, taken = _loose_tiles(rng, spare[:loose], taken, extent, side, font)
    tiles += loose_placed
    if rng.uniform() < 0.5:
        tiles += _pile(rng, taken, extent, side, font)
    camera = _sample_camera(rng, tiles, side, size)
    light = np.array([rng.normal(0, 0.5), rng.normal(0, 0.5), -1.0])
    options = {
        "table": str(rng.choice(list(tables.TABLES))),
        "hand": bool(rng.uniform() < 0.2) and random_hand,
        "rack": bool(rng.uniform() < 0.25),
        "clutter": int(rng.integers(0, 4)),
        "glare": int(rng.integers(0, 3)),
        "hard_shadow": bool(rng.uniform() < 0.2),
        "defocus": float(rng.uniform(0, 1.2) if rng.uniform() < 0.5 else 0),
        "motion": float(rng.uniform(0, 6) if rng.uniform() < 0.2 else 0),
        "noise": float(rng.uniform(0, 6)),
        "jpeg": int(rng.integers(35, 96)),
        "gain": rng.uniform(0.8, 1.2, 3).tolist(),
        "exposure": float(rng.uniform(0.6, 1.35)),
        "gamma": float(rng.uniform(0.8, 1.25)),
        "uneven": float(rng.uniform(0, 0.5)),
        "render_seed": int(rng.integers(2**31)),
    }
    top = np.concatenate([np.column_stack([t.top, np.full(3, thickness)]) for t in tiles])
    px = camera.project_plain(top).reshape(-1, 3, 2)
    side_px = float(np.mean(np.linalg.norm(px - np.roll(px, 1, axis=1), axis=2)))
    return Scene(
        seed,
        style,
        tiles,
        board,
        camera,
        options["table"],
        side,
        thickness,
        light / np.linalg.norm(light),
        rules,
        side_px,
        options,
    )


def _loose_tiles(
    rng: np.random.Generator, chosen: list[Tile], taken: list[np.ndarray], extent: float, side: float, font: int
) -> tuple[list[SceneTile], list[np.ndarray]]:
    """The ``chosen`` set tiles lying face up away from the board (one whose spot falls near the
    board is pushed out past it), turned at random; and the spots now taken."""
    taken = list(taken)
    placed = []
    for tile in chosen:
        spot = _free_spot(rng, taken, np.zeros(2), extent * 0.9 + 2 * side, 1.6 * side)
        if spot is None:
            continue
        if np.linalg.norm(spot) < extent + side:
            spot = spot / np.linalg.norm(spot) * (extent + side * rng.uniform(1.2, 2.5))
            if any(np.linalg.norm(spot - t) < 1.6 * side for t in taken):
                continue
        numbers = tuple(int(n) for n in np.roll(tile.numbers, int(rng.integers(3))))
        taken.append(spot)
        top = _tile_on_table(spot, rng.uniform(0, 2 * math.pi), side)
        placed.append(SceneTile(top, numbers, None, font, int(rng.integers(2**31))))
    return placed, taken


def _pile(rng: np.random.Generator, taken: list[np.ndarray], extent: float, side: float, font: int) -> list[SceneTile]:
    """A face-down pile of 1-11 tiles a little way beyond the board."""
    taken = list(taken)
    centre = rng.normal(0, 1, 2)
    centre = centre / np.linalg.norm(centre) * (extent + side * rng.uniform(2.5, 4))
    pile = []
    for _ in range(int(rng.integers(1, 12))):
        spot = _free_spot(rng, taken, centre, side * 1.2, 1.25 * side)
        if spot is not None:
            taken.append(spot)
            top = _tile_on_table(spot, rng.uniform(0, 2 * math.pi), side)
            pile.append(SceneTile(top, None, None, font, int(rng.integers(2**31))))
    return pile


def _sample_camera(rng: np.random.Generator, tiles: list[SceneTile], side: float, size=None) -> Camera:
    width, height = RESOLUTIONS[rng.integers(len(RESOLUTIONS))]
    width, height = size or (width, height)
    hfov = math.radians(rng.uniform(45, 70))
    f = width / 2 / math.tan(hfov / 2)
    vfov_half = math.atan(height / 2 / f)
    max_tilt = min(60.0, 80.0 - math.degrees(vfov_half))
    tilt = math.radians(max_tilt * rng.uniform() ** 1.3)
    yaw = rng.uniform(0, 2 * math.pi)
    x_axis = np.array([math.cos(yaw), math.sin(yaw), 0.0])
    y_flat = np.array([math.sin(yaw), -math.cos(yaw), 0.0])
    z_axis = math.cos(tilt) * np.array([0, 0, -1.0]) - math.sin(tilt) * y_flat  # near side at the bottom
    y_axis = np.cross(z_axis, x_axis)
    R = np.stack([x_axis, y_axis, z_axis])
    K = np.array([[f, 0, width / 2], [0, f, height / 2], [0, 0, 1]])
    corners = np.concatenate([t.top for t in tiles])
    target = corners.mean(0)
    target_px = math.exp(rng.uniform(math.log(25), math.log(150)))
    distance = f * side / target_px
    points = np.column_stack([corners, np.zeros(len(corners))])
    for _ in range(40):  # back off until every tile is inside the frame with a margin
        C = np.append(target, 0) - distance * z_axis
        camera = Camera(K, R, C, (width, height), tilt_deg=math.degrees(tilt))
        px = camera.project_plain(points)
        margin = 0.06 * min(width, height)
        if (
            px[:, 0].min() > margin
            and px[:, 1].min() > margin
            and px[:, 0].max() < width - margin
            and px[:, 1].max() < height - margin
        ):
            break
        distance *= 1.12
    camera.k1 = float(rng.uniform(-0.12, 0.08)) if rng.uniform() < 0.5 else 0.0
    return camera


def with_more_pixels(scene: Scene, factor: float) -> Scene:
    """The same view with ``factor`` times the pixels a side: a phone's 12-megapixel photo (factor
    about 3) of what a webcam sees. Blur, shadows and clutter are sized by the tiles and scale with
    them; the sensor's noise stays per pixel."""
    camera = replace(
        scene.camera,
        K=scene.camera.K * np.array([[factor], [factor], [1.0]]),
        size=(round(scene.camera.size[0] * factor), round(scene.camera.size[1] * factor)),
    )
    return replace(scene, camera=camera, side_px=scene.side_px * factor)


def with_warmth(scene: Scene, warmth: float) -> Scene:
    """The same view in light the camera did not balance: red against blue e^(2 warmth) times
    more than the scene's own gains give (0.35: a warm lamp, twice; negative: a cold, bluish
    light), at about the same brightness (the camera's exposure follows the light)."""
    tint = np.exp([-warmth, 0.0, warmth])  # blue, green, red
    gain = np.array(scene.options["gain"]) * tint / tint.mean()
    return replace(scene, options={**scene.options, "gain": gain.tolist()})


def with_noise(scene: Scene, level: float) -> Scene:
    """The same view from a camera in dim light, which raises its gain: sensor noise of ``level``
    grey levels (a standard deviation) in every channel, on top of the scene's own, before the
    JPEG. The scene's own noise (0-6 levels) has always been drawn in the blue channel alone
    (``cv2.randn`` given one deviation for three channels sets the first); both networks learnt
    from it so, and with both trained on it drawn in every channel the reader read no better, so
    it is left so (models/README.md, *Tile finder*, *History*)."""
    return replace(scene, options={**scene.options, "dim_light": level})


def with_defocus(scene: Scene, blur: float) -> Scene:
    """The same view from a camera out of focus: a Gaussian blur of ``blur`` pixels at 1280 wide
    in place of the scene's own (0-1.2 in half the studio's photos), a webcam's fixed focus too
    near or too far for the table."""
    return replace(scene, options={**scene.options, "defocus": blur})


def with_sharpening(scene: Scene, amount: float) -> Scene:
    """The same view as a phone's or a webcam's processing leaves it: an unsharp mask of
    ``amount`` (the photo plus ``amount`` times its difference from itself blurred over about a
    pixel at 1280 wide; 0.5 mild, 1 strong), which rings dark and light along every edge. The
    studio itself renders none."""
    return replace(scene, options={**scene.options, "sharpen": amount})


def with_mirror(scene: Scene) -> Scene:
    """The same view from a camera set to mirror its picture (a selfie camera, a webcam so set):
    each photo flipped left to right, and the truth's pixels with it, so every tile's numbers
    run anticlockwise in it (``vision.mirror``)."""
    return replace(scene, options={**scene.options, "mirror": True})


def before_the_game(scene: Scene, pile: bool = True) -> Scene:
    """The same table before a game: no board, no tile face up, no rack; the face-down ``pile``
    stays, or goes too (a bare table: a photo with no tiles). Cloth, clutter, light and camera
    stay the seed's, so the reader meets the table's prints without tiles to go by."""
    tiles = [t for t in scene.tiles if pile and t.numbers is None]
    return replace(scene, tiles=tiles, board=Board(()), options={**scene.options, "rack": False})


def closer(scene: Scene, factor: float) -> Scene:
    """The middle of the view, zoomed ``factor`` times (a longer lens, the same pixels): a
    close-up whose tiles come out ``factor`` times larger; tiles at the edges leave the frame."""
    camera = replace(scene.camera, K=scene.camera.K @ np.diag([factor, factor, 1.0]))
    return replace(scene, camera=camera, side_px=scene.side_px * factor)


@dataclass
class Rendered:
    image: np.ndarray  # BGR uint8, after every camera effect but JPEG
    truth: dict  # the reading shape of CONTRACT.md
    mask: np.ndarray  # uint8: 0 table, i+1 the top face of scene tile i, 255 an occluder


def _table_image(scene: Scene, rng: np.random.Generator) -> np.ndarray:
    """The table texture seen through the camera (undistorted)."""
    cam = scene.camera
    width, height = cam.size
    # The table area the camera sees: back-project the image corners onto z = 0.
    Kinv = np.linalg.inv(cam.K)
    rays = (np.array([[0, 0, 1], [width, 0, 1], [0, height, 1], [width, height, 1]]) @ Kinv.T) @ cam.R
    hits = cam.C[:2] + rays[:, :2] * (-cam.C[2] / rays[:, 2:3])
    low, high = hits.min(0), hits.max(0)
    span = float(max(high - low))
    size = 768
    mm_per_px = span / size
    texture = tables.TABLES[scene.table](rng, size, mm_per_px)
    # texture pixel -> table mm -> image pixel
    to_mm = np.array([[mm_per_px, 0, low[0]], [0, mm_per_px, low[1]], [0, 0, 1]])
    H = cam.plane_homography(0.0) @ to_mm
    return cv2.warpPerspective(texture, H, (width, height), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)


def _poly(image, points: np.ndarray, colour, antialias: bool = True) -> None:
    cv2.fillPoly(image, [np.round(points * 16).astype(np.int32)], colour, cv2.LINE_AA if antialias else cv2.LINE_8, 4)


def _draw_shadows(image: np.ndarray, scene: Scene) -> None:
    cam, light, T = scene.camera, scene.light, scene.thickness_mm
    shadow = np.zeros(image.shape[:2], np.float32)
    for tile in scene.tiles:
        base = np.column_stack([tile.top, np.zeros(3)])
        cast = base[:, :2] - light[:2] * (T * 1.2 / light[2])  # the top rim's shadow on the table
        outline = np.concatenate([base[:, :2], cast])
        hull = cv2.convexHull(outline.astype(np.float32)).reshape(-1, 2)
        _poly(shadow, cam.project_plain(np.column_stack([hull, np.zeros(len(hull))])), 1.0)
    shadow = _soft(shadow, max(1.0, 0.05 * scene.side_px))
    image *= (1 - 0.45 * shadow)[..., None]


def _draw_tile(image, mask, index: int, tile: SceneTile, scene: Scene) -> None:
    cam, T = scene.camera, scene.thickness_mm
    bottom = np.column_stack([tile.top, np.zeros(3)])
    top = np.column_stack([tile.top, np.full(3, T)])
    rng = np.random.default_rng(tile.face_seed)
    face, alpha = faces.draw_face(scene.style, tile.numbers, rng, tile.font)
    side_colour = face[int(faces.FACE_CENTRE[1]), int(faces.FACE_CENTRE[0])] * 0.8
    # Side faces that look toward the camera, shaded by the light.
    for i in range(3):
        j = (i + 1) % 3
        quad = np.stack([bottom[i], bottom[j], top[j], top[i]])
        middle = quad.mean(0)
        outward = np.array([quad[1, 1] - quad[0, 1], quad[0, 0] - quad[1, 0], 0.0])
        outward /= np.linalg.norm(outward) + 1e-9
        if np.dot(outward, tile.top.mean(0).tolist() + [0] - middle) > 0:
            outward = -outward
        if np.dot(outward, cam.C - middle) <= 0:
            continue
        light = 0.55 + 0.35 * max(0.0, -float(np.dot(outward, scene.light)))
        _poly(image, cam.project_plain(quad), tuple(float(c) for c in side_colour * light))
    corners = cam.project_plain(top)
    centre = cam.project_plain(top.mean(0, keepdims=True))[0]
    source = np.vstack([faces.FACE_CORNERS, faces.FACE_CENTRE])
    target = np.vstack([corners, centre]).astype(np.float32)
    x0, y0 = np.floor(target.min(0)).astype(int) - 2
    x1, y1 = np.ceil(target.max(0)).astype(int) + 2
    h, w = image.shape[:2]
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    if x1 <= x0 or y1 <= y0:
        return
    H = cv2.getPerspectiveTransform(source, target - np.float32([x0, y0]))
    size = (x1 - x0, y1 - y0)
    warped = cv2.warpPerspective(face, H, size, flags=cv2.INTER_AREA if _shrinks(H) else cv2.INTER_LINEAR)
    weight = cv2.warpPerspective(alpha, H, size)[..., None]
    roi = image[y0:y1, x0:x1]
    roi *= 1 - weight
    roi += warped * weight
    mask[y0:y1, x0:x1][weight[..., 0] > 0.5] = index + 1


def _shrinks(H: np.ndarray) -> bool:
    return abs(np.linalg.det(H[:2, :2])) < 1


def _draw_clutter(image, mask, scene: Scene, rng: np.random.Generator, over_board: SceneTile | None) -> None:
    """Cups, cards and cables lie away from the tiles; or a hand and arm reach over a tile."""
    h, w = image.shape[:2]
    side = scene.side_px
    if over_board is None:
        tops = np.concatenate([t.top for t in scene.tiles] or [np.zeros((0, 2))])
        px = scene.camera.project_plain(np.column_stack([tops, np.zeros(len(tops))]))
        (x0, y0), (x1, y1) = (px.min(0) - 2.5 * side, px.max(0) + 2.5 * side) if len(px) else ((0, 0), (0, 0))
        for _ in range(scene.options["clutter"]):
            kind = rng.integers(3)
            x, y = rng.uniform(0, w), rng.uniform(0, h)
            if x0 < x < x1 and y0 < y < y1:
                continue  # clutter stays off the tiles
            if kind == 0:  # a cup seen from above: rim, inside, shadowed side
                r = side * rng.uniform(1.2, 1.8)
                colour = rng.uniform(30, 240, 3)
                cv2.circle(image, (int(x), int(y)), int(r * 1.1), tuple(colour * 0.5), -1, cv2.LINE_AA)
                cv2.circle(image, (int(x), int(y)), int(r), tuple(colour), -1, cv2.LINE_AA)
                cv2.circle(image, (int(x), int(y)), int(r * 0.85), tuple(rng.uniform(10, 80, 3)), -1, cv2.LINE_AA)
            elif kind == 1:  # a playing card or score pad
                card = cv2.boxPoints(((x, y), (side * 2.5, side * 3.5), rng.uniform(0, 180)))
                _poly(image, card, tuple(rng.uniform(200, 255, 3)))
                for row in range(int(rng.integers(2, 7))):  # handwriting on a score pad
                    y_row = y - side + row * side * 0.35
                    cv2.line(
                        image,
                        (int(x - side * 0.8), int(y_row)),
                        (int(x + rng.uniform(-0.5, 0.8) * side), int(y_row)),
                        (40, 40, 40),
                        max(1, int(side / 25)),
                        cv2.LINE_AA,
                    )
            else:  # a cable
                pts = np.cumsum(rng.normal(0, side * 1.5, (8, 2)), axis=0) + [x, y]
                cv2.polylines(
                    image,
                    [pts.astype(np.int32)],
                    False,
                    tuple(rng.uniform(0, 80, 3)),
                    max(2, int(side * 0.15)),
                    cv2.LINE_AA,
                )
        return
    # An arm from an image edge toward the tile, with a hand at its end.
    reach = scene.camera.project_plain(np.append(over_board.top.mean(0), 20)[None])[0]
    edge = [
        np.array([reach[0], -50]),
        np.array([reach[0], h + 50]),
        np.array([-50, reach[1]]),
        np.array([w + 50, reach[1]]),
    ][rng.integers(4)]
    skin = np.array([rng.uniform(60, 170), rng.uniform(90, 190), rng.uniform(130, 235)])
    width = side * rng.uniform(1.8, 2.6)
    direction = (reach - edge) / (np.linalg.norm(reach - edge) + 1e-9)
    hand = reach - direction * side * rng.uniform(0.0, 0.8)
    occluder = np.zeros((h, w), np.uint8)
    cv2.line(occluder, tuple(edge.astype(int)), tuple(hand.astype(int)), 255, int(width), cv2.LINE_AA)
    heading = math.degrees(math.atan2(direction[1], direction[0]))
    cv2.ellipse(
        occluder, tuple(hand.astype(int)), (int(width * 0.6), int(width * 0.5)), heading, 0, 360, 255, -1, cv2.LINE_AA
    )
    spread = rng.uniform(5, 12)
    for k, length in enumerate(rng.uniform(0.7, 1.0, 4)):  # four fingers fanning out, and a thumb
        turn = math.radians(heading + (k - 1.5) * spread)
        start = hand + direction * width * 0.35 + np.array([-direction[1], direction[0]]) * (k - 1.5) * width * 0.24
        end = start + np.array([math.cos(turn), math.sin(turn)]) * width * length
        cv2.line(occluder, tuple(start.astype(int)), tuple(end.astype(int)), 255, max(2, int(width * 0.2)), cv2.LINE_AA)
    thumb = math.radians(heading + rng.choice([-1, 1]) * rng.uniform(50, 75))
    end = hand + np.array([math.cos(thumb), math.sin(thumb)]) * width * 0.9
    cv2.line(occluder, tuple(hand.astype(int)), tuple(end.astype(int)), 255, max(2, int(width * 0.24)), cv2.LINE_AA)
    occluder = cv2.GaussianBlur(occluder, (0, 0), max(0.8, width * 0.02))
    shadow = (
        cv2.GaussianBlur(
            np.roll(occluder, (int(side * 0.6), int(side * 0.4)), (0, 1)).astype(np.float32), (0, 0), side * 0.3
        )
        / 255
    )
    image *= (1 - 0.5 * shadow)[..., None]
    weight = occluder.astype(np.float32)[..., None] / 255
    shading = _soft(occluder.astype(np.float32), width * 0.25)[..., None] / 255
    image *= 1 - weight
    image += weight * skin * (0.6 + 0.4 * shading)
    mask[occluder > 127] = 255


def _soft(mask: np.ndarray, sigma: float) -> np.ndarray:
    """A wide Gaussian blur done at reduced size: the same look for a fraction of the time."""
    factor = max(1, int(sigma / 3))
    if factor == 1:
        return cv2.GaussianBlur(mask, (0, 0), max(sigma, 0.5))
    h, w = mask.shape[:2]
    small = cv2.resize(mask, (max(1, w // factor), max(1, h // factor)), interpolation=cv2.INTER_AREA)
    return cv2.resize(cv2.GaussianBlur(small, (0, 0), sigma / factor), (w, h), interpolation=cv2.INTER_LINEAR)


def _draw_rack(image, mask, scene: Scene, rng: np.random.Generator) -> None:
    """A player's rack beside the board: a long bar with tiles standing in it, backs to the camera."""
    cam, side = scene.camera, scene.side_mm
    tops = np.concatenate([t.top for t in scene.tiles])
    centre, reach = tops.mean(0), np.linalg.norm(tops - tops.mean(0), axis=1).max()
    # Put it on the side nearest the camera, turned to face the board.
    toward = cam.C[:2] - centre
    toward /= np.linalg.norm(toward) + 1e-9
    middle = centre + toward * (reach + side * rng.uniform(1.5, 2.5))
    along = np.array([-toward[1], toward[0]])
    length, depth, height = side * rng.uniform(6, 8), side * 0.5, side * 0.25
    colour = rng.uniform(20, 160, 3)
    half = [along * length / 2, toward * depth / 2]
    base = np.array(
        [middle - half[0] - half[1], middle + half[0] - half[1], middle + half[0] + half[1], middle - half[0] + half[1]]
    )
    box = np.vstack([np.column_stack([base, np.zeros(4)]), np.column_stack([base, np.full(4, height)])])
    faces_of_box = [(4, 5, 6, 7), (0, 1, 5, 4), (1, 2, 6, 5), (2, 3, 7, 6), (3, 0, 4, 7)]

    def depth_of(face):
        return -np.linalg.norm(box[list(face)].mean(0) - cam.C)

    for face in sorted(faces_of_box, key=depth_of):
        shade = 1.0 if face[0] == 4 else 0.7
        px = cam.project_plain(box[list(face)])
        _poly(image, px, tuple(colour * shade))
        cv2.fillPoly(mask, [np.round(px).astype(np.int32)], 255)
    # Tiles standing in its groove, leaning back toward the board.
    back = np.array(scene.style.back or scene.style.face, np.float64) * 0.9
    count = int(rng.integers(3, 9))
    for k in range(count):
        foot = middle - along * length * 0.42 + along * length * 0.84 * (k + 0.5) / count
        lean = -toward * side * 0.25
        tri = np.array(
            [
                np.append(foot - along * side / 2, height),
                np.append(foot + along * side / 2, height),
                np.append(foot + lean, height + side * 0.8),
            ]
        )
        px = cam.project_plain(tri)
        _poly(image, px, tuple(back * rng.uniform(0.85, 1.05)))
        cv2.fillPoly(mask, [np.round(px).astype(np.int32)], 255)


def _light_field(scene: Scene, rng: np.random.Generator, w: int, h: int) -> tuple[np.ndarray, np.ndarray]:
    """Multiplicative light (uneven lamp, hard shadow) and additive glare, at 1/8 size."""
    o = scene.options
    sw, sh = max(2, w // 8), max(2, h // 8)
    ys, xs = np.mgrid[0:sh, 0:sw].astype(np.float32)
    u, v = xs / sw - 0.5, ys / sh - 0.5
    gx, gy = rng.uniform(-1, 1, 2)
    light = 1 + o["uneven"] * (gx * u + gy * v) - o["uneven"] * 0.6 * (u * u + v * v)
    if o["hard_shadow"]:  # a straight-edged shadow, as from a lamp shade or a person
        p = rng.uniform(0, 1, 2) * (sw, sh)
        angle = rng.uniform(0, 2 * math.pi)
        far = p + 3 * max(sw, sh) * np.array([math.cos(angle), math.sin(angle)])
        side = 3 * max(sw, sh) * np.array([-math.sin(angle), math.cos(angle)])
        shade = np.zeros((sh, sw), np.float32)
        _poly(shade, np.array([p - side, p + side, far + side, far - side]), 1.0)
        light *= 1 - rng.uniform(0.25, 0.5) * cv2.GaussianBlur(shade, (0, 0), 0.6)
    glare = np.zeros((sh, sw), np.float32)
    for _ in range(o["glare"]):
        cx, cy = rng.uniform(0, 1, 2) * (sw, sh)
        sigma = rng.uniform(0.01, 0.06) * min(sw, sh) + 0.5
        glare += rng.uniform(60, 200) * np.exp(-((xs - cx) ** 2 + (ys - cy) ** 2) / (2 * sigma * sigma))
    return (
        cv2.resize(light, (w, h), interpolation=cv2.INTER_LINEAR),
        cv2.resize(glare, (w, h), interpolation=cv2.INTER_LINEAR),
    )


def _light_and_lens(image, mask, scene: Scene, rng: np.random.Generator, noise_seed: int):
    o = scene.options
    h, w = image.shape[:2]
    light, glare = _light_field(scene, rng, w, h)
    gain = np.array(o["gain"], np.float32) * o["exposure"]
    image *= light[..., None]
    image += glare[..., None]
    image *= gain
    image = np.clip(image, 0, 255, out=image).astype(np.uint8)
    gamma = (255 * (np.arange(256) / 255) ** o["gamma"]).astype(np.uint8)
    image = cv2.LUT(image, gamma)
    cam = scene.camera
    if cam.k1:
        # Output pixel (distorted) -> source pixel (undistorted), by fixed-point inversion.
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        f, cx, cy = (np.float32(v) for v in (cam.K[0, 0], cam.K[0, 2], cam.K[1, 2]))
        dx, dy = (xx - cx) / f, (yy - cy) / f
        ux, uy = dx, dy
        for _ in range(4):
            scale = 1 + np.float32(cam.k1) * (ux * ux + uy * uy)
            ux, uy = dx / scale, dy / scale
        map_x, map_y = ux * f + cx, uy * f + cy
        image = cv2.remap(image, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
        mask = cv2.remap(mask, map_x, map_y, cv2.INTER_NEAREST, borderMode=cv2.BORDER_CONSTANT)
    if o["defocus"] > 0.05:
        image = cv2.GaussianBlur(image, (0, 0), o["defocus"] * w / 1280)
    if o["motion"] > 0.5:
        length = max(2, int(o["motion"] * w / 1280))
        kernel = np.zeros((length * 2 + 1, length * 2 + 1), np.float32)
        angle = rng.uniform(0, math.pi)
        end = (np.array([math.cos(angle), math.sin(angle)]) * length).astype(int)
        cv2.line(kernel, tuple(length - end), tuple(length + end), 1.0, 1)
        image = cv2.filter2D(image, -1, kernel / kernel.sum())
    if o["noise"] > 0.2:
        # One deviation: the blue channel alone (``with_noise``).
        image = _with_sensor_noise(image, noise_seed, o["noise"])
    if o.get("dim_light"):
        image = _with_sensor_noise(image, noise_seed + 1, (o["dim_light"],) * 3)
    if o.get("sharpen"):  # after the sensor's noise, as a camera's processing sharpens that too
        blurred = cv2.GaussianBlur(image, (0, 0), 1.2 * w / 1280)
        image = cv2.addWeighted(image, 1 + o["sharpen"], blurred, -o["sharpen"], 0)
    return image, mask


def _with_sensor_noise(image: np.ndarray, seed: int, deviation: float | tuple[float, ...]) -> np.ndarray:
    """The image with Gaussian noise of ``deviation`` grey levels added, drawn from OpenCV's
    generator seeded with ``seed``; per channel, or, given one deviation, in the first channel."""
    noise = np.empty(image.shape, np.int16)
    cv2.setRNGSeed(seed)
    cv2.randn(noise, 0, deviation)
    return np.clip(image.astype(np.int16) + noise, 0, 255).astype(np.uint8)


def render(scene: Scene, board_tiles: int | None = None, hand_over: int | None = None, frame: int = 0) -> Rendered:
    """Draw the scene with the first ``board_tiles`` placements of its board (all by default:
    one less gives the 'before' photo of a pair). ``hand_over`` puts a hand over that scene tile;
    ``frame`` varies only the sensor noise, for the frames of one fixed camera."""
    cam = scene.camera
    rng = np.random.default_rng(scene.options["render_seed"])
    width, height = cam.size
    image = _table_image(scene, rng).astype(np.float32)
    mask = np.zeros((height, width), np.uint8)
    count = len(scene.board) if board_tiles is None else board_tiles
    on_board = {p.cell for p in scene.board.placements[:count]}
    shown = [i for i, t in enumerate(scene.tiles) if t.cell is None or t.cell in on_board]
    visible = Scene(**{**scene.__dict__, "tiles": [scene.tiles[i] for i in shown]})
    _draw_clutter(image, mask, visible, rng, over_board=None)
    _draw_shadows(image, visible)
    if scene.options.get("rack"):
        _draw_rack(image, mask, scene, rng)
    order = sorted(shown, key=lambda i: -np.linalg.norm(np.append(scene.tiles[i].top.mean(0), 0) - cam.C))
    for i in order:
        _draw_tile(image, mask, i, scene.tiles[i], scene)
    if hand_over is not None or (scene.options["hand"] and len(visible.tiles)):
        _draw_clutter(
            image,
            mask,
            visible,
            rng,
            over_board=scene.tiles[hand_over]
            if hand_over is not None
            else visible.tiles[int(rng.integers(len(visible.tiles)))],
        )
    noise_seed = (scene.options["render_seed"] * 7919 + frame) % (2**31)
    image, mask = _light_and_lens(image, mask, scene, rng, noise_seed)
    truth = _truth(scene, shown, mask, Board(scene.board.placements[:count]))
    if scene.options.get("mirror"):
        image, mask, truth = image[:, ::-1].copy(), mask[:, ::-1].copy(), _mirrored_truth(truth)
    return Rendered(image, truth, mask)


def _mirrored_truth(truth: dict) -> dict:
    """A photo's truth with every pixel flipped left to right, as its photo is (``with_mirror``):
    each corner keeps its number, so a tile's corners, listed clockwise on the table, run
    anticlockwise in the photo."""
    last = truth["image"]["width"] - 1
    tiles = [{**t, "corners": [{**c, "x": round(last - c["x"], 2)} for c in t["corners"]]} for t in truth["tiles"]]
    face_down = [{**b, "corners": [[round(last - x, 2), y] for x, y in b["corners"]]} for b in truth["face_down"]]
    return {**truth, "tiles": tiles, "face_down": face_down, "studio": {**truth["studio"], "mirror": True}}


def _in_frame(point: np.ndarray, width: int, height: int) -> bool:
    return bool(0 <= point[0] < width and 0 <= point[1] < height)


def _truth(scene: Scene, shown: list[int], mask: np.ndarray, board: Board) -> dict:
    cam, T = scene.camera, scene.thickness_mm
    width, height = cam.size
    tiles, face_down = [], []
    for i in shown:
        tile = scene.tiles[i]
        px = cam.project(np.column_stack([tile.top, np.full(3, T)]))
        # A corner is hidden when the spot where its number sits (or would sit, on a back) is
        # covered (hand, arm, rack) or lies outside the photo (a close-up).
        spots = px + (px.mean(0) - px) * 0.45
        hidden = [not _in_frame(spot, width, height) or bool(mask[int(spot[1]), int(spot[0])] == 255) for spot in spots]
        if tile.numbers is None:
            if not _in_frame(px.mean(0), width, height):
                continue
            # A back partly hidden, like a face-up tile, need not be found (``vision.evaluate``).
            corners = [[round(float(x), 2), round(float(y), 2)] for x, y in px]
            face_down.append({"corners": corners, "hidden": any(hidden)})
            continue
        sorted_rotation = canonical(tile.numbers)
        tiles.append(
            {
                "cell": list(tile.cell) if tile.cell is not None else None,
                "tile": list(sorted_rotation),
                "in_set": True,
                "confidence": 1.0,
                "corners": [
                    {"x": round(float(x), 2), "y": round(float(y), 2), "value": int(n), "confidence": 1.0, "hidden": h}
                    for (x, y), n, h in zip(px, tile.numbers, hidden)
                ],
            }
        )
    rules = scene.rules
    studio = {
        "seed": scene.seed,
        "style": scene.style.name,
        "table": scene.table,
        "max_number": rules.max_number,
        "tilt_deg": round(cam.tilt_deg, 2),
        "tile_side_px": round(scene.side_px, 2),
        "k1": round(cam.k1, 4),
    }
    style = scene.style
    if style != faces.STYLES[style.name]:  # another edition's layout
        studio["edition"] = {
            "number_height": round(sum(style.number_height) / 2, 3),
            "number_along": round(sum(style.number_along) / 2, 3),
            "pip_layout": style.pip_layout,
        }
    return {
        "image": {"path": None, "width": width, "height": height},
        "tiles": tiles,
        "face_down": face_down,
        "violations": [],
        "last_placement": judge_last(board, rules).to_dict() if len(board) else None,
        "timing_ms": {},
        "studio": studio,
    }
