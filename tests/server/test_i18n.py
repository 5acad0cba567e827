"""The message catalogues (fanfold.server.i18n): the pseudo-language, the choice of a
request's language, the catalogues against the sources, the pages drawn in a language and the
page scripts' catalogue."""

from __future__ import annotations

import json
import math
import re

import pytest
from babel.messages.pofile import read_po
from fastapi.testclient import TestClient

from fanfold.server import i18n
from fanfold.server.chat import PHRASES
from fanfold.server.content_catalogue import CONTENT, html_messages, markdown_messages
from fanfold.server.i18n_catalogues import content, extract
from fanfold.server.lessons import BOOKS
from fanfold.server.templating import ENVIRONMENT

#: The placeholders of a message: Python's and the scripts'.
PLACEHOLDERS = re.compile(r"%\(\w+\)[sd]|\{\w+\}")


def test_pseudo_accents_every_letter_keeps_placeholders_and_is_a_third_longer() -> None:
    for text in ["Lobby", "Signed in as {name}.", "Leaderboard: %(game)s", "100%% <b>x</b>"]:
        made = i18n.pseudo(text)
        assert made.startswith("[")
        assert made.endswith("]")
        assert len(made) >= math.ceil(len(text) * 1.3)
        kept = PLACEHOLDERS.findall(text)
        assert PLACEHOLDERS.findall(made) == kept
        assert not re.search(
            r"[A-Za-z]", PLACEHOLDERS.sub("", made).replace("<b>", "").replace("</b>", "")
        )
    assert i18n.pseudo("Lobby") == "[Ļöƀƀý ·]"


def test_the_language_is_the_cookie_then_accept_language_then_english() -> None:
    assert i18n.choose("fr", "en") == "fr"
    assert i18n.choose("xx", None) == "xx"  # the pseudo-language: by the cookie only
    assert i18n.choose(None, "xx, fr;q=0.5") == "fr"
    assert i18n.choose("klingon", "de-DE, fr-CH;q=0.8, en;q=0.9") == "en"
    assert i18n.choose(None, "de-DE, fr-CH;q=0.8") == "fr"
    assert i18n.choose(None, "fr;q=0, en") == "en"
    for malformed in ["fr;q=high", ";;;,,", "\x00", "fr" * 5000, ""]:
        assert i18n.choose(None, malformed) == "en"
    assert i18n.choose("", None) == "en"


def test_the_template_holds_every_message_of_the_sources_and_only_those() -> None:
    """Run ``python -m fanfold.server.i18n_catalogues update`` when this fails."""
    with i18n.TEMPLATE.open("rb") as source:
        stored = read_po(source)
    made = extract()
    assert sorted(str(m.id) for m in stored if m.id) == sorted(str(m.id) for m in made if m.id)
    for message in made:
        if message.id:
            files = sorted({place for place, _ in message.locations})
            assert sorted(place for place, _ in stored[message.id].locations) == files, message.id


def test_the_long_texts_catalogue_holds_the_rules_the_how_to_play_pages_and_the_lessons() -> None:
    """Run ``python -m fanfold.server.i18n_catalogues update`` when this fails: the rules,
    the How-to-play pages' text and the lessons, in their own template (not translated yet)."""
    with CONTENT.open("rb") as source:
        stored = read_po(source)
    made = content()
    assert made.domain == "content"
    assert sorted(str(m.id) for m in stored if m.id) == sorted(str(m.id) for m in made if m.id)
    for message in made:
        if message.id:
            files = sorted({place for place, _ in message.locations})
            assert sorted(place for place, _ in stored[message.id].locations) == files, message.id
    lesson = BOOKS["fan"].lessons[0]
    step = lesson.steps[0]
    for words in [lesson.intro, step.prompt, step.hint, step.explanation, step.mistakes[0].note]:
        assert f"lessons/fan/{lesson.id}" in {place for place, _ in made[words].locations}
    rules = {place for message in made for place, _ in message.locations}
    assert {"rules/fan.md", "rules/fano.md", "howto/morris.html"} <= rules
    with i18n.TEMPLATE.open("rb") as source:  # the interface's catalogue holds none of them
        interface = {m.id for m in read_po(source) if m.id}
    assert lesson.intro not in interface


