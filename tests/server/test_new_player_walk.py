"""What a new player's walk through the site found, drawn on the server: one header with the
site's links on every page, the account page's errors in the site's error style, the exact
rules' code blocks and tables in boxes of their own, the lobby's Options example that each game
takes in every variant, and the games' own words (lobby cards, leaderboards' names, Undo) in
French. The pages' scripts are checked in Chromium: ``test_new_player_walk_browser.py``."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from fanfold.core.registry import all_plugins, get_game
from fanfold.server import i18n
from fanfold.server.leaderboards import FAMILIES
from tests.server.support import open_table

#: The site's links, the same in every page's bar (templates/site_links.html).
SITE_LINKS = [
    ("How to play", "/#games"),
    ("Leaderboards", "/leaderboard/fantan"),
    ("Daily deal", "/daily"),
    ("Account", "/account"),
]


def _bar_links(html: str) -> list[tuple[str, str]]:
    bar = re.search(r'<header class="bar[^"]*">(.*?)</header>', html, re.S)
    assert bar, "the page has no header bar"
    return [
        (re.sub(r"<[^>]*>", "", words).strip(), href)
        for href, words in re.findall(r'<a [^>]*?href="([^"]*)"[^>]*>(.*?)</a>', bar.group(1))
    ]


def test_every_page_s_header_has_the_site_s_links(client: TestClient) -> None:
    table = open_table(client, game="morris", seats=["you", "random"])["table"]
    pages = [
        "/account",
        "/how-to-play/fano",
        "/rules/fano/exact",
        "/learn/morris",
        "/learn/morris/first-placements",
        "/leaderboard/fantan",
        "/daily",
        "/bots/fantan/hard",
        "/moderation",
        f"/table/{table}",
    ]
    for path in pages:
        answer = client.get(path)
        assert answer.status_code == (403 if path == "/moderation" else 200), path
        links = _bar_links(answer.text)
        assert links[0] == ("fanfold", "/"), path
        assert links[-len(SITE_LINKS) :] == SITE_LINKS, (path, links)
    # the lobby's own: the list of the games is on the page (the link stays on wide screens)
    lobby = _bar_links(client.get("/").text)
    assert lobby[-len(SITE_LINKS) :] == [("How to play", "#games"), *SITE_LINKS[1:]]


def test_the_account_page_s_errors_are_the_site_s_errors(client: TestClient) -> None:
    page = client.get("/account").text
    for form, box in (("sign-in-form", "sign-in-error"), ("create-form", "create-error")):
        found = re.search(rf'<form id="{form}">(.*?)</form>', page, re.S)
        assert found, form
        assert f'<p class="error" id="{box}" role="alert"></p>' in found.group(1)
    assert '<p class="error" id="error" role="alert"></p>' in page


@pytest.mark.parametrize("game", ["fano", "fantan", "morris", "fan"])
def test_the_exact_rules_code_and_tables_scroll_in_boxes_of_their_own(
    client: TestClient, game: str
) -> None:
    page = client.get(f"/rules/{game}/exact").text
    assert "<pre>" not in page
    assert page.count('<pre class="scroll" tabindex="0">') == page.count("<pre")
    assert page.count("<table>") == page.count('<div class="scroll" tabindex="0"><table>')
    assert page.count("</table></div>") == page.count("<table>")


def test_each_game_s_options_example_is_taken_in_every_variant(client: TestClient) -> None:
    web = {entry["name"]: entry for entry in client.get("/api/games/web").json()}
    for plugin in all_plugins():
        example = web[plugin.name]["options_example"]
        assert example == plugin.web.options_example
        assert re.fullmatch(r"\w+=\S+", example), plugin.name
        name, value = example.split("=", 1)
        for preset in get_game(plugin.name).presets():
            players = preset.player_counts[0] if preset.player_counts else None
            count = players or 2
            body: dict[str, object] = {
                "game": plugin.name,
                "variant": preset.name,
                "seats": ["you"] + ["random"] * (count - 1),
                "options": {name: value},
            }
            if players is not None:
                body["players"] = players
            answer = client.post("/api/tables", json=body)
            assert answer.status_code == 200, (plugin.name, preset.name, answer.text)


def test_the_games_words_and_the_leaderboards_names_are_in_french(client: TestClient) -> None:
    french = i18n.messages("fr")
    for plugin in all_plugins():
        assert french.gettext(plugin.web.blurb) != plugin.web.blurb, plugin.name
        assert plugin.web.blurb in french.scripts  # the lobby's script words it
    for name in FAMILIES.values():
        assert french.gettext(name), name
    assert french.gettext("Fano (classic), daily") == "Fano (classique), un coup par jour"
    # Undo and Abort game read apart
    undo, abort = french.gettext("Undo"), french.gettext("Abort game")
    assert undo.split()[0] != abort.split()[0], (undo, abort)
    client.cookies.set(i18n.COOKIE, "fr")
    page = client.get("/leaderboard/fantan").text
    nav = re.search(r'<nav aria-label="Classements">(.*?)</nav>', page, re.S)
    assert nav, "no leaderboards' links"
    assert "Fano (classique)" in nav.group(1)
    assert "Fano (La bataille de Trionfey), un coup par jour" in nav.group(1)
    assert 'translate="no"' not in nav.group(0)
    daily = client.get("/leaderboard/fano-classic-daily").text
    assert "<h1>Classement : Fano (classique), un coup par jour</h1>" in daily
