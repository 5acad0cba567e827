"""Every answer carries the security headers (:mod:`fanfold.server.headers`), and the pages live
under the policy: no page holds an inline script, style or handler, and in Debian's Chromium
the lobby, a Morris table against a bot (its WebSocket included), a How-to-play page, a lesson
and the API's docs run with no Content-Security-Policy complaint."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from fastapi.testclient import TestClient
from playwright.sync_api import Page, expect

from fanfold.server.headers import (
    POLICY,
    content_security_policy,
    inline_scripts,
    script_hash,
)
from fanfold.server.routes.players import history_chart
from tests.server.test_browser import (
    browser,
    log_length,
    morris_move,
    open_table,
    page,
    server,
    wait_turn_or_end,
)

__all__ = ["browser", "page", "server"]  # fixtures used by name below

#: The headers every answer carries, and their values (the policy apart: see _check_policy).
FIXED = {
    "x-content-type-options": "nosniff",
    "referrer-policy": "strict-origin-when-cross-origin",
    "x-frame-options": "DENY",
}
#: The policy's directives as the issue asks for them.
WANTED = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self'",
    "img-src": "'self' data:",
    "connect-src": "'self'",
    "object-src": "'none'",
    "base-uri": "'self'",
    "form-action": "'self'",
    "frame-ancestors": "'none'",
}
#: What markup needs 'unsafe-inline' for: a script without src, a style element, a style
#: attribute, an event handler attribute, a javascript: address.
INLINE = {
    "inline script": re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.I),
    "style element": re.compile(r"<style\b", re.I),
    "style attribute": re.compile(r"<[^>]+\sstyle\s*=", re.I),
    "handler attribute": re.compile(r"<[^>]+\son[a-z]+\s*=", re.I),
    "javascript: address": re.compile(r"""(?:href|src|action)\s*=\s*["']?\s*javascript:""", re.I),
}


def _directives(policy: str) -> dict[str, str]:
    parts = [part.strip().split(None, 1) for part in policy.split(";") if part.strip()]
    return {part[0]: part[1] if len(part) > 1 else "" for part in parts}


def _check_policy(policy: str, scripts: list[str] | None = None) -> None:
    directives = _directives(policy)
    wanted = dict(WANTED)
    if scripts:
        wanted["script-src"] += " " + " ".join(script_hash(text) for text in scripts)
    for name, value in wanted.items():
        assert directives.get(name) == value, (name, policy)
    assert "unsafe-inline" not in policy
    assert "unsafe-eval" not in policy


def _check(answer: Any, what: str) -> None:
    """``answer`` carries every header; an HTML page needs nothing the policy forbids (but
    /api/docs's one inline script, allowed by its hash)."""
    for name, value in FIXED.items():
        assert answer.headers.get(name) == value, (what, answer.status_code, name)
    policy = answer.headers.get("content-security-policy")
    assert policy is not None, (what, answer.status_code)
    assert len(answer.headers.get_list("content-security-policy")) == 1, what
    kind = answer.headers.get("content-type", "")
    scripts = inline_scripts(answer.text) if what == "/api/docs" else []
    if what == "/api/docs":
        assert len(scripts) == 1, "Swagger UI's page starts it with one inline script"
    else:
        assert policy == POLICY, what
    _check_policy(policy, scripts)
    if kind.startswith("text/html"):
        markup = _without_inline_scripts(answer.text) if scripts else answer.text
        for name, pattern in INLINE.items():
            found = pattern.search(markup)
            assert found is None, f"{what}: a {name} the policy refuses: {found and found[0]!r}"


def _without_inline_scripts(page: str) -> str:
    """``page`` without its inline scripts' elements (for /api/docs, whose one is hashed)."""
    return re.sub(r"<script>.*?</script>", "", page, flags=re.S)


def _walk(routes: list[Any]) -> Iterator[Any]:
    """Every route, those of included routers too (FastAPI wraps them: ``original_router``)."""
    for route in routes:
        included = getattr(route, "original_router", None)
        if included is not None:
            yield from _walk(included.routes)
        else:
            yield route


def test_the_policy_allows_nothing_inline() -> None:
    _check_policy(POLICY)
    hashed = content_security_policy(["alert(1)"])
    assert "'sha256-" in _directives(hashed)["script-src"]
    assert _directives(hashed)["style-src"] == "'self'"


