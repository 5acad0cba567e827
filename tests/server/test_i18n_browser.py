"""The covered pages in the pseudo-language and in French, in Chromium: the lobby (a game
chosen, its table set up), the account page, a leaderboard and a player's profile.

In the pseudo-language ``xx`` (fanfold.server.i18n: every message accented, bracketed and a
third longer) every text node the page draws must be a message of the catalogues, at 1280 and
390 px, light and dark: a word written outside them (in a template, a script or the code that
makes a title) fails the test. Data are left out: what is marked ``translate="no"`` (players',
bots' and games' names, the games' own descriptions, which stay English this turn) and text
without letters (numbers, ratings, card glyphs). axe finds nothing serious in the longer words,
and nothing runs past the screen's width. Then the header's switch turns the pages French and
the choice stays (the ``lang`` cookie); a browser that asks for French gets it from the start.
"""

# ruff: noqa: F811  (the fixtures imported from test_browser are the tests' arguments)
from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, WebSocketRoute, expect

from fanfold.core.phrases import Phrase, ordinal
from fanfold.games.morris import GAME as MORRIS
from fanfold.play.setup import play_game
from fanfold.server.i18n import COOKIE, PSEUDO, PSEUDO_TAG, messages, refusal_codes
from fanfold.server.lessons import BOOKS
from tests.server.test_accounts_browser import _rated_fantan_game
from tests.server.test_browser import browser, server  # noqa: F401  (fixtures)
from tests.server.test_site_browser import SIZES, serious_violations

#: Every drawn text node outside the catalogues: what is left of it once the pseudo-language's
#: bracketed messages are taken out still has a letter. Data (``translate="no"``) is skipped.
UNTRANSLATED = """(outside) => {
  // a message's brackets taken out, innermost first: a message may hold others (a move's
  // sentence, its seat's name), and what is left outside every one is not the catalogues'
  const unbracketed = (text) => {
    let left = text;
    while (/\\[[^\\[\\]]*\\]/.test(left)) left = left.replace(/\\[[^\\[\\]]*\\]/g, "");
    return left;
  };
  const found = [];
  let pseudo = 0;
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || !node.textContent.trim()) continue;
    if (parent.closest('[translate="no"], script, style')) continue;
    if (outside && parent.closest(outside)) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    const box = range.getBoundingClientRect();
    if (!box.width || !box.height || getComputedStyle(parent).visibility === "hidden") continue;
    if (node.textContent.includes("[")) pseudo += 1;
    const left = unbracketed(node.textContent);
    const where = parent.tagName.toLowerCase();
    if (/[A-Za-z]/.test(left)) found.push(`${where}: ${node.textContent.trim().slice(0, 60)}`);
  }
  // words a style sheet writes (content: "…") are outside the catalogues too
  for (const element of document.body.querySelectorAll("*")) {
    if (element.closest('[translate="no"]') || (outside && element.closest(outside))) continue;
    for (const where of ["::before", "::after"]) {
      const content = getComputedStyle(element, where).content;
      if (content.startsWith('"') && /[A-Za-z]/.test(unbracketed(content))) {
        found.push(`${element.tagName.toLowerCase()}${where}: ${content.slice(0, 60)}`);
      }
    }
  }
  return {found, pseudo};
}"""

THEMES = ["light", "dark"]


#: What a page leaves to later work, by page: the rules a How-to-play page explains and the
#: lessons' own words (from their data files) are not in the catalogues yet, and say they are
#: English (lang="en"). A table shows only catalogue words: its moves, seats and endings too.
NOT_YET = {
    "how-to-play": '.howto-body[lang="en"]',
    "lesson": '[lang="en"], #game, #log',
    "lessons": '[lang="en"]',
}


def _untranslated(page: Page, name: str = "") -> dict[str, Any]:
    seen: dict[str, Any] = page.evaluate(
        UNTRANSLATED, NOT_YET.get(name if name in NOT_YET else name.split("-")[0], "")
    )
    return seen


