"""What a browser is shown where there is nothing (``fanfold.server.not_found``): an address the
site does not have, a table the store does not hold, a game or lessons that are not there, a
form sent to a page; each a page of the site in the reader's language, while an API client
keeps the JSON error. And requests whose body cannot be read (not JSON, not an object) or
whose account name is of any length against the rules: 400 with a sentence, as
``docs/server/security.md`` and ``docs/server/accounts.md`` say."""

from __future__ import annotations

import html
import re

import httpx
import pytest
from fastapi.testclient import TestClient

from fanfold.server.live import NotFoundError
from fanfold.server.refusals import refusal

#: What a browser's navigation sends (Chromium's, without the images' types).
BROWSER = {"Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}
FRENCH = {**BROWSER, "Accept-Language": "fr-FR,fr;q=0.9"}


def _main(page: str) -> str:
    """The page's main, its tags taken out and its spaces joined."""
    found = re.search(r"<main.*?</main>", page, re.S)
    assert found is not None, page[:400]
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", found.group(0))).strip()
    return html.unescape(text)


def _is_site_page(answer: httpx.Response, title: str) -> str:
    """Checks ``answer`` is a page of the site (its head, its bar, the title, the lobby's
    link) and gives its main's text."""
    page = answer.text
    assert answer.headers["content-type"].startswith("text/html")
    assert f"<title>{title} · fanfold</title>" in page
    assert 'rel="stylesheet" href="/static/fanfold.css' in page
    assert '<header class="bar">' in page
    assert f"<h1>{title}</h1>" in page
    return _main(page)


def test_an_unknown_address_is_a_page_for_a_browser_and_json_for_the_api(
    client: TestClient,
) -> None:
    page = client.get("/nope", headers=BROWSER)
    assert page.status_code == 404
    text = _is_site_page(page, "Page not found")
    assert "There is no page at this address" in text
    assert '<a href="/">Back to the lobby</a>' in page.text
    assert page.headers["content-language"] == "en"

    french = client.get("/nope", headers=FRENCH)
    assert french.status_code == 404
    assert '<html lang="fr">' in french.text
    assert "Il n\u2019y a pas de page à cette adresse" in _is_site_page(french, "Page introuvable")
    assert "Retour au salon" in french.text

    # an API client keeps the JSON error exactly; so does a browser under /api/ or a socket's
    for answer in (
        client.get("/nope"),
        client.get("/nope", headers={"Accept": "application/json"}),
        client.get("/api/nope", headers=BROWSER),
        client.get("/ws/tables/nope", headers=BROWSER),
    ):
        assert answer.status_code == 404
        assert answer.json() == {
            "error": "Not Found (HTTP 404)",
            "kind": "HTTPError",
            "code": None,
            "params": None,
        }


def test_a_form_sent_to_a_page_is_a_page_for_a_browser(client: TestClient) -> None:
    page = client.post("/account", headers=BROWSER)
    assert page.status_code == 405
    assert page.headers["allow"] == "GET"
    assert "not a form to send" in _is_site_page(page, "This page takes no such request")
    api = client.post("/account")
    assert api.status_code == 405
    assert api.json()["kind"] == "HTTPError"


@pytest.mark.parametrize("query", ["", "?replay=1", "?replay=1&review=1"])
def test_an_unknown_table_is_a_not_found_page(client: TestClient, query: str) -> None:
    page = client.get(f"/table/doesnotexist{query}", headers=BROWSER)
    assert page.status_code == 404
    text = _is_site_page(page, "Table not found")
    assert "This table does not exist (it may have ended long ago, or the link is mistyped)." in (
        text
    )
    assert "Loading" not in page.text  # not the table's page, waiting for nothing
    assert "table.js" not in page.text  # so nothing of it runs (or remembers the table)
    assert '<a href="/">Back to the lobby</a>' in page.text
    french = client.get(f"/table/doesnotexist{query}", headers=FRENCH)
    assert "Cette table n\u2019existe pas" in _is_site_page(french, "Table introuvable")


def test_a_known_table_and_its_review_are_still_served(client: TestClient) -> None:
    made = client.post("/api/tables", json={"game": "morris", "seats": ["you", "random"]}).json()
    page = client.get(f"/table/{made['table']}", headers=BROWSER)
    assert page.status_code == 200
    assert "table.js" in page.text
    review = client.get(f"/table/{made['table']}/review", headers=BROWSER)
    assert review.status_code == 200  # the redirect to the replay, followed
    missing = client.get("/table/doesnotexist/review", headers=BROWSER)
    assert missing.status_code == 404
    assert "Table not found" in missing.text


@pytest.mark.parametrize("path", ["/how-to-play/chess", "/rules/chess", "/rules/chess/exact"])
def test_an_unknown_game_is_a_page_that_links_the_games(client: TestClient, path: str) -> None:
    page = client.get(path, headers=BROWSER)
    assert page.status_code == 404
    text = _is_site_page(page, "No such game")
    assert text.startswith("No such game There is no game called “chess” here. The games: ")
    for game in ("fano", "morris", "fantan", "fan"):
        assert f'<a href="/how-to-play/{game}" translate="no">' in page.text
    assert '<a href="/">Back to the lobby</a>' in page.text
    long = client.get(f"{path.removesuffix('/exact').replace('chess', 'x' * 300)}", headers=BROWSER)
    assert long.status_code == 404
    assert f"“{'x' * 29}…”" in _main(long.text)  # cut short, to fit a phone's screen


@pytest.mark.parametrize(
    ("path", "said"),
    [
        ("/learn/chess", "There are no lessons for “chess” here."),
        ("/learn/morris/nowhere", "has no lesson called “nowhere”."),
    ],
)
def test_missing_lessons_are_a_page_that_links_the_lessons(
    client: TestClient, path: str, said: str
) -> None:
    page = client.get(path, headers=BROWSER)
    assert page.status_code == 404
    assert said in _is_site_page(page, "No such lessons")
    for game in ("fano", "morris", "fantan", "fan"):
        assert f'<a href="/learn/{game}" translate="no">' in page.text
    french = client.get(path, headers=FRENCH)
    assert "Les jeux qui ont des leçons" in _is_site_page(french, "Ces leçons n\u2019existent pas")
    assert "«\u00a0" in french.text  # French's guillemets hold no-break spaces


def test_a_missing_player_or_bot_is_told_without_quotes(client: TestClient) -> None:
    player = client.get("/players/nobody_here", headers=BROWSER)
    assert player.status_code == 404
    assert "There is no player called &#39;nobody_here&#39;.</p>" in player.text
    assert '"there is no player' not in player.text
    assert "&#34;" not in player.text
    assert "&quot;" not in player.text
    bot = client.get("/bots/fantan/godlike", headers=BROWSER)
    assert bot.status_code == 404
    assert "<p>No bot &#39;godlike&#39; has a rating in" in bot.text
    assert "&#34;" not in bot.text
    assert "&quot;" not in bot.text
    # in the reader's language
    french = client.get("/players/nobody_here", headers=FRENCH)
    assert "Il n\u2019y a pas de joueur appelé &#39;nobody_here&#39;." in french.text
    # the error's own words carry no quotes either (KeyError's)
    assert str(NotFoundError(refusal("found.player", name="'x'"))) == (
        "there is no player called 'x'"
    )


def test_a_name_of_any_length_against_the_rules_is_refused_alike(client: TestClient) -> None:
    rule = client.post("/api/accounts", json={"name": "a" * 25, "password": "secret password"})
    assert rule.status_code == 400
    for name in ("a" * 300, "", "a" * 41):
        answer = client.post("/api/accounts", json={"name": name, "password": "secret password"})
        assert answer.status_code == 400, (len(name), answer.text)
        assert answer.json() == rule.json()
    too_long = client.post("/api/accounts", json={"name": "alice", "password": "x" * 300})
    assert too_long.status_code == 400
    assert too_long.json()["code"] == "account.password_length"
    assert too_long.json()["error"] == "a password has 8 to 200 characters, not 300"


def test_a_password_longer_than_any_never_signs_in(client: TestClient) -> None:
    password = "p" * 200
    made = client.post("/api/accounts", json={"name": "longpass", "password": password})
    assert made.status_code == 200, made.text
    client.cookies.clear()
    longer = client.post("/api/session", json={"name": "longpass", "password": password + "x"})
    assert longer.status_code == 401
    assert longer.json()["code"] == "account.wrong"
    right = client.post("/api/session", json={"name": "longpass", "password": password})
    assert right.status_code == 200, right.text
    client.cookies.clear()


def test_a_body_that_cannot_be_read_is_a_400_with_a_sentence(client: TestClient) -> None:
    cut = client.post(
        "/api/tables",
        content=b'{"game": "morris", "seed"',
        headers={"Content-Type": "application/json"},
    )
    assert cut.status_code == 400
    assert cut.json() == {
        "error": "malformed request: the request body is not valid JSON (at character 25); "
        "send a JSON object",
        "kind": "MalformedRequest",
        "code": None,
        "params": None,
    }
    form = client.post("/api/accounts", data={"name": "alice", "password": "secret password"})
    assert form.status_code == 400
    assert form.json()["kind"] == "MalformedRequest"
    assert form.json()["error"] == (
        "malformed request: the request body is not a JSON object; send one, with "
        "Content-Type: application/json"
    )
    listed = client.post("/api/tables", json=["morris"])
    assert listed.status_code == 400
    assert "not a JSON object" in listed.json()["error"]
    empty = client.post("/api/tables")
    assert empty.status_code == 400
    assert "the request has no body" in empty.json()["error"]
    # a body read, with a field of the wrong type, is refused as before (422, naming it)
    field = client.post("/api/tables", json={"game": "morris", "seats": 3})
    assert field.status_code == 422
    assert field.json()["error"] == "malformed request: seats: Input should be a valid list"
