"""A whole game: turns, draws, passes, rounds and the finish, as an undoable event log.

The camera sees placements only; draws, passes and the racks left at the end of a round are
told to the game by the players. So the game tracks how many tiles each player holds and how
many lie in the pile, never which ones. ``advance`` is a pure function from a state and an
event to the next state; ``Game`` keeps the log, and undo replays it without the last event.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from typing import Literal

from engine.board import Board, PlacedTile, Violation
from engine.lattice import Cell, check_within_reach, mirror_image
from engine.rules import Rules, get_rules
from engine.scoring import PlacementResult, judge_placement
from engine.tiles import Corners, tile_set

Phase = Literal["opening", "playing", "settling", "over"]


class IllegalEvent(ValueError):
    """An event the rules do not allow in the current state; the state is unchanged."""


@dataclass(frozen=True)
class Place:
    player: int
    cell: Cell
    corners: Corners


@dataclass(frozen=True)
class Draw:
    player: int


@dataclass(frozen=True)
class Pass:
    player: int


@dataclass(frozen=True)
class EndRound:
    """Settles a finished round; ``racks`` is each player's total of tile values still held."""

    racks: tuple[int, ...]


Event = Place | Draw | Pass | EndRound
EVENT_TYPES = {"place": Place, "draw": Draw, "pass": Pass, "end_round": EndRound}


def event_to_dict(event: Event) -> dict:
    kind = next(k for k, t in EVENT_TYPES.items() if isinstance(event, t))
    out: dict = {"kind": kind}
    for name, value in vars(event).items():
        out[name] = list(value) if isinstance(value, tuple) else value
    return out


def event_from_dict(data: dict) -> Event:
    """The event a JSON object describes; IllegalEvent for an unknown kind or wrong fields."""
    if not isinstance(data, dict) or data.get("kind") not in EVENT_TYPES:
        raise IllegalEvent(f"an event needs a kind, one of {', '.join(EVENT_TYPES)}")
    given = {k: v for k, v in data.items() if k != "kind"}
    kind = EVENT_TYPES[data["kind"]]
    needed = [f.name for f in fields(kind)]
    if set(given) != set(needed):
        got = ", ".join(given) or "none"
        raise IllegalEvent(f"{data['kind']} events have the fields {', '.join(needed)}; got {got}")
    for name in ("cell", "corners", "racks"):
        if name in given:
            try:
                given[name] = tuple(given[name])
            except TypeError:
                raise IllegalEvent(f"bad {data['kind']} event: {name} must be a list of integers") from None
    event = kind(**given)
    for name, value in vars(event).items():
        values = value if isinstance(value, tuple) else (value,)
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
            what = "a list of integers" if isinstance(value, tuple) else "an integer"
            raise IllegalEvent(f"bad {data['kind']} event: {name} must be {what}")
    if isinstance(event, Place):
        try:
            check_within_reach(event.cell)
        except ValueError as error:
            raise IllegalEvent(f"bad place event: {error}") from None
    return event


@dataclass(frozen=True)
class GameState:
    players: tuple[str, ...]
    scores: tuple[int, ...]
    hand_counts: tuple[int, ...]
    pile: int
    round: int = 1
    board: Board = field(default_factory=Board)
    phase: Phase = "opening"
    turn: int | None = None  # None while the round waits for its opening tile
    opener: int | None = None
    draws_this_turn: int = 0
    passes_in_row: int = 0  # passes with an empty pile since the last tile
    went_out: int | None = None
    turns_left: int | None = None  # turns still owed after someone went out (play-out rule)
    round_winners: tuple[int, ...] = ()
    winner: int | None = None

    def to_dict(self) -> dict:
        return {
            "players": list(self.players),
            "scores": list(self.scores),
            "round": self.round,
            "phase": self.phase,
            "turn": self.turn,
            "hand_counts": list(self.hand_counts),
            "pile": self.pile,
            "draws_this_turn": self.draws_this_turn,
            "board": [{"cell": list(p.cell), "corners": list(p.corners)} for p in self.board.placements],
            "round_winners": list(self.round_winners),
            "winner": self.winner,
        }


