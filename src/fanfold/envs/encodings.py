"""Which encoding each game has, and how a game, variant and options become one.

>>> encoding = make_encoding("morris", "complete")
>>> encoding.num_actions, encoding.layout.size
(56, 64)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from fanfold.core import lab_refusals as _lab_refusals  # noqa: F401  (registers the codes)
from fanfold.core.errors import Refusal, UnknownGameError
from fanfold.core.registry import AnyGame, set_up
from fanfold.envs.encoding import Encoding
from fanfold.envs.fan import FanEncoding
from fanfold.envs.fano import FanoEncoding
from fanfold.envs.fantan import FanTanEncoding
from fanfold.envs.morris import MorrisEncoding

#: The encoding class of each game, by short name.
ENCODINGS: dict[str, type[Encoding]] = {
    "fan": FanEncoding,
    "fano": FanoEncoding,
    "fantan": FanTanEncoding,
    "morris": MorrisEncoding,
}


def resolve(
    game: str, variant: str | None = None, options: Mapping[str, Any] | None = None
) -> tuple[AnyGame, Any]:
    """The game and config for a game name, a preset (the default when ``None``) and config
    options (``players=4``, ``turns_per_player=20``; values as text or Python values).

    Raises:
        UnknownGameError: an unknown game or variant.
        ConfigError: an unknown option or an inconsistent config.
    """
    found, config = set_up(game, variant, options)
    if found.name not in ENCODINGS:
        raise UnknownGameError(Refusal("envs.no_encoding", game=found.title))
    return found, config


def encoding_for(game: AnyGame, config: Any) -> Encoding:
    """The encoding of a game with a config."""
    try:
        kind = ENCODINGS[game.name]
    except KeyError:
        raise UnknownGameError(Refusal("envs.no_encoding", game=game.title)) from None
    return kind(game, config)


def make_encoding(game: str, variant: str | None = None, **options: Any) -> Encoding:
    """The encoding of a game, preset and config options (see :func:`resolve`)."""
    found, config = resolve(game, variant, options)
    return encoding_for(found, config)