@pytest.fixture(scope="module")
def pages(server: str) -> list[tuple[str, str, str]]:
    """The covered pages: a name, the address, what shows once the scripts have drawn; the
    profile is june's, who played a rated game (the accounts' tests' helper)."""
    _rated_fantan_game(server)
    covered = [
        ("lobby", "/?game=fantan", "#seats select"),
        ("account", "/account", "#signed-out:not([hidden])"),
        ("leaderboard", "/leaderboard/fantan", "tbody tr"),
        ("profile", "/players/june", "#recent li"),
        ("daily", "/daily", "main p"),
        ("bot", "/bots/fantan/hard", "main section h2"),
        ("moderators-only", "/moderation", "main p a"),
        ("appeal", "/appeal", "#appeal:not([hidden])"),
        ("how-to-play", "/how-to-play/fantan", ".howto-body p"),
        ("lessons", "/learn/fantan", ".lesson-list a"),
        ("lesson", f"/learn/fantan/{BOOKS['fantan'].lessons[0].id}", "#prompt"),
    ]
    # each game's board, seated, against bots
    for game, players in (("morris", 2), ("fano", 2), ("fantan", 3), ("fan", 1)):
        seats = ["you"] + ["easy"] * (players - 1)
        table = httpx.post(
            f"{server}/api/tables", json={"game": game, "players": players, "seats": seats}
        ).json()
        page = f"/table/{table['table']}#token={table['token']}"
        covered.append((f"table-{game}", page, "#controls button"))
    # a finished game's review (a Morris game: its moves marked, the summary, the replay),
    # done before the page opens
    record = play_game(MORRIS, None, ["medium", "easy"], agent_seed=1).finish()
    loaded = httpx.post(
        f"{server}/api/records", json={"record": record.to_json(), "seats": ["you", "random"]}
    ).json()
    deadline = time.monotonic() + 120
    while httpx.get(f"{server}/api/tables/{loaded['table']}/review").json()["state"] != "done":
        assert time.monotonic() < deadline, "the review never finished"
        time.sleep(0.2)
    covered.append(("review", f"/table/{loaded['table']}/review", ".review-summary"))
    return covered


@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("size", list(SIZES))
def test_every_covered_page_shows_only_words_of_the_catalogues(
    browser: Browser,
    server: str,
    pages: list[tuple[str, str, str]],
    size: str,
    theme: str,
    tmp_path: Path,
) -> None:
    width, height = SIZES[size]
    context = browser.new_context(
        viewport={"width": width, "height": height},
        color_scheme="dark" if theme == "dark" else "light",
    )
    context.add_cookies([{"name": COOKIE, "value": PSEUDO, "url": server}])
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        for name, path, ready in pages:
            page.goto(f"{server}{path}")
            expect(page.locator(ready).first).to_be_attached()
            expect(page.locator("#theme")).to_be_attached()  # theme.js has its words
            expect(page.locator("html")).to_have_attribute("lang", PSEUDO_TAG)
            if name == "lobby":
                expect(page.locator("#open-seats li").first).to_be_attached()
                expect(page.locator("#recent li").first).to_be_attached()
            seen = _untranslated(page, name)
            assert seen["found"] == [], f"{name}: words outside the catalogues: {seen['found']}"
            assert seen["pseudo"] >= 8, f"{name}: too few messages drawn to judge"
            page.screenshot(path=str(tmp_path / f"{name}-{size}-{theme}.png"), full_page=True)
            assert serious_violations(page) == [], name
            assert page.evaluate("document.documentElement.scrollWidth") <= width, name
        # the check itself: an English word added to the page is found
        page.evaluate("document.querySelector('#seats').append(document.createTextNode('Plain'))")
        assert _untranslated(page, "table-fan")["found"] == ["ul: Plain"]
    finally:
        context.close()
    assert not errors, f"errors in the page: {errors}"


