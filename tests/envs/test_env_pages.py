"""The documentation of the environments: a page per game (docs/envs/GAME.md) linked from
docs/envs.md, each with its preset table giving the sizes the code has and its version history
naming the current version; and CITATION.cff, valid Citation File Format 1.2.0."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pyspiel
import pytest
import yaml  # type: ignore[import-untyped]  # PyYAML ships no type information

import fanfold.envs
from fanfold.core.registry import all_games
from fanfold.envs.encodings import encoding_for
from fanfold.envs.registration import VERSIONS

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
fanfold.envs.register_openspiel()


@pytest.mark.parametrize("game", [game.name for game in all_games()])
def test_each_game_has_a_page_with_its_sizes_and_version(game: str) -> None:
    page = DOCS / "envs" / f"{game}.md"
    assert f"(envs/{game}.md)" in (DOCS / "envs.md").read_text(encoding="utf-8")
    text = page.read_text(encoding="utf-8")
    for heading in ("## Observation space", "## Action space", "## Rewards", "## Termination"):
        assert heading in text, f"{page.name} has no {heading!r}"
    version = VERSIONS[game]
    assert f"- **v{version}**" in text
    found = next(item for item in all_games() if item.name == game)
    for preset in found.presets():
        encoding = encoding_for(found, preset.config)
        spiel = pyspiel.load_game(f"python_fanfold_{game}", {"variant": preset.name})
        row = re.search(rf"^\| `{re.escape(preset.name)}` \|.*$", text, re.MULTILINE)
        assert row is not None, f"{page.name} has no row for {preset.name}"
        cells = [cell.strip() for cell in row.group(0).strip("|").split("|")]
        assert cells[2:5] == [
            f"{encoding.num_actions:,}",
            f"{encoding.layout.size:,}",
            f"{spiel.information_state_tensor_size():,}",
        ], preset.name
        assert cells[5] == f"`fanfold/{game}-{preset.name}-v{version}`"


def test_the_citation_file_is_valid_cff() -> None:
    data = yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    assert data["cff-version"] == "1.2.0"
    assert {"cff-version", "message", "title", "authors"} <= set(data)
    assert isinstance(data["message"], str)
    assert isinstance(data["title"], str)
    authors = data["authors"]
    assert isinstance(authors, list)
    assert authors
    assert all(isinstance(author, dict) for author in authors)
    assert all("name" in author or "family-names" in author for author in authors)
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert data["version"] == project["version"]
    assert data["license"] == project["license"]["text"]
