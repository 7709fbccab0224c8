"""The page in a real browser: Chromium's fake webcam plays a studio game, the page streams it to
the live socket, a player's clicks tell the draws and passes, and the score sheet must end
equal to the game's truth.

Needs Debian's Chromium (/usr/bin/chromium) and the playwright package; `.ci/run` installs both
and sets TRIOMINOES_BROWSER_TEST=required, so there a missing browser fails instead of skipping.
"""

import json
import os
import shutil
import urllib.request
from pathlib import Path

import cv2
import numpy as np
import pytest

from datasets.make import write_y4m
from service.app import Settings
from service.bench import BackgroundServer
from service.games import GameStore
from vision.image_io import load_image
from vision.reader import Reader

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
FIXTURES = Path(__file__).resolve().parent / "fixtures"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
REQUIRED = os.environ.get("TRIOMINOES_BROWSER_TEST") == "required"
try:
    from playwright.sync_api import expect, sync_playwright
except ImportError:  # pragma: no cover - depends on the machine
    sync_playwright = None

if REQUIRED:
    assert sync_playwright is not None, "the browser test is required here but playwright is not installed"
    assert os.path.exists(CHROMIUM), "the browser test is required here but Chromium is not installed"
pytestmark = pytest.mark.skipif(
    sync_playwright is None or not os.path.exists(CHROMIUM), reason="needs playwright and Debian's Chromium"
)


@pytest.fixture(scope="module")
def game_video(short_game):
    folder, truth = short_game
    frames = sorted((folder / "frames").glob("*.jpg"))
    video = write_y4m(frames, folder / "game.y4m", rate="5:2")  # each frame held 0.4 s
    return video, truth


@pytest.fixture(scope="module")
def database(tmp_path_factory):
    return tmp_path_factory.mktemp("db") / "games.sqlite3"


@pytest.fixture(scope="module")
def server(database):
    running = BackgroundServer(Settings(database=str(database)))
    yield running.url
    running.stop()


QUIET = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]


def test_one_photo_and_its_earlier_photo_are_scored_from_the_page(server):
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=QUIET)
        page = browser.new_page()
        page.goto(server)
        page.set_input_files("#photo", SAMPLES / "board.jpg")
        page.set_input_files("#previous", SAMPLES / "board_before.jpg")
        page.click("#photo-form button")
        expect(page.locator("#photo-result")).to_contain_text("last tile 1-3-4", timeout=30_000)
        result = page.locator("#photo-result").inner_text()
        expect(page.locator("#photo-view")).to_be_visible()
        drawn = page.evaluate(f"({INKED})(document.getElementById('photo-canvas'), true)")
        photo = page.evaluate(f"({INKED})(document.getElementById('photo-canvas'), false)")
        browser.close()
    assert result.startswith("24 tiles, ") and "last tile 1-3-4 at" in result and ": 8 = 8" in result
    cells = [json.loads(line.split(" at ")[1]) for line in result.splitlines()[1:25]]
    assert len(cells) == 24 and cells == sorted(cells, key=lambda cell: (cell[1], cell[0]))  # row by row
    # The photo is shown at its size with its reading drawn on it: the board's outlines in green,
    # and in blue the added tile's (at [-1, 1], where the reader reads it), colours the photo
    # itself does not show.
    assert drawn["size"] == [1280, 960]
    assert photo["green"] + photo["blue"] < 20 and drawn["green"] > 1000 and drawn["blue"] > 100, (photo, drawn)
    reading = Reader().read(load_image(SAMPLES / "board.jpg"))
    added = next(tile for tile in reading.tiles if tile.cell == (-1, 1))
    assert np.hypot(*(np.array(drawn["blue_at"]) - added.corners.mean(0))) < 15, (drawn, added.corners)