def test_the_switch_turns_the_pages_french_and_the_choice_stays(
    browser: Browser, server: str
) -> None:
    context = browser.new_context(locale="en-GB")
    page = context.new_page()
    try:
        page.goto(f"{server}/account")
        expect(page.locator("h1")).to_have_text("Your account")
        expect(page.locator("#who")).to_have_text("You play as a guest.")
        page.locator("#language").select_option("fr")
        expect(page.locator("html")).to_have_attribute("lang", "fr")
        expect(page.locator("h1")).to_have_text("Votre compte")
        expect(page.locator("#who")).to_have_text("Vous jouez en invité.")  # account.js's
        expect(page.locator(".theme-switch")).to_contain_text("Thème")  # theme.js's
        assert {"name": COOKIE, "value": "fr"}.items() <= next(
            c for c in context.cookies() if c["name"] == COOKIE
        ).items()
        page.goto(f"{server}/?game=morris")  # another page: still French
        expect(page.locator("h1")).to_have_text("Choisissez un jeu")
        expect(page.locator(".game-card .how-to-play").first).to_have_text("Comment jouer")
        expect(page.locator("#setup-title")).to_have_text("Nouvelle table : Fano330-R-Morris")
        expect(page.locator("label[for=seat-0]")).to_have_text("Place 1")
        table = httpx.post(
            f"{server}/api/tables", json={"game": "morris", "players": 2, "seats": ["you", "easy"]}
        ).json()
        page.goto(f"{server}/table/{table['table']}#token={table['token']}")
        expect(page.locator("#moves-title")).to_have_text("Coups")
        expect(page.locator("#status")).to_contain_text("À vous de jouer")  # table.js's
        expect(page.locator("#download")).to_have_text("Télécharger l\u2019enregistrement")
        page.goto(f"{server}/leaderboard/morris")
        expect(page.locator("h1")).to_have_text("Classement : Fano330-R-Morris")
        expect(page.locator("#language")).to_have_value("fr")
        page.locator("#language").select_option("en")
        expect(page.locator("h1")).to_have_text("Leaderboard: Fano330-R-Morris")
        page.goto(f"{server}/")
        expect(page.locator("h1")).to_have_text("Pick a game")
    finally:
        context.close()


def test_a_browser_that_asks_for_french_gets_it(browser: Browser, server: str) -> None:
    context = browser.new_context(locale="fr-FR")
    page = context.new_page()
    try:
        page.goto(f"{server}/")
        expect(page.locator("html")).to_have_attribute("lang", "fr")
        expect(page.locator("h1")).to_have_text("Choisissez un jeu")
        expect(page.locator("#recent li").first).to_have_text("Aucune table ouverte en ce moment.")
    finally:
        context.close()


def _french(refusal: dict[str, Any]) -> str:
    """A refusal (or words: a move, an ending) sent as a code and params, worded from the
    French catalogue as the page does: the code's template translated, a word among the params
    translated, a refusal inside worded the same way, a parameter after a sentence's end
    inside the template with a capital, "de" and "à" before a seat's name "Joueur …"
    contracted ("du Joueur 2"), the words of ``words.capital`` as they are (French writes
    "Résultat : gagné", English "Result: Won")."""
    french = messages("fr")
    params = {
        name: _french(value) if isinstance(value, dict) else french.gettext(str(value))
        for name, value in refusal["params"].items()
    }
    template = french.gettext(refusal_codes()[refusal["code"]])
    for name, value in params.items():
        if re.match(r"Joueur\b", value):
            template = re.sub(
                rf"(^|[\s(])(de|à) (\{{{name}\}})",
                lambda found: f"{found[1]}{CONTRACTIONS[found[2]]} {found[3]}",
                template,
            )
    for name, value in params.items():
        # a value put in as it is: its own braces are not placeholders
        capital = (value[:1].upper() + value[1:]).replace("{", "{{").replace("}", "}}")
        template = template.replace(f". {{{name}}}", f". {capital}")
    # French goes on in lower case after a colon: no capital for words.capital (CAPITALISED)
    return template.format(**params)


#: French's contractions before a seat's name "Joueur …" (``static/common.js``).
CONTRACTIONS = {"de": "du", "à": "au"}


