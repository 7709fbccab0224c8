"""The board reader: one photo in, a validated and scored reading out.

    reader = Reader()                      # loads both models once
    reading = reader.read(image)           # per-stage timings in reading.timing_ms
    reading = reader.read(image, previous=earlier_reading, previous_image=earlier)
                                           # scores the tile added since the earlier photo
    reading = reader.read(image, known=board)  # a live game's board: its tiles are expected,
                                           # and the tile added is scored against it

Stages: find tiles -> fit the lattice (dropping outlines the wrong size for a tile there:
``vision.sizes``) -> cut corner crops -> classify them in one batch -> complete the board with
tiles the finder missed (``vision.complete``) -> set face-down tiles apart (``vision.backs``) ->
decode with the game's constraints -> validate (and score the tile added since an earlier
photo: ``vision.added``). A live game's known board is
placed in the photo's lattice by ``vision.known``. A close-up, whose tiles are too large for the
finder, is found and read again with the photo shrunk further; a mirror image, flipped back.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cached_property, partial
from pathlib import Path

import cv2
import numpy as np

from engine.board import Board, PlacedTile, Violation, edge_components, validate_board
from engine.lattice import Cell, LatticeMap, cell_corners, point_xy
from engine.rules import DEFAULT_PRESET, Rules, get_rules
from engine.scoring import PlacementResult
from engine.tiles import LARGE_MAX, STANDARD_MAX, tile_set
from models.classes import NO_NUMBER
from models.classifier import DEFAULT_MODEL, CornerClassifier
from models.finder_data import READ_LONG_SIDE
from vision.added import (
    LOOK_AGAIN_TILES,
    ShownBefore,
    camera_kept_still,
    changed_alone,
    changed_beside,
    changed_only,
    frame_map,
    last_placement,
    looks_alike,
)
from vision.backs import (
    blank_apart,
    coloured_like,
    faced_like_the_board,
    holes_in_the_board,
    like_the_read_tiles,
    lying_face_down,
    unlike_any_number,
)
from vision.bare import bare_read_as_zero, unsure_for_bare_corners, zeros_show_bare
from vision.complete import MISSED_CORE_ABOVE, completed, no_cells
from vision.crops import corner_crops, greyed
from vision.decode import UNSURE_BELOW, decode_in_either_set
from vision.find import (
    DEFAULT_FINDER,
    SECOND_LOOK_COST,
    FirstLook,
    TileFinder,
    closer_view,
    edge_lengths,
    in_view,
    inside,
    median_side,
    overlapping,
    seen_scale,
)
from vision.image_io import as_photo
from vision.known import KnownBoard, any_tile_added, known_matched, known_placed, placed_as_known
from vision.lattice import LatticeFit, fit_board
from vision.loose import alone_read_loose, beside_the_board, loose_faced_like_the_board, numbers_reported
from vision.mirror import MIRRORED_ADVICE, may_be_mirrored, mirrored, reads_better, share_read_surely, way_round
from vision.noise import noise_level, smoothed, smoothing_for
from vision.notes import blur_named, dark_named, photo_advice, reading_notes, uncertain_corners
from vision.records import Reading, ReadTile, joined_board, outlines_of
from vision.sight import Sight, best_look, read_surely, small_for_the_finder, too_unsure
from vision.sizes import (
    SIZE_TOLERANCE,
    SIZING_READ_TILES,
    about_the_size,
    back_sized,
    shows_its_plane,
    sized_like_the_board,
)

# More face-up triangles joined than the large set has tiles, or far more outlines than any table
# shows (studio photos: 402 at most, specks of busy cloths with the tiles), are a cloth printed
# with triangles, not a game: none is read (decoding 2,044 such triangles took 93 seconds and
# 3.5 GB; reading 8,964 outlines 16 seconds and 3.4 GB).
MOST_TILES = len(tile_set(LARGE_MAX))
MOST_OUTLINES = 1200
NEARER_BELOW_SCALE = 0.5  # a photo shrunk this much, its first look joining no board, is looked at ...
NEARER_WORKING_SIZE = 2 * READ_LONG_SIDE  # ... again shrunk to this long side
SMALLEST_WORKING_SIZE = READ_LONG_SIDE // 4  # a close-up is looked at from at most this much farther
# Tiles read that the finder saw smaller than ``vision.sight.FAR_TILE_SIDE`` are looked for again
# shown to it this large (enlarged where needed; it finds tiles under 30 px poorly).
ENLARGED_TILE_SIDE = 36.0
CLOSER_JOINS_AT_LEAST = 0.5  # a closer look joining less than this share of its outlines is weighed against the first
LOOK_AGAIN_MISFIT = 0.3  # previous board corners this far (tile sides) off its plane are left out of it
SAME_TILE_LOOK = 0.6  # a cell whose two photos correlate this well shows the same tile in both
DECIDING_CORNERS = 60  # the board's first corners, read both in colour and greyed to choose how to read it ...
GREY_FROM_SIDE = 35.0  # ... where its tiles are this large (photo pixels): smaller, the choice is noise
FROM_ABOVE_BELOW = 0.8  # a board the camera's slant squashes more than this (37 degrees off vertical) ...
FROM_ABOVE_MARGIN = 2.0  # ... is looked at from straight above with this many tile sides around it; a tile only
FROM_ABOVE_SIZE = 1.3  # ... that look finds must be a tile's size there within this factor


@dataclass(frozen=True)
class _Photos:
    """What one ``Reader.read`` reads: the photo, and the earlier photo and its reading, if any."""

    image: np.ndarray
    previous: Reading | None
    previous_image: np.ndarray | None
    path: str | None

    @cached_property
    def flipped(self) -> _Photos:
        """The photos flipped left to right, as a mirror image shows the table, and the earlier
        reading in the flipped photo's pixels."""
        return _Photos(
            _flipped(self.image),
            None if self.previous is None else mirrored(self.previous),
            None if self.previous_image is None else _flipped(self.previous_image),
            self.path,
        )