def test_a_phone_photo_is_drawn_at_most_1600_pixels_long(server, tmp_path):
    # A 12-megapixel canvas per photo is heavy for a phone's browser and shows no more.
    large = tmp_path / "large.jpg"
    cv2.imwrite(str(large), cv2.resize(load_image(SAMPLES / "board.jpg"), (3200, 2400)))
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=QUIET)
        page = browser.new_page()
        page.goto(server)
        page.set_input_files("#photo", large)
        page.click("#photo-form button")
        expect(page.locator("#photo-view")).to_be_visible(timeout=30_000)
        result = page.locator("#photo-result").inner_text()
        drawn = page.evaluate(f"({INKED})(document.getElementById('photo-canvas'), true)")
        browser.close()
    assert result.startswith("24 tiles, ") and drawn["size"] == [1600, 1200] and drawn["green"] > 1000, drawn


# Counts the pixels of a canvas (``drawn``) or of the photo drawn alone on a canvas of its size
# in the page's green and blue inks (within a few levels), and where the blue ones lie.
INKED = """async (canvas, drawn) => {
  let source = canvas;
  if (!drawn) {
    source = document.createElement("canvas");
    source.width = canvas.width; source.height = canvas.height;
    const picture = await createImageBitmap(document.getElementById("photo").files[0]);
    source.getContext("2d").drawImage(picture, 0, 0, source.width, source.height);
  }
  const pixels = source.getContext("2d").getImageData(0, 0, source.width, source.height).data;
  const near = (i, ink) => ink.every((level, k) => Math.abs(pixels[i + k] - level) < 8);
  let green = 0, blue = 0, x = 0, y = 0;
  for (let i = 0; i < pixels.length; i += 4) {
    if (near(i, [0x2e, 0xcc, 0x71])) green++;
    if (near(i, [0x34, 0x98, 0xdb])) { blue++; x += (i / 4) % source.width; y += Math.floor(i / 4 / source.width); }
  }
  return { size: [source.width, source.height], green, blue, blue_at: [x / blue, y / blue] };
}"""


def test_a_game_played_to_the_webcam_ends_with_the_true_score_sheet(server, game_video):
    video, truth = game_video
    webcam = [
        "--use-fake-device-for-media-stream",
        "--use-fake-ui-for-media-stream",
        f"--use-file-for-fake-video-capture={video}",
    ]
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=webcam + QUIET)
        page = browser.new_page(viewport={"width": 412, "height": 900})  # a phone's width
        page.goto(server)
        page.fill("#players", ", ".join(truth["players"]))
        page.select_option("#rules", truth["rules"])
        page.click("#new-game button")
        opener = next(e["event"]["player"] for e in truth["events"] if e["event"]["kind"] == "place")
        page.select_option("#opener", str(opener))
        page.click("#camera")
        expect(page.locator("#video")).to_have_js_property("readyState", 4, timeout=10_000)
        expect(page.locator("#camera-choice")).to_be_hidden()  # one camera: nothing to choose
        sheet_rows = page.locator("#sheet tr")
        for logged, event in enumerate(truth["events"], start=1):
            kind = event["event"]["kind"]
            if kind == "draw":
                page.click("#draw")
            elif kind == "pass":
                page.click("#pass")
            expect(sheet_rows).to_have_count(1 + logged, timeout=30_000)  # header row + one per event
        last_row = page.locator("#sheet tr").last.locator("td").all_inner_texts()
        totals = [int(cell.split(" ")[0]) for cell in last_row[2:]]
        scores = [int(text) for text in page.locator("#scores tr td:nth-child(2)").all_inner_texts()]
        browser.close()
    expected = [sum(e["deltas"][i] for e in truth["events"]) for i in range(len(truth["players"]))]
    assert totals == scores == expected


def test_photos_of_the_table_sent_after_each_turn_keep_the_score(server, short_game, photos_one_a_turn):
    """A phone on the local network cannot stream its camera to a page served over plain http; a
    photo of the table taken after each turn keeps the score instead."""
    truth = short_game[1]
    photos, told = photos_one_a_turn
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=QUIET)
        page = browser.new_page(viewport={"width": 412, "height": 900})
        page.goto(server)
        page.fill("#players", ", ".join(truth["players"]))
        page.select_option("#rules", truth["rules"])
        page.click("#new-game button")
        page.select_option("#opener", str(next(e["player"] for e in told if e["kind"] == "place")))
        sheet_rows = page.locator("#sheet tr")
        for logged, event in enumerate(told, start=1):
            if event["kind"] == "place":
                page.set_input_files("#table-photo", photos / f"{event['frame']:03d}.jpg")
            else:
                page.click("#draw" if event["kind"] == "draw" else "#pass")
            expect(sheet_rows).to_have_count(1 + logged, timeout=30_000)
        scores = [int(text) for text in page.locator("#scores tr td:nth-child(2)").all_inner_texts()]
        status = page.locator("#status").inner_text()
        browser.close()
    assert scores == truth["final_scores"] and status != "error"