def test_french_contracts_de_before_a_seat_named_joueur() -> None:
    """The French formatter (mirrored here from the page's): "du Joueur 2", not "de Joueur 2";
    a seat named otherwise ("Blanc") keeps "de"."""
    player = Phrase("review.resigned", seat=Phrase("game.player", number=2))
    assert _french(player.to_json()) == "Joueur 2 a abandonné."
    move = Phrase(
        "review.move.mistake",
        seat=Phrase("fantan.seat", number=2),
        ordinal=ordinal(3),
        move="7H",
        played=41,
        best_value=58,
        best="8H",
    )
    assert _french(move.to_json()).startswith("Le 3e coup du Joueur 2, 7H, était une erreur")
    white = Phrase(
        "review.move.worse_result",
        seat=Phrase("morris.white"),
        ordinal=ordinal(1),
        move="C7",
        before=Phrase("review.a_draw"),
        after=Phrase("review.a_loss"),
        best="C1",
    )
    assert _french(white.to_json()).startswith("Le 1er coup de Blanc, C7, a changé une nulle en")


#: An action each game refuses at the start of any deal: the game, its seats, the action.
#: An illegal action of each game, and a typed move that does not parse (Morris's "Q9").
REFUSED = [
    ("fano", 2, "allow"),
    ("fantan", 3, "AS"),
    ("morris", 2, "3-5"),
    ("fan", 1, "1-2:2"),
    ("morris", 2, "Q9"),
]


def test_a_refusal_of_each_game_reaches_the_page_in_french(browser: Browser, server: str) -> None:
    """The action goes up the page's own socket (added by the test where the page would send a
    chosen one); the server's refusal comes down as a code and params, which the page words
    from the French catalogue, not the English sentence sent beside them."""
    context = browser.new_context(locale="fr-FR")
    page = context.new_page()
    down: list[dict[str, Any]] = []
    upstream: list[WebSocketRoute] = []

    def route(socket: WebSocketRoute) -> None:
        server_side = socket.connect_to_server()
        upstream.append(server_side)

        def passed(message: str | bytes) -> None:
            down.append(json.loads(message))
            socket.send(message)

        server_side.on_message(passed)

    page.route_web_socket(re.compile(r"/ws/tables/"), route)
    try:
        for game, players, action in REFUSED:
            table = httpx.post(
                f"{server}/api/tables",
                json={"game": game, "players": players, "seats": ["you"] * players},
            ).json()
            down.clear()
            upstream.clear()
            page.goto(f"{server}/table/{table['table']}#token={table['token']}")
            expect(page.locator("#moves-title")).to_have_text("Coups")
            expect(page.locator("#status")).not_to_be_empty()
            state = next(m for m in down if m.get("type") == "state")
            act = {"type": "act", "version": state["version"], "action": action}
            upstream[-1].send(json.dumps(act))
            expect(page.locator("#error")).not_to_be_empty()
            refusal = next(m for m in down if m.get("type") == "error")
            assert refusal["code"].startswith(f"{game}."), refusal
            worded = _french(refusal)
            assert worded != refusal["error"]
            expect(page.locator("#error")).to_have_text(worded)
    finally:
        context.close()


#: A Morris game that White loses on its third placement, three white pieces on the line
#: 1-2-4 (Black's two circles make no line).
WHITE_LOSES = ["C1", "C3", "T2", "C5", "C4"]


