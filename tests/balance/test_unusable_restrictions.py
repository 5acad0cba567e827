"""A restriction the variant cannot apply is refused: ``forbid=oversum`` in Fano's classic
preset, which has no specials, would change nothing and report about 50%."""

from __future__ import annotations

import pytest

from fanfold.balance.experiment import build_experiment, offered_kinds
from fanfold.core.errors import ConfigError
from fanfold.core.registry import get_game, set_up


def test_a_restriction_the_preset_cannot_apply_is_refused() -> None:
    with pytest.raises(ConfigError) as refused:
        build_experiment(
            "fano", [{"preset": "classic"}], ["random", "random; forbid=oversum"], games=10
        )
    message = str(refused.value)
    assert "'classic': attack, combine" in message
    assert "'random; forbid=oversum' may not choose 'oversum'" in message
    assert "offers no such action" in message
    assert "about 50%" in message


def test_a_restriction_one_variant_can_apply_is_kept_for_the_others() -> None:
    """Variants compared with the same players: the restriction means something in one."""
    experiment = build_experiment(
        "fano",
        [{"name": "a", "preset": "specials-choice"}, {"name": "b", "preset": "classic"}],
        ["random; forbid=oversum", "random"],
        games=4,
    )
    assert [variant.players[0].forbidden for variant in experiment.variants] == [
        ("oversum",),
        ("oversum",),
    ]
    with pytest.raises(ConfigError, match="any variant it plays in offers no such action"):
        build_experiment(
            "fano",
            [{"name": "a", "preset": "classic"}, {"name": "b", "preset": "trionfey"}],
            ["random; forbid=oversum", "random"],
            games=4,
        )


def test_only_the_names_the_variant_lacks_are_named() -> None:
    with pytest.raises(ConfigError, match=r"may not choose 'oversum', but"):
        build_experiment(
            "fano",
            [{"preset": "trionfey"}],
            ["random", "random; forbid=recruit,oversum"],
            games=10,
            rotate=False,
        )


@pytest.mark.parametrize(
    ("game", "preset", "names"),
    [
        ("fano", "specials-choice", "oversum,reverse,defend"),
        ("fano", "trionfey", "bluff,recruit,counter"),  # bluff: a kind only a position tells
        ("fano", "trionfey-specials", "face_down,flip,sacrifice"),
        ("fantan", "standard", "pass"),
        ("morris", "geometric", "place"),
    ],
)
def test_a_restriction_the_variant_can_apply_is_kept(game: str, preset: str, names: str) -> None:
    experiment = build_experiment(
        game, [{"preset": preset}], ["random", f"random; forbid={names}"], games=8, rotate=False
    )
    assert experiment.variants[0].players[1].forbidden == tuple(names.split(","))


def test_the_kinds_are_those_of_the_variants_action_table() -> None:
    fano = get_game("fano")
    classic = offered_kinds(fano, set_up("fano", "classic")[1])
    specials = offered_kinds(fano, set_up("fano", "specials-choice")[1])
    assert classic is not None
    assert specials is not None
    assert "combine+oversum" in specials - classic
    assert {"attack", "combine", "promote"} <= classic
    # A config the environments do not encode (a Temporary Joker as a prestige card) cannot be
    # told, so its restrictions are not checked.
    prestige = set_up("fano", "specials-choice", {"joker_prestige": "true"})[1]
    assert offered_kinds(fano, prestige) is None