def test_a_photo_too_far_from_the_table_tells_the_players_to_bring_the_camera_closer(server):
    """A camera that shows the tiles too small reads nothing surely; beside the camera the page
    says why, from the photo just read, and says nothing once a photo reads well."""
    game_id = _post(f"{server}/v1/games", {"players": ["Quin", "Ros"], "rules": "pressman-us"})["id"]
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=QUIET)
        page = browser.new_page()
        page.goto(f"{server}/#game={game_id}")
        # The file input takes a photo before the page has loaded the game, which then has none to
        # send it to (a person sees the game, and the button, first).
        expect(page.locator("#play")).to_be_visible()
        page.set_input_files("#table-photo", FIXTURES / "far_board.jpg")  # tiles about 20 pixels a side
        expect(page.locator("#advice")).to_contain_text("bring the camera closer", timeout=30_000)
        far = page.inner_text("#advice")
        page.set_input_files("#table-photo", SAMPLES / "board_before.jpg")  # tiles about 70 pixels a side
        expect(page.locator("#advice")).to_have_text("", timeout=30_000)
        browser.close()
    assert far.startswith("Camera: the tiles are about ") and "too small to read surely" in far


def test_the_tile_played_first_is_named_with_one_click_where_the_photo_cannot_tell(
    server, short_game, photos_one_a_turn
):
    """The round's first photo was never sent: the next shows the opening tile and the second
    joined, and under rules where any tile may open, nothing tells which lay first. The page
    shows the photo and offers both; one click on the opening tile places it for the opener,
    and the next photo commits the other, then the tile played since."""
    truth = short_game[1]
    photos, told = photos_one_a_turn
    opening, second, third = [event for event in told if event["kind"] == "place"][:3]
    names = truth["players"]
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=QUIET)
        page = browser.new_page(viewport={"width": 412, "height": 900})
        page.goto(server)
        page.fill("#players", ", ".join(names))
        page.select_option("#rules", "pressman-2012")
        page.fill("#rounds", "3")  # the 2012 leaflet's game of a set number of rounds
        page.click("#new-game button")
        expect(page.locator("#game-rules-name")).to_have_text("pressman-2012, 3 rounds at most")
        page.select_option("#opener", str(opening["player"]))
        page.set_input_files("#table-photo", photos / "001.jpg")
        choices = page.locator("#choices button")
        expect(choices).to_have_count(2, timeout=30_000)
        offered = choices.all_inner_texts()  # "Ann played 5-5-5 at [0, 0] first"
        # The stage shows the photo in the camera's place, the reading drawn on it.
        expect(page.locator("#stage")).to_have_class("stage photo")
        shown = page.evaluate("[document.getElementById('overlay').width, document.getElementById('overlay').height]")
        tiles = [sorted(map(int, text.split(" played ")[1].split(" ")[0].split("-"))) for text in offered]
        choices.nth(tiles.index(sorted(opening["corners"]))).click()
        sheet_rows = page.locator("#sheet tr")
        expect(sheet_rows).to_have_count(2, timeout=30_000)  # header, the opening named
        expect(choices).to_have_count(0)
        page.set_input_files("#table-photo", photos / "002.jpg")
        expect(sheet_rows).to_have_count(4, timeout=30_000)  # the second and the third read
        sheet = [row.locator("td").nth(1).inner_text() for row in sheet_rows.all()[1:]]  # "Ann plays [5, 5, 5] at ..."
        browser.close()
    assert all(text.startswith(f"{names[opening['player']]} played ") for text in offered), offered
    assert shown == list(load_image(photos / "001.jpg").shape[1::-1])
    assert sorted(tiles) == sorted(sorted(event["corners"]) for event in (opening, second))
    played = [
        (text.split(" plays ")[0], sorted(json.loads(text.split(" plays ")[1].split(" at ")[0]))) for text in sheet
    ]
    assert played == [(names[event["player"]], sorted(event["corners"])) for event in (opening, second, third)], sheet