def test_every_page_and_api_answer_carries_the_headers(client: TestClient) -> None:
    plain = sorted(
        {
            route.path
            for route in _walk(list(client.app.routes))  # type: ignore[attr-defined]
            if "GET" in (getattr(route, "methods", None) or ())
            and "{" not in getattr(route, "path", "{")
        }
    )
    assert {"/", "/api/docs", "/openapi.json", "/api/games", "/account", "/daily"} <= set(plain)
    for path in plain:
        answer = client.get(path)
        assert answer.status_code < 500, (path, answer.status_code)
        assert answer.status_code != 404, path  # each listed route is where it says
        _check(answer, path)

    opened = client.post("/api/tables", json={"game": "morris", "seats": ["you", "random"]})
    assert opened.status_code == 200, opened.text
    _check(opened, "POST /api/tables")
    table = opened.json()["table"]
    lessons = client.get("/api/lessons").json()
    fano_lesson = next(lesson for lesson in lessons if lesson["game"] == "fano")["id"]
    with_parameters = [
        f"/table/{table}",
        f"/api/tables/{table}",
        f"/api/tables/{table}/record",
        "/how-to-play/morris",
        "/how-to-play/fano",
        "/rules/morris/exact",
        "/rules/fano/exact",
        "/learn/fano",
        f"/learn/fano/{fano_lesson}",
        "/leaderboard/morris",
        "/bots/morris/easy",
        "/api/leaderboard/morris",
        "/static/fanfold.css",
        "/static/table.js",
        "/api/docs/assets/swagger-ui-bundle.js",
        "/api/docs/assets/swagger-ui.css",
    ]
    for path in with_parameters:
        answer = client.get(path)
        assert answer.status_code == 200, (path, answer.status_code)
        _check(answer, path)
    redirect = client.get("/rules/morris", follow_redirects=False)
    assert redirect.status_code == 307
    _check(redirect, "/rules/morris")

    created = client.post("/api/accounts", json={"name": "Headers", "password": "correct horse"})
    assert created.status_code == 200, created.text
    _check(client.get("/players/Headers"), "/players/Headers")
    client.cookies.clear()


def test_a_rating_chart_needs_no_style_attribute() -> None:
    chart = history_chart(
        [{"before": 1500, "after": 1520}, {"before": 1520, "after": 1510}], width=480
    )
    assert "style=" not in chart
    assert 'class="history-chart"' in chart


def test_refusals_and_errors_carry_the_headers(client: TestClient) -> None:
    answers = {
        "404 page": (client.get("/no/such/page"), 404),
        "404 table": (client.get("/api/tables/nosuchtable"), 404),
        "404 player": (client.get("/players/nobody-at-all"), 404),
        "404 game": (client.get("/how-to-play/nosuchgame"), 404),
        "404 asset": (client.get("/static/nothing.js"), 404),
        "405": (client.delete("/"), 405),
        "422": (client.post("/api/tables", json={"game": 5}), 422),
        "403 cross-site": (
            client.post(
                "/api/tables",
                json={"game": "morris", "seats": ["you", "random"]},
                headers={"Origin": "https://elsewhere.example"},
            ),
            403,
        ),
        "413": (client.post("/api/tables", content=b"x" * 2_000_000), 413),
    }
    for what, (answer, status) in answers.items():
        assert answer.status_code == status, (what, answer.status_code, answer.text)
        _check(answer, what)


def test_an_unexpected_error_is_answered_with_the_headers(client: TestClient) -> None:
    app: Any = client.app

    async def broken() -> None:
        raise RuntimeError("a bug")

    app.add_api_route("/broken-for-a-test", broken, include_in_schema=False)
    with TestClient(app, raise_server_exceptions=False) as quiet:
        answer = quiet.get("/broken-for-a-test")
    assert answer.status_code == 500
    assert answer.text == "Internal Server Error"
    _check(answer, "500")


# ------------------------------------------------------------------ in the browser

#: What Chromium says of a refused script, style, image or connection.
COMPLAINT = re.compile(r"Content Security Policy|Refused to|CSP violation", re.I)
#: Turns every refusal into a console line, whatever Chromium's own wording.
WATCH = """document.addEventListener("securitypolicyviolation", (event) =>
  console.error(`CSP violation: ${event.violatedDirective} ${event.blockedURI}`));"""


def _complaints(page: Page) -> list[str]:
    heard: list[str] = []
    page.add_init_script(WATCH)
    page.on("console", lambda message: heard.append(message.text))
    page.on("pageerror", lambda error: heard.append(str(error)))
    return heard


def test_the_pages_run_under_the_policy(page: Page, server: str) -> None:
    heard = _complaints(page)

    open_table(page, server, "morris", {1: "random"})  # the lobby, then the table
    page.wait_for_selector(".morris svg")
    assert wait_turn_or_end(page)
    before = log_length(page)
    morris_move(page)  # through the WebSocket: the move is played and the bot answers
    page.wait_for_function(f"() => document.querySelectorAll('#log li').length >= {before + 2}")
    assert wait_turn_or_end(page)

    page.goto(f"{server}/how-to-play/morris")
    expect(page.locator("h1")).to_contain_text("How to play")
    page.goto(f"{server}/learn/fano")
    page.locator("a[data-lesson]").first.click()  # a lesson, its board drawn
    expect(page.locator("#prompt")).not_to_be_empty()
    page.goto(f"{server}/leaderboard/morris")
    expect(page.locator("h1")).to_contain_text("Leaderboard")
    page.goto(f"{server}/api/docs")
    page.wait_for_selector(".opblock", timeout=15_000)  # Swagger UI ran and read the API
    page.locator(".opblock-summary").first.click()
    page.wait_for_selector(".opblock-body")
    found = [line for line in heard if COMPLAINT.search(line)]
    assert not found, f"the policy refused something: {found}"

    # The watch hears a refusal: an inline script added to a page of the site is refused.
    page.goto(f"{server}/")
    page.evaluate(
        """() => { const s = document.createElement("script");
                   s.textContent = "window.ranInline = true"; document.body.append(s); }"""
    )
    for _ in range(40):
        if any(COMPLAINT.search(line) for line in heard):
            break
        page.wait_for_timeout(50)
    assert any(COMPLAINT.search(line) for line in heard), heard
    assert page.evaluate("() => window.ranInline") is None
