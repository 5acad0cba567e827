"""The balance lab and Fano's design options: the variants are written like any other, and
a prestige Temporary Joker is a kind of its own (``prestige_joker``) that a report can count
and a restriction can forbid."""

from __future__ import annotations

from fanfold.balance import build_experiment
from fanfold.balance.experiment import parse_player, restriction_names
from fanfold.core.kinds import allowed
from fanfold.core.registry import get_game
from fanfold.games.fano import FanoConfig, SpecialsMode

FANO = get_game("fano")


def test_the_options_are_read_from_a_variant() -> None:
    experiment = build_experiment(
        "fano",
        [
            {"preset": "classic", "options": {"specials": "suit", "suits": "SH"}},
            {
                "name": "prestige joker",
                "preset": "classic",
                "options": {"specials": "suit", "suits": "SH", "joker_prestige": True},
                "distinguishing": ["prestige_joker"],
            },
            {
                "name": "oversum tribute",
                "preset": "trionfey-specials",
                "options": {"suits": "CH", "oversum_tribute": True},
            },
        ],
        ["random"],
        games=2,
    )
    first, joker, oversum = (variant.config for variant in experiment.variants)
    assert isinstance(joker, FanoConfig)
    assert isinstance(oversum, FanoConfig)
    assert joker.joker_prestige
    assert first == joker.replace(joker_prestige=False)
    assert oversum.oversum_tribute
    assert experiment.variants[1].distinguishing == ("prestige_joker",)


def test_a_prestige_joker_is_a_restriction_name_and_is_forbidden_alone() -> None:
    assert {"prestige_joker", "bluff", "joker"} <= restriction_names(FANO)
    player = parse_player("planner(deals=1, nodes=40); forbid=prestige_joker", FANO)
    assert player.forbidden == ("prestige_joker",)
    config = FanoConfig(specials=SpecialsMode.CHOICE, joker_prestige=True)
    state = FANO.parse_position("fano player=1 | specials=0:joker hand=TJ field=4H,5H | -", config)
    legal = FANO.legal_actions(state)
    texts = {str(action) for action in allowed(FANO, state, legal, ("prestige_joker",))}
    assert "4H+5H=TJ9" not in texts
    assert {str(action) for action in legal} - texts == {
        "4H+5H=TJ9",
        "4H+5H=TJ9 return 4H",
        "4H+5H=TJ9 return 5H",
    }