@dataclass(frozen=True)
class LogEntry:
    """One applied event with its effect on every player's score."""

    event: Event
    round: int
    deltas: tuple[int, ...]
    description: str
    placement: PlacementResult | None = None

    def to_dict(self) -> dict:
        out = {
            "event": event_to_dict(self.event),
            "round": self.round,
            "deltas": list(self.deltas),
            "description": self.description,
        }
        if self.placement is not None:
            out["placement"] = self.placement.to_dict()
        return out


def new_round_state(
    players: Sequence[str], rules: Rules, scores: Sequence[int], round_number: int, round_winners: tuple[int, ...] = ()
) -> GameState:
    deal = rules.deal_size(len(players))
    return GameState(
        players=tuple(players),
        scores=tuple(scores),
        hand_counts=(deal,) * len(players),
        pile=len(tile_set(rules.max_number)) - deal * len(players),
        round=round_number,
        round_winners=round_winners,
    )


def advance(state: GameState, event: Event, rules: Rules) -> tuple[GameState, LogEntry]:
    """The state after ``event``, and its log entry; IllegalEvent if the rules forbid it."""
    if state.phase == "over":
        raise IllegalEvent("the game is over")
    if isinstance(event, EndRound):
        return _settle(state, event, rules)
    if not 0 <= event.player < len(state.players):
        raise IllegalEvent(f"there is no player {event.player}")
    if state.phase == "settling":
        raise IllegalEvent("the round is over: settle it with the racks left in each hand")
    if state.turn is not None and event.player != state.turn:
        raise IllegalEvent(f"it is {state.players[state.turn]}'s turn, not {state.players[event.player]}'s")
    if isinstance(event, Place):
        return _place(state, event, rules)
    if state.phase == "opening":
        raise IllegalEvent("the round has not been opened: the first tile goes down before any draw or pass")
    if isinstance(event, Draw):
        return _draw(state, event, rules)
    return _pass(state, event, rules)


def _deltas(state: GameState, player: int, points: int) -> tuple[int, ...]:
    return tuple(points if i == player else 0 for i in range(len(state.players)))