def test_a_finished_table_tells_its_moves_and_its_end_in_french(
    browser: Browser, server: str, tmp_path: Path
) -> None:
    """The log, the last move, the seats and the end panel: the server sends each as a code
    and params beside its English words, and a French page words them from the catalogue."""
    made = httpx.post(
        f"{server}/api/tables", json={"game": "morris", "players": 2, "seats": ["you", "you"]}
    ).json()
    table, token = made["table"], made["token"]
    for action in WHITE_LOSES:
        state = httpx.get(f"{server}/api/tables/{table}", headers={"X-Fanfold-Token": token})
        answer = httpx.post(
            f"{server}/api/tables/{table}/act",
            json={"token": token, "action": action, "version": state.json()["version"]},
        )
        assert answer.status_code == 200, answer.text
    told = httpx.get(f"{server}/api/tables/{table}", headers={"X-Fanfold-Token": token}).json()
    assert told["outcome"]["said"]["code"] == "morris.line_loses"
    assert [entry["said"]["code"] for entry in told["log"]][-1] == "words.sentence_end"
    context = browser.new_context(locale="fr-FR")
    page = context.new_page()
    try:
        page.goto(f"{server}/table/{table}#token={token}")
        expect(page.locator("#outcome")).to_be_visible()
        ending = "Blanc a fini son tour avec trois pièces blanches sur la ligne 1-2-4 et perd"
        expect(page.locator("#end-reason")).to_have_text(f"{ending}.")
        log = page.locator("#log li")
        expect(log).to_have_count(len(WHITE_LOSES))
        expect(log.first).to_have_text(_french(told["log"][0]["said"]))
        last = _french(told["log"][-1]["said"])
        assert last.endswith(f"sur le point 4. {ending}."), last
        expect(log.last).to_have_text(last)
        expect(page.locator("#last-move")).to_have_text(last)  # hidden: the end panel says it
        expect(page.locator("#seats")).to_contain_text("Noir")
        for size, (width, height) in SIZES.items():
            page.set_viewport_size({"width": width, "height": height})
            page.screenshot(path=str(tmp_path / f"ended-fr-{size}.png"), full_page=True)
    finally:
        context.close()


def test_refusals_away_from_tables_reach_the_page_in_french(browser: Browser, server: str) -> None:
    """The account page's refusals come as codes too: a wrong password is said in French on
    the page, and a reserved name's refusal words what the name reads as from the catalogue."""
    reserved = httpx.post(
        f"{server}/api/accounts", json={"name": "medium", "password": "a long password"}
    )
    assert reserved.status_code == 400, reserved.text
    refusal = reserved.json()
    assert refusal["code"] == "account.reserved"
    assert refusal["error"] == (
        "the name medium is reserved: it reads as 'medium', a bot level; choose another"
    )
    assert _french(refusal) == (
        "le nom medium est réservé : il se lit comme 'medium', un niveau de bot ; "
        "choisissez-en un autre"
    )
    context = browser.new_context(locale="fr-FR")
    page = context.new_page()
    try:
        page.goto(f"{server}/account")
        form = page.locator("#sign-in-form")
        form.locator("input[name=name]").fill("nobody-here")
        form.locator("input[name=password]").fill("not the password")
        form.locator("button[type=submit]").click()
        expect(page.locator("#sign-in-error")).to_have_text("Nom ou mot de passe erroné")
    finally:
        context.close()


def test_the_chat_s_and_the_reviews_refusals_come_as_codes(server: str) -> None:
    """A line of chat reported that is not there, and the review of a game still played: each
    refusal is a code and params beside its English sentence, and French words it."""
    made = httpx.post(
        f"{server}/api/tables", json={"game": "morris", "players": 2, "seats": ["you", "you"]}
    ).json()
    missing = httpx.post(
        f"{server}/api/tables/{made['table']}/chat/999999/report",
        json={"note": ""},
        headers={"X-Fanfold-Token": made["token"]},
    )
    assert missing.status_code == 404, missing.text
    assert missing.json()["code"] == "chat.no_line"
    assert missing.json()["error"] == "no such line of chat at this table"
    assert _french(missing.json()) == "aucune ligne de discussion de ce genre à cette table"
    playing = httpx.get(f"{server}/api/tables/{made['table']}/review")
    assert playing.status_code == 409, playing.text
    assert playing.json()["code"] == "reviews.playing"
    assert _french(playing.json()).startswith("cette partie est encore en cours")


