"""Live play: from a stream of camera views of the table to committed placements.

The camera is noisy and hands move over the board, so nothing is committed from one frame. A view
counts once the picture has been still and the reader has seen the same tiles (which of the
game's board a frame misses, or misreads unsurely, or leaves apart from the rest, does not
matter) for a few frames in a row and for a moment of time; then it is compared with the game's
board:

- the game's board and nothing else: in sync;
- the game's board with tiles missing and nothing new: covered (a hand, a cup), wait;
- the game's board plus exactly one new tile that the rules allow: a placement for the player
  whose turn it is (the caller applies it to the game), even where tiles of the board are
  missing besides (hidden, or missed by the reader in that frame);
- a new tile that repeats a tile the board shows in its own cell, beside one other new tile: a
  misread (the set has each tile once), and the other is the placement;
- a tile committed from an unsure reading (``Verdict.unsure``: a number no neighbour confirmed
  yet) now read surely otherwise: a correction (the caller rewrites that placement), the way a
  scorekeeper fixes a number once the next tile beside it makes it plain; so is a tile committed
  surely, where a neighbour read as the game has it (or a new tile) shows each changed number;
- a tile of the board read unsurely otherwise: the game's numbers stand;
- the game's board turned over (a camera that mirrors its picture, its first frames read as
  they came): the board turned over (the caller rewrites the round), with the numbers the view
  reads in its cells (``turned_over``);
- several new tiles (turns played while no view held): the one seen before the others appeared,
  or else the one whose place in the picture changed before theirs did, or else the only one the
  board allows alone (the others join it), is committed, and the next view tells the next one;
- anything else (two new tiles either of which could have come first, a moved tile, a misread
  that breaks the rules): out of sync, with a message, until the table matches again or a
  player corrects the game; where a few new tiles could each have come first, the verdict
  offers them (``choices``) for a player to name the first.

Before a round's first tile, one tile alone on the table opens it. Alone, a tile has no neighbour
to confirm its numbers, so the reader may find it yet not read it surely (or read it differently
from frame to frame, so that no view holds); the table remembers where it lay, and once the next
tile joins it the two are read together and played in turn, the one that lay there first for the
opener. Where no tile was seen alone (a pip set's 0-0-0 looks like a back), and the rules have the
opener lay a triple, the one triple among the joined tiles opens. A lone tile read, but unsurely, is
offered to a player to name (``choices``): as read, and the triple it may be.

A view is put in the game's lattice frame by the tiles both show, or, where the view shows none
of the game's tiles as the game has them (a board of one tile, misread), by where its tiles lie
beside those of the view that counted last.

The view that last counted is what the overlay shows, so a static board never flickers; and
while the picture stays as it was when that view counted, frames are not read again (but for a
refresh now and then), so a quiet table costs almost nothing. This module knows boards, not
pixels, apart from the small thumbnails that measure change and show when a place changed.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Literal, TypeVar

import cv2
import numpy as np

from engine.board import Board, PlacedTile, check_placement
from engine.game import GameState, IllegalEvent, Place, advance
from engine.lattice import Cell, LatticeMap, maps_onto, mirror_cell, mirror_image
from engine.rules import Rules
from engine.tiles import LARGE_MAX, Corners, Tile, canonical, counted, format_corners
from vision.added import frame_map
from vision.crops import to_grey
from vision.noise import noise_level

Status = Literal["moving", "settling", "in_sync", "covered", "placed", "corrected", "out_of_sync", "round_over"]
Need = Literal["moving", "unchanged", "read"]
THUMBNAIL = (160, 120)  # a 30-pixel tile of a 1280-pixel frame still covers several thumbnail pixels
CHANGE_LEVEL = 24  # levels a thumbnail pixel (grey, or any colour of a still) must change by to count
SETTLED = ("in_sync", "covered", "out_of_sync", "round_over")  # verdicts that hold until the table changes
LEAD = 2  # readings by which a view must outnumber any other, since the picture moved, to hold
# Readings of a still picture after which, none of its views holding, the players are told that
# the tiles read differently from frame to frame (rather than that the table is moving): a
# camera too far, or blur or glare, that they can mend, or a tile to enter by hand.
DISAGREE_AFTER = 8
ALONE_FIRST = 2  # readings showing a tile before another new one came, for it to count as placed first
STEADY_SHARE = 0.75  # a tile has come to stay from the reading on which at least this share of them show it
# A placement committed from an unsure reading stands until a sure one confirms or corrects it;
# the players are told to look: over the 88 studio games such tiles were wrong 54 times in 229,
# tiles committed surely 3 in 1,621 (docs/decisions.md, *Tiles committed unsurely*).
UNSURE_PLACEMENT = ", read unsurely: check its numbers"
REMEMBERED_READINGS = 300  # readings kept to tell the order in which new tiles appeared
REMEMBERED_STILLS = 100  # still thumbnails kept to tell it (one each time the picture moved; 58 kB each)
OPENING_TRIPLE_AMONG = 3  # joined tiles before the round's first, at most, of which a lone triple opens
# Tiles of the game's board, at least, that a view turned over must show as the game has them
# (and more than the view as it is shows) for the game to be taken for the table turned over.
TURNED_OVER_FROM = 2
TURNED_OVER_SHARE = 0.5  # ... and show at least this share of its cells (a hand over the rest, at most)
CHOICES_AT_MOST = 4  # new tiles, at most, offered to a player to name the one played first
# A still picture whose frames are noisier than this (grey levels, ``vision.noise``: a webcam in
# dim light) is read as the running mean of its still frames, each new one weighing at least
# 1 / STEADY_FRAMES: the noise falls as the square root of the frames averaged, to about a
# quarter. Clean frames are read as they come, so that a camera that shakes a little is not
# blurred by the mean.
STEADY_ABOVE = 2.0
STEADY_FRAMES = 8
PixelPoint = tuple[float, float]
Key = TypeVar("Key")


@dataclass(frozen=True)
class LiveSettings:
    still_frames: int = 3  # readings in a row showing the same tiles
    still_seconds: float = 0.4  # ... spanning at least this long
    changed_pixels: int = 4  # thumbnail pixels that must change for the picture to count as changed
    refresh_seconds: float = 2.0  # an unchanged picture is still read again this often

    def __post_init__(self) -> None:
        if self.still_frames < 1 or self.still_seconds < 0 or self.changed_pixels < 1 or self.refresh_seconds <= 0:
            raise ValueError("still_frames >= 1, still_seconds >= 0, changed_pixels >= 1, refresh_seconds > 0")


@dataclass(frozen=True)
class TableView:
    """What one frame shows: the joined tiles in the reading's own lattice frame, the numbers of
    face-up loose tiles, and the reading itself (opaque here; it is what the overlay draws). For
    the opening tile, also where in the picture the joined tiles and the tiles found but not read
    surely lie."""

    board: Board
    loose: tuple[tuple[int, int, int], ...] = ()
    reading: object = None
    loose_at: tuple[PixelPoint, ...] = ()  # the centre of each loose tile, as ``loose``
    unread_at: tuple[PixelPoint, ...] = ()  # the centre of each tile found but not read surely
    board_at: tuple[tuple[Cell, PixelPoint], ...] = ()  # the centre of each joined tile
    unsure: frozenset[Cell] = frozenset()  # joined tiles read with a number flagged unsure
    loose_unsure: tuple[tuple[int, int, int], ...] = ()  # loose tiles read with one; they lie among ``unread_at``
    mirror_image: bool = False  # read flipped back: the frame was a mirror image (``vision.mirror``)

    @property
    def fullness(self) -> tuple[int, int]:
        """How much of the table a view shows, to pick the one to judge among views of the same
        tiles: the most tiles joined, and of those, the fewest shown twice (a tile of the set
        read twice is a misread: studio game 1000061's fullest reading read its 5-5-4 as a second
        5-5-5, surely, and the game went out of sync though the other readings were right)."""
        return len({placed.tile for placed in self.board.placements}), -len(self.board)

    def signature(self, record: GameRecord) -> tuple[frozenset, tuple]:
        """Equal for two views of the same tiles, whatever lattice frame each reading picked and
        whichever tiles of the game's board each missed (a hand, or the reader): the tiles
        joined, together with the board's, and the loose tiles. Misreads of the board show no new
        tile: a tile read unsurely in a cell where the board has one, and a loose tile that is one
        of the board's (the set has each tile once; the reading left it apart from the rest)."""
        board = record.state.board
        mapping = to_the_game(self, record) if self.unsure and len(board) else None
        misread = {cell for cell in self.unsure if mapping is not None and mapping.cell(cell) in board}
        tiles = {placed.tile for placed in self.board.placements if placed.cell not in misread}
        on_the_board = {tile.numbers for tile in board.by_tile}
        loose = tuple(sorted(corners for corners in self.loose if canonical(corners) not in on_the_board))
        return frozenset(tiles | board.by_tile.keys()), loose


