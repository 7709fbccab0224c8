"""Rule options and the named presets of RULES.md.

Every point where the sources disagree is a named option, so a house rule is one
``dataclasses.replace(preset, option=value)`` away.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Literal

from engine.tiles import LARGE_MAX, STANDARD_MAX, tile_set

DEFAULT_PRESET = "pressman-us"
MOST_ROUNDS = 100  # a set number of rounds agreed before the game (a round takes a quarter of an hour)


@dataclass(frozen=True)
class Rules:
    name: str
    max_number: int = STANDARD_MAX
    # Placement scoring.
    points_per_tile: int | None = None  # None: the tile's value; children's rules: 1 per tile
    bridge_bonus: int = 40
    hexagon_bonuses: tuple[int, int, int] = (50, 100, 150)  # one, two, three hexagons at once
    two_sided_bonus: int = 40
    # Opening a round.
    opener: Literal["highest_triple", "draw_one"] = "highest_triple"
    opening_tile: Literal["triple_or_zero", "any"] = "triple_or_zero"
    opening_triple_bonus: int = 10
    opening_zero_triple_bonus: int = 40  # 0-0-0 opens for 10 + an extra 30
    # Drawing and passing.
    max_draws: int | None = None  # None: draw until a tile fits or the pile is empty
    draw_while_playable: bool = False
    draw_penalty: int = 5
    no_play_after_max_draws_penalty: int = 10
    pile_empty_pass_penalty: int = 10
    # End of a round and of the game.
    going_out_bonus: int = 25
    rack_points: bool = True  # winner of a round collects the others' rack totals
    play_out_round: bool = False  # after someone goes out, finish the turn cycle
    blocked_settlement: Literal["others_minus_own", "pairwise", "none"] = "others_minus_own"
    target_score: int = 400
    max_rounds: int | None = None
    winner_when_several: Literal["last_round_winner", "highest"] = "last_round_winner"
    deal_sizes: dict[int, int] = field(
        default_factory=lambda: {2: 9, 3: 7, 4: 7, 5: 6, 6: 6}, compare=False, hash=False
    )

    def __post_init__(self) -> None:
        if self.max_number not in (STANDARD_MAX, LARGE_MAX):
            raise ValueError(f"max_number must be {STANDARD_MAX} or {LARGE_MAX}")
        if self.max_draws is not None and self.max_draws < 1:
            raise ValueError("max_draws must be at least 1 (or None for no limit)")
        if len(self.hexagon_bonuses) != 3:
            raise ValueError("hexagon_bonuses lists the bonus for one, two and three hexagons")
        if self.max_rounds is not None and not 1 <= self.max_rounds <= MOST_ROUNDS:
            raise ValueError(f"a game of a set number of rounds plays 1 to {MOST_ROUNDS} of them")

    def deal_size(self, players: int) -> int:
        if players not in self.deal_sizes:
            raise ValueError(f"a game has 2 to 6 players, not {players}")
        return self.deal_sizes[players]


PRESSMAN_2012 = Rules(
    name="pressman-2012",
    hexagon_bonuses=(50, 60, 70),
    two_sided_bonus=0,
    opener="draw_one",
    opening_tile="any",
    opening_triple_bonus=0,
    opening_zero_triple_bonus=0,
    max_draws=3,
    draw_while_playable=True,
    pile_empty_pass_penalty=0,
    play_out_round=True,
    winner_when_several="highest",
)

PRESETS: dict[str, Rules] = {
    "pressman-us": Rules(name="pressman-us"),
    "pressman-2012": PRESSMAN_2012,
    "wikipedia": Rules(
        name="wikipedia",
        two_sided_bonus=0,
        max_draws=3,
        blocked_settlement="pairwise",
        winner_when_several="highest",
    ),
    # The 2012 leaflet's simplified scoring for children: the same game, small points, no minus points.
    "children": replace(
        PRESSMAN_2012,
        name="children",
        points_per_tile=1,
        bridge_bonus=1,
        hexagon_bonuses=(1, 2, 3),
        draw_penalty=0,
        no_play_after_max_draws_penalty=0,
        going_out_bonus=5,
        rack_points=False,
        blocked_settlement="none",
    ),
}


def get_rules(name: str) -> Rules:
    """The preset called ``name``; ValueError naming the known presets otherwise."""
    try:
        return PRESETS[name]
    except KeyError:
        known = ", ".join(PRESETS)
        raise ValueError(f"unknown rule preset {name!r} (known: {known})") from None


def game_rules(preset: str, max_number: int = STANDARD_MAX, rounds: int | None = None) -> Rules:
    """The preset as the players set it up: the set they play with (numbers 0 to ``max_number``:
    5 for the 56-tile set, 6 for the 84-tile one) and, where they agree on one, a number of
    ``rounds`` after which the game ends if nobody has reached the target (the 2012 leaflet's
    option; any preset takes it; None: the preset's own). ValueError for an unknown preset or a
    choice out of range."""
    rules = get_rules(preset)
    return replace(rules, max_number=max_number, max_rounds=rules.max_rounds if rounds is None else rounds)


BLOCKED_ROUND_SAID = {
    "others_minus_own": "scoring the other racks less its own",
    "pairwise": "scoring each other rack less its own",
    "none": "with no points",
}
SEVERAL_OVER_TARGET_SAID = {
    "last_round_winner": "if several do, that round's winner wins",
    "highest": "the highest score wins",
}


def described(rules: Rules) -> list[str]:
    """The preset in a few plain sentences, for players choosing one: where the presets differ."""
    per_tile = "the sum of its numbers" if rules.points_per_tile is None else _count(rules.points_per_tile, "point")
    one, two, three = rules.hexagon_bonuses
    placing = f"A tile scores {per_tile}; a bridge +{rules.bridge_bonus}; a hexagon +{one}"
    placing += f", two at once +{two}, three +{three}"
    if rules.two_sided_bonus:
        placing += f"; fitting two sides without a hexagon +{rules.two_sided_bonus}"
    if rules.opener == "highest_triple":
        opening = "The highest triple opens (with no triple, the highest tile)"
    else:
        opening = "Each player draws a tile and the highest opens"
    if rules.opening_tile == "any":
        opening += ", with any tile"
    else:
        opening += "; 0-0-0 may open instead" if rules.opener == "highest_triple" else ", with a triple or 0-0-0"
    if rules.opening_triple_bonus or rules.opening_zero_triple_bonus:
        opening += f"; a triple opening scores +{rules.opening_triple_bonus}, 0-0-0 +{rules.opening_zero_triple_bonus}"
    if rules.draw_while_playable:
        drawing = "A player may draw even with a tile that fits"
    else:
        drawing = "A player draws only when no tile in hand fits"
    drawing += ", until one fits" if rules.max_draws is None else f", up to {rules.max_draws} tiles a turn"
    drawing += f", -{rules.draw_penalty} a tile" if rules.draw_penalty else ", at no cost"
    if rules.max_draws is not None and rules.no_play_after_max_draws_penalty:
        drawing += f", -{rules.no_play_after_max_draws_penalty} more when none of them fits"
    drawing += "; passing with the pile empty "
    drawing += f"-{rules.pile_empty_pass_penalty}" if rules.pile_empty_pass_penalty else "costs nothing"
    ending = f"Going out scores +{rules.going_out_bonus}"
    if rules.rack_points:
        ending += " and the tiles left in the other racks"
    if rules.play_out_round:
        ending += ", once the round is played out to equal turns"
    ending += "; a blocked round goes to the lowest rack, " + BLOCKED_ROUND_SAID[rules.blocked_settlement]
    finish = f"The game ends with the round in which someone reaches {rules.target_score}"
    finish += "; " + SEVERAL_OVER_TARGET_SAID[rules.winner_when_several]
    sentences = [placing, opening, drawing, ending, finish]
    if rules.max_rounds is not None:
        rounds = _count(rules.max_rounds, "round")
        sentences.append(f"Else it ends after {rounds}, and the highest score wins")
    if rules.max_number != STANDARD_MAX:
        tiles = len(tile_set(rules.max_number))
        sentences.insert(0, f"Played with the {tiles}-tile set, numbers 0 to {rules.max_number}")
    return [sentence + "." for sentence in sentences]


def _count(count: int, thing: str) -> str:
    return f"{count} {thing}" if count == 1 else f"{count} {thing}s"