def test_the_camera_is_chosen_among_several_and_remembered(server):
    """A laptop's own camera faces the player: with two cameras the page offers the other, and
    opens the one chosen last when the page is opened again. Before a game the play area (the
    camera, the turn's buttons) is not shown at all."""
    two_cameras = ["--use-fake-device-for-media-stream=device-count=2", "--use-fake-ui-for-media-stream"]
    track = "() => document.getElementById('video').srcObject.getVideoTracks()[0].getSettings().deviceId"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=two_cameras + QUIET)
        page = browser.new_page()
        page.goto(server)
        assert not page.is_visible("#play"), "the play area shows before a game is started"
        page.click("#new-game button")
        expect(page.locator("#play")).to_be_visible()
        page.click("#camera")
        expect(page.locator("#camera-choice")).to_be_visible(timeout=10_000)
        choices = page.locator("#cameras option").evaluate_all("options => options.map(o => o.value)")
        first = page.evaluate(track)
        other = next(choice for choice in choices if choice != first)
        page.select_option("#cameras", other)
        page.wait_for_function(f"() => ({track})() === {other!r}", timeout=10_000)
        page.reload()
        page.click("#camera")
        expect(page.locator("#camera-choice")).to_be_visible(timeout=10_000)  # shown once the camera is open
        reopened = page.evaluate(track)
        shown = page.locator("#cameras").input_value()
        page.evaluate("localStorage.setItem('camera', 'a camera since unplugged')")
        page.reload()
        page.click("#camera")
        expect(page.locator("#camera-choice")).to_be_visible(timeout=10_000)
        instead = page.evaluate(track)
        status = page.locator("#status").inner_text()
        browser.close()
    assert len(choices) == 2 and first in choices
    assert reopened == shown == other
    assert instead in choices and status != "error"


# Chromium's own fake camera (no video file): 640x480, 1280x720, 1920x1080 and larger.
FAKE_CAMERA = ["--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream"]


def _streaming_page(browser, server: str, game_id: str):
    """A new page of the game with its camera started and playing."""
    page = browser.new_page()
    page.goto(f"{server}/#game={game_id}")
    page.click("#camera")
    expect(page.locator("#video")).to_have_js_property("readyState", 4, timeout=10_000)
    return page


def test_the_camera_is_asked_for_1920_wide_pictures(server):
    """A whole table's tiles read far better with more pixels: the page asks for 1920-wide pictures
    (Chromium's fake camera opens at 640x480 unless asked)."""
    game_id = _post(f"{server}/v1/games", {"players": ["Eve", "Fay"], "rules": "pressman-us"})["id"]
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FAKE_CAMERA + QUIET)
        page = _streaming_page(browser, server, game_id)
        size = page.evaluate(
            "() => [document.getElementById('video').videoWidth, document.getElementById('video').videoHeight]"
        )
        browser.close()
    assert size == [1920, 1080]


def test_a_game_deleted_in_another_tab_stops_the_camera_page_with_a_reason(server):
    """The page streams its camera; the game is deleted elsewhere: the socket closes with 4404,
    and the page says so instead of connecting again every 2 s."""
    game_id = _post(f"{server}/v1/games", {"players": ["Ivy", "Jo"], "rules": "pressman-us"})["id"]
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FAKE_CAMERA + QUIET)
        page = _streaming_page(browser, server, game_id)
        urllib.request.urlopen(urllib.request.Request(f"{server}/v1/games/{game_id}", method="DELETE"))
        expect(page.locator("#status")).to_have_text("error", timeout=10_000)
        message = page.locator("#message").inner_text()
        browser.close()
    assert message == "the game was deleted: start or resume another game"


