"""The photo studio: truth measured on the rendered pixels, determinism, crops, pairs, sequences."""

import itertools
import json
import math
from dataclasses import replace

import cv2
import numpy as np
import pytest

from datasets import faces, fonts
from datasets.faces import FACE_CORNERS, LIGHT_FACE, PIP_LAYOUTS, STYLES, WHITE_FACE, another_edition, draw_face
from datasets.fonts import FONT_NAMES, MissingFonts, font_files
from datasets.make import NO_NUMBER, SPLITS, RenderJob, crops_for_seed, make_image, make_sequence
from datasets.studio import (
    before_the_game,
    closer,
    render,
    sample_scene,
    with_defocus,
    with_mirror,
    with_more_pixels,
    with_noise,
    with_sharpening,
    with_warmth,
)
from engine.board import Board
from engine.game import Game, event_from_dict
from engine.rules import game_rules, get_rules
from engine.scoring import judge_last
from service.cli import main
from vision.crops import CROP_PX, corner_crops
from vision.noise import noise_level

SEEDS = [3, 11, 24, 40]


def clean(scene):
    """The scene without the effects that hide tiles (hand, blur, noise, glare)."""
    scene.options.update(hand=False, defocus=0.0, motion=0.0, noise=0.0, glare=0, hard_shadow=False)
    return scene


def triangles(truth):
    return np.array([[[c["x"], c["y"]] for c in t["corners"]] for t in truth["tiles"]], np.float32)