@dataclass(frozen=True)
class Verdict:
    """What a view means for the game. ``unsure``: the placement was read with a number flagged
    unsure, so a later sure reading may correct it (``corrections``: such tiles, in the game's
    frame, with the numbers read surely now; all of them at once, as a tile committed to fit a
    misread neighbour is legal only once both are corrected). ``confirmed``: such placements'
    cells now read surely as the game has them. ``choices``: where the view shows several new
    tiles and cannot tell which came first, those that may have (each one the board allows
    alone), for a player to name one, in the game's frame (before the round's first tile, the
    view's, which that tile's cell makes the round's). ``taken_back_seen``: of the placements
    players took back (``GameRecord.taken_back``), those the view still shows (None: it tells
    nothing of them, the board not matched). ``mirrored``: the game's board of this round is the
    view's turned over (``turned_over``): the caller turns it over, giving it ``corrections``'
    numbers, which are then in the frame of the board turned over."""

    status: Status
    message: str
    placement: Place | None = None
    unsure: bool = False
    corrections: tuple[PlacedTile, ...] = ()
    confirmed: frozenset[Cell] = frozenset()
    choices: tuple[PlacedTile, ...] = ()
    taken_back_seen: frozenset[PlacedTile] | None = None
    mirrored: bool = False


def thumbnail(image: np.ndarray) -> np.ndarray:
    """A small grey copy of a frame for measuring change."""
    return cv2.resize(to_grey(image), THUMBNAIL, interpolation=cv2.INTER_AREA).astype(np.int16)


def colour_thumbnail(image: np.ndarray) -> np.ndarray:
    """A small copy of a frame in its colours (one channel for a grey frame): where a tile was
    laid, its colour may change more than its grey (fresh studio game 2000701: 30 px wooden pip
    tiles on a printed cloth changed their places' grey by 5-17 levels, a colour by 29-42)."""
    small = cv2.resize(image, THUMBNAIL, interpolation=cv2.INTER_AREA)
    return small.reshape(THUMBNAIL[1], THUMBNAIL[0], -1)


def changed_pixels(before: np.ndarray | None, after: np.ndarray) -> int:
    """How many thumbnail pixels changed by more than CHANGE_LEVEL (all of them without a before,
    or when the size changed)."""
    if before is None or before.shape != after.shape:
        return after.size
    return int(np.count_nonzero(np.abs(after - before) > CHANGE_LEVEL))


@dataclass(frozen=True)
class GameRecord:
    """What a view of the table is judged against: the game's state and rules, who plays the
    round's first tile (the camera cannot tell who it was), the ``trusted`` cells that players
    corrected by hand (whatever the camera reads there is taken to be the game's tile), the
    ``provisional`` cells that hold placements committed from an unsure reading (a sure one
    corrects them), the placements players ``taken_back`` this round (read again as they were,
    they are no new tiles) and where the tiles of the last view that counted lay
    (``to_the_game``)."""

    state: GameState
    rules: Rules
    opener: int = 0
    trusted: frozenset[Cell] = frozenset()
    provisional: frozenset[Cell] = frozenset()
    taken_back: frozenset[PlacedTile] = frozenset()
    seen: TableView | None = None  # the last view that counted