def _flipped(pixels: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(pixels[:, ::-1])


@dataclass(frozen=True)
class _CornersRead:
    """A photo's outlines placed in its board's lattice (``fit``) and their corners classified:
    per tile its cell (None: loose), its ``corners`` in the lattice's order, their
    ``probabilities`` (N, 3, 8) and its ``outlines`` as found or completed; outlines the
    wrong size for a face-up tile are ``set_aside`` with their own probabilities. ``grey``:
    the corners were read with their colour taken away."""

    fit: LatticeFit
    cells: list[Cell | None]
    corners: np.ndarray
    probabilities: np.ndarray
    outlines: np.ndarray
    set_aside: np.ndarray
    aside_probabilities: np.ndarray
    grey: bool

    def __post_init__(self) -> None:
        tiles = len(self.cells)
        if not len(self.corners) == len(self.probabilities) == len(self.outlines) == tiles:
            raise ValueError("cells, corners, probabilities and outlines must hold one row per tile")
        if len(self.set_aside) != len(self.aside_probabilities):
            raise ValueError("set_aside and aside_probabilities must hold one row per outline")


class Reader:
    def __init__(
        self,
        classifier: str | Path = DEFAULT_MODEL,
        finder: str | Path = DEFAULT_FINDER,
        rules: str = DEFAULT_PRESET,
        threads: int | None = None,
        working_size: int | None = None,
    ) -> None:
        """``working_size``: the long side photos are shrunk to for finding tiles (None: the
        finder's own, ``READ_LONG_SIDE``)."""
        self.classifier = CornerClassifier(classifier, threads)
        self.finder = TileFinder(finder, threads, READ_LONG_SIDE if working_size is None else working_size)
        self.rules = get_rules(rules)

    def read(
        self,
        image: np.ndarray,
        previous: Reading | None = None,
        rules: str | Rules | None = None,
        path: str | None = None,
        previous_image: np.ndarray | None = None,
        known: Board | None = None,
        provisional: Collection[Cell] = (),
        mirror_image: bool | None = None,
    ) -> Reading:
        """``previous``: the reading of an earlier photo, to find and score the one tile added
        since; ``previous_image``: that photo (with ``known``, the live game's last frame that
        showed its board), where the reader looks again when several tiles seem new (the
        earlier photo's finder may have missed one) and, from a camera kept still, finds the
        cell that alone changed (also where this photo's finder missed the tile added).
        ``known``: the board as a live game knows it (every tile seen placed and scored, in the
        game's own lattice frame):
        its tiles are expected where they lie, so a misread number gives way to what the game
        knows, and without ``previous`` the tile added is scored against it; but for its
        ``provisional`` cells, placed from an unsure reading, whose numbers are only hints
        (``vision.decode``: they settle a doubt, never make a number sure). ``image``: BGR
        pixels (grey and BGRA are turned to BGR); ``ImageError`` for other pixels and for a
        picture too small or too narrow to show a tile (``vision.image_io.as_photo``). A photo
        far noisier than the studio's is smoothed first, the earlier one alike (``vision.noise``).
        A mirror image (a selfie camera's) is read flipped back (``vision.mirror``);
        ``mirror_image``: whether the camera is known to mirror its picture (a live game's last
        frame read so; None: as ``previous`` was read, from the same camera), in which case the
        photo is read flipped back first and checked the other way round."""
        image = as_photo(image, path or "image")
        previous_image = None if previous_image is None else as_photo(previous_image, "the previous photo")
        rules = get_rules(rules) if isinstance(rules, str) else rules or self.rules
        game = KnownBoard(known, frozenset(provisional)) if known is not None else None
        photos = _Photos(image, previous, previous_image, path)
        if mirror_image is None:
            mirror_image = previous is not None and previous.mirror_image
        reading, sight = self._read_way_round(photos, mirror_image, rules, game)
        if may_be_mirrored(sight.way_round, len(reading.tiles)):
            reading, sight = self._checked_the_other_way_round(reading, sight, photos, rules, game)
        return replace(reading, notes=(*uncertain_corners(reading.tiles, sight), *reading.notes))

    def _read_way_round(
        self, photos: _Photos, flipped: bool, rules: Rules, game: KnownBoard | None
    ) -> tuple[Reading, Sight]:
        """The photo read as it is or, ``flipped``, flipped back (the earlier photo and reading
        too), given in the photo's own pixels, with advice to turn the mirroring off where it
        shows tiles (a live game's frame of a hand over the table says nothing of the camera).
        An earlier reading made the other way round is made again this way round from the
        earlier photo, which one camera took: the tile added is found between two readings of
        one kind, and the timings count that read too."""
        shown = photos.flipped if flipped else photos
        again: dict[str, float] = {}
        if shown.previous is not None and shown.previous.mirror_image != flipped and shown.previous_image is not None:
            earlier, _ = self._read_as_shown(shown.previous_image, None, rules, None, None, None)
            shown, again = replace(shown, previous=earlier), earlier.timing_ms
        reading, sight = self._read_as_shown(shown.image, shown.previous, rules, shown.path, shown.previous_image, game)
        reading = replace(reading, timing_ms=_added(again, reading.timing_ms))
        if not flipped:
            return reading, sight
        said = (MIRRORED_ADVICE,) if reading.tiles else ()
        back = replace(mirrored(reading), notes=reading.notes + said, advice=reading.advice + said, mirror_image=True)
        return back, sight

    def _checked_the_other_way_round(
        self, reading: Reading, sight: Sight, photos: _Photos, rules: Rules, game: KnownBoard | None
    ) -> tuple[Reading, Sight]:
        """A photo whose tiles read few surely clockwise (its ``reading`` by ``sight``), checked:
        where its tiles' corners read the right way round in the photo seen the other way round
        (flipped, or as it is where it was read flipped), or its numbers read surely only there
        (``vision.mirror.reads_better``), it is read so, and where that reading reads better
        alike, it is kept. The timings count the check (the ``mirror`` stage) and both reads."""
        start = time.perf_counter()
        seen = photos.flipped.image if reading.mirror_image else photos.image
        as_seen = mirrored(reading) if reading.mirror_image else reading  # its pixels in ``seen``
        crops = corner_crops(seen, outlines_of(as_seen.tiles))
        in_a_mirror = self._read_in_a_mirror(crops, sight.greyed)
        turned_there, more_read_surely = way_round(in_a_mirror), 0.0
        if turned_there >= sight.way_round:  # no tile says otherwise: its numbers may, read as read from these crops
            as_read = self.classifier.predict(greyed(crops) if sight.greyed else crops)
            more_read_surely = share_read_surely(in_a_mirror) - share_read_surely(as_read)
        checked_ms = (time.perf_counter() - start) * 1000
        reading = replace(reading, timing_ms=_added(reading.timing_ms, {"mirror": checked_ms, "total": checked_ms}))
        if not reads_better(turned_there, sight.way_round, more_read_surely):
            return reading, sight
        other, other_sight = self._read_way_round(photos, not reading.mirror_image, rules, game)
        timing = _added(reading.timing_ms, other.timing_ms)
        more_read_surely = share_read_surely(other_sight.probabilities) - share_read_surely(sight.probabilities)
        if not reads_better(other_sight.way_round, sight.way_round, more_read_surely):
            return replace(reading, timing_ms=timing), sight
        return replace(other, timing_ms=timing), other_sight

    def _read_in_a_mirror(self, crops: np.ndarray, grey: bool) -> np.ndarray:
        """(N, 3, 8) probabilities of tiles' corners read in the photo's mirror image, each tile's
        clockwise there, from their corner ``crops`` in the photo, without reading that image:
        a corner's crop there is its crop here mirrored, and the corners clockwise there are
        these anticlockwise."""
        mirrored_crops = np.ascontiguousarray(crops[..., ::-1])
        probabilities = self.classifier.predict(greyed(mirrored_crops) if grey else mirrored_crops)
        return probabilities.reshape(-1, 3, NO_NUMBER + 1)[:, ::-1]

    def _read_as_shown(
        self,
        image: np.ndarray,
        previous: Reading | None,
        rules: Rules,
        path: str | None,
        previous_image: np.ndarray | None,
        game: KnownBoard | None,
    ) -> tuple[Reading, Sight]:
        """The photo read as it is, and the look it was read by. Its notes leave out those on
        uncertain corners, which name a loose tile by its pixels: ``read`` adds them
        (``uncertain_corners``) once the reading is in the photo's own pixels."""
        height, width = image.shape[:2]
        known = None if game is None else game.board
        timing: dict[str, float] = {}
        clock = time.perf_counter()

        def lap(stage: str) -> None:
            """Adds the time since the last lap to ``stage`` (a photo read again adds to it)."""
            nonlocal clock
            now = time.perf_counter()
            timing[stage] = timing.get(stage, 0.0) + (now - clock) * 1000
            clock = now

        start = clock
        noise = noise_level(image)
        smoothing = smoothing_for(noise)  # a noisy photo is smoothed; the earlier one alike, to compare
        image = smoothed(image, smoothing)
        previous_image = None if previous_image is None else smoothed(previous_image, smoothing)
        lap("denoise")
        first_look = self.finder.first_look(image)
        sights = self._looks(image, rules, first_look, lap, game)
        sight = best_look(sights)
        from_above = self._from_above(image, rules, first_look, sight, lap, game)
        if from_above is not None and best_look([sight, from_above]) is from_above:
            sight = from_above
        sight, tiles, changed = self._against_the_earlier_photo(
            image, sight, previous, previous_image, rules, first_look, lap, game
        )
        face_down = _backs_from_farther(sight, sights[1:])
        rules_used = replace(rules, max_number=sight.max_number)
        board = joined_board(tiles)
        violations = _shown_broken(validate_board(board, rules_used), board, known, previous)
        advice = photo_advice(sight, noise, blur_named(image, tiles, sight, face_down), dark_named(image, tiles, sight))
        notes = reading_notes(sight, sights[0], known, violations, advice)
        last, note = self._placement(image, tiles, board, rules_used, sight, changed, previous, previous_image, known)
        if note:
            notes.append(note)
        lap("validate")
        timing["total"] = (time.perf_counter() - start) * 1000
        reading = Reading(
            path, width, height, tiles, face_down, sight.unread, violations, last, timing, tuple(notes), tuple(advice)
        )
        return reading, sight

    def _looks(
        self,
        image: np.ndarray,
        rules: Rules,
        first_look: FirstLook,
        lap: Callable[[str], None],
        game: KnownBoard | None,
    ) -> list[Sight]:
        """The first look at the photo, then the others it calls for; the one that joins the most
        tiles into the board wins (``best_look``).

        A close-up: the finder, shown tiles larger than it learnt, outlines them roughly (they
        fail to join into a board) or takes their numbers and pips for tiles that then read as
        backs or not at all. Seen from farther (the photo shrunk more), such tiles come out the
        size it knows. Small tiles, the other way: the finder's closer look, which never enlarges
        the photo and brings tiles to about 30 pixels at most, still shows them too small to find
        well (a board far away, a small photo, or a large one whose closer look is bounded by its
        cost), so those are looked for again, shown larger: ``seen_small`` (also where they broke
        up as a close-up's numbers do: ``_looks_small``). A large photo whose first look joins no
        tile into a board (a steep phone photo: its tiles shrunk to the working size are a few
        pixels tall and merge) is looked at again whole, shrunk less."""
        first = self._see(image, rules, first_look, lap, game)
        sights = [first]
        if first.too_close:
            while sights[-1].too_close and sights[-1].working_size // 2 >= SMALLEST_WORKING_SIZE:
                farther = self.finder.first_look(image, sights[-1].working_size // 2)
                sights.append(self._see(image, rules, farther, lap, game))
        if _looks_small(image.shape, first, first_look):
            sights.append(self._see(image, rules, first_look, lap, game, ENLARGED_TILE_SIDE))
        if not first.found[0] and first_look.scale <= NEARER_BELOW_SCALE:
            nearer = self.finder.first_look(image, NEARER_WORKING_SIZE)
            sights.append(self._see(image, rules, nearer, lap, game))
        return sights

    def _against_the_earlier_photo(
        self,
        image: np.ndarray,
        sight: Sight,
        previous: Reading | None,
        previous_image: np.ndarray | None,
        rules: Rules,
        first_look: FirstLook,
        lap: Callable[[str], None],
        game: KnownBoard | None,
    ) -> tuple[Sight, tuple[ReadTile, ...], Cell | None]:
        """The look, its tiles and the one cell that changed (None: not known), once the earlier
        photo is weighed: an opening tile it showed, and where the camera kept still the cell
        that alone changed, which may hold a tile added that this photo's finder missed."""
        tiles, changed = sight.tiles, None
        if previous is not None and previous_image is not None:
            tiles = self._opening_played(previous, previous_image, image, tiles, sight.greyed)
            changed = _the_cell_that_changed(previous_image, image, tiles)
        if previous_image is not None and changed is None:
            # Or a live game's board known, and its last still frame given: there too the tile
            # added may be one the finder missed, where no tile the game lacks was read.
            live = game is not None and sight.knows_the_board and not any_tile_added(game.board, tiles)
            if previous is not None or live:
                again, changed = self._missed_tile_added(previous_image, image, sight, rules, first_look, lap, game)
                if changed is not None:
                    return again, again.tiles, changed
        return sight, tiles, changed

    def _placement(
        self,
        image: np.ndarray,
        tiles: Sequence[ReadTile],
        board: Board,
        rules: Rules,
        sight: Sight,
        changed: Cell | None,
        previous: Reading | None,
        previous_image: np.ndarray | None,
        known: Board | None,
    ) -> tuple[PlacementResult | None, str | None]:
        """The tile added since the earlier photo's reading (or the live game's ``known``
        board), judged and scored; or a note why none is. ``changed``: the one cell that changed
        since ``previous_image``, where the camera kept still."""
        if previous is not None:
            shown_before = None
            if previous_image is not None:
                shown_before = self._shown_in(previous_image, previous, image, tiles, sight.greyed)
            return last_placement(previous.board, board, rules, previous.loose_tiles, shown_before, changed=changed)
        if known is None:
            return None, None
        in_the_frame = None
        if previous_image is not None:
            # The game's last frame: of several tiles that look new, those whose cells did not
            # change lay there then too (that frame's reading missed or misread them).
            corners_at = {t.cell: t.corners for t in tiles if t.cell is not None}

            def in_the_frame(_: LatticeMap, new: list[PlacedTile]) -> set[Cell]:
                return _all_but_the_one_changed(previous_image, image, new, corners_at)

        return last_placement(known, board, rules, shown_before=in_the_frame, previous_is_known=sight.knows_the_board)

    def _from_above(
        self,
        image: np.ndarray,
        rules: Rules,
        first_look: FirstLook,
        sight: Sight,
        lap: Callable[[str], None],
        known: KnownBoard | None,
    ) -> Sight | None:
        """The board of ``sight`` looked at again in a view from straight above, when the camera's
        slant squashes it (``FROM_ABOVE_BELOW``) and it is large enough to show its plane
        (``shows_its_plane``); None otherwise. Seen steeply, small tiles' cores run together
        across the seams and the finder misses or merges them; warped by the board's plane into
        a view from above (``LatticeFit.view_from_above``), every tile there is an equilateral
        triangle ``ENLARGED_TILE_SIDE`` pixels a side, the shape and size the finder finds best.
        The view covers the board and ``FROM_ABOVE_MARGIN`` tile sides around it, at no more
        pixels than the closer look (``SECOND_LOOK_COST`` times the first look's); what it finds
        on the board and in the cells beside it is read with the sight's own outlines elsewhere
        (loose tiles, the pile). The look that joins more tiles into the board wins."""
        fit = sight.fit
        if fit.homography is None or not shows_its_plane(fit) or fit.foreshortening() > FROM_ABOVE_BELOW:
            return None
        height, width = image.shape[:2]
        most_pixels = SECOND_LOOK_COST * width * height * first_look.scale**2
        to_view, size = fit.view_from_above(ENLARGED_TILE_SIDE, FROM_ABOVE_MARGIN, most_pixels)
        found = self.finder.look_through(image, to_view, size)
        found = found[fit.near_the_board(found.mean(1))]
        # Seen from above, a hole in the board (the table between tiles, or the side faces of the
        # tiles around it) or a piece of one can look like a tile too, and its corners show its
        # neighbours' numbers: an outline that lies on no tile the sight read must be a tile's
        # size where the plane puts it, show a face the colour of the board's, and lie where the
        # first look marked a tile's core (the cores it ran together).
        read = outlines_of(sight.tiles)
        new = np.flatnonzero(~inside(found.mean(1), read).any(1))
        if len(new):
            sized = about_the_size(found[new], fit.sides_at(found[new].mean(1)), FROM_ABOVE_SIZE)
            faced = faced_like_the_board(found[new], read, image)
            cored = first_look.core_at(found[new]) > MISSED_CORE_ABOVE
            found = np.delete(found, new[~(sized & faced & cored)], axis=0)
        lap("find")
        board = outlines_of([t for t in sight.tiles if t.cell is not None])
        holding = inside(found.mean(1), board)  # (found, board tiles)
        if len(found) == len(board) and (holding.sum(0) == 1).all() and (holding.sum(1) == 1).all():
            return None  # the view shows the tiles the board has, one outline each: nothing to read again
        # The sight's own outlines stand where the view found nothing: away from the board and
        # from every outline the view found (a sliver across a seam beside the board's part
        # that the sight had missed).
        own = sight.outlines
        apart = ~fit.near_the_board(own.mean(1)) & ~overlapping(own, found).any(1)
        outlines = np.concatenate([found, own[apart]])
        return replace(self._read_outlines(image, outlines, rules, first_look, lap, known), from_above=True)

    def _see(
        self,
        image: np.ndarray,
        rules: Rules,
        first_look: FirstLook,
        lap: Callable[[str], None],
        known: KnownBoard | None,
        enlarge_to: float | None = None,
    ) -> Sight:
        """Tiles found from the finder's ``first_look`` (small ones looked at again, enlarged
        to ``enlarge_to`` if given: ``TileFinder.look_closer``) and read. A closer look that
        joins few of its outlines into a board may have broken the tiles into pieces (the grain
        of wooden tiles on a wooden table, whose fragments also made the first look's tiles seem
        small): the first look's own outlines are read too, kept when they join more. Where no
        board is large enough to show the tiles' size (``sized_like_the_board``), the tiles
        read show it: outlines far from their size (specks of a checked cloth, which pull the
        median side down until neighbours' corners no longer meet) are dropped and the rest
        read again, kept when that joins more tiles into the board."""
        outlines = self.finder.look_closer(image, first_look, enlarge_to)
        lap("find")
        sight = self._read_outlines(image, outlines, rules, first_look, lap, known)
        looked_closer = enlarge_to is None and closer_view(image.shape, first_look) is not None
        if looked_closer and sight.found[0] < CLOSER_JOINS_AT_LEAST * len(outlines):
            plain = self._read_outlines(image, first_look.outlines, rules, first_look, lap, known)
            if plain.found > sight.found:
                sight, outlines = plain, first_look.outlines
        if shows_its_plane(sight.fit) or sight.too_close or len(sight.tiles) < SIZING_READ_TILES:
            return sight  # sized by the board already, or a look from farther follows
        sized = about_the_size(outlines, np.median(edge_lengths(outlines_of(sight.tiles)).mean(1)), SIZE_TOLERANCE)
        if sized.all():
            return sight
        again = self._read_outlines(image, outlines[sized], rules, first_look, lap, known)
        return again if again.found[0] > sight.found[0] else sight

    def _read_outlines(
        self,
        image: np.ndarray,
        outlines: np.ndarray,
        rules: Rules,
        first_look: FirstLook,
        lap: Callable[[str], None],
        known: KnownBoard | None,
    ) -> Sight:
        """The finder's outlines read: their corners where the board's lattice puts them
        (``_corners_read``), backs set apart, the face-up tiles decoded (``_numbers``) and
        those worth reporting kept."""
        if len(outlines) > MOST_OUTLINES:
            return _a_pattern(first_look, len(outlines), fit_board(outlines[:0]), outlines)
        seen = self._corners_read(image, outlines, first_look, lap)
        unlike_numbers = unlike_any_number(seen.probabilities)
        blank = blank_apart(seen.probabilities, seen.cells, unlike_numbers)
        down = lying_face_down(unlike_numbers, blank)
        holes = holes_in_the_board(seen.probabilities, seen.cells, seen.corners, unlike_numbers, blank, image)
        face_up = np.nonzero(~down & ~holes)[0]
        face_down = tuple(seen.outlines[i] for i in np.nonzero(down)[0])
        face_down += tuple(seen.set_aside[unlike_any_number(seen.aside_probabilities)])
        joined = sum(seen.cells[i] is not None for i in face_up)
        if joined > MOST_TILES:
            lap("decode")
            return _a_pattern(first_look, joined, seen.fit, outlines)
        read, max_number, expected, up_probabilities = self._numbers(image, seen, face_up, rules, known)
        tiles_there = beside_the_board(read) & loose_faced_like_the_board(read, image)  # loose ones may be none
        with_numbers = np.array([numbers_reported(t) for t in read], bool)
        tiles = tuple(t for t, there, ok in zip(read, tiles_there, with_numbers) if there and ok)
        unread = tuple(t.corners for t, there, ok in zip(read, tiles_there, with_numbers) if there and not ok)
        read_probabilities = up_probabilities[tiles_there & with_numbers]
        surely = read_surely(read_probabilities)
        if too_unsure(surely):  # a known board's tiles read as the game has them stay sure
            tiles = tuple(t if expected.get(t.cell) == t.numbers else _no_surer_than(t, surely) for t in tiles)
        read_outlines = outlines_of(tiles)
        room = len(tile_set(max_number)) - len(tiles)  # a set has no more tiles to lie face down
        face_down = coloured_like(
            like_the_read_tiles(face_down, read_outlines, seen.fit, first_look), read_outlines, image, room
        )
        unread = like_the_read_tiles(unread, read_outlines, seen.fit)
        lap("decode")
        sides = edge_lengths(read_outlines).mean(1) * first_look.scale
        tile_side = float(np.median(sides)) if len(sides) else 0.0
        lone_blank = bool((blank & ~down).any())
        return Sight(
            first_look.working_size,
            tiles,
            face_down,
            unread,
            lone_blank,
            max_number,
            tile_side,
            seen.fit,
            outlines,
            knows_the_board=bool(expected),
            scale=first_look.scale,
            probabilities=read_probabilities,
            greyed=seen.grey,
        )

    def _corners_read(
        self, image: np.ndarray, outlines: np.ndarray, first_look: FirstLook, lap: Callable[[str], None]
    ) -> _CornersRead:
        """Fit the lattice, classify the corners, complete the board (and glue it again when
        that bridges a gap: ``_glued_again``). Outlines the board's plane finds the wrong size
        to read are set aside, classified only as backs might be (``back_sized``)."""
        fit = fit_board(outlines)
        sized = sized_like_the_board(outlines, fit)
        set_aside = outlines[~sized]
        if not sized.all():  # fit again: specks of table pattern had set the median tile side
            outlines = outlines[sized]
            fit = fit_board(outlines)
        set_aside = back_sized(set_aside, fit)
        ordered = fit.corners
        lap("lattice")
        crops = corner_crops(image, np.concatenate([ordered, set_aside]))
        lap("crops")
        probabilities, grey = read_colour_or_grey(self.classifier, crops, fit.side_px)
        probabilities = probabilities.reshape(-1, 3, NO_NUMBER + 1)
        probabilities, aside_probabilities = probabilities[: len(ordered)], probabilities[len(ordered) :]
        lap("classify")
        read_corners = partial(self.corner_probabilities, image, grey=grey)
        cells, ordered, probabilities, outlines = completed(
            image, fit, list(fit.cells), ordered, probabilities, outlines, first_look, read_corners
        )
        rejoined = _glued_again(fit, cells, ordered)
        if rejoined is not None:
            fit = rejoined
            probabilities = read_corners(fit.corners)
            cells, ordered, probabilities, outlines = completed(
                image, fit, list(fit.cells), fit.corners, probabilities, fit.corners, first_look, read_corners
            )
        lap("complete")
        return _CornersRead(fit, cells, ordered, probabilities, outlines, set_aside, aside_probabilities, grey)

    def _numbers(
        self,
        image: np.ndarray,
        seen: _CornersRead,
        face_up: np.ndarray,
        rules: Rules,
        known: KnownBoard | None,
    ) -> tuple[list[ReadTile], int, dict[Cell, tuple[int, int, int]], np.ndarray]:
        """The ``face_up`` tiles of ``seen`` decoded (``_decoded``), and decoded again with a
        pip set's unsure bare corners taken as 0s where the board's own zeros show bare."""
        probabilities, corners = seen.probabilities[face_up], seen.corners[face_up]
        cells = [seen.cells[i] for i in face_up]
        decode = partial(self._decoded, image, seen.fit, seen.cells, seen.grey, rules, known)
        read, max_number, expected, decoded_probabilities = decode(probabilities, corners, cells)
        unsure_bare = unsure_for_bare_corners(read[: len(cells)], probabilities)
        if unsure_bare.any() and zeros_show_bare(read, decoded_probabilities):
            return decode(bare_read_as_zero(probabilities, unsure_bare), corners, cells)
        return read, max_number, expected, decoded_probabilities

    def _decoded(
        self,
        image: np.ndarray,
        fit: LatticeFit,
        cells: list[Cell | None],
        grey: bool,
        rules: Rules,
        known: KnownBoard | None,
        probabilities: np.ndarray,
        corners: np.ndarray,
        up_cells: list[Cell | None],
    ) -> tuple[list[ReadTile], int, dict[Cell, tuple[int, int, int]], np.ndarray]:
        """The face-up tiles (``probabilities``, ``corners`` and ``up_cells`` of each) decoded,
        the set's highest number, the known board's tiles expected in this photo's cells (empty:
        none) and the probabilities decoded. With a known board placed here, its cells the
        finder missed are read too, and tiles read as known ones elsewhere take the game's cells
        (``placed_as_known``); without one, a tile alone in the lattice is read as a loose one."""
        expected, hints = known_placed(known, probabilities, up_cells)
        if not expected:  # no known board, or its place not clear from the corners: decode, then match the tiles read
            read, max_number = read_numbers(probabilities, corners, up_cells, rules)
            expected, hints = known_matched(known, read, up_cells)
        if not expected:  # a known board's tile keeps the cell the game has it in, alone or not
            return alone_read_loose(read), max_number, expected, probabilities
        found_cells, found_corners, found_probabilities = self._known_missed(image, fit, expected, cells, grey)
        up_cells = up_cells + found_cells
        corners = np.concatenate([corners, found_corners])
        probabilities = np.concatenate([probabilities, found_probabilities])
        read, max_number = read_numbers(probabilities, corners, up_cells, rules, expected, hints)
        placed = placed_as_known(read, expected, fit)
        if placed:
            up_cells, corners, probabilities = list(up_cells), corners.copy(), probabilities.copy()
            for k, (cell, first) in placed.items():
                up_cells[k] = cell
                corners[k] = np.roll(corners[k], -first, axis=0)
                probabilities[k] = np.roll(probabilities[k], -first, axis=0)
            read, max_number = read_numbers(probabilities, corners, up_cells, rules, expected, hints)
        return read, max_number, expected, probabilities

    def corner_probabilities(self, image: np.ndarray, triangles: np.ndarray, grey: bool = False) -> np.ndarray:
        """(N, 3, 2) clockwise tile corners -> (N, 3, 8) probabilities of each corner's number,
        all corners in one classifier call; ``grey``: read with their colour taken away."""
        crops = corner_crops(image, triangles)
        return self.classifier.predict(greyed(crops) if grey else crops).reshape(-1, 3, NO_NUMBER + 1)

    def _shown_in(
        self, earlier: np.ndarray, reading: Reading, image: np.ndarray, tiles: tuple[ReadTile, ...], grey: bool
    ) -> ShownBefore:
        """A judge for ``last_placement``: which of the tiles that look new the earlier photo
        (``earlier``, read as ``reading``; its corners read ``grey`` as this photo's were) shows
        after all. Their cells are put in that photo by the plane of its board's corners; a tile
        counts as shown when each of its three corners there reads its number more surely than
        no number. A hand over the cell, or the bare
        table, reads as no number, so only tiles the finder missed are taken back.

        Where the camera kept still, as a webcam on its stand does (an earlier board too small
        to show its plane, the first tiles of a game, is taken to; a larger one shows it by its
        tiles lying where they lay: ``camera_kept_still``), the cells are put where the tiles lie in
        this photo (``image``, its ``tiles``). There a tile also counts as shown when the
        earlier photo looks the same in its place (``looks_alike``): the opening tile is the
        same picture in both, even where one photo read it otherwise or not at all; and of
        several tiles still new, all but the one whose cell alone changed (``changed_alone``)
        were there, under something that moved away. Pixels are compared only there: a plane
        fitted to a board puts a cell a few pixels off, and a hand resting in one place in both
        photos looks alike too."""
        here = {t.cell: t.corners for t in tiles if t.cell is not None}

        def shown(mapping: LatticeMap, new: list[PlacedTile]) -> set[Cell]:
            now = np.array([here[t.cell] for t in new], np.float64)
            board = [t for t in reading.tiles if t.cell is not None]
            kept_still = len(board) < LOOK_AGAIN_TILES or camera_kept_still(board, here, mapping)
            triangles = now
            if not kept_still:
                plane = np.array([point_xy(mapping.point(p)) for t in board for p in cell_corners(t.cell)])
                corners = outlines_of(board)
                side = median_side(corners)
                homography, _ = cv2.findHomography(plane, corners.reshape(-1, 2), cv2.RANSAC, LOOK_AGAIN_MISFIT * side)
                if homography is None:
                    return set()
                where = np.array([[point_xy(p) for p in cell_corners(t.cell)] for t in new], np.float64)
                triangles = cv2.perspectiveTransform(where.reshape(-1, 1, 2), homography).reshape(-1, 3, 2)
            seen = np.nonzero(in_view(triangles, earlier))[0]
            if not len(seen):  # every such cell lies outside the earlier photo
                return set()
            probabilities = self.corner_probabilities(earlier, triangles[seen], grey)
            shows = _shows(probabilities, [new[k].corners for k in seen])
            if kept_still:
                shows |= looks_alike(earlier, triangles[seen], image, now[seen]) > SAME_TILE_LOOK
            there = {new[k].cell for k, yes in zip(seen, shows) if yes}
            left = [k for k in range(len(new)) if new[k].cell not in there]
            if kept_still and len(left) > 1:
                there |= _all_but_the_one_changed(earlier, image, [new[k] for k in left], here)
            return there

        return shown

    def _missed_tile_added(
        self,
        earlier: np.ndarray,
        image: np.ndarray,
        sight: Sight,
        rules: Rules,
        first_look: FirstLook,
        lap: Callable[[str], None],
        known: KnownBoard | None,
    ) -> tuple[Sight, Cell | None]:
        """The sight with the tile added since ``earlier``, taken from the same place, where
        the finder missed it, and that tile's cell: the one empty cell beside the board that
        changed while no tile read did (``changed_beside``), and not as a shadow does, is read
        again with an outline there (in place of any loose or unread outline lying across it).
        The sight as it was, and None, where no such cell changed or reading it again joins no
        tile there."""
        board = [t for t in sight.tiles if t.cell is not None]
        _, beside = sight.fit.frontier(also_taken={t.cell for t in board})
        beside = beside[in_view(beside, image)]
        if not board or not len(beside):
            return sight, None
        only = changed_beside(earlier, image, outlines_of(board), beside)
        if only is None:
            return sight, None
        cell = beside[only]
        # A shadow or a light cast there changes the cell too, and its corners show the
        # neighbours' numbers; but the table still shows through, only darker or lighter.
        if looks_alike(earlier, cell[None], image, cell[None])[0] > SAME_TILE_LOOK:
            return sight, None
        lap("validate")  # the photos compared; the reading again times its own stages
        own = sight.outlines.reshape(-1, 3, 2)
        own = own[~overlapping(own, cell[None])[:, 0]]
        again = self._read_outlines(image, np.concatenate([own, cell[None]]), rules, first_look, lap, known)
        joined = [t for t in again.tiles if t.cell is not None]
        there = np.flatnonzero(inside(cell.mean(0)[None], outlines_of(joined))[0])
        if not len(there) or again.found[0] <= sight.found[0]:
            return sight, None
        # Read from the sight's own outlines: still that look, at its size.
        look = replace(
            again,
            working_size=sight.working_size,
            scale=sight.scale,
            tile_side=sight.tile_side,
            from_above=sight.from_above,
        )
        return look, joined[there[0]].cell

    def _opening_played(
        self, previous: Reading, earlier: np.ndarray, image: np.ndarray, tiles: tuple[ReadTile, ...], grey: bool
    ) -> tuple[ReadTile, ...]:
        """The tiles read, with the round's opening tile as the board. A tile lying alone is read
        as a loose one (``vision.loose.alone_read_loose``), but where the earlier photo (``earlier``, read as
        ``previous``) showed no tile face up and this one shows one set tile alone, that tile was
        played first: it is the board, at cell (0, 0) (a board of one tile is in a frame of the
        reader's choosing, turned to its first corner), and so the tile added. Unless the earlier
        photo shows it in its place after all (``_shown_in``: its numbers read there, or the same
        picture), a tile the earlier reading missed: validation pair 1000102, whose earlier
        photo read nothing of its close-up."""
        if previous.tiles or len(tiles) != 1 or tiles[0].cell is not None or not tiles[0].in_set:
            return tiles
        opening = replace(tiles[0], cell=(0, 0))
        shown = self._shown_in(earlier, previous, image, (opening,), grey)
        return tiles if shown(LatticeMap(), [PlacedTile(opening.cell, opening.numbers)]) else (opening,)

    def _known_missed(
        self, image: np.ndarray, fit: LatticeFit, expected: dict[Cell, tuple[int, int, int]], cells: list, grey: bool
    ) -> tuple[list[Cell], np.ndarray, np.ndarray]:
        """Known tiles the finder missed: known cells with no outline whose three corners each
        read the known number more surely than no number (a hand or a cup over the cell reads as
        no number). Returns their cells, corners (cell order) and corner probabilities."""
        taken = set(cells)
        missed = [cell for cell in expected if cell not in taken]
        if not missed or fit.homography is None:
            return no_cells()
        triangles = fit.triangles(missed)
        seen = np.nonzero(in_view(triangles, image))[0]
        probabilities = self.corner_probabilities(image, triangles[seen], grey)
        shows = _shows(probabilities, [expected[missed[k]] for k in seen])
        return [missed[k] for k in seen[shows]], triangles[seen[shows]], probabilities[shows]


def _shown_broken(
    violations: Sequence[Violation], board: Board, known: Board | None, previous: Reading | None
) -> tuple[Violation, ...]:
    """The board's violations, but for tiles not joined in the photo that the board seen before
    joins (a live game's board ``known``, else the ``previous`` photo's): a hand over the board
    hides the tiles between, which were seen placed."""
    if not any(v.kind == "no_edge_contact" for v in violations):
        return tuple(violations)
    seen_before = known if known is not None else previous.board if previous is not None else None
    mapping = frame_map(seen_before, board) if seen_before is not None and len(seen_before) else None
    if mapping is None:
        return tuple(violations)
    cells = {p.cell for p in board.placements} | {mapping.cell(p.cell) for p in seen_before.placements}
    joined = set(edge_components(cells)[0])
    return tuple(v for v in violations if v.kind != "no_edge_contact" or not set(v.cells) <= joined)


def _a_pattern(first_look: FirstLook, triangles: int, fit: LatticeFit, outlines: np.ndarray) -> Sight:
    """A look that found too many ``triangles`` for a game's tiles (``MOST_TILES``,
    ``MOST_OUTLINES``): no tile read, the count kept for the reading's note."""
    nothing = (first_look.working_size, (), (), (), False, STANDARD_MAX, 0.0, fit, outlines)
    return Sight(*nothing, scale=first_look.scale, pattern=triangles)


def read_colour_or_grey(classifier: CornerClassifier, crops: np.ndarray, tile_side: float) -> tuple[np.ndarray, bool]:
    """The crops' probabilities, read in colour or greyed, whichever the classifier is surer of
    on the first ``DECIDING_CORNERS``; and whether greyed. Colour tells a wooden set's pips
    apart (their colours are their code: greyed, they read far less surely), but an edition
    that colours its numbers in a code of its own misleads a network that learnt the studio's
    code (the second renderer's coloured sets: 83.7% of corners read in colour, 89.3% greyed,
    and greyed read more surely). Tiles under ``GREY_FROM_SIDE`` (``tile_side``, the tiles'
    side in the photo) are read in colour: their numbers are a few pixels, and which reading
    the classifier is surer of there says little of which is right (the studio's own coloured
    set of 15-27 px tiles read greyed lost boards)."""
    if not len(crops) or tile_side < GREY_FROM_SIDE:
        return classifier.predict(crops), False
    sample, rest = crops[:DECIDING_CORNERS], crops[DECIDING_CORNERS:]
    both = classifier.predict(np.concatenate([sample, greyed(sample)]))
    colour, grey = both[: len(sample)], both[len(sample) :]
    surer = bool(np.log(grey.max(1)).mean() > np.log(colour.max(1)).mean())
    chosen, rest = (grey, greyed(rest)) if surer else (colour, rest)
    return np.concatenate([chosen, classifier.predict(rest)]), surer


def _glued_again(fit: LatticeFit, cells: list[Cell | None], corners: np.ndarray) -> LatticeFit | None:
    """The lattice fitted again to the tiles read so far (``corners``: the board's and those
    ``completed`` found beside it in cell order, loose outlines as found), when that joins more
    of them into the board: tiles found beside the board can bridge the gap that missed tiles
    left between it and a part that glued apart (studio test photo 2000200: three tiles beyond
    two missed ones, which the plane of the steep board's six other tiles did not put on their
    cells). None when no tile was found beside the board, none lies loose, or gluing again joins
    no more."""
    if len(cells) == len(fit.cells) or None not in cells:
        return None
    again = fit_board(corners)
    return again if again.on_board.sum() > sum(cell is not None for cell in cells) else None


def _looks_small(shape: tuple[int, ...], first: Sight, first_look: FirstLook) -> bool:
    """Whether the first look's tiles, or where it read none its outlines, came out small enough
    to be looked for again shown larger (``seen_small``). That holds also where the first look
    seemed too close (as many outlines unread as tiles read) and is looked at from farther: the
    cores of a small board's tiles run together and break up the way a close-up's numbers do,
    and the look that joins the most tiles wins."""
    if first.tiles:
        return seen_small(shape, first_look, first.photo_tile_side)
    outlines = first_look.outlines
    return len(outlines) > 0 and seen_small(shape, first_look, median_side(outlines))


def seen_small(shape: tuple[int, ...], first_look: FirstLook, tile_side: float) -> bool:
    """Whether the finder saw tiles of ``tile_side`` photo pixels smaller than it finds well
    (``vision.sight.small_for_the_finder``) and can be shown them larger (``ENLARGED_TILE_SIDE``).
    Judged at the scale the finder looked at, not in the photo's pixels: a phone photo's tiles
    may be large in its pixels yet small in the finder's view of it."""
    seen = seen_scale(shape, first_look)
    shown_larger = seen_scale(shape, first_look, ENLARGED_TILE_SIDE) > seen
    return shown_larger and small_for_the_finder(tile_side * seen)


def _shows(probabilities: np.ndarray, numbers: np.ndarray | Sequence[tuple[int, int, int]]) -> np.ndarray:
    """(N,) bool: whether each tile's three corners, (N, 3, 8) probabilities, read its (N, 3)
    numbers more surely than no number."""
    numbers = np.asarray(numbers, np.intp).reshape(-1, 3)  # (0, 3) for no tiles, not floats
    read = np.take_along_axis(probabilities, numbers[:, :, None], axis=2)[:, :, 0]
    return (read > probabilities[:, :, NO_NUMBER]).all(1)


def _the_cell_that_changed(earlier: np.ndarray, image: np.ndarray, tiles: Sequence[ReadTile]) -> Cell | None:
    """The cell of the one board tile whose place changed since ``earlier``, taken from the same
    place, where no other tile's did (``changed_only``): the tile added, whatever either photo's
    reading made of the others."""
    on_board = [t for t in tiles if t.cell is not None]
    only = changed_only(earlier, image, outlines_of(on_board))
    return None if only is None else on_board[only].cell


def _all_but_the_one_changed(
    earlier: np.ndarray, image: np.ndarray, new: Sequence[PlacedTile], corners_at: Mapping[Cell, np.ndarray]
) -> set[Cell]:
    """Of several tiles that look new (their corners in ``image`` by cell: ``corners_at``), the
    cells of all but the one whose cell alone changed since ``earlier``, taken from the same place
    (``changed_alone``): those lay there already. Empty where no one cell changed alone."""
    alone = changed_alone(earlier, image, np.array([corners_at[p.cell] for p in new], np.float64))
    return set() if alone is None else {p.cell for k, p in enumerate(new) if k != alone}


def read_numbers(
    probabilities: np.ndarray,
    corners: np.ndarray,
    cells: list,
    rules: Rules,
    expected: dict[Cell, tuple[int, int, int]] | None = None,
    hints: dict[Cell, tuple[int, int, int]] | None = None,
) -> tuple[list[ReadTile], int]:
    """Face-up tiles read from their (N, 3, 8) corner probabilities with the game's constraints,
    and the highest number of the set in play: the rule preset's if it names the large set, or
    a tile ``expected`` or hinted in a cell shows a 6; else whichever set reads likelier
    (``vision.decode.decode_in_either_set``). ``hints``: tiles placed from an unsure reading."""
    given = {**(expected or {}), **(hints or {})}
    large_known = rules.max_number == LARGE_MAX or any(max(numbers) >= LARGE_MAX for numbers in given.values())
    sets = (LARGE_MAX,) if large_known else (STANDARD_MAX, LARGE_MAX)

    def by_tile(numbers: dict[Cell, tuple[int, int, int]] | None) -> list | None:
        return [numbers.get(cell) if cell is not None else None for cell in cells] if numbers else None

    decoded, max_number = decode_in_either_set(probabilities, cells, sets, by_tile(expected), by_tile(hints))
    tiles = [ReadTile(d.cell, c, d.numbers, d.confidences, d.in_set, d.ambiguous) for d, c in zip(decoded, corners)]
    return tiles, max_number


def _no_surer_than(tile: ReadTile, confidence: float) -> ReadTile:
    """The tile with no number surer than ``confidence``, flagged where that is under ``UNSURE_BELOW``."""
    confidences = tuple(min(c, confidence) for c in tile.confidences)
    return replace(tile, confidences=confidences, ambiguous=tile.ambiguous or min(confidences) < UNSURE_BELOW)


def _added(timing: Mapping[str, float], more: Mapping[str, float]) -> dict[str, float]:
    """Milliseconds per stage, ``more`` added to ``timing``."""
    return {**timing, **{stage: timing.get(stage, 0.0) + ms for stage, ms in more.items()}}


def _backs_from_farther(chosen: Sight, later_looks: list[Sight]) -> tuple[np.ndarray, ...]:
    """The backs the chosen look found, and those the looks taken after the first one from
    farther (a close-up's) found beside its tiles: a close-up's board and its pile are seen best
    at different scales (a look from farther finds large backs whole where the nearer one, which
    reads the board better, finds parts of them). Only looks from farther that still show the
    tiles as large as the finder finds well: a nearer look (the first, where a look nearer still
    won), or one showing them small, also finds specks of table."""
    farther = [
        sight
        for sight in later_looks
        if sight.working_size < chosen.working_size and not small_for_the_finder(sight.tile_side)
    ]
    others = tuple(back for sight in farther for back in sight.face_down)
    if not others:
        return chosen.face_down
    return like_the_read_tiles(chosen.face_down + others, outlines_of(chosen.tiles), chosen.fit)