def test_a_second_page_streaming_the_games_camera_takes_over_and_hands_back(server):
    """Two devices open one game's camera: the page that started last streams, the other says so
    and takes the stream back when its camera button is pressed again."""
    game_id = _post(f"{server}/v1/games", {"players": ["Kim", "Lou"], "rules": "pressman-us"})["id"]
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FAKE_CAMERA + QUIET)
        laptop, phone = (_streaming_page(browser, server, game_id) for _ in range(2))
        expect(laptop.locator("#message")).to_contain_text("another page streams", timeout=10_000)
        expect(laptop.locator("#camera")).to_be_enabled()
        laptop.click("#camera")
        expect(phone.locator("#message")).to_contain_text("another page streams", timeout=10_000)
        expect(laptop.locator("#status")).not_to_have_text("error", timeout=10_000)  # streaming again
        browser.close()


def test_a_stored_game_is_resumed_from_the_start_page(server):
    """A game kept by the service (a closed tab, another device) is listed on the start page,
    newest first, and picked up again with one click."""
    game_id = _post(f"{server}/v1/games", {"players": ["Cleo", "Dan"], "rules": "pressman-us"})["id"]
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=QUIET)
        page = browser.new_page()
        page.goto(server)
        entry = page.locator("#games p", has_text="Cleo 0, Dan 0")
        expect(entry).to_be_visible(timeout=10_000)
        newest_first = page.locator("#games p").first.inner_text()
        entry.locator("button").click()
        expect(page.locator("#play")).to_be_visible()
        players = page.locator("#scores tr td:first-child").all_inner_texts()
        resumed = page.evaluate("location.hash")
        start_shown = page.is_visible("#start")
        page.click("#leave")  # back to the start panel, for another game
        expect(page.locator("#start")).to_be_visible()
        play_after_leaving = page.is_visible("#play")
        browser.close()
    assert "Cleo 0, Dan 0" in newest_first
    assert players == ["Cleo", "Dan"] and resumed == f"#game={game_id}" and not start_shown
    assert not play_after_leaving


def test_a_small_phone_sees_every_panel_without_scrolling_sideways(server):
    """On a 320-pixel screen (a small phone sending a photo each turn) the start panel and a
    game, its forms opened, fit the width: the camera panel and its file field once made the
    whole page wider than the screen."""
    _post(f"{server}/v1/games", {"players": ["Eve", "Finn"], "rules": "pressman-us"})
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=QUIET)
        page = browser.new_page(viewport={"width": 320, "height": 700})
        page.goto(server)
        expect(page.locator("#start")).to_be_visible()
        widths = [page.evaluate("document.documentElement.scrollWidth")]
        page.locator("#games p", has_text="Eve 0, Finn 0").locator("button").click()
        expect(page.locator("#play")).to_be_visible()
        page.click("#by-hand summary")
        page.click("#game-rules summary")
        widths.append(page.evaluate("document.documentElement.scrollWidth"))
        browser.close()
    assert widths == [320, 320]


def test_a_tile_or_an_empty_cell_clicked_on_the_drawing_is_corrected_or_filled(server):
    """A misread tile is corrected by clicking it on the board's drawing: the form takes its cell
    and numbers, the player fixes the numbers, and the drawing shows the correction. An empty cell
    beside the board, clicked, takes a tile the camera cannot read."""
    game_id = _opened_game(server, ["Eve", "Finn"])
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=QUIET)
        page = browser.new_page()
        page.goto(f"{server}/#game={game_id}")
        page.click('#board g[data-cell="0,0"]')
        picked = page.input_value("#correct-cell"), page.input_value("#correct-corners")
        form_open = page.evaluate("document.getElementById('by-hand').open")
        page.fill("#correct-corners", "4, 4, 4")
        page.click('#correct button[value="correct"]')
        expect(page.locator('#board g[data-cell="0,0"]')).to_have_attribute("data-corners", "4,4,4")
        page.click('#board g[data-cell="1,0"]')  # an empty cell beside the board: a tile placed by hand
        picked_empty = page.input_value("#correct-cell"), page.input_value("#correct-corners")
        page.fill("#correct-corners", "4, 5, 4")
        page.click('#correct button[value="place"]')
        expect(page.locator('#board g[data-cell="1,0"]')).to_have_attribute("data-corners", "4,5,4")
        browser.close()
    assert picked == ("0, 0", "5, 5, 5") and form_open
    assert picked_empty == ("1, 0", "")