def to_the_game(view: TableView, record: GameRecord) -> LatticeMap | None:
    """The symmetry taking a view's lattice frame to the game's, found from the tiles both show;
    where they share none, from where its tiles lie in the picture, next to those of the last
    view that counted (``GameRecord.seen``; the camera keeps still). Just after the opening,
    the board's one tile, read unsurely as another from frame to frame, leaves nothing else to
    match the view by: studio game 2000446 lost every turn after the second so, its 5-5-5 read
    now and then as 5-4-5 and the tile beside it as 2-5-5 or 3-5-5."""
    mapping = frame_map(view.board, record.state.board)
    return mapping if mapping is not None else _by_place(view.board_at, record)


def _by_place(centres: tuple[tuple[Cell, PixelPoint], ...], record: GameRecord) -> LatticeMap | None:
    """The symmetry sending the cells of tiles lying at ``centres`` to the game's frame, from
    where the tiles of the last view that counted lie (``_map_by_place``)."""
    seen = record.seen
    seen_to_game = None if seen is None else frame_map(seen.board, record.state.board)
    if seen_to_game is None:
        return None
    return _map_by_place(centres, tuple((seen_to_game.cell(cell), at) for cell, at in seen.board_at))


def _map_by_place(
    centres: tuple[tuple[Cell, PixelPoint], ...], seen_at: tuple[tuple[Cell, PixelPoint], ...]
) -> LatticeMap | None:
    """The symmetry sending the cells of tiles lying at ``centres`` to the cells of the tiles
    seen lying there (``seen_at``), where two tiles or more agree on it and no other does as well."""
    votes = Counter(
        mapping
        for cell, point in centres
        if (target := _tile_at(seen_at, point)) is not None
        for mapping in maps_onto(cell, target)
    )
    ranked = votes.most_common(2)
    if not ranked or ranked[0][1] < 2 or (len(ranked) > 1 and ranked[1][1] == ranked[0][1]):
        return None
    return ranked[0][0]


def judge_view(
    view: TableView,
    record: GameRecord,
    opening: Cell | None = None,
    first: Tile | None = None,
    opening_unread: bool = False,
) -> Verdict:
    """Compare a still table's view with the game. Before the first tile, ``opening`` is the
    cell of the joined tile that lay alone on the table before (unread), which opens the round;
    ``opening_unread``: that tile lies apart, unread, so a loose tile read beside it does not.
    ``first``: the tile seen before any other new one of the view appeared (``LiveTable``); where
    the view shows several new tiles, it was placed first and is committed (the others follow,
    one from each view after); without it, so is the only one of them the board allows alone.
    Before the first tile, every joined tile is new, and the first opens (``_opening``)."""
    state = record.state
    if state.phase == "over":
        return Verdict("round_over", "the game is over")
    if state.phase == "settling":
        return Verdict("round_over", f"round {state.round} is over: give the rack totals to settle it")
    if not len(state.board):
        return _opening(view, record, opening, first, opening_unread)
    board = view.board
    mapping = to_the_game(view, record)
    seen = _in_the_frame(board, mapping)
    turned = turned_over(view, record, seen)
    if turned is not None:
        return turned
    if mapping is None:
        if _the_opening_alone(view, state):
            return Verdict("in_sync", "the table matches the game")
        if not len(board):
            return Verdict("covered", "the board is hidden or out of the picture")
        return Verdict("out_of_sync", "the tiles on the table do not match the game's board")
    unsure = {mapping.cell(cell) for cell in view.unsure}
    confirmed = frozenset(
        p.cell
        for p in state.board.placements
        if p.cell in record.provisional and p.cell not in unsure and seen.get(p.cell) == p.corners
    )
    still = frozenset(placed for placed in record.taken_back if seen.get(placed.cell) == placed.corners)
    return replace(_against_the_board(seen, unsure, record, first), confirmed=confirmed, taken_back_seen=still)


def _in_the_frame(board: Board, mapping: LatticeMap | None) -> dict[Cell, tuple[int, int, int]]:
    """The numbers of ``board``'s tiles by cell in the frame ``mapping`` takes it to (none without one)."""
    return {} if mapping is None else {p.cell: p.corners for p in board.moved(mapping).placements}


def turned_over(view: TableView, record: GameRecord, seen: dict[Cell, tuple[int, int, int]]) -> Verdict | None:
    """The verdict that turns the game's board over (``Verdict.mirrored``) where the table is its
    mirror image: the game committed a mirroring camera's frames as they came, before its tiles
    showed which way round it is (two equal numbers read alike both ways: ``vision.mirror``), and
    the frames read the right way round since match no turn of it (mirrored studio game 2000400
    stayed out of sync from its fourth tile to its end). So where the view turned over shows at
    least ``TURNED_OVER_FROM`` tiles of the board as the game has them, and more than the view as
    it is does (``seen``: the view in the game's frame), or, read the other way round from the
    last view that counted, lies where the board's tiles lay (``_turned_by_place``); and where it
    shows at least ``TURNED_OVER_SHARE`` of the board's cells. The verdict gives the numbers the
    view reads surely in the game's cells: a tile of three different numbers committed so was
    misread (turned over, it is no set tile)."""
    state = record.state
    if len(state.board) < TURNED_OVER_FROM:
        return None
    as_it_is = _as_the_game_has_them(seen, state.board)
    if as_it_is >= min(len(state.board), len(view.board)):
        return None  # turned over, it could show no more (a view missing tiles of the board, and nothing else)
    board_turned = view.board.mirrored()  # its tiles in the order of the view's
    turned = frame_map(board_turned, state.board)
    shown_turned = _as_the_game_has_them(_in_the_frame(board_turned, turned), state.board)
    if shown_turned < TURNED_OVER_FROM or shown_turned <= as_it_is:
        turned = _turned_by_place(view, record, as_it_is)
        if turned is None:
            return None
    shown = [
        (placed, as_seen)
        for placed, as_seen in zip(board_turned.placements, view.board.placements)
        if turned.cell(placed.cell) in state.board
    ]
    if len(shown) < TURNED_OVER_SHARE * len(state.board):
        return None
    numbers = tuple(
        PlacedTile(*mirror_image(*turned.corners(placed.cell, placed.corners)))
        for placed, as_seen in shown
        if as_seen.cell not in view.unsure
    )
    return Verdict(
        "corrected",
        "the game's board is the table's mirror image (a camera that mirrors its picture, its first tiles"
        " read before they showed it): turned over",
        corrections=numbers,
        mirrored=True,
    )


