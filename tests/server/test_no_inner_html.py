"""No page script writes HTML from a string: every script of ``static/`` builds its elements
with DOM calls and puts text in with ``textContent`` (a player's chat line, a name, anything a
player wrote is text, never markup). The rule bans the HTML-writing calls outright, constant
strings too: simpler to keep, and nothing to judge."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

STATIC = Path(__file__).resolve().parents[2] / "src" / "fanfold" / "server" / "static"

#: The ways a script writes HTML from a string.
BANNED = re.compile(r"\b(innerHTML|outerHTML|insertAdjacentHTML|document\s*\.\s*write(ln)?)\b")


def html_writes(source: str) -> list[tuple[int, str]]:
    """Where ``source`` writes HTML from a string: line numbers and lines."""
    return [
        (number, line.strip())
        for number, line in enumerate(source.splitlines(), start=1)
        if BANNED.search(line)
    ]


def scripts() -> list[Path]:
    found = sorted(STATIC.rglob("*.js"))
    assert len(found) > 10, "no scripts found: the check reads nothing"
    return found


def test_no_script_writes_html_from_a_string() -> None:
    offenders = {
        str(path.relative_to(STATIC)): html_writes(path.read_text(encoding="utf-8"))
        for path in scripts()
    }
    offenders = {path: lines for path, lines in offenders.items() if lines}
    assert not offenders, f"build elements with DOM calls and textContent instead: {offenders}"


@pytest.mark.parametrize(
    ("source", "found"),
    [
        ("box.innerHTML = '<li>none</li>';", [1]),
        ("a.b;\nnode.outerHTML = text;", [2]),
        ("node.insertAdjacentHTML('beforeend', line.text);", [1]),
        ("document.write(x);", [1]),
        ("document . writeln(x);", [1]),
        ("node.textContent = line.text;\nnode.append(el('li', {text: t}));", []),
        ("const innerHTMLish = 1;", []),
    ],
)
def test_the_scan_finds_every_html_write(source: str, found: list[int]) -> None:
    assert [number for number, _ in html_writes(source)] == found