def measured_corners(region: np.ndarray, corners: np.ndarray, side: float) -> np.ndarray:
    """The tile's sharp corners measured on its rendered face: a line fitted to the straight middle
    of each edge of the mask's outline, then adjacent lines intersected. ``corners`` only says
    which outline points belong to which edge."""
    contours, _ = cv2.findContours(region.astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    outline = max(contours, key=len).reshape(-1, 2).astype(np.float64)
    lines = []
    for i in range(3):
        a, b = corners[i], corners[(i + 1) % 3]
        along = (outline - a) @ (b - a) / np.dot(b - a, b - a)
        normal = np.array([-(b - a)[1], (b - a)[0]]) / np.linalg.norm(b - a)
        near = outline[(along > 0.25) & (along < 0.75) & (np.abs((outline - a) @ normal) < 0.15 * side)]
        vx, vy, x, y = cv2.fitLine(near.astype(np.float32), cv2.DIST_L2, 0, 0.01, 0.01).ravel()
        lines.append((np.array([x, y]), np.array([vx, vy])))
    points = []
    for i in range(3):  # corner i is where edge i-1 (ending at it) meets edge i (starting at it)
        (p, u), (q, v) = lines[i - 1], lines[i]
        t = np.linalg.solve(np.column_stack([u, -v]), q - p)
        points.append(p + t[0] * u)
    return np.array(points)


@pytest.mark.parametrize("seed", SEEDS)
def test_truth_corners_sit_on_the_rendered_tile_corners(seed):
    scene = clean(sample_scene(seed, n_tiles=12))
    rendered = render(scene)
    side = rendered.truth["studio"]["tile_side_px"]
    errors = []
    for index, tile in enumerate(scene.tiles):
        if tile.numbers is None:
            continue
        region = rendered.mask == index + 1
        if region.sum() < 0.3 * side * side:  # too small to fit edges on
            continue
        truth = next(
            t
            for t in rendered.truth["tiles"]
            if t["cell"] == (list(tile.cell) if tile.cell else None)
            and [c["value"] for c in t["corners"]] == list(tile.numbers)
        )
        corners = np.array([[c["x"], c["y"]] for c in truth["corners"]])
        errors.extend(np.linalg.norm(measured_corners(region, corners, side) - corners, axis=1))
    assert errors
    assert np.median(errors) < 0.02 * side + 1.0
    assert np.max(errors) < 0.05 * side + 2.0


@pytest.mark.parametrize("seed", SEEDS)
def test_corners_are_listed_clockwise_as_seen(seed):
    truth = render(sample_scene(seed)).truth
    for tri in list(triangles(truth)) + [np.array(t["corners"]) for t in truth["face_down"]]:
        (ax, ay), (bx, by), (cx, cy) = tri
        assert (bx - ax) * (cy - ay) - (by - ay) * (cx - ax) > 0  # y down: positive is clockwise


def test_drawn_numbers_match_the_truth_values():
    """Crops of the same value look alike: leave-one-out nearest class mean on clean renders."""
    for seed in (5, 6, 7):
        scene = clean(sample_scene(seed, styles=["ivory"], n_tiles=40, size=(1280, 960)))
        rendered = render(scene)
        # The middle of each crop, where the number is, with brightness and contrast normalised.
        cut = corner_crops(rendered.image, triangles(rendered.truth))[:, :, 4:24, 6:26].astype(np.float32)
        cut = cut.reshape(len(cut), -1)
        features = (cut - cut.mean(1, keepdims=True)) / (cut.std(1, keepdims=True) + 1e-6)
        # One font and tile size per scene, so compare within each scene only.
        values = np.array([c["value"] for t in rendered.truth["tiles"] for c in t["corners"]])
        right = 0
        for i in range(len(values)):
            keep = np.arange(len(values)) != i
            means = {v: features[keep & (values == v)].mean(0) for v in set(values[keep])}
            guess = min(means, key=lambda v: np.linalg.norm(features[i] - means[v]))
            right += guess == values[i]
        # Chance is about 1 in 6; values listed on the wrong corners would score near it.
        assert right / len(values) > 0.7, f"seed {seed}: {right}/{len(values)}"


def test_every_style_renders():
    for name in STYLES:
        rendered = render(sample_scene(1, styles=[name], n_tiles=5))
        assert rendered.truth["studio"]["style"] == name
        assert rendered.image.dtype == np.uint8 and rendered.image.std() > 5


def test_same_seed_same_bytes(tmp_path):
    first, second = tmp_path / "a", tmp_path / "b"
    first.mkdir(), second.mkdir()
    make_image(RenderJob(17, masks=True), first)
    make_image(RenderJob(17, masks=True), second)
    for name in ("0000017.jpg", "0000017.json", "0000017.mask.png"):
        assert (first / name).read_bytes() == (second / name).read_bytes()
    make_image(RenderJob(18), second)
    assert (second / "0000018.jpg").read_bytes() != (second / "0000017.jpg").read_bytes()


def test_pair_truth_scores_the_added_tile(tmp_path):
    make_image(RenderJob(21, pair=True), tmp_path)
    before = json.loads((tmp_path / "0000021_before.json").read_text())
    after = json.loads((tmp_path / "0000021.json").read_text())
    on_board = [t for t in after["tiles"] if t["cell"] is not None]
    assert len([t for t in before["tiles"] if t["cell"] is not None]) == len(on_board) - 1
    placement = after["last_placement"]
    assert placement["legal"] and placement["cell"] in [t["cell"] for t in on_board]
    assert after["image"]["path"] == "0000021.jpg"
    assert cv2.imread(str(tmp_path / "0000021_before.jpg")).shape[:2] == (
        after["image"]["height"],
        after["image"]["width"],
    )


def test_truth_last_placement_is_the_engines_answer():
    scene = sample_scene(8, n_tiles=10)
    truth = render(scene).truth
    assert truth["last_placement"] == judge_last(scene.board, get_rules("pressman-us")).to_dict()


def test_the_share_of_large_set_scenes_can_be_raised_for_training():
    default = [sample_scene(seed, n_tiles=6) for seed in range(40)]
    large = [sample_scene(seed, n_tiles=6, large_set=1.0) for seed in range(40)]
    assert 0 < sum(s.rules.max_number == 6 for s in default) < 20  # the studio's 15%
    assert all(s.rules.max_number == 6 for s in large)
    assert [s.style.name for s in large] == [s.style.name for s in default]  # drawn before the set


def test_another_edition_changes_the_faces_and_nothing_else():
    for seed in range(12):
        default = sample_scene(seed, n_tiles=8)
        other = sample_scene(seed, n_tiles=8, other_editions=1.0)
        assert sample_scene(seed, n_tiles=8, other_editions=0.0).style == default.style
        assert other.style.name == default.style.name and other.style.pips == default.style.pips
        if min(default.style.face) > LIGHT_FACE and not default.style.pips:  # cream to pure white
            assert all(d <= o <= WHITE_FACE for d, o in zip(default.style.face, other.style.face))
        else:
            assert other.style.face == default.style.face and other.style.ink == default.style.ink
        assert other.style != default.style
        assert other.options == default.options and np.array_equal(other.camera.K, default.camera.K)
        assert all(np.array_equal(a.top, b.top) and a.numbers == b.numbers for a, b in zip(other.tiles, default.tiles))
    edition = render(clean(sample_scene(3, n_tiles=3, other_editions=1.0))).truth["studio"]["edition"]
    assert 0.13 <= edition["number_height"] <= 0.25 and 0.38 <= edition["number_along"] <= 0.62
    assert "edition" not in render(clean(sample_scene(3, n_tiles=3))).truth["studio"]
    shared = [sample_scene(seed, n_tiles=4, other_editions=0.5).style.number_along for seed in range(40)]
    assert 5 < sum(along != STYLES["ivory"].number_along for along in shared) < 35


def test_each_pip_layout_draws_every_count_with_dots_apart():
    for layout in PIP_LAYOUTS:
        for count in range(7):
            dots = layout[count]
            assert len(dots) == count
            # A dot's radius is at most 0.36 spacings, so dots 0.8 apart never touch.
            assert all(math.dist(a, b) >= 0.8 for a, b in itertools.combinations(dots, 2))


def test_a_small_deep_number_is_drawn_smaller_and_farther_from_its_corner():
    def ink_of_the_top_corner(style):
        face, alpha = draw_face(style, (4, 4, 4), np.random.default_rng(0))
        ys = np.nonzero((face.mean(2) < 100) & (alpha > 0.5))[0]
        near_top = ys < FACE_CORNERS[0][1] + 0.5 * (FACE_CORNERS[1][1] - FACE_CORNERS[0][1])
        return len(ys[near_top]), float(np.mean(ys[near_top]) - FACE_CORNERS[0][1])

    big_near = replace(STYLES["ivory"], number_height=(0.24, 0.24), number_along=(0.42, 0.42))
    small_deep = replace(STYLES["ivory"], number_height=(0.13, 0.13), number_along=(0.6, 0.6))
    (big_ink, big_depth), (small_ink, small_depth) = ink_of_the_top_corner(big_near), ink_of_the_top_corner(small_deep)
    assert small_ink < 0.5 * big_ink and small_depth > big_depth + 10


def test_other_editions_of_light_printed_sets_vary_tone_ink_and_edge():
    """Neither the face's tone nor the ink's colour may tell the number (PHYSICAL.md: white sets,
    black or coloured numbers), and some faces carry a printed edge line."""
    rng = np.random.default_rng(0)
    coloured = [another_edition(STYLES["white-colour"], rng) for _ in range(200)]
    ivory = [another_edition(STYLES["ivory"], rng) for _ in range(200)]
    assert 40 < sum(s.ink is not None for s in coloured) < 160  # black numbers on a white set
    tones = [s.face[0] for s in ivory]
    assert min(tones) < STYLES["ivory"].face[0] + 10 and max(tones) > WHITE_FACE - 10
    assert all(s.ink == STYLES["ivory"].ink for s in ivory)
    assert 20 < sum(s.border > 0 for s in coloured + ivory) < 200
    plain = replace(STYLES["ivory"], number_height=(0.2, 0.2))
    face, alpha = draw_face(plain, (1, 1, 1), np.random.default_rng(0))
    edged, _ = draw_face(replace(plain, border=0.02), (1, 1, 1), np.random.default_rng(0))
    darker = (edged.mean(2) < face.mean(2) - 40) & (alpha > 0.5)
    near_edge = cv2.erode((alpha > 0.5).astype(np.uint8), np.ones((25, 25), np.uint8)) == 0
    assert darker.sum() > 100 and (darker & near_edge).sum() == darker.sum()


@pytest.mark.parametrize(
    "change",
    [{"pip_layout": len(PIP_LAYOUTS)}, {"number_along": (0.6, 0.5)}, {"number_height": (0, 0.2)}, {"border": 0.2}],
)
def test_a_style_with_an_impossible_layout_is_refused(change):
    with pytest.raises(ValueError):
        replace(STYLES["ivory"], **change)


def test_crops_have_labels_for_every_class_kind():
    crops, labels, style, side = crops_for_seed(RenderJob(4))
    assert crops.shape == (len(labels), 3, CROP_PX, CROP_PX) and crops.dtype == np.uint8
    assert set(labels.tolist()) <= set(range(NO_NUMBER + 1))
    assert NO_NUMBER in labels and (labels < NO_NUMBER).sum() > 0
    assert 0 <= style < len(STYLES) and 25 <= side <= 200


def test_sequence_frames_video_and_events(tmp_path):
    folder = make_sequence(2, tmp_path, max_events=3, still_frames=1, max_rounds=1)
    events = json.loads((folder / "events.json").read_text())
    frames = sorted((folder / "frames").glob("*.json"))
    assert len(events["events"]) == 3 and (folder / "video.avi").stat().st_size > 1000
    counts = [len([t for t in json.loads(f.read_text())["tiles"] if t["cell"] is not None]) for f in frames]
    assert counts[0] == 0 and counts == sorted(counts)
    # Only the frame of a placement shows a hand; the still board between turns is seen whole.
    truths = [json.loads(f.read_text()) for f in frames]
    still = [t for t in truths if not t["studio"]["hand"]]
    assert len(still) > len(truths) // 2
    assert not any(c["hidden"] for t in still for tile in t["tiles"] for c in tile["corners"])
    placed = [e for e in events["events"] if e["event"]["kind"] == "place"]
    assert counts[-1] == len(placed)
    board = Board.of([(tuple(e["event"]["cell"]), tuple(e["event"]["corners"])) for e in placed])
    assert len(board) == len(placed)
    assert events["final_scores"] == [sum(e["deltas"][i] for e in events["events"]) for i in range(2)]


def test_a_game_shot_in_dim_light_is_noisier_frame_by_frame(tmp_path):
    plain = make_sequence(2, tmp_path / "plain", max_events=1, still_frames=2, max_rounds=1)
    dim = make_sequence(2, tmp_path / "dim", max_events=1, still_frames=2, max_rounds=1, noise=12.0)
    # Frame 1 shows the hand on the tile placed; frames 2 and 3 the still board.
    dim_still, plain_still = (
        [cv2.imread(str(game / "frames" / f"{n:06d}.jpg")) for n in (2, 3)] for game in (dim, plain)
    )
    assert noise_level(dim_still[0]) > 3 * noise_level(plain_still[0])
    # The noise is drawn afresh each frame: two still frames differ by far more than the studio's.
    assert cv2.absdiff(*dim_still).mean() > 3 * cv2.absdiff(*plain_still).mean()
    assert (dim / "events.json").read_text() == (plain / "events.json").read_text()


def test_a_game_shot_out_of_focus_is_blurred_in_every_frame(tmp_path):
    plain = make_sequence(2, tmp_path / "plain", max_events=1, still_frames=1, max_rounds=1, defocus=0.0)
    blurred = make_sequence(2, tmp_path / "blurred", max_events=1, still_frames=1, max_rounds=1, defocus=2.5)
    for n in (1, 2):  # the hand on the tile placed, then the still board
        edges = [_edge_strength(cv2.imread(str(game / "frames" / f"{n:06d}.jpg"))) for game in (plain, blurred)]
        assert edges[1] < 0.6 * edges[0]
    assert (blurred / "events.json").read_text() == (plain / "events.json").read_text()


def test_a_game_shot_with_more_pixels_is_the_same_game_larger(tmp_path):
    plain = make_sequence(2, tmp_path / "plain", max_events=1, still_frames=1, max_rounds=1)
    larger = make_sequence(2, tmp_path / "larger", max_events=1, still_frames=1, max_rounds=1, more_pixels=1.5)
    truths = [json.loads((game / "frames" / "000002.json").read_text()) for game in (plain, larger)]
    sizes = [cv2.imread(str(game / "frames" / "000002.jpg")).shape[1::-1] for game in (plain, larger)]
    assert sizes[1] == tuple(round(1.5 * side) for side in sizes[0])
    corners = [np.array([[(c["x"], c["y"]) for c in tile["corners"]] for tile in truth["tiles"]]) for truth in truths]
    assert np.allclose(corners[1], 1.5 * corners[0], atol=0.01 * sizes[1][0])
    assert (larger / "events.json").read_text() == (plain / "events.json").read_text()


def test_a_game_or_every_scene_is_played_with_the_set_asked_for(tmp_path):
    folder = make_sequence(2, tmp_path, max_events=3, still_frames=0, max_rounds=1, max_number=6)
    script = json.loads((folder / "events.json").read_text())
    assert script["max_number"] == 6
    Game(script["players"], game_rules(script["rules"], 6), [event_from_dict(e["event"]) for e in script["events"]])
    for asked in (5, 6):
        out = tmp_path / f"photos{asked}"
        assert main(["datasets", "render", "--out", str(out), "--n", "2", "--max-number", str(asked)]) == 0
        truths = [json.loads(path.read_text()) for path in sorted(out.glob("*.json"))]
        assert [truth["studio"]["max_number"] for truth in truths] == [asked, asked]


@pytest.mark.parametrize(
    "args",
    [
        ["datasets", "render", "--out", "X", "--n", "0"],
        ["datasets", "render", "--out", "X", "--max-number", "7"],
        ["datasets", "render", "--out", "X", "--sharpen", "-1"],
        ["datasets", "render", "--out", "X", "--noise", "51"],
        ["datasets", "render", "--out", "X", "--defocus", "-0.5"],
        ["live", "--source", "X", "--rounds", "0"],
        ["live", "--source", "X", "--max-number", "4"],
        ["datasets", "render", "--out", "X", "--seed", "-1"],
        ["datasets", "render", "--out", "X", "--workers", "0"],  # was taken as one per core, and -2 as one
        ["datasets", "render", "--out", "X", "--styles", "plaid"],
        ["datasets", "render"],
        ["datasets", "crops", "--out", "/no/such/folder/c.npz"],
        ["datasets", "paint", "--out", "X"],
        ["datasets", "render", "--out", "X", "--more-pixels", "9"],
        ["datasets", "render", "--out", "X", "--closer", "0.5"],
        ["datasets", "render", "--out", "X", "--other-editions", "1.5"],
        ["datasets", "render", "--out", "X", "--only", "pile", "--pairs"],
        ["datasets", "render", "--out", "X", "--only", "table", "--sequence"],
        ["datasets", "render", "--out", "X", "--sequence", "--warmth", "0.35"],  # photos only, not ignored
        ["datasets", "render", "--out", "X", "--sequence", "--pairs"],
        ["datasets", "render", "--out", "X", "--only", "board"],
        ["benchmark", "classifier", "--other-editions", "-1"],
        ["benchmark", "classifier", "--warmth", "2"],
        ["datasets", "render", "--out", "X", "--sequence", "--rounds", "0"],
        ["datasets", "render", "--out", "X", "--sequence", "--still-frames", "-1"],
        ["datasets", "render", "--out", "X", "--sequence", "--max-events", "0"],
        ["benchmark", "classifier", "--images", "0"],
        ["benchmark", "finder", "--images", "0"],
        ["benchmark", "finder", "--warmth", "-1.5"],
        ["benchmark", "reader", "--photos", "0"],
        ["benchmark", "service", "--seconds", "0"],
        ["benchmark", "engine", "--seconds", "nan"],
    ],
)
def test_bad_arguments_exit_2_with_one_line(args, capsys, tmp_path):
    args = [str(tmp_path / a) if a == "X" else a for a in args]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("triominoes: error:")


def test_the_studio_finds_its_fonts_by_name_in_any_font_folder_or_names_those_missing(tmp_path):
    font = tmp_path / "truetype" / "dejavu" / "DejaVuSans.ttf"
    font.parent.mkdir(parents=True)
    font.write_bytes(b"")
    assert font_files(("DejaVuSans.ttf",), (tmp_path,)) == (str(font),)
    with pytest.raises(MissingFonts, match=r"1 are not installed \(DejaVuSerif.ttf\).*fonts-dejavu-extra"):
        font_files(("DejaVuSans.ttf", "DejaVuSerif.ttf"), (tmp_path,))


def test_a_machine_without_the_studio_fonts_gets_one_line_and_exit_2(tmp_path, monkeypatch, capsys):
    # The same seed must draw the same photo everywhere, so the studio never falls back on other fonts.
    assert {t.font for t in sample_scene(SPLITS["test"], ["ivory"]).tiles} < set(range(len(FONT_NAMES)))
    monkeypatch.setattr(fonts, "FONT_FOLDERS", (tmp_path,))
    monkeypatch.setattr(faces, "glyph", faces.glyph.__wrapped__)  # no glyph drawn earlier in this process
    args = ["datasets", "render", "--split", "test", "--n", "1", "--styles", "ivory", "--workers", "1"]
    assert main([*args, "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "apt-get install fonts-dejavu-core fonts-dejavu-extra" in err


def test_sequence_runs_over_rounds(tmp_path):
    from engine.simulate import simulate_game

    first_round = len(simulate_game(6, players=2, max_rounds=1).game.log)
    folder = make_sequence(6, tmp_path, still_frames=0, max_events=first_round + 2)
    events = json.loads((folder / "events.json").read_text())["events"]
    assert [e["round"] for e in events][-2:] == [2, 2]
    assert events[first_round - 1]["event"]["kind"] == "end_round"
    # After the settled round's last still frame, the second round starts on a cleared table.
    start = json.loads((folder / "frames" / f"{events[first_round - 1]['frame'] + 1:06d}.json").read_text())
    assert [t for t in start["tiles"] if t["cell"] is not None] == []


def test_more_pixels_is_the_same_view_with_more_pixels():
    scene = sample_scene(3, n_tiles=8, size=(640, 480))
    phone = with_more_pixels(scene, 3.0)
    corners = np.concatenate([np.column_stack([t.top, np.zeros(3)]) for t in scene.tiles])
    assert phone.camera.size == (1920, 1440) and phone.side_px == pytest.approx(3 * scene.side_px)
    assert np.allclose(phone.camera.project(corners), 3 * scene.camera.project(corners))
    assert scene.camera.size == (640, 480)  # the scene itself is left as it was


def test_warmth_tints_the_same_view_red_or_blue():
    scene = sample_scene(3, n_tiles=8, size=(320, 240))
    plain, warm, cold = (
        render(s).image.reshape(-1, 3).mean(0) for s in (scene, with_warmth(scene, 0.35), with_warmth(scene, -0.35))
    )
    red_over_blue = [colour[2] / colour[0] for colour in (plain, warm, cold)]
    assert red_over_blue[1] > 1.4 * red_over_blue[0] and red_over_blue[2] < red_over_blue[0] / 1.4
    assert render(with_warmth(scene, 0.35)).truth == render(scene).truth  # the same tiles, in the same places
    assert scene.options["gain"] == sample_scene(3, n_tiles=8, size=(320, 240)).options["gain"]  # left as it was


def _edge_strength(image: np.ndarray) -> float:
    return float(cv2.Laplacian(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), cv2.CV_32F).std())


def test_sharpening_rings_along_the_edges_of_the_same_view():
    scene = sample_scene(3, n_tiles=8, size=(1280, 960))  # a pixel's blur at 1280 wide
    plain, sharp = (render(s) for s in (scene, with_sharpening(scene, 1.0)))
    edges = [_edge_strength(r.image) for r in (plain, sharp)]
    assert edges[1] > 1.5 * edges[0]
    assert abs(float(sharp.image.mean()) - float(plain.image.mean())) < 1.0  # no brighter or darker
    assert sharp.truth == plain.truth and "sharpen" not in scene.options


def test_a_camera_out_of_focus_shows_the_same_view_blurred_as_asked():
    scene = sample_scene(3, n_tiles=8, size=(1280, 960))
    plain, sharp, blurred = (render(s) for s in (scene, with_defocus(scene, 0.0), with_defocus(scene, 2.5)))
    edges = [_edge_strength(r.image) for r in (plain, sharp, blurred)]
    assert edges[2] < 0.6 * min(edges[0], edges[1])
    assert edges[1] > edges[0]  # no blur at all: sharper than the scene's own focus (0.65 px)
    assert blurred.truth == plain.truth and scene.options["defocus"] != 2.5  # the scene left as it was


def test_a_mirroring_camera_shows_the_same_view_flipped_and_its_truth_with_it():
    scene = sample_scene(4, n_tiles=4)  # 800x600, with a tile face down
    plain, mirrored = render(scene), render(with_mirror(scene))
    assert np.array_equal(mirrored.image, plain.image[:, ::-1]) and np.array_equal(mirrored.mask, plain.mask[:, ::-1])
    last = plain.truth["image"]["width"] - 1
    assert plain.truth["tiles"] and plain.truth["face_down"]
    for tile, turned in zip(plain.truth["tiles"], mirrored.truth["tiles"], strict=True):
        assert [(c["value"], c["y"], c["hidden"]) for c in turned["corners"]] == [
            (c["value"], c["y"], c["hidden"]) for c in tile["corners"]
        ]
        assert [c["x"] for c in turned["corners"]] == pytest.approx([last - c["x"] for c in tile["corners"]], abs=0.01)
    for back, turned in zip(plain.truth["face_down"], mirrored.truth["face_down"], strict=True):
        assert np.allclose(turned["corners"], [[last - x, y] for x, y in back["corners"]], atol=0.01)
    assert mirrored.truth["studio"]["mirror"] and "mirror" not in plain.truth["studio"]


def test_a_camera_in_dim_light_shows_the_same_view_noisier():
    scene = sample_scene(3, n_tiles=8, size=(640, 480))
    plain, noisy = render(scene), render(with_noise(scene, 12.0))
    assert noise_level(noisy.image) == pytest.approx(12.0, rel=0.15) and noise_level(plain.image) < 6.0
    assert noisy.truth == plain.truth and "dim_light" not in scene.options
    assert np.array_equal(render(with_noise(scene, 12.0)).image, noisy.image)  # the same bytes again


def test_closer_zooms_into_the_middle_and_hides_the_corners_it_cuts_off():
    scene = sample_scene(3, n_tiles=20, size=(640, 480))
    close_up = closer(scene, 3.0)
    corners = np.concatenate([np.column_stack([t.top, np.zeros(3)]) for t in scene.tiles])
    middle = np.array([320, 240])
    assert close_up.camera.size == (640, 480) and close_up.side_px == pytest.approx(3 * scene.side_px)
    seen, seen_closer = scene.camera.project_plain(corners), close_up.camera.project_plain(corners)
    assert np.allclose(seen_closer - middle, 3 * (seen - middle))
    truth = render(close_up).truth
    spots = [(c["x"], c["y"], c["hidden"]) for t in truth["tiles"] for c in t["corners"]]
    outside = [hidden for x, y, hidden in spots if not (0 <= x < 640 and 0 <= y < 480)]
    assert outside and all(outside)  # a number outside the photo cannot be read
    assert any(not hidden for *_, hidden in spots)


def test_the_table_before_the_game_shows_the_pile_or_nothing(tmp_path):
    scene = sample_scene(8)  # a game with eleven tiles face down beside it
    pile = render(before_the_game(scene)).truth
    assert pile["tiles"] == [] and len(pile["face_down"]) == sum(t.numbers is None for t in scene.tiles) == 11
    assert pile["face_down"] == render(scene).truth["face_down"]  # the same backs, where they lay
    bare = render(before_the_game(scene, pile=False))
    assert bare.truth["tiles"] == [] and bare.truth["face_down"] == [] and not bare.mask.any()
    make_image(RenderJob(8, only="pile"), tmp_path)  # as `datasets render --only pile` writes it
    assert json.loads((tmp_path / "0000008.json").read_text())["face_down"] == pile["face_down"]


def test_a_contact_sheet_is_refused_a_name_no_picture_has_before_it_is_drawn(tmp_path, capsys):
    # A .txt name drew the sheet, then OpenCV's writer failed with a traceback.
    assert main(["datasets", "sheet", "--n", "1", "--out", str(tmp_path / "sheet.txt")]) == 2
    assert "use a .png or .jpg name" in capsys.readouterr().err and not list(tmp_path.iterdir())


def test_the_datasets_commands_write_what_they_say(tmp_path, capsys):
    """`datasets render --pairs`, `crops` and `sheet`, end to end on one or two seeds."""
    folder, crops, sheet = tmp_path / "photos", tmp_path / "crops.npz", tmp_path / "sheet.png"
    one = ["--n", "1", "--split", "test", "--workers", "1"]
    assert main(["datasets", "render", "--out", str(folder), "--pairs", *one]) == 0
    name = f"{SPLITS['test']:07d}"
    assert sorted(p.name for p in folder.iterdir()) == [
        f"{name}{end}" for end in (".jpg", ".json", "_before.jpg", "_before.json")
    ]
    truth = json.loads((folder / f"{name}.json").read_text())
    assert cv2.imread(str(folder / f"{name}.jpg")).shape[:2] == (truth["image"]["height"], truth["image"]["width"])
    assert truth["tiles"] and truth["last_placement"]["tile"] in [t["tile"] for t in truth["tiles"]]
    assert main(["datasets", "crops", "--out", str(crops), *one]) == 0
    data = np.load(crops)
    assert data["crops"].shape[1:] == (3, CROP_PX, CROP_PX) and data["crops"].dtype == np.uint8
    assert len(data["labels"]) == len(data["crops"]) and set(data["labels"]) <= set(range(NO_NUMBER + 1))
    assert main(["datasets", "sheet", "--out", str(sheet), "--n", "2", "--split", "test"]) == 0
    drawn = cv2.imread(str(sheet))
    assert drawn.shape == (240, 4 * 320, 3)  # one row of four 320x240 cells: two photos, two blank
    assert drawn[:, :640].min() < 128 and drawn[:, 640:].min() == 255
    printed = capsys.readouterr().out
    assert f"wrote {len(data['labels'])} crops to {crops}" in printed and f"wrote {sheet}" in printed


def test_a_back_under_an_arm_is_marked_hidden():
    # Test scene 2001858: an arm across a pile of 11 white backs, five under it (one with a
    # corner showing beside it). Like a face-up tile with a corner hidden, such a back need not
    # be found (``vision.evaluate``); the six in full view must.
    rendered = render(RenderJob(seed=2001858, pair=True).scene())
    hidden = [b["hidden"] for b in rendered.truth["face_down"]]
    middles = [np.mean(b["corners"], 0).round().astype(int) for b in rendered.truth["face_down"]]
    under_the_arm = [bool(rendered.mask[y, x] == 255) for x, y in middles]  # the mask's occluders
    assert len(hidden) == 11 and sum(hidden) == 5 and hidden == under_the_arm
