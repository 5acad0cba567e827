"""Gymnasium ids: every game and preset under ``fanfold/``, versioned, made by
``gymnasium.make`` and checked by Gymnasium's own environment checker; the plugin entry point
registers them in a fresh interpreter without importing Numba, OpenSpiel or compiled code."""

from __future__ import annotations

import hashlib
import importlib
import json
import os
import subprocess
import sys
import textwrap
import tomllib
from pathlib import Path

import gymnasium
import pytest
from gymnasium.utils.env_checker import check_env

import fanfold.envs
from fanfold.core.errors import ConfigError
from fanfold.core.registry import all_games
from fanfold.envs.encodings import encoding_for
from fanfold.envs.gymnasium_env import FanfoldGymEnv
from fanfold.envs.registration import (
    LEGACY_VERSIONS,
    PRESETS,
    VERSIONS,
    gymnasium_ids,
    legacy_ids,
    register_gymnasium,
)
from tests.envs.conftest import SHORT

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")

SOURCE = str(Path(fanfold.envs.__file__).parents[2])

#: Each preset's environment fingerprint (its config, action table and observation layout),
#: as of its game's version in ``VERSIONS``. When one changes: if the environment plays or
#: encodes differently, bump the game's version in ``fanfold/envs/registration.py`` and add a
#: row to ``docs/envs/<game>.md``'s version history; then record the new fingerprint here.
FINGERPRINTS = {
    ("fan", "classic"): "4403b61de8a1c3ac",
    ("fan", "any-to-empty"): "b2dd46155a33e58c",
    ("fan", "sequences"): "050259929de36bf2",
    ("fan", "relaxed"): "a21bc473cc38c49a",
    ("fano", "classic"): "e703b08950cf2f33",
    ("fano", "four-players"): "51bde4012ca7059c",
    ("fano", "eight-players"): "5ba147705bf25681",
    ("fano", "two-suit"): "5ac621b9964593e6",
    ("fano", "two-suit-easy"): "545ded52b69a5813",
    ("fano", "two-suit-hard"): "1e786c4a1cc5d9b5",
    ("fano", "two-suit-three-prestige"): "b731e070788e92e4",
    ("fano", "jokers-wild"): "1ecb182fd8aea5c7",
    ("fano", "specials"): "55df1e88dfe58de6",
    ("fano", "specials-choice"): "8f8d8ae70374246c",
    ("fano", "everything"): "253a4ecd7e34cab1",
    ("fano", "trionfey"): "f6b7c62600f3c9a0",
    ("fano", "trionfey-all-for-one"): "27416e759cd6c461",
    ("fano", "trionfey-one-for-all"): "cd8318656d5cf6f7",
    ("fano", "trionfey-specials"): "d4db5cbad5c64f80",
    ("fano", "trionfey-queen"): "1a2031013b69476e",
    ("fano", "trionfey-tournament"): "66d4443198ab3d30",
    ("fantan", "standard"): "f5b52f9be2ee30bb",
    ("fantan", "chips"): "2846cd84422c6d47",
    ("fantan", "seven-of-diamonds"): "bd1c50e1bf759d83",
    ("fantan", "ace-low"): "51ee5b4b451b23ad",
    ("fantan", "sevens-online"): "4f104a808606ab6c",
    ("fantan", "domino"): "ab22375bcc8d05d2",
    ("fantan", "ten-titans"): "dd16e6371335d093",
    ("fantan", "chips-match"): "11a8a995079c805a",
    ("fantan", "sevens-match"): "3653c6ef5801c3bf",
    ("morris", "geometric"): "991280f3a6d21264",
    ("morris", "complete"): "91a8aa1a0780c80b",
}


def test_every_game_and_preset_has_an_id() -> None:
    ids = fanfold.envs.register_gymnasium()
    assert fanfold.envs.register_gymnasium() == ids  # a second call changes nothing
    expected = {f"fanfold/{game.name}-v{VERSIONS[game.name]}" for game in all_games()}
    expected |= {
        f"fanfold/{game.name}-{preset.name}-v{VERSIONS[game.name]}"
        for game in all_games()
        for preset in game.presets()
    }
    assert set(ids) == expected
    assert len(ids) == 36
    assert all(env_id in gymnasium.registry for env_id in ids)
    assert gymnasium.registry["fanfold/fano-trionfey-v1"].kwargs == {
        "game": "fano",
        "variant": "trionfey",
    }


def test_the_written_out_presets_are_the_games() -> None:
    """Registering reads no game: its table of presets must be the registry's."""
    games = {game.name: tuple(preset.name for preset in game.presets()) for game in all_games()}
    assert games == PRESETS
    assert set(VERSIONS) == set(PRESETS)


def test_the_old_ids_still_make_the_same_environments() -> None:
    assert LEGACY_VERSIONS == (0,)
    old = legacy_ids()
    assert len(old) == 36
    assert all(env_id in gymnasium.registry for env_id in old)
    assert old["fanfold/fano-trionfey-v0"] == gymnasium_ids()["fanfold/fano-trionfey-v1"]
    with pytest.warns(DeprecationWarning, match="fantan-chips-v0 is out of date"):
        made = gymnasium.make("fanfold/fantan-chips-v0", players=5).unwrapped
    assert isinstance(made, FanfoldGymEnv)
    assert (made.game.name, made.config.players) == ("fantan", 5)