def _turned_by_place(view: TableView, record: GameRecord, as_it_is: int) -> LatticeMap | None:
    """Where the view was read the other way round from the last view that counted, and shows
    fewer than ``TURNED_OVER_FROM`` tiles of the game's board as the game has them (``as_it_is``),
    the symmetry taking it, turned over, to the game's frame by where its tiles lie: printed
    numbers read from a mirror image are misread besides (mirrored studio game 2000401 committed
    its 3-3-5 as 2-5-5 and its 1-1-3 as 1-1-5), so that none may show as the game has them, but
    the tiles lie where they lay."""
    seen = record.seen
    if as_it_is >= TURNED_OVER_FROM or seen is None or seen.mirror_image == view.mirror_image:
        return None
    return _by_place(tuple((mirror_cell(cell), at) for cell, at in view.board_at), record)


def _as_the_game_has_them(seen: dict[Cell, tuple[int, int, int]], game_board: Board) -> int:
    """The tiles of ``game_board`` that a view (``seen``: in the game's frame) shows as it has them."""
    return sum(seen.get(placed.cell) == placed.corners for placed in game_board.placements)


def _against_the_board(
    seen: dict[Cell, tuple[int, int, int]], unsure: set[Cell], record: GameRecord, first: Tile | None
) -> Verdict:
    """``judge_view`` once the view's tiles are in the game's frame: ``seen`` their numbers by
    cell, ``unsure`` the cells read with a number flagged unsure."""
    state = record.state
    missing, changed, corrections = _the_game_seen(seen, unsure, record)
    # A placement the players took back, read again where it was, is not played again: a
    # phantom (studio game 2000705's 3-3-4, read beside the board for nine photos) came back as
    # each next player's tile as often as it was taken back.
    added = [
        PlacedTile(cell, corners)
        for cell, corners in seen.items()
        if cell not in state.board and PlacedTile(cell, corners) not in record.taken_back
    ]
    if changed:
        placed, now = changed[0]
        return Verdict(
            "out_of_sync",
            f"the tile at {list(placed.cell)} reads {format_corners(now)}, the game has {placed}: "
            "put it back or correct the game",
        )
    if corrections:
        read_otherwise = "; ".join(
            f"the tile at {list(placed.cell)} reads {format_corners(now)} surely now, "
            f"not {format_corners(placed.corners)}"
            for placed, now in corrections
        )
        return Verdict(
            "corrected",
            f"{read_otherwise}: corrected",
            corrections=tuple(PlacedTile(placed.cell, now) for placed, now in corrections),
        )
    if not added:
        if missing:
            hidden = counted(len(missing), "tile of the board is", "tiles of the board are")
            return Verdict("covered", f"{hidden} hidden")
        return Verdict("in_sync", "the table matches the game")
    if len(added) > 1:
        may_be_first = _may_be_played_first(added, seen, record, first)
        if len(may_be_first) != 1:
            return _several_new(added, record, may_be_first)
        added = may_be_first
    moved = next((placed for placed in missing if placed.tile == added[0].tile), None)
    if moved is not None:  # named, so that a player can tell a moved tile from a misread one and fix either
        return Verdict(
            "out_of_sync",
            f"the {added[0]} is the {moved}, moved: put it back, or correct the game where a tile was read wrong",
        )
    # Tiles missing besides are hidden, or missed.
    return _try_place(added[0], record, added[0].cell in unsure)


def _the_game_seen(
    seen: dict[Cell, Corners], unsure: set[Cell], record: GameRecord
) -> tuple[list[PlacedTile], list[tuple[PlacedTile, Corners]], list[tuple[PlacedTile, Corners]]]:
    """The game's placements as the view shows them: those ``missing`` from it, those read
    otherwise (``changed``: moved or swapped on the table), and those whose new reading
    corrects the game (a provisional placement, or one its neighbours confirm otherwise),
    each with the numbers read. A placement read unsurely otherwise, or trusted, stands."""
    board = record.state.board
    missing, changed, corrections = [], [], []
    for placed in board.placements:
        now = seen.get(placed.cell)
        if now is None:
            missing.append(placed)
        elif now == placed.corners or placed.cell in record.trusted or placed.cell in unsure:
            continue
        elif placed.cell in record.provisional or _confirmed_otherwise(placed, now, seen, board):
            corrections.append((placed, now))
        else:
            changed.append((placed, now))
    return missing, changed, corrections


def _may_be_played_first(
    added: list[PlacedTile], seen: dict[Cell, tuple[int, int, int]], record: GameRecord, first: Tile | None
) -> list[PlacedTile]:
    """Of several tiles new to the game's board, those that may have been played first: one
    tile when the view settles it."""
    board = record.state.board
    # The set has each tile once: a new tile repeating a tile of the game's board seen in its
    # own cell is a misread (an outline beside the board read as its neighbours' numbers).
    in_place = {placed.tile for placed in board.placements if placed.cell in seen}
    unique = [placed for placed in added if placed.tile not in in_place]
    if len(unique) >= 2 and first is not None:  # turns played while the camera saw no still table between them
        unique = [placed for placed in unique if placed.tile == first] or unique
    if len(unique) >= 2:  # of those, one the board allows alone was played first; the others joined it
        unique = [placed for placed in unique if not check_placement(board, placed, record.rules)] or unique
    return unique


def _confirmed_otherwise(
    placed: PlacedTile, now: tuple[int, int, int], seen: dict[Cell, tuple[int, int, int]], board: Board
) -> bool:
    """Whether each number a sure reading ``now`` changes on a tile committed surely is shown at
    its lattice point by another tile of the view that the view does not change (a tile of the
    game's board read as the game has it, or a new one): a number misread surely at a free corner
    when the tile was played, plain once a neighbour shows it too. Fresh studio game 2000462
    committed a 0-0-0 as 0-5-0, and every view after a 0-4-0 joined it there read 0-0-0, so the
    game stayed out of sync to its end. Numbers that only tiles read otherwise too show (a region
    misread together) confirm nothing."""
    witnesses = Board.of(
        (cell, numbers) for cell, numbers in seen.items() if cell not in board or board.by_cell[cell].corners == numbers
    )
    return all(
        any(other.number_at(point) == number for other in witnesses.touching(point, exclude=placed.cell))
        for (point, before), number in zip(placed.points(), now)
        if before != number
    )


