"""What the games declare about themselves (traits and hooks) and the one set-up function, which
the layers above the games ask instead of testing a game's name."""

from __future__ import annotations

import pytest

from fanfold.core.errors import ConfigError, UnknownGameError
from fanfold.core.game import Traits
from fanfold.core.kinds import played_kind
from fanfold.core.registry import all_games, get_game, resolve_variant, set_up
from fanfold.envs.episode import UNBOUNDED_MAX_STEPS, default_max_steps
from tests.games.fano.helpers import FANO
from tests.games.fano.helpers import trionfey_position as setup


@pytest.mark.parametrize(
    ("name", "chance", "zero_sum", "returns"),
    [
        ("fan", True, False, (0.0, 1.0)),
        ("fano", True, False, (-1.0, 1.0)),
        ("fantan", True, False, (-1000.0, 1000.0)),
        ("morris", False, True, (-1.0, 1.0)),
    ],
)
def test_each_game_declares_its_traits(
    name: str, chance: bool, zero_sum: bool, returns: tuple[float, float]
) -> None:
    assert get_game(name).traits == Traits(chance, zero_sum, returns)


def test_traits_refuse_bounds_the_wrong_way_round() -> None:
    with pytest.raises(ValueError, match="from the least to the most"):
        Traits(chance=False, zero_sum=True, returns=(1.0, -1.0))


def test_every_game_is_found_by_its_declared_aliases() -> None:
    for game in all_games():
        assert game.aliases, f"{game.id} declares no alias"
        for alias in game.aliases:
            assert get_game(alias) is game


def test_the_longest_game_bounds_games_with_limits_only() -> None:
    fano, fantan = get_game("fano"), get_game("fantan")
    assert fano.longest_game(fano.default_config()) == fano.default_config().last_turn * 50
    _, match = set_up("fantan", options={"hands": 3}, players=5)
    assert fantan.longest_game(match) == 3 * 52 * 5
    _, open_match = set_up("fantan", options={"hands": 0, "target": 5})
    assert fantan.longest_game(open_match) == 200 * 52 * 4
    for name in ("fan", "morris"):
        game = get_game(name)
        assert game.longest_game(game.default_config()) is None


def test_episodes_of_unbounded_games_get_a_step_limit() -> None:
    limits = {game.name: default_max_steps(game) for game in all_games()}
    assert limits == {
        "fan": UNBOUNDED_MAX_STEPS,
        "fano": None,
        "fantan": None,
        "morris": UNBOUNDED_MAX_STEPS,
    }


def test_a_declared_attack_without_the_support_is_played_as_a_bluff() -> None:
    bluffing = setup("fano player=1 | hand=9H field=2H | field=3C,4C")
    holding = setup("fano player=1 | hand=5H field=2H | field=3C,4C")
    bluff, honest = (FANO.parse_action("2H>3C") for _ in range(2))
    assert FANO.played_flags(bluffing, bluff) == ("bluff",)
    assert played_kind(FANO, bluffing, bluff) == "declare+bluff"
    assert FANO.played_flags(holding, honest) == ()
    assert played_kind(FANO, holding, honest) == "declare"
    (other,) = [a for a in FANO.legal_actions(bluffing) if str(a) == "pass"]
    assert played_kind(FANO, bluffing, other) == "pass"


def test_set_up_resolves_variant_options_and_players_in_that_order() -> None:
    game, config = set_up(get_game("fano"), "trionfey", {"turns_per_player": 12}, 3)
    assert game.name == "fano"
    assert config == game.preset("trionfey").config.with_options(
        {"turns_per_player": "12", "players": "3"}
    )
    assert set_up("morris") == resolve_variant("morris")
    _, flags = set_up("fantan", options={"ace_high": False, "opening_card": None})
    assert flags.ace_high is False
    assert flags.opening_card is None


@pytest.mark.parametrize(
    ("args", "error", "words"),
    [
        (("chess",), UnknownGameError, "no game called 'chess'"),
        (("fano", "blitz"), UnknownGameError, "no variant 'blitz'"),
        (("fano", None, {"colour": "red"}), ConfigError, "colour"),
        (("morris", None, None, 3), ConfigError, "for 2 players"),
    ],
)
def test_set_up_refuses_what_does_not_exist(
    args: tuple[object, ...], error: type[Exception], words: str
) -> None:
    with pytest.raises(error, match=words):
        set_up(*args)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("name", "variant", "players", "family", "teams"),
    [
        ("fano", "classic", 2, "fano-classic", [(0,), (1,)]),
        ("fano", "trionfey", 3, "fano-trionfey", [(0,), (1,), (2,)]),
        ("fano", "trionfey-one-for-all", 4, "fano-trionfey", [(0, 2), (1, 3)]),
        ("fantan", None, 5, "fantan", [(0,), (1,), (2,), (3,), (4,)]),
        ("morris", None, None, "morris", [(0,), (1,)]),
        ("fan", None, None, "fan", [(0,)]),
    ],
)
def test_a_game_names_its_rating_family_and_its_teams(
    name: str, variant: str | None, players: int | None, family: str, teams: list[tuple[int, ...]]
) -> None:
    game, config = set_up(name, variant, players=players)
    assert game.rating_family(config) == family
    assert game.teams(config) == teams
