"""Gymnasium ids: every game and preset under ``fanfold/``, made by ``gymnasium.make`` and
checked by Gymnasium's own environment checker."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import gymnasium
import pytest
from gymnasium.utils.env_checker import check_env

import fanfold.envs
from fanfold.core.errors import ConfigError
from fanfold.core.registry import all_games
from fanfold.envs.gymnasium_env import FanfoldGymEnv
from tests.envs.conftest import SHORT

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


def test_every_game_and_preset_has_an_id() -> None:
    ids = fanfold.envs.register_gymnasium()
    assert fanfold.envs.register_gymnasium() == ids  # a second call changes nothing
    expected = {f"fanfold/{game.name}-v0" for game in all_games()}
    expected |= {
        f"fanfold/{game.name}-{preset.name}-v0" for game in all_games() for preset in game.presets()
    }
    assert set(ids) == expected
    assert all(env_id in gymnasium.registry for env_id in ids)
    assert gymnasium.registry["fanfold/fano-trionfey-v0"].kwargs == {
        "game": "fano",
        "variant": "trionfey",
    }


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
    ["fanfold/fan-v0", "fanfold/morris-v0", "fanfold/fantan-chips-v0", "fanfold/fano-trionfey-v0"],
)
def test_check_env_passes_on_made_envs(env_id: str) -> None:
    game = gymnasium.registry[env_id].kwargs["game"]
    check_env(gymnasium.make(env_id, **SHORT.get(game, {})), skip_render_check=True)


def test_make_passes_options_and_refuses_bad_ones() -> None:
    env = gymnasium.make("fanfold/fantan-chips-v0", players=5, opponents="random", seat=2)
    unwrapped = env.unwrapped
    assert isinstance(unwrapped, FanfoldGymEnv)
    assert (unwrapped.config.players, unwrapped.seat) == (5, 2)
    with pytest.raises(ConfigError):
        gymnasium.make("fanfold/fantan-v0", no_such_option=1)


def test_the_module_form_of_an_id_imports_fanfold() -> None:
    source = str(Path(fanfold.envs.__file__).parents[2])
    code = (
        "import gymnasium\n"
        "env = gymnasium.make('fanfold.envs:fanfold/fan-v0')\n"
        "print(env.spec.id)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONPATH": source},
        timeout=120,
    )
    assert done.stdout.strip() == "fanfold/fan-v0"