def _several_new(added: list[PlacedTile], record: GameRecord, may_be_first: list[PlacedTile]) -> Verdict:
    """Several new tiles at once, each named by its numbers and its cell in the game's frame: a
    tile the camera missed in its own turn (a blurred pip tile) shows up later beside the next
    player's, and naming both lets a player enter the earlier one by hand (a place event at its
    cell) instead of the game waiting for a take-back that would not help. Those of
    ``may_be_first`` the board allows alone are the ``choices`` (a player picks one instead of
    typing it)."""
    named = ", ".join(str(placed) for placed in sorted(added, key=lambda placed: placed.cell))
    return Verdict(
        "out_of_sync",
        f"{len(added)} new tiles at once ({named}): take back all but one, or enter one played earlier by hand",
        choices=_choices(may_be_first, len(added), record),
    )


def _choices(may_be_first: list[PlacedTile], new_tiles: int, record: GameRecord) -> tuple[PlacedTile, ...]:
    """The tiles a player may name as the one played first: each of ``may_be_first`` that the
    game's board allows alone (any, before the round's first tile), where the view shows a few
    new tiles (``CHOICES_AT_MOST``; more is a table to clear, or to enter by hand)."""
    if new_tiles > CHOICES_AT_MOST:
        return ()
    allowed = (placed for placed in may_be_first if not check_placement(record.state.board, placed, record.rules))
    return tuple(sorted(allowed, key=lambda placed: placed.cell))


def _opening(
    view: TableView,
    record: GameRecord,
    opening: Cell | None,
    placed_first: Tile | None = None,
    opening_unread: bool = False,
) -> Verdict:
    """Before the round's first tile: the tile that opens it. Of several joined tiles, the one
    that lay alone before (``opening``), else the one triple among a few (``_opening_triple``),
    else the one ``placed_first`` (seen, or pictured, before the others: ``LiveTable``) where
    the rules would let it open (fresh studio game 2000604: the 4-4-4 opening, white on a wooden
    table, was never found alone, and three tiles joined it before any view held). A loose tile
    alone opens, but not where the tile that lay alone before lies unread beside it
    (``opening_unread``; fresh studio game 2000746: the next tile, laid beside a 2-2-2 opening
    that was never read, was read loose and committed as the opening)."""
    board, loose = view.board, view.loose
    # Before the round's first tile each view picks its own frame: a tile taken back is known by
    # its numbers.
    shown = {canonical(corners) for corners in (*loose, *(placed.corners for placed in board.placements))}
    still = frozenset(placed for placed in record.taken_back if canonical(placed.corners) in shown)
    if len(board) > 1 and opening not in board:
        opening = _opening_triple(board, record.rules)
        if opening is None and _may_open(placed_first, record.rules):
            opening = board.by_tile[placed_first].cell
    if opening in board:
        first = board.by_cell[opening]  # the next tiles follow from the next views, as any others
    elif len(board) > 1:
        return Verdict(
            "out_of_sync",
            f"the table shows {len(board)} joined tiles before the round has begun: "
            "enter the opening tile by hand, or clear the table",
            choices=_choices(list(board.placements), len(board), record),
        )
    elif len(board) == 1:
        first = board.placements[0]
    elif len(loose) == 1 and not opening_unread:
        first = PlacedTile((0, 0), loose[0])  # one tile alone on the table opens; its frame is ours to pick
    elif loose and not opening_unread:
        return Verdict("settling", f"{len(loose)} loose tiles: the opening tile is played alone")
    elif view.unread_at:
        choices = _opening_choices(view, record)
        named = f" (it may be {' or '.join(format_corners(placed.corners) for placed in choices)})" if choices else ""
        return Verdict(
            "out_of_sync",
            f"a tile on the table cannot be read surely{named}: bring the camera closer or enter the opening "
            "tile by hand, or play the next tile beside it (the two are read together)",
            choices=choices,
        )
    else:
        return Verdict("in_sync", f"round {record.state.round}: waiting for the opening tile", taken_back_seen=still)
    if canonical(first.corners) in {canonical(placed.corners) for placed in still}:
        waiting = f"round {record.state.round}: waiting for the opening tile ({first} was taken back)"
        return Verdict("in_sync", waiting, taken_back_seen=still)
    verdict = _try_place(first, record, first.cell in view.unsure)  # the round's frame is the view's
    return replace(verdict, taken_back_seen=still)


def _opening_choices(view: TableView, record: GameRecord) -> tuple[PlacedTile, ...]:
    """What the one tile on the table before the round, read unsurely, may be, for a player to
    name with one click: the tile as read and, where the rules have the opener lay a triple, the
    triple of a number it shows twice. An opening read unsurely is most often a triple with one
    number misread: of 23 openings the 88 studio games missed, 16 were read in the last still
    frames, 10 right and 6 so (5-0-5, 1-0-1, 5-5-0, 1-5-1, 0-5-5 and 5-5-4, each a triple;
    docs/decisions.md, *An opening read unsurely, named with one click*)."""
    if len(view.loose_unsure) != 1 or len(view.unread_at) != 1 or view.loose or len(view.board):
        return ()
    (corners,) = view.loose_unsure
    tiles = [corners]
    twice = [number for number in set(corners) if corners.count(number) == 2]
    if record.rules.opening_tile == "triple_or_zero" and twice:
        tiles.append((twice[0],) * 3)
    return _choices([PlacedTile((0, 0), tile) for tile in tiles], 1, record)


def _the_opening_alone(view: TableView, state: GameState) -> bool:
    """Whether the view shows the round's one tile so far, alone: read loose (one tile makes no
    lattice to match the game's), the only tile read. Until the next tile joined it, every frame
    after the opening said "the board is hidden or out of the picture", with the tile in view."""
    if len(state.board) != 1 or len(view.loose) != 1 or len(view.board) or view.unread_at:
        return False
    return canonical(view.loose[0]) == state.board.placements[0].tile.numbers