def test_a_cell_picked_on_the_drawing_offers_the_tiles_that_fit_it(server):
    """The camera missed or misread a tile: the player picks its cell on the drawing and, instead
    of typing its numbers, clicks one of the tiles the board beside it allows there."""
    game_id = _opened_game(server, ["Ola", "Pam"])
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=QUIET)
        page = browser.new_page()
        page.goto(f"{server}/#game={game_id}")
        page.click('#board g[data-cell="1,0"]')  # empty: the tile the camera missed
        expect(page.locator("#fitting")).to_contain_text("Tiles that fit here:")
        to_place = page.locator("#fitting button").all_inner_texts()
        page.click('#fitting button:text-is("[2, 5, 5]")')
        expect(page.locator('#board g[data-cell="1,0"]')).to_have_attribute("data-corners", "5,2,5")
        page.click('#board g[data-cell="1,0"]')  # placed: misread, it is another
        expect(page.locator("#fitting")).to_contain_text("Or one of these:")
        to_correct = page.locator("#fitting button").all_inner_texts()
        page.click('#fitting button:text-is("[3, 5, 5]")')
        expect(page.locator('#board g[data-cell="1,0"]')).to_have_attribute("data-corners", "5,3,5")
        last = page.inner_text("#last")
        browser.close()
    assert to_place == ["[0, 5, 5]", "[1, 5, 5]", "[2, 5, 5]", "[3, 5, 5]", "[4, 5, 5]"]
    assert to_correct == ["[0, 5, 5]", "[1, 5, 5]", "[3, 5, 5]", "[4, 5, 5]"]  # not the one there
    assert last.startswith("Last tile: Pam plays [3, 5, 5] at [1, 0]: 13")


def test_a_tile_the_camera_read_unsurely_is_confirmed_or_corrected_with_one_click(server, database):
    """A live game commits a tile read unsurely provisionally (dashed on the board). The line that
    names the last tile says so, with a button for each tile its cell allows; one click corrects
    it. The round's first tile, which any tile could be, is only flagged."""
    opening, second = _opened_game(server, ["Mia", "Ned"]), _opened_game(server, ["Mia", "Ned"])
    _post(f"{server}/v1/games/{second}/events", {"kind": "place", "cell": [1, 0], "corners": [5, 3, 5], "player": 1})
    store = GameStore(database)  # as the live loop keeps them: the last placement committed unsurely
    for game_id, cell in ((opening, (0, 0)), (second, (1, 0))):
        session = store.get(game_id)
        session.provisional.add(cell)
        store.save(session)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=QUIET)
        page = browser.new_page()
        page.goto(f"{server}/#game={opening}")
        expect(page.locator("#last")).to_contain_text("Mia plays [5, 5, 5]", timeout=10_000)
        flagged_opening = page.inner_text("#last")
        page.goto(f"{server}/#game={second}")
        page.reload()
        expect(page.locator("#last")).to_contain_text("Ned plays [3, 5, 5]", timeout=10_000)
        offered = page.locator("#last button").all_inner_texts()
        page.click('#last button:text-is("[4, 5, 5]")')
        expect(page.locator('#board g[data-cell="1,0"]')).to_have_attribute("data-corners", "5,4,5")
        corrected = page.inner_text("#last")
        left = page.locator("#last button").count()
        scores = page.locator("#scores tr td:nth-child(2)").all_inner_texts()
        browser.close()
    assert flagged_opening.endswith("(read unsurely: check its numbers, and click the tile to correct it)")
    assert offered == ["[3, 5, 5] as read", "[0, 5, 5]", "[1, 5, 5]", "[2, 5, 5]", "[4, 5, 5]"]
    assert "[4, 5, 5]" in corrected and "unsurely" not in corrected and left == 0
    assert scores == ["25", "14"]  # 5-5-5 opening (15 + 10), then 4-5-5