def test_a_long_text_gives_one_message_a_block_its_inline_marks_kept() -> None:
    written = (
        "# Moves\n\nA card goes **up**,\nor `7-F`.\n\n"
        "| Rank | Name |\n|---|---|\n| 1 | ace |\n\n```\ncode\n```\n"
    )
    assert markdown_messages(written) == [
        "Moves",
        "A card goes **up**, or `7-F`.",
        "Rank",
        "Name",
        "ace",
    ]
    fragment = (
        "<h2>The deal</h2><p>Put the <strong>ace</strong> [[AH]] up.</p>"
        "<ul><li>one <em>rule</em></li><li>[[7H]] 7</li></ul>"
        '<figure><svg aria-label="a fan of cards"><text>Fan 1</text></svg>'
        "<figcaption>A fan &amp; its top</figcaption></figure>"
    )
    assert html_messages(fragment) == [
        "The deal",
        "Put the <strong>ace</strong> [[AH]] up.",
        "one <em>rule</em>",
        "a fan of cards",
        "Fan 1",
        "A fan &amp; its top",
    ]


@pytest.mark.parametrize("code", [code for code in i18n.LANGUAGES if code != i18n.ENGLISH])
def test_every_language_translates_every_message_with_its_placeholders(code: str) -> None:
    with i18n.TEMPLATE.open("rb") as source:
        template = read_po(source)
    with i18n.po_path(code).open("rb") as source:
        catalog = read_po(source, locale=code)
    for message in template:
        if not message.id:
            continue
        translated = catalog.get(message.id)
        assert translated is not None, message.id
        assert not translated.fuzzy, message.id
        ids = [message.id] if isinstance(message.id, str) else list(message.id)
        given = translated.string
        strings = [given] if isinstance(given, str) else list(given or [""])
        assert all(strings), message.id
        wanted = sorted(PLACEHOLDERS.findall(ids[-1]))
        for text in strings:
            assert sorted(PLACEHOLDERS.findall(str(text))) == wanted, (message.id, text)
            # the templates put a translation in the page as it is: it holds no markup (a
            # refusal's or a phrase's template is only ever text, and its moves are written
            # 4H>6S: the notation's help)
            coded = (i18n.REFUSAL, i18n.PHRASE, i18n.TERMINAL_PHRASE)
            refusal = all(place.startswith(coded) for place, _ in message.locations)
            assert refusal or not re.search(r"[<>&]", str(text)), (message.id, text)


def test_every_chat_phrase_is_worded_by_its_key_in_every_language() -> None:
    """The page words a phrase by its key (``static/phrases.js``): the same keys and English
    words as the server's, each a message of the scripts' catalogue, translated."""
    script = (i18n.LOCALES.parent / "static" / "phrases.js").read_text("utf-8")
    worded = dict(re.findall(r'^\s*(\w+): \(\) => t\("([^"]+)"\),$', script, re.MULTILINE))
    assert worded == PHRASES
    french = i18n.messages("fr")
    for words in PHRASES.values():
        assert words in french.scripts, words
        assert french.gettext(words) != words, words
    assert json.loads(french.script_json())["Good luck"] == "Bonne chance"


def test_french_counts_zero_and_one_alike() -> None:
    french = i18n.messages("fr")
    one, other = "Rating %(rating)s after %(num)s rated game", "... rated games"
    assert french.ngettext(one, other, 0) == french.ngettext(one, other, 1)
    assert french.ngettext(one, other, 1).endswith("partie classée")
    assert french.ngettext(one, other, 2).endswith("parties classées")
    assert i18n.messages("en").ngettext(one, other, 0) == other


def test_pages_are_drawn_in_the_language_asked_for(client: TestClient) -> None:
    english = client.get("/")
    assert '<html lang="en">' in english.text
    assert "Pick a game" in english.text
    assert english.headers["content-language"] == "en"
    assert "Accept-Language" in english.headers["vary"]
    assert 'name="fanfold-messages"' not in english.text  # English pages need no catalogue
    french = client.get("/", headers={"Accept-Language": "fr-FR,fr;q=0.9,en;q=0.5"})
    assert '<html lang="fr">' in french.text
    assert "Choisissez un jeu" in french.text
    assert french.headers["content-language"] == "fr"
    client.cookies.set(i18n.COOKIE, "xx")
    for path, words in [
        ("/", "Pick a game"),
        ("/account", "Your account"),
        ("/leaderboard/fantan", "Player"),
    ]:
        page = client.get(path, headers={"Accept-Language": "fr"})
        assert '<html lang="en-XA">' in page.text, path
        assert i18n.pseudo(words) in page.text, path
        assert f">{words}<" not in page.text, path
    client.cookies.set(i18n.COOKIE, "fr")
    rules = client.get("/rules/morris/exact").text  # not translated yet: says it is English
    assert '<html lang="en">' in rules
    assert 'name="fanfold-languages"' not in rules
    howto = client.get("/how-to-play/morris").text  # French around, its rules in English
    assert '<html lang="fr">' in howto
    assert "Comment jouer à" in howto
    assert '<div class="howto-body" lang="en">' in howto
    for path, words in [
        ("/daily", "La donne du jour"),
        ("/bots/fantan/hard", "Comment son classement a commencé"),
        ("/appeal", "Faire appel pour un compte fermé"),
        ("/moderation", "Cette page est réservée aux modérateurs du site."),
        ("/learn/fan", "Toutes les leçons"),
    ]:
        page = client.get(path).text
        assert '<html lang="fr">' in page, path
        assert 'lang="en"' not in page, path
        assert words in page, path
    client.cookies.set(i18n.COOKIE, "<script>")  # a forged cookie is not a language
    assert '<html lang="en">' in client.get("/account").text