def _may_open(tile: Tile | None, rules: Rules) -> bool:
    """Whether the rules let ``tile`` (None: none known) open a round as the camera sees it:
    where they ask for a triple, only one (a round a player opens otherwise, holding none, is
    entered by hand)."""
    return tile is not None and (rules.opening_tile != "triple_or_zero" or tile.is_triple)


def _opening_triple(board: Board, rules: Rules) -> Cell | None:
    """The cell of the one triple among the few tiles (``OPENING_TRIPLE_AMONG``) joined before
    the round's first was committed, where the rules have the opener lay a triple (or 0-0-0): it
    was laid first. Only where no player held a triple does a round open otherwise, and a triple
    drawn later then lies among more tiles: fresh studio game 2000445, opened with a 3-5-5 that
    was never read, showed a 4-4-4 drawn and played later as the one triple of 16 tiles."""
    if rules.opening_tile != "triple_or_zero" or len(board) > OPENING_TRIPLE_AMONG:
        return None
    triples = [placed.cell for placed in board.placements if placed.tile is not None and placed.tile.is_triple]
    return triples[0] if len(triples) == 1 else None


def _try_place(placed: PlacedTile, record: GameRecord, unsure: bool = False) -> Verdict:
    state = record.state
    player = state.turn if state.turn is not None else record.opener
    event = Place(player, placed.cell, placed.corners)
    try:
        advance(state, event, record.rules)
    except IllegalEvent as error:
        larger_set = max(placed.corners) > record.rules.max_number
        hint = f"; if the set on the table has numbers to {LARGE_MAX}, start a game with that set" if larger_set else ""
        return Verdict("out_of_sync", f"{placed} is not allowed: {error}{hint}")
    message = f"{state.players[player]} plays {placed}" + (UNSURE_PLACEMENT if unsure else "")
    return Verdict("placed", message, event, unsure)


@dataclass
class _Sightings:
    """How one view (one signature) was seen since the picture last moved."""

    readings: int
    first_at: float
    fullest: TableView  # the latest of the views showing it that joins the most tiles (``TableView.fullness``)


