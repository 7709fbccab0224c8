"""Rule options and the named presets of RULES.md.

Every point where the sources disagree is a named option, so a house rule is one
``dataclasses.replace(preset, option=value)`` away.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Literal

from engine.tiles import LARGE_MAX, STANDARD_MAX

DEFAULT_PRESET = "pressman-us"


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
