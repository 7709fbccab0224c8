"""What a reading says of itself (``vision.notes``), from looks built by hand: no photo read."""

from dataclasses import replace

import numpy as np

from engine.board import Board, PlacedTile, Violation
from vision.lattice import fit_board
from vision.noise import NOISY_ABOVE
from vision.notes import SURELY_READ_SIDE, photo_advice, reading_notes, uncertain_corners
from vision.records import ReadTile
from vision.sight import HARD_TO_READ_BELOW, Sight

CORNERS = np.array([[0.0, 0.0], [20.0, 34.6], [-20.0, 34.6]])
SURE = np.eye(8)[[1, 2, 3]][None]  # one tile's three corners read surely as 1, 2, 3


def _tile(cell=(0, 0), confidences=(1.0, 1.0, 1.0), ambiguous=False) -> ReadTile:
    return ReadTile(cell, CORNERS, (1, 2, 3), confidences, True, ambiguous)


def _sight(tiles=(), side: float = 40.0, scale: float = 1.0, probabilities=SURE, **more) -> Sight:
    fit = fit_board(CORNERS[None])
    return Sight(
        960, tuple(tiles), (), (), False, 6, side, fit, fit.corners, scale=scale, probabilities=probabilities, **more
    )


def test_a_photo_that_reads_well_gets_no_advice():
    assert photo_advice(_sight([_tile()]), noise=1.0, blur=None, darkness=None) == []


def test_each_reason_a_photo_reads_poorly_is_said_once_with_what_to_do():
    unsure = np.full((1, 3, 8), 1 / 8)  # every corner as likely any number
    sight = _sight([_tile()], side=10.0, scale=0.5, probabilities=unsure)
    assert sight.read_surely < HARD_TO_READ_BELOW and sight.photo_tile_side == 20.0 < SURELY_READ_SIDE
    advice = photo_advice(sight, noise=NOISY_ABOVE + 1, blur=3.2, darkness=40.0)
    assert len(advice) == 5
    dark, noisy, blurred, small, hard = advice
    assert "dark" in dark and "40 grey levels" in dark and "light the table" in dark
    assert "noisy" in noisy and "smoothed" in noisy
    assert "blurred" in blurred and "3.2 pixels" in blurred and "focus the camera" in blurred
    assert "20 pixels a side" in small and "bring the camera closer" in small
    assert "hard to read" in hard and "14% sure" in hard
    pattern = photo_advice(_sight(pattern=2044, side=0.0), noise=1.0, blur=None, darkness=None)
    assert pattern == [
        "2044 triangles found, far more than a game's tiles: a cloth printed with triangles,"
        " not a game, so none is read"
    ]


def test_uncertain_corners_are_named_one_by_one_unless_the_whole_photo_reads_unsurely():
    board_tile = _tile(confidences=(0.95, 0.5, 1.0), ambiguous=True)
    loose_tile = _tile(cell=None, confidences=(0.8, 1.0, 1.0), ambiguous=True)
    sure_tile = _tile(cell=(1, 0))
    assert uncertain_corners([board_tile, loose_tile, sure_tile], _sight()) == [
        "corner 1 of the tile at [0, 0] is uncertain (0.50)",
        "corner 0 of the loose tile near pixel (0, 23) is uncertain (0.80)",
    ]
    hard = _sight(probabilities=np.full((1, 3, 8), 1 / 8))
    assert uncertain_corners([board_tile, loose_tile], hard) == []  # its advice says so once


def test_the_notes_say_how_the_chosen_look_found_the_tiles():
    first = _sight([_tile()])
    assert reading_notes(first, first, None, (), ()) == []
    closer = replace(first, working_size=480)
    assert reading_notes(closer, first, None, (), ()) == [
        "the tiles are large (a close-up): found with the photo shrunk to 480 px"
    ]
    farther = replace(first, working_size=1920)
    assert reading_notes(farther, first, None, (), ()) == [
        "the tiles are small in the frame: found with the photo shrunk to 1920 px only"
    ]
    enlarged = replace(first)  # the same working size, another look
    assert reading_notes(enlarged, first, None, (), ()) == ["the tiles are small: found with the photo enlarged"]
    above = replace(first, from_above=True, working_size=480)  # the view from above is said, not the size
    assert reading_notes(above, first, None, (), ()) == [
        "the board is seen at a slant: its tiles were found in a view of it from straight above"
    ]


def test_the_notes_say_what_could_not_be_read_or_matched_and_carry_the_advice():
    sight = replace(_sight([_tile()]), unread=(CORNERS, CORNERS), lone_blank=True)
    known = Board((PlacedTile((0, 0), (1, 2, 3)),))
    unjoined = [Violation("no_edge_contact", ((4, 0),), "not joined"), Violation("no_edge_contact", ((8, 0),), "x")]
    notes = reading_notes(sight, sight, known, unjoined, ["advice"])
    assert notes == [
        "2 loose tiles could not be read (table patterns, backs or tiles too small)",
        "advice",
        "a loose tile shows no mark: the 0-0-0 tile face up, or a pip tile's back",
        "the game's board cannot be matched to the tiles in this photo",
        "2 tiles are not joined to the board in the photo: a hand, or tiles the reader did not find,"
        " may hide what joins them",
    ]
    one_unread = replace(sight, unread=(CORNERS,), lone_blank=False)
    assert reading_notes(one_unread, one_unread, None, unjoined[:1], []) == [
        "1 loose tile could not be read (table patterns, backs or tiles too small)",
        "1 tile is not joined to the board in the photo: a hand, or tiles the reader did not find,"
        " may hide what joins them",
    ]
    matched = replace(sight, unread=(), lone_blank=False, knows_the_board=True)
    assert reading_notes(matched, matched, known, unjoined[:1], ()) == [
        "1 tile is not joined to the board in the photo: a hand, or tiles the reader did not find,"
        " may hide what joins them"
    ]
