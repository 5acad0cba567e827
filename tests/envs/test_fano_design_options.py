"""The environments and the Fano design options of the balance lab."""

from __future__ import annotations

import pytest

from fanfold.core.errors import ConfigError
from fanfold.envs.encodings import make_encoding


def test_a_prestige_capable_temporary_joker_is_refused_with_a_sentence() -> None:
    # A joker in play is encoded by a combat value (1-7): a TJ9 would have no entry.
    with pytest.raises(ConfigError, match="do not cover joker_prestige=true"):
        make_encoding("fano", "specials-choice", joker_prestige=True)
    assert make_encoding("fano", "specials-choice").num_actions > 0


def test_the_oversum_tribute_rule_changes_no_encoding() -> None:
    plain = make_encoding("fano", "trionfey-specials")
    paid = make_encoding("fano", "trionfey-specials", oversum_tribute=True)
    assert paid.num_actions == plain.num_actions
    assert paid.layout == plain.layout