@pytest.mark.parametrize(("game", "preset"), sorted(FINGERPRINTS))
def test_an_environment_change_needs_a_new_version(game: str, preset: str) -> None:
    found = next(item for item in all_games() if item.name == game)
    config = next(item for item in found.presets() if item.name == preset).config
    encoding = encoding_for(found, config)
    layout = encoding.layout
    text = json.dumps(
        {
            "config": config.to_json(),
            "players": encoding.players,
            "actions": [encoding.action_label(index) for index in range(encoding.num_actions)],
            "layout": [
                [*row, block.low, block.high]
                for row, block in zip(layout.describe(), layout.blocks, strict=True)
            ],
        },
        sort_keys=True,
        default=str,
    )
    fingerprint = hashlib.sha256(text.encode()).hexdigest()[:16]
    assert fingerprint == FINGERPRINTS[game, preset], (
        f"{game} {preset}: the config, action table or observation layout changed: bump "
        f"VERSIONS[{game!r}] (now {VERSIONS[game]}) in fanfold/envs/registration.py if the "
        "environment changed, note it in docs/envs/{game}.md, and record the new fingerprint"
    )


@pytest.mark.parametrize("env_id", fanfold.envs.register_gymnasium())
def test_each_id_makes_its_game_and_preset(env_id: str) -> None:
    spec = gymnasium.registry[env_id]
    env = gymnasium.make(env_id)
    unwrapped = env.unwrapped
    assert isinstance(unwrapped, FanfoldGymEnv)
    game = unwrapped.game
    assert game.name == spec.kwargs["game"]
    preset = next(item for item in game.presets() if item.name == spec.kwargs["variant"])
    assert unwrapped.config == preset.config
    observation, _ = env.reset(seed=1)
    assert observation["action_mask"].any()


@pytest.mark.parametrize(
    "env_id",
    ["fanfold/fan-v1", "fanfold/morris-v1", "fanfold/fantan-chips-v1", "fanfold/fano-trionfey-v1"],
)
def test_check_env_passes_on_made_envs(env_id: str) -> None:
    game = gymnasium.registry[env_id].kwargs["game"]
    check_env(gymnasium.make(env_id, **SHORT.get(game, {})), skip_render_check=True)


def test_make_passes_options_and_refuses_bad_ones() -> None:
    env = gymnasium.make("fanfold/fantan-chips-v1", players=5, opponents="random", seat=2)
    unwrapped = env.unwrapped
    assert isinstance(unwrapped, FanfoldGymEnv)
    assert (unwrapped.config.players, unwrapped.seat) == (5, 2)
    with pytest.raises(ConfigError):
        gymnasium.make("fanfold/fantan-v1", no_such_option=1)


def _fresh(code: str, *, installed: bool = False) -> str:
    """What ``code`` prints in a fresh interpreter: with the checkout's ``src`` on the path, or
    (``installed``) with the installed package only, whose metadata declares the entry points
    (a ``src/fanfold.egg-info`` left by a build would shadow them on that path)."""
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    if not installed:
        env["PYTHONPATH"] = SOURCE
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        check=True,
        env=env,
        cwd=Path(SOURCE).parent,
        timeout=120,
    )
    return done.stdout.strip()


def test_the_module_form_of_an_id_imports_fanfold() -> None:
    code = """
        import gymnasium
        env = gymnasium.make('fanfold.envs:fanfold/fan-v1')
        print(env.spec.id)
    """
    assert _fresh(code) == "fanfold/fan-v1"


def test_the_plugin_entry_point_is_declared_and_lazy() -> None:
    """``pyproject.toml`` declares the entry point in Gymnasium's plugin group, naming
    :func:`register_gymnasium` (a string: nothing is imported until Gymnasium loads it). The
    installed metadata is read in a fresh interpreter by the next test (here a
    ``src/fanfold.egg-info`` left by a build may come first on the path)."""
    project = tomllib.loads((Path(SOURCE).parent / "pyproject.toml").read_text())
    group = project["project"]["entry-points"]["gymnasium.envs"]
    assert group == {"fanfold": "fanfold.envs.registration:register_gymnasium"}
    module, _, name = group["fanfold"].partition(":")
    assert getattr(importlib.import_module(module), name) is register_gymnasium


def test_gymnasium_make_works_in_a_fresh_interpreter_through_the_plugin() -> None:
    """A fresh interpreter that never imports ``fanfold.envs`` itself makes an environment by
    its id. A Gymnasium that loads plugins (0.26-0.29) does it on ``import gymnasium``; 1.x
    loads none, so the test does what their ``load_plugin_envs`` did: each entry point of the
    ``gymnasium.envs`` group loaded and called within its name as namespace. Registering
    imports neither Numba, OpenSpiel nor the compiled code, and the ids' entry points are
    strings."""
    code = """
        import sys
        from importlib.metadata import entry_points

        import gymnasium
        from gymnasium.envs import registration

        assert not any(name.startswith("fanfold") for name in sys.modules)
        points = list(entry_points(group="gymnasium.envs"))
        assert [point.value for point in points if point.name == "fanfold"] == [
            "fanfold.envs.registration:register_gymnasium"
        ], points
        if not hasattr(registration, "load_plugin_envs"):  # Gymnasium 1.x
            for point in points:
                with registration.namespace(point.name):
                    point.load()()
        heavy = ["numba", "llvmlite", "pyspiel", "open_spiel", "fanfold._compiled"]
        heavy += [name for name in sys.modules if name.endswith(("_kernels", ".fast"))]
        print([name for name in heavy if name in sys.modules])
        spec = gymnasium.registry["fanfold/fano-v1"]
        print(isinstance(spec.entry_point, str), isinstance(spec.vector_entry_point, str))
        env = gymnasium.make("fanfold/fano-v1")
        observation, info = env.reset(seed=1)
        print(type(env.unwrapped).__name__, observation["observation"].shape)
    """
    lines = _fresh(code, installed=True).splitlines()
    assert lines == ["[]", "True True", "FanfoldGymEnv (185,)"]