def _add(scores: tuple[int, ...], deltas: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(s + d for s, d in zip(scores, deltas))


def _refusal(violations: Sequence[Violation]) -> str:
    """Why a placement is refused, in one line: each violation's message, but a tile entered
    where it already lies is said to be there once (not also that its cell is taken)."""
    where_it_lies = any(v.kind == "duplicate_tile" and v.cells[0] == v.cells[1] for v in violations)
    return "; ".join(v.message for v in violations if not (where_it_lies and v.kind == "occupied"))


def _place(state: GameState, event: Place, rules: Rules) -> tuple[GameState, LogEntry]:
    player = event.player
    if state.hand_counts[player] == 0:
        raise IllegalEvent(f"{state.players[player]} has no tiles left")
    try:
        placed = PlacedTile(event.cell, event.corners)
    except ValueError as error:
        raise IllegalEvent(str(error)) from None
    result = judge_placement(state.board, placed, rules)
    if not result.legal:
        raise IllegalEvent(_refusal(result.violations))
    deltas = _deltas(state, player, result.score.total)
    counts = tuple(c - (i == player) for i, c in enumerate(state.hand_counts))
    opener = player if state.opener is None else state.opener
    went_out, turns_left = state.went_out, state.turns_left
    if counts[player] == 0 and went_out is None:
        went_out = player
        n = len(state.players)
        turns_left = (opener - 1 - player) % n if rules.play_out_round else 0
    elif turns_left is not None:
        turns_left -= 1
    new = replace(
        state,
        board=state.board.with_tile(placed),
        scores=_add(state.scores, deltas),
        hand_counts=counts,
        opener=opener,
        phase="settling" if turns_left == 0 else "playing",
        went_out=went_out,
        turns_left=turns_left,
        passes_in_row=0,
        **_next_turn(state, player),
    )
    tile = result.to_dict()["tile"]
    text = f"{state.players[player]} plays {tile} at {list(event.cell)}: {result.score.breakdown}"
    return new, LogEntry(event, state.round, deltas, text, result)


def _next_turn(state: GameState, player: int) -> dict:
    return {"turn": (player + 1) % len(state.players), "draws_this_turn": 0}


def _draw(state: GameState, event: Draw, rules: Rules) -> tuple[GameState, LogEntry]:
    if state.pile == 0:
        raise IllegalEvent("the pile is empty: pass instead")
    if rules.max_draws is not None and state.draws_this_turn >= rules.max_draws:
        raise IllegalEvent(f"at most {rules.max_draws} draws a turn under {rules.name}: pass instead")
    deltas = _deltas(state, event.player, -rules.draw_penalty)
    new = replace(
        state,
        scores=_add(state.scores, deltas),
        hand_counts=tuple(c + (i == event.player) for i, c in enumerate(state.hand_counts)),
        pile=state.pile - 1,
        draws_this_turn=state.draws_this_turn + 1,
    )
    return new, LogEntry(event, state.round, deltas, f"{state.players[event.player]} draws a tile")


def _pass(state: GameState, event: Pass, rules: Rules) -> tuple[GameState, LogEntry]:
    if state.pile == 0:
        penalty, why = rules.pile_empty_pass_penalty, "the pile is empty"
    elif rules.max_draws is not None and state.draws_this_turn >= rules.max_draws:
        penalty, why = rules.no_play_after_max_draws_penalty, f"no fit after {rules.max_draws} draws"
    else:
        raise IllegalEvent("a player who cannot play draws from the pile before passing")
    deltas = _deltas(state, event.player, -penalty)
    passes = state.passes_in_row + 1 if state.pile == 0 else 0
    turns_left = None if state.turns_left is None else state.turns_left - 1
    blocked = passes >= len(state.players)
    new = replace(
        state,
        scores=_add(state.scores, deltas),
        passes_in_row=passes,
        turns_left=turns_left,
        phase="settling" if blocked or turns_left == 0 else "playing",
        **_next_turn(state, event.player),
    )
    return new, LogEntry(event, state.round, deltas, f"{state.players[event.player]} passes ({why})")


def _settle(state: GameState, event: EndRound, rules: Rules) -> tuple[GameState, LogEntry]:
    n = len(state.players)
    if state.phase != "settling":
        raise IllegalEvent("the round is still being played")
    racks = event.racks
    if len(racks) != n or any(r < 0 for r in racks):
        raise IllegalEvent(f"give {n} rack totals, none negative")
    for i, (rack, count) in enumerate(zip(racks, state.hand_counts)):
        if rack > 3 * rules.max_number * count:
            raise IllegalEvent(f"{state.players[i]} holds {count} tiles, which cannot total {rack}")
    if state.went_out is not None:
        winner = state.went_out
        points = rules.going_out_bonus + (sum(racks) - racks[winner] if rules.rack_points else 0)
        how = "goes out"
    else:
        winner = min(range(n), key=lambda i: racks[i])  # ties: the first in seat order
        others = sum(racks) - racks[winner]
        points = {
            "others_minus_own": others - racks[winner],
            "pairwise": others - (n - 1) * racks[winner],
            "none": 0,
        }[rules.blocked_settlement]
        how = "wins the blocked round"
    deltas = _deltas(state, winner, points)
    scores = _add(state.scores, deltas)
    winners = (*state.round_winners, winner)
    text = f"round {state.round}: {state.players[winner]} {how}, {points:+d}"
    if max(scores) >= rules.target_score or (rules.max_rounds is not None and state.round >= rules.max_rounds):
        champion = game_winner(scores, winner, rules)
        new = replace(state, scores=scores, phase="over", turn=None, round_winners=winners, winner=champion)
        text += f"; {state.players[champion]} wins the game"
    else:
        new = new_round_state(state.players, rules, scores, state.round + 1, winners)
    return new, LogEntry(event, state.round, deltas, text)


def game_winner(scores: tuple[int, ...], last_round_winner: int, rules: Rules) -> int:
    """Who wins once someone has reached the target: the only one over it, else the preset's choice."""
    over = [i for i, s in enumerate(scores) if s >= rules.target_score]
    if len(over) == 1:
        return over[0]
    if rules.winner_when_several == "last_round_winner" and last_round_winner in over:
        return last_round_winner
    return max(range(len(scores)), key=lambda i: scores[i])


class Game:
    """A game's event log and current state. ``apply`` refuses illegal events without change."""

    def __init__(self, players: Sequence[str], rules: Rules | str = "pressman-us", events: Iterable[Event] = ()):
        if not 2 <= len(players) <= 6:
            raise ValueError(f"a game has 2 to 6 players, not {len(players)}")
        self.rules = get_rules(rules) if isinstance(rules, str) else rules
        self.players = tuple(players)
        self.log: list[LogEntry] = []
        self.state = new_round_state(self.players, self.rules, (0,) * len(self.players), 1)
        for event in events:
            self.apply(event)

    def apply(self, event: Event) -> LogEntry:
        self.state, entry = advance(self.state, event, self.rules)
        self.log.append(entry)
        return entry

    def undo(self) -> Event:
        """Take back the last event; the state is rebuilt from the log without it."""
        if not self.log:
            raise IllegalEvent("nothing to undo")
        undone = self.log[-1].event
        self._replay(self.events[:-1])
        return undone

    def correct(self, corrections: Mapping[Cell, Corners]) -> list[LogEntry]:
        """Give placements of this round other numbers (the camera misread them), all at once: a
        misread tile and the one read to fit it beside it are legal only together. The log
        replays, scores follow, and the game stays as it was (IllegalEvent) if the rules then
        refuse any event. Returns the corrected placements' new entries, in the order given."""
        events, placed = self.events, self._round_placements()
        indices = []
        for cell, corners in corrections.items():
            index = next((i for i in placed if events[i].cell == cell), None)
            if index is None:
                raise IllegalEvent(f"no tile of this round was placed at {list(cell)}")
            events[index] = _placed_otherwise(events[index], cell, corners)
            indices.append(index)
        self._replay(events)
        return [self.log[index] for index in indices]

    def mirror_round(self, numbers: Mapping[Cell, Corners]) -> list[LogEntry]:
        """Turn this round's board over (``engine.lattice.mirror_image``): each placement moves to
        its cell in the board's mirror image, with its numbers re-listed clockwise there, or
        those ``numbers`` gives for that cell. A camera that mirrors its picture, unnoticed
        (``vision.mirror``), had a live game commit the table turned over; a tile of three
        different numbers, turned over, is no set tile, so the numbers read the right way round
        are given for those. Scores follow, as the log replays; IllegalEvent, the game as it was,
        if the rules then refuse any event. Returns the round's placements' new entries."""
        events, placed = self.events, self._round_placements()
        for index in placed:
            cell, corners = mirror_image(events[index].cell, events[index].corners)
            events[index] = _placed_otherwise(events[index], cell, numbers.get(cell, corners))
        self._replay(events)
        return [self.log[index] for index in placed]

    def _round_placements(self) -> list[int]:
        """The log indices of this round's placements."""
        ends = [i for i, entry in enumerate(self.log) if isinstance(entry.event, EndRound)]
        start = ends[-1] + 1 if ends else 0
        return [i for i in range(start, len(self.log)) if isinstance(self.log[i].event, Place)]

    def _replay(self, events: list[Event]) -> None:
        """Become the game these events make (IllegalEvent, unchanged, if the rules refuse one)."""
        replay = Game(self.players, self.rules, events)
        self.state, self.log = replay.state, replay.log

    @property
    def events(self) -> list[Event]:
        return [e.event for e in self.log]

    def score_sheet(self) -> list[dict]:
        """One row per scoring event: who, what, the change and the running totals."""
        totals = [0] * len(self.players)
        rows = []
        for entry in self.log:
            totals = [t + d for t, d in zip(totals, entry.deltas)]
            rows.append(
                {
                    "round": entry.round,
                    "event": event_to_dict(entry.event)["kind"],
                    "description": entry.description,
                    "deltas": list(entry.deltas),
                    "totals": list(totals),
                }
            )
        return rows

    def to_dict(self) -> dict:
        return {"rules": self.rules.name, **self.state.to_dict(), "events": [e.to_dict() for e in self.log]}


def _placed_otherwise(event: Place, cell: Cell, corners: Corners) -> Place:
    """The placement with another cell and numbers, checked as any placement given from outside."""
    return event_from_dict({**event_to_dict(event), "cell": list(cell), "corners": list(corners)})