def test_a_typed_move_that_does_not_parse_comes_as_a_code_and_changes_nothing(
    server: str,
) -> None:
    """A move typed wrong (a Fano card with no suit inside a longer move) is refused with the
    notation's code and the text typed, the English sentence beside them; French words it, and
    the table stays at its version."""
    made = httpx.post(
        f"{server}/api/tables", json={"game": "fano", "players": 2, "seats": ["you", "you"]}
    ).json()
    address = f"{server}/api/tables/{made['table']}"
    before = httpx.get(address, headers={"X-Fanfold-Token": made["token"]}).json()["version"]
    refused = httpx.post(
        f"{address}/act", json={"token": made["token"], "version": before, "action": "play 5"}
    )
    assert refused.status_code == 400, refused.text
    body = refused.json()
    assert (body["code"], body["params"]) == ("fano.not_a_card", {"text": "5"})
    assert body["error"].startswith("'5' is not a card: write the rank then the suit")
    assert _french(body).startswith("«\u00a05\u00a0» n\u2019est pas une carte : écrivez le rang")
    after = httpx.get(address, headers={"X-Fanfold-Token": made["token"]}).json()["version"]
    assert after == before


def test_opening_a_table_with_the_wrong_seats_is_refused_with_a_code(server: str) -> None:
    """The seat count and a seat open to anyone at an unlisted table: codes, French words, and
    no table opened."""
    wrong = httpx.post(f"{server}/api/tables", json={"game": "morris", "seats": ["you"]})
    assert wrong.status_code == 400, wrong.text
    assert wrong.json()["code"] == "table.seat_count"
    assert wrong.json()["params"] == {"game": "Fano330-R-Morris", "count": 2, "seats": 1}
    assert _french(wrong.json()) == "Fano330-R-Morris dans cette variante a 2 places, pas 1"
    hidden = httpx.post(f"{server}/api/tables", json={"game": "morris", "seats": ["you", "open"]})
    assert hidden.status_code == 400, hidden.text
    assert hidden.json()["code"] == "table.open_needs_listed"
    assert _french(hidden.json()).startswith("une place ouverte à tous demande une table")
    assert "table" not in wrong.json()
    assert "table" not in hidden.json()


def test_an_unknown_agent_is_refused_with_its_name_and_the_known_names(server: str) -> None:
    """A seat given to a name that is no agent: the code names it and the agents there are."""
    refused = httpx.post(
        f"{server}/api/tables", json={"game": "morris", "seats": ["you", "no-such-bot"]}
    )
    assert refused.status_code == 400, refused.text
    body = refused.json()
    assert body["code"] == "agent.unknown"
    assert body["params"]["name"] == "no-such-bot"
    assert "random" in body["params"]["names"].split(", ")
    assert body["error"].startswith("no agent called 'no-such-bot'; agents: ")
    named = "aucun agent ne s\u2019appelle «\u00a0no-such-bot\u00a0» ; agents : "
    assert _french(body).startswith(named)


def test_bot_levels_are_named_in_the_page_s_language(
    server: str, pages: list[tuple[str, str, str]]
) -> None:
    """The leaderboards and the profiles word a bot level ("Hard bot") from the catalogue; the
    English page keeps the English name. (``pages`` played june's rated game against bots.)"""
    assert pages
    french = httpx.get(f"{server}/leaderboard/fantan", cookies={COOKIE: "fr"}).text
    assert ">Bot difficile</a>" in french
    assert "Hard bot" not in french
    bot = httpx.get(f"{server}/bots/fantan/hard", cookies={COOKIE: "fr"}).text
    assert "<title>Bot difficile : Fan Tan · fanfold</title>" in bot
    assert "<h1>Bot difficile : Fan Tan</h1>" in bot
    english = httpx.get(f"{server}/bots/fantan/hard").text
    assert "<title>Hard bot: Fan Tan · fanfold</title>" in english
    assert ">Hard bot</a>" in httpx.get(f"{server}/leaderboard/fantan").text
    profile = httpx.get(f"{server}/players/june", cookies={COOKIE: "fr"}).text
    assert re.search(r">Bot (facile|moyen|difficile)</a>", profile), profile