def test_a_name_in_a_message_is_escaped() -> None:
    token = i18n.CURRENT.set("xx")
    try:
        drawn = ENVIRONMENT.from_string('{{ _("%(game)s, rated", game=who) }}').render(who="<b>")
    finally:
        i18n.CURRENT.reset(token)
    assert "&lt;b&gt;" in drawn
    assert "<b>" not in drawn


def test_the_scripts_catalogue_is_served_with_its_version(client: TestClient) -> None:
    french = i18n.messages("fr")
    client.cookies.set(i18n.COOKIE, "fr")
    page = client.get("/account").text
    address = f"/i18n/fr.json?v={french.version()}"
    assert f'content="{address}"' in page
    answer = client.get(address)
    assert answer.status_code == 200
    assert "immutable" in answer.headers["cache-control"]
    words = json.loads(answer.text)
    assert words["Join"] == "Rejoindre"
    assert words["Theme"] == "Thème"
    assert "Leaderboards" not in words  # the templates' words stay on the server
    assert client.get("/i18n/fr.json?v=old").headers["cache-control"] == "no-cache"
    pseudo = json.loads(client.get("/i18n/xx.json").text)
    assert pseudo["Join"] == i18n.pseudo("Join")
    for wrong in ["en", "de", "..%2Fetc", "xx.json"]:
        assert client.get(f"/i18n/{wrong}.json").status_code == 404, wrong


def test_python_words_a_refusal_as_the_page_scripts_do() -> None:
    """``Messages.worded`` (the terminal's, and the tests'): the code's translated template, a
    refusal inside worded too, a word of the catalogue translated, a parameter that starts a
    sentence with a capital, French's "de" before a seat's name contracted, the English
    template where the language has none."""
    french = i18n.Messages(
        "fr",
        {"Player {number}": "Joueur {number}", "{seat} moved. {what}": "coup de {seat}. {what}"},
        {},
        frozenset({"White"}),
        codes={"game.player": "Player {number}", "x.moved": "{seat} moved. {what}"},
    )
    seat = {"code": "game.player", "params": {"number": 2}}
    assert french.worded({"code": "x.moved", "params": {"seat": seat, "what": "rien"}}) == (
        "coup du Joueur 2. Rien"
    )
    english = i18n.messages(i18n.ENGLISH)
    assert english.worded({"code": "game.player", "params": {"number": 3}}) == "Player 3"
    fr = i18n.messages("fr")
    assert fr.worded({"code": "morris.inv_pieces", "params": {"side": "White"}}) == (
        "Blanc a trop de pièces sur le plateau"
    )
    assert fr.worded({"code": "no.such_code", "params": {}}) == "no.such_code"
    assert fr.text("plain English") == "plain English"


def test_a_review_failure_kept_before_records_had_codes_still_reads() -> None:
    """A review's failure is kept as a code where its error has one: a record that does not
    replay now does; a row kept before, in English, reads as it was."""
    from fanfold.core.errors import RecordError
    from fanfold.core.records import GameRecord
    from fanfold.core.registry import get_game
    from fanfold.server.review_answers import failure_fields, failure_text

    morris = get_game("morris")
    record = GameRecord.start(morris, morris.default_config(), seed=0)
    broken = GameRecord(record.game, record.config, record.seed, ("C1", "C1", "C1"))
    with pytest.raises(RecordError) as raised:
        broken.states()
    kept = failure_fields(failure_text(raised.value))
    assert kept["error"] == str(raised.value)
    said = kept["error_said"]
    assert isinstance(said, dict)
    assert said["code"] == "record.no_replay"
    assert i18n.messages("fr").worded(said).startswith("le coup 3 (")
    old = "action 3 ('C1') does not replay: black cannot place a circle there"
    assert failure_fields(old) == {"error": old}
