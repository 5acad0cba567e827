"""The Fano plane is drawn with one numbering on every page: the How-to-play page's picture
and the table's board (``static/games/fano.js``) take their points from
:mod:`fanfold.server.fano_plane`, whose lines are the game's cycles and whose circle is the
rules text's "cycle at the heart of the plane" (3 -> 5 -> 2)."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

from fastapi.testclient import TestClient

from fanfold.games.fano.cards import CYCLES
from fanfold.server import fano_plane
from fanfold.server.fano_plane import CENTRE, POINTS, RADIUS, STRAIGHT

FANO_JS = Path(fano_plane.__file__).parent / "static" / "games" / "fano.js"


def _js_constant(name: str) -> object:
    """A constant of fano.js written as a JavaScript literal of numbers (object keys quoted
    here to read it as JSON)."""
    found = re.search(rf"^const {name} = (.+?);", FANO_JS.read_text("utf-8"), re.MULTILINE)
    assert found, f"fano.js has no constant {name}"
    return json.loads(re.sub(r"(\d+):", r'"\1":', found.group(1)))


def test_the_table_draws_the_plane_from_the_same_points() -> None:
    assert _js_constant("POINTS") == {str(p): list(xy) for p, xy in POINTS.items()}
    assert _js_constant("STRAIGHT") == [list(line) for line in STRAIGHT]
    assert _js_constant("CENTRE") == list(CENTRE)
    assert _js_constant("RADIUS") == RADIUS


def _collinear(a: int, b: int, c: int) -> bool:
    (ax, ay), (bx, by), (cx, cy) = POINTS[a], POINTS[b], POINTS[c]
    return abs((bx - ax) * (cy - ay) - (by - ay) * (cx - ax)) < 1e-6


def test_the_drawing_s_lines_are_the_game_s_cycles() -> None:
    cycles = {frozenset(cycle) for cycle in CYCLES}
    straight = {frozenset(line) for line in STRAIGHT}
    assert straight < cycles
    assert len(straight) == 6
    for a, middle, c in STRAIGHT:
        assert _collinear(a, middle, c)
        (ax, _), (mx, _), (cx, _) = POINTS[a], POINTS[middle], POINTS[c]
        assert min(ax, cx) <= mx <= max(ax, cx)
    (circle,) = cycles - straight
    assert circle == {2, 3, 5}  # the rules text: "the cycle at the heart of the plane: 3 -> 5 -> 2"
    for point in circle:
        x, y = POINTS[point]
        assert abs(math.hypot(x - CENTRE[0], y - CENTRE[1]) - RADIUS) < 2
    # no point off the circle lies on it
    for point in set(POINTS) - circle:
        x, y = POINTS[point]
        assert abs(math.hypot(x - CENTRE[0], y - CENTRE[1]) - RADIUS) > 10


def test_the_how_to_play_page_numbers_the_plane_as_the_table(client: TestClient) -> None:
    page = client.get("/how-to-play/fano")
    assert page.status_code == 200
    figure = re.search(r"<svg[^>]*aria-label='The Fano plane[^>]*>(.*?)</svg>", page.text, re.S)
    assert figure, "the How-to-play page draws no plane"
    labels = {
        int(number): (float(x), float(y) - 4.5)
        for x, y, number in re.findall(
            r'<text x="([\d.]+)" y="([\d.]+)"[^>]*>(\d)</text>', figure.group(1)
        )
    }
    assert labels == {p: (float(x), float(y)) for p, (x, y) in POINTS.items()}
    assert "circle through 2, 3 and 5" in figure.group(0)