@dataclass
class LiveTable:
    """One table's stream of frames: decides which frames to read, when a view counts, and
    remembers the one shown."""

    settings: LiveSettings = field(default_factory=LiveSettings)
    shown: TableView | None = None
    _previous: np.ndarray | None = None  # the last frame's thumbnail
    _reference: np.ndarray | None = None  # the thumbnail when the shown view last counted
    _read_at: float = 0.0
    _candidate: tuple | None = None
    _count: int = 0
    _since: float = 0.0
    _seen: dict[tuple, _Sightings] = field(default_factory=dict)  # per signature, since the picture moved
    _lone_tile_at: PixelPoint | None = None  # where a tile lay alone before the round began
    _history: list[frozenset[Tile]] = field(default_factory=list)  # tiles joined per reading, since the table matched
    # The first still thumbnail after each time the picture moved (in colour), since the table
    # matched, and the frame's size: where a new tile lies, they show when it came (``_appeared_first``).
    _stills: list[np.ndarray] = field(default_factory=list)
    _moved: bool = True
    _frame_size: tuple[int, int] | None = None
    _mean: np.ndarray | None = None  # the still frames since the picture moved, a running mean (float32)
    _frames_in_mean: int = 0

    def need(self, image: np.ndarray, now: float) -> Need:
        """Whether a frame must be read: not while the picture moves, nor while it stays as it
        was when the last settled verdict was reached (until a refresh is due). Once it has
        moved (a hand came and went), still frames are read until a verdict settles again: a
        small tile the hand left may change too few thumbnail pixels to tell."""
        small = thumbnail(image)
        moving = changed_pixels(self._previous, small) >= self.settings.changed_pixels
        self._previous = small
        if moving:
            self._candidate, self._count, self._seen, self._reference, self._moved = None, 0, {}, None, True
            self._mean, self._frames_in_mean = None, 0
            return "moving"
        self._add_to_mean(image)
        if self._moved:
            self._remember_still(image)
        unchanged = changed_pixels(self._reference, small) < self.settings.changed_pixels
        if unchanged and now - self._read_at < self.settings.refresh_seconds:
            return "unchanged"
        return "read"

    def _add_to_mean(self, image: np.ndarray) -> None:
        if self._mean is None or self._mean.shape != image.shape:
            self._mean, self._frames_in_mean = image.astype(np.float32), 1
            return
        self._frames_in_mean = min(self._frames_in_mean + 1, STEADY_FRAMES)
        cv2.accumulateWeighted(image, self._mean, 1.0 / self._frames_in_mean)

    def steadied(self, image: np.ndarray) -> np.ndarray:
        """The still frame to read: ``image`` itself, or where it is noisy (``STEADY_ABOVE``) the
        running mean of the still frames up to it, which ``need`` keeps."""
        if self._frames_in_mean < 2 or self._mean.shape != image.shape or noise_level(image) <= STEADY_ABOVE:
            return image
        return cv2.convertScaleAbs(self._mean)  # rounded to uint8 as np.round would, in half the time

    def photographed(self, image: np.ndarray) -> None:
        """A photo of the table at rest (one a turn, or one sent to ``/frames``): it is read as it
        comes, and is a still picture after the picture moved, as in a stream of frames."""
        self._previous = thumbnail(image)
        self._mean, self._frames_in_mean = None, 0  # frames streamed before it may show another table
        self._remember_still(image)

    def _remember_still(self, image: np.ndarray) -> None:
        """The first still picture since the picture moved, kept to tell when each new tile came."""
        self._stills = [*self._stills[1 - REMEMBERED_STILLS :], colour_thumbnail(image)]
        self._moved, self._frame_size = False, (image.shape[1], image.shape[0])

    def judge_photo(self, view: TableView, record: GameRecord) -> Verdict:
        """The verdict on a photo's view (``photographed``), judged at once: it counts as a view
        that held, ``still_frames`` readings, so that of several new tiles the one an earlier
        photo showed is committed first (``_placed_first``), as in a stream of frames, where the
        camera moved between the photos too (a hand-held phone: where the picture changed first
        then tells nothing)."""
        record = replace(record, seen=self.shown)
        # A photo is a view that held: it counts as the readings a view needs to hold.
        held = [view.signature(record)[0]] * self.settings.still_frames
        self._history = [*self._history[len(held) - REMEMBERED_READINGS :], *held]
        self.shown = view
        verdict = self.judge(view, record)
        if verdict.status == "in_sync":
            self._order_settled()  # no tile is new
        return verdict

    def forget(self, board_changed: bool = True) -> None:
        """Read the next still frame afresh (the game changed by other means than the camera).
        Where its board changed too (a tile entered, corrected or taken back, a round settled),
        forget what tells the order of new tiles; a draw or a pass leaves the tiles the camera has
        yet to commit, and the pictures of when each came, as they were (fresh studio game
        2000604: the draws told between turns wiped the still pictures that ordered its five
        tiles in waiting, and the game stayed out of sync at "5 new tiles at once")."""
        self._reference = None
        if board_changed:
            self._order_settled()

    def read_the_other_way_round(self) -> None:
        """Forget the readings that tell the order of new tiles: the frames are now read the
        other way round (a mirroring camera found out, or its mirroring turned off), and a tile
        of three different numbers read the wrong way round shows as none, so that a tile played
        after it seems to have come first (mirrored studio game 2000400's 1-1-4, played after its
        1-4-5, was so not allowed alone). The still pictures, which show where a tile came
        first, are kept."""
        self._history = []

    def _order_settled(self) -> None:
        """Forget what tells the order of new tiles (the readings, and the still pictures but the
        one now): no tile is new, or the game changed by other means than the camera."""
        self._history, self._stills = [], self._stills[-1:]

    def observe(self, view: TableView, record: GameRecord, now: float) -> Verdict:
        """Feed one still frame's view; the verdict once a view has held, else 'settling'. A view
        holds when the reader shows the same tiles (``TableView.signature``: a reading that
        misses some of the game's board shows the same as one that sees it all, and the fullest
        of them is judged) in ``still_frames`` readings in a row spanning ``still_seconds``, or,
        since the picture last moved, in that many readings over that time and in ``LEAD`` more
        than any other view (a tile read one way, then another, then the first way twice is read
        as most readings have it, instead of never; two views read in turn hold neither)."""
        state = record.state
        record = replace(record, seen=self.shown)
        signature = view.signature(record)
        self._history = [*self._history[1 - REMEMBERED_READINGS :], signature[0]]
        if signature != self._candidate:
            self._candidate, self._count, self._since = signature, 0, now
        self._count += 1
        seen = self._seen.setdefault(signature, _Sightings(0, now, view))
        seen.readings += 1
        if view.fullness >= seen.fullest.fullness:
            seen.fullest = view
        counted = seen.fullest if self._held(self._count, self._since, now) else self._most_seen(now)
        if counted is None:
            counted = self._one_tile_added_unsurely(state, now)
        if counted is None:
            self._remember_lone_tile(view, state)  # a lone tile read now and then unread never holds
            return Verdict("settling", self._why_unsettled())
        self.shown = counted
        verdict = self.judge(counted, record)
        if verdict.status == "in_sync":
            self._order_settled()  # no tile is new
        if verdict.status in SETTLED:
            self._reference, self._read_at = self._previous, now
        else:
            self._reference = None
        return verdict

    def _why_unsettled(self) -> str:
        """Why a still picture's readings have not held: before ``DISAGREE_AFTER`` readings, they
        may yet; after, the picture is not moving, so it is the readings that disagree, and
        saying that the table should stay still would mislead (studio game 2000403: a wooden set
        at a slant, its blank 0-0-0 read now as a tile and now as a back: from its third turn on,
        a view held once in 24 turns). Readings that all show one view disagree on nothing: they
        wait for ``still_seconds`` to pass, which a fast reader's first readings may not span."""
        readings = sum(seen.readings for seen in self._seen.values())
        if readings < DISAGREE_AFTER or len(self._seen) < 2:
            return "waiting for the table to stay still"
        return (
            f"the table is still, but its tiles read differently from frame to frame ({readings} readings):"
            " bring the camera closer, or light the table evenly, or enter the tile by hand"
        )

    def _held(self, readings: int, since: float, now: float) -> bool:
        held = now - since + 1e-6  # frame times such as 3 / 5 and 5 / 5 are not exact
        return readings >= self.settings.still_frames and held >= self.settings.still_seconds

    def _most_seen(self, now: float) -> TableView | None:
        """The view shown by the most readings since the picture last moved, if it holds and
        leads every other view by ``LEAD`` readings."""
        ranked = sorted(self._seen.values(), key=lambda seen: seen.readings, reverse=True)
        best = ranked[0]
        if len(ranked) > 1 and ranked[1].readings + LEAD > best.readings:
            return None
        return best.fullest if self._held(best.readings, best.first_at, now) else None

    def _one_tile_added_unsurely(self, state: GameState, now: float) -> TableView | None:
        """The view to judge when the readings since the picture last moved agree that one tile
        was added but not on its numbers (one no neighbour confirms yet, read one way and
        another from frame to frame), and together they hold as one view would: the view most of
        them show, its new tile flagged unsure, so that the game commits it provisionally
        (``Verdict.unsure``) and a sure reading corrects it later. Before the round's first tile,
        the tile lying where a lone tile lay counts as the game's (the next tile joined the
        opening one before either was committed); of readings that read that tile otherwise,
        those read most are weighed."""

        def known(view: TableView) -> frozenset[Tile]:
            """The game's tiles, or before the first one, the tile where a lone tile lay."""
            if len(state.board) or self._lone_tile_at is None:
                return frozenset(state.board.by_tile)
            cell = _tile_at(view.board_at, self._lone_tile_at)
            return frozenset() if cell is None else frozenset({view.board.by_cell[cell].tile})

        def added(view: TableView) -> list[PlacedTile]:
            tiles = known(view)
            return [placed for placed in view.board.placements if placed.tile not in tiles]

        # Views adding one tile, by the tiles they count as the game's: of views that read the
        # opening tile otherwise, those read most are weighed.
        groups: dict[frozenset[Tile], list[_Sightings]] = {}
        for seen in self._seen.values():
            if len(added(seen.fullest)) == 1:
                groups.setdefault(known(seen.fullest), []).append(seen)
        adding_one = max(groups.values(), key=lambda group: sum(seen.readings for seen in group), default=[])
        readings = sum(seen.readings for seen in adding_one)
        others = sum(seen.readings for seen in self._seen.values()) - readings
        if len(adding_one) < 2 or readings < others + LEAD:
            return None
        if not self._held(readings, min(seen.first_at for seen in adding_one), now):
            return None
        view = max(adding_one, key=lambda seen: seen.readings).fullest
        return replace(view, unsure=view.unsure | {added(view)[0].cell})

    def judge(self, view: TableView, record: GameRecord) -> Verdict:
        """``judge_view`` for a view that counts. Before the round's first tile, where a lone tile
        lay is remembered, so that once the next tile joins it the one that lay first opens; and
        of several new tiles, the one seen first (``_placed_first``), so that tiles played while
        no view held are committed in the order they were played."""
        self._remember_lone_tile(view, record.state)
        opening, opening_unread = None, False
        if self._lone_tile_at is not None and len(view.board) == 2:
            opening = _tile_at(view.board_at, self._lone_tile_at)
        elif self._lone_tile_at is not None and not len(view.board):
            found = tuple(("loose", at) for at in view.loose_at) + tuple(("unread", at) for at in view.unread_at)
            opening_unread = _tile_at(found, self._lone_tile_at) == "unread"
        return judge_view(view, record, opening, self._placed_first(view, record.state.board), opening_unread)

    def _placed_first(self, view: TableView, board: Board) -> Tile | None:
        """Of the tiles ``view`` adds to the game's ``board``, the one that the readings since the
        table last matched the game showed in ``ALONE_FIRST`` readings or more from when it came
        to stay (``_arrival``) before any other of them came to stay (the picture may have moved
        since), where no reading showed it before it came to stay (a tile read now and then,
        then steadily, may have been any tile's misreading at first); where no tile was seen so,
        the one the picture shows came first (``_appeared_first``). Once it is committed, the
        next view tells the next one the same way."""
        new = {placed.tile for placed in view.board.placements} - board.by_tile.keys() - {None}
        seen = {tile: self._arrival(tile) for tile in new}
        arrived = {tile: since for tile, (_, since) in seen.items() if since is not None}
        for tile, since in arrived.items():
            others = [later for other, later in arrived.items() if other != tile]
            if not others or seen[tile][0] != since:
                continue  # no other has come to stay, or it was read before it did
            if sum(tile in tiles for tiles in self._history[since : min(others)]) >= ALONE_FIRST:
                return tile
        return self._appeared_first(view, new, before_the_round=not len(board))

    def _arrival(self, tile: Tile) -> tuple[int | None, int | None]:
        """The first of the readings (``_history``) that shows ``tile``, and the first from which
        on it shows in ``STEADY_SHARE`` of them or more: when it came to stay (None: not read, or
        not to stay). A played tile stays; an empty cell beside the board read as its neighbours'
        numbers comes and goes (fresh studio game 2000481: such a 2-3-4 read now and then from
        the 13th turn on, before two tiles were played while no view held, was committed before
        them as placed first, and the game went out of step with its script)."""
        shown = np.array([tile in tiles for tiles in self._history], bool)
        shown_from = np.cumsum(shown[::-1])[::-1]  # readings showing it from each one on
        steady = shown & (shown_from >= STEADY_SHARE * np.arange(len(shown), 0, -1))
        return _first(shown), _first(steady)

    def _appeared_first(self, view: TableView, new: set[Tile], before_the_round: bool = False) -> Tile | None:
        """Of the ``new`` tiles, the one whose place in the picture took the look it has now in an
        earlier still picture (``_stills``) than any other's; None where one looked so from the
        first still picture on (a tile there before, or one that looks like the table) or where
        none took it first alone. The readings may miss a tile in the frames it lay alone: fresh
        studio game 2000443 read a board of 40-pixel wooden tiles as one large outline in the
        frames after a 1-2-5 was played, and once the next player's tile joined, the two new
        tiles at once kept the game out of sync for the rest of it. The picture still shows which
        came first. ``before_the_round``: no tile is the game's yet, so one that looked so from
        the first still picture on (the table was seen waiting for the opening tile while it lay
        there unfound) lay there first, when every other took its look later."""
        if len(self._stills) < 2 or self._frame_size is None:
            return None
        width, height = self._frame_size
        took_its_look: dict[Tile, int] = {}
        for cell, (x, y) in view.board_at:
            tile = view.board.by_cell[cell].tile
            if tile not in new:
                continue
            row = min(max(int(y * THUMBNAIL[1] / height), 0), THUMBNAIL[1] - 1)
            column = min(max(int(x * THUMBNAIL[0] / width), 0), THUMBNAIL[0] - 1)
            here = np.array([still[row, column] for still in self._stills], np.int16)
            looks_so = list(np.abs(here - here[-1]).max(1) <= CHANGE_LEVEL)
            if looks_so[0] and not before_the_round:
                return None
            took_its_look[tile] = looks_so.index(True)
        if len(took_its_look) < 2:
            return None
        (first, when), *others = sorted(took_its_look.items(), key=lambda item: item[1])
        return first if all(when < later for _, later in others) else None

    def _remember_lone_tile(self, view: TableView, state: GameState) -> None:
        if len(state.board):
            self._lone_tile_at = None
        elif not len(view.board) and len(view.loose_at) + len(view.unread_at) == 1:
            (self._lone_tile_at,) = view.loose_at + view.unread_at


def _first(flags: np.ndarray) -> int | None:
    """The index of the first true one of ``flags``, or None."""
    return int(np.argmax(flags)) if flags.any() else None


def _tile_at(centres: tuple[tuple[Key, PixelPoint], ...], point: PixelPoint) -> Key | None:
    """The key (a cell) of the one tile among ``centres`` lying where ``point`` is: its centre
    within a third of the distance to the next nearest centre (the camera may have moved a
    little)."""
    if len(centres) < 2:
        return None
    distances = sorted((float(np.hypot(x - point[0], y - point[1])), cell) for cell, (x, y) in centres)
    (nearest, cell), (next_nearest, _) = distances[:2]
    return cell if 3 * nearest < next_nearest else None
