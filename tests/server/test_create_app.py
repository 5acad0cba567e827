"""``create_app``'s settings: by name, each one a field of ``Settings`` checked there."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from fanfold.server.app import create_app
from fanfold.server.settings import Settings
from fanfold.server.throttle import ClientLimits
from tests.server.support import sqlite_url


def test_settings_by_name_are_the_settings_the_application_runs_with(tmp_path: Path) -> None:
    limits = ClientLimits(tables_per_minute=7)
    app = create_app(
        sqlite_url(tmp_path), bot_seconds=None, limits=limits, public_origin="https://f.example"
    )
    settings = app.state.settings
    assert settings.bot_seconds is None
    assert settings.limits == limits
    assert settings.public_origin == "https://f.example"
    assert settings.keep_seconds == Settings(store_url="x").keep_seconds


def test_an_unknown_or_bad_setting_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValidationError, match="bot_secs"):
        create_app(sqlite_url(tmp_path), bot_secs=1.0)
    with pytest.raises(ValidationError, match="bot_workers"):
        create_app(sqlite_url(tmp_path), bot_workers=0)


def test_settings_given_twice_are_refused(tmp_path: Path) -> None:
    with pytest.raises(TypeError, match="given twice: bot_pause"):
        create_app(Settings(store_url=sqlite_url(tmp_path)), bot_pause=1.0)