def test_a_change_made_elsewhere_shows_on_a_page_that_streams_no_camera(server):
    """A second device (or `triominoes live` on the service's file) enters a tile: the page,
    its camera off, shows it within a few seconds, without being reloaded."""
    game_id = _post(f"{server}/v1/games", {"players": ["Gus", "Hal"], "rules": "pressman-us"})["id"]
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=QUIET)
        page = browser.new_page()
        page.goto(f"{server}/#game={game_id}")
        expect(page.locator("#turn")).to_have_text("waiting for the opening tile")
        event = {"kind": "place", "cell": [0, 0], "corners": [4, 4, 4], "player": 1}
        _post(f"{server}/v1/games/{game_id}/events", event)  # from elsewhere
        expect(page.locator("#turn")).to_have_text("Gus to play", timeout=10_000)
        expect(page.locator('#board g[data-cell="0,0"]')).to_have_attribute("data-corners", "4,4,4")
        browser.close()


def test_the_chosen_preset_is_described_and_the_score_sheet_downloads(server):
    """Players choosing among presets see what each means; a game's score sheet is saved as a CSV
    a spreadsheet opens."""
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=QUIET)
        page = browser.new_page()
        page.goto(server)
        said = page.locator("#rules-said li")
        expect(said.first).to_contain_text("fitting two sides without a hexagon +40", timeout=10_000)
        page.select_option("#rules", "pressman-2012")
        expect(said.first).to_contain_text("two at once +60, three +70")
        chosen = said.all_inner_texts()
        page.fill("#players", "Gil, Hana")
        page.click("#new-game button")
        expect(page.locator("#game-rules-name")).to_have_text("pressman-2012")
        page.click("#game-rules summary")
        expect(page.locator("#game-rules-said li")).to_have_count(len(chosen))
        in_game = page.locator("#game-rules-said li").all_inner_texts()
        game_id = page.evaluate("location.hash").removeprefix("#game=")
        _post(
            f"{server}/v1/games/{game_id}/events", {"kind": "place", "cell": [0, 0], "corners": [2, 3, 4], "player": 1}
        )
        with page.expect_download() as download:
            page.click("#sheet-csv")
        sheet = Path(download.value.path()).read_text()
        browser.close()
    assert chosen == in_game and any("may draw even with a tile that fits" in line for line in chosen)
    assert sheet.splitlines() == [
        "round,event,what happened,Gil change,Gil total,Hana change,Hana total",
        '1,place,"Hana plays [2, 3, 4] at [0, 0]: 9",0,0,9,9',
    ]


def test_a_game_the_service_refuses_says_why_on_the_start_panel(server):
    """Before a game is shown the game's message line is hidden: a game refused (two players of
    one name) or one that cannot be resumed is said on the start panel."""
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=QUIET)
        page = browser.new_page()
        page.goto(f"{server}/#game=no-such-game")
        expect(page.locator("#start-error")).to_contain_text("no game has that id", timeout=10_000)
        page.fill("#players", "Ann, ann")
        page.click("#new-game button")
        expect(page.locator("#start-error")).to_contain_text("two players share a name")
        play_shown = page.is_visible("#play")
        page.fill("#players", "Ann, Ivo")
        page.click("#new-game button")
        expect(page.locator("#play")).to_be_visible()
        left = page.locator("#start-error").inner_text()
        browser.close()
    assert not play_shown and left == ""


def _opened_game(server: str, players: list[str]) -> str:
    """A new pressman-us game whose first player opened with 5-5-5 at [0, 0]; its id."""
    game_id = _post(f"{server}/v1/games", {"players": players, "rules": "pressman-us"})["id"]
    _post(f"{server}/v1/games/{game_id}/events", {"kind": "place", "cell": [0, 0], "corners": [5, 5, 5], "player": 0})
    return game_id


def _post(url: str, body: dict) -> dict:
    request = urllib.request.Request(url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request) as answer:
        return json.load(answer)
