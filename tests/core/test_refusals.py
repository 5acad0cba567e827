"""Refusals as codes and parameters (``fanfold.core.errors.Refusal``): every code the sources
use has one template naming exactly the params it is given, every template is used, an illegal
action of each game raises with its refusal, and the English sentence stays the error's."""

from __future__ import annotations

import ast
import importlib
import pickle
import re
from pathlib import Path

import pytest

import fanfold.core.kinds
import fanfold.core.lab_refusals  # the arena's, the balance lab's, the environments'
import fanfold.play.refusals
import fanfold.server.refusals  # noqa: F401  (the tables' and the server's templates)
from fanfold.core.cards import Card
from fanfold.core.errors import (
    TEMPLATES,
    IllegalActionError,
    NotationError,
    Refusal,
    template_fields,
    templates,
)
from fanfold.core.registry import all_games, get_game

SOURCE = Path(__file__).resolve().parents[2] / "src" / "fanfold"
#: A refusal's code: a namespace (a game's name, ``game``, ``table``...) and a name.
CODE = re.compile(r"^[a-z]+\.[a-z_]+$")


def _registered() -> dict[str, str]:
    all_games()  # every game's rules, so every game's templates
    # every module that registers templates, whatever this test's order in its process
    for path in sorted(SOURCE.rglob("*.py")):
        if re.search(r"^\s*templates\(", path.read_text(), re.MULTILINE):
            parts = path.relative_to(SOURCE.parent).with_suffix("").parts
            importlib.import_module(".".join(p for p in parts if p != "__init__"))
    return dict(TEMPLATES)


#: The notation's parsers: the cards, each game's actions and positions, Fan's deal files.
PARSERS = sorted(
    [
        SOURCE / "core" / "cards.py",
        SOURCE / "games" / "fano" / "cards.py",
        SOURCE / "games" / "fan" / "state.py",
        SOURCE / "games" / "fan" / "deals.py",
        *SOURCE.glob("games/*/notation.py"),
        *SOURCE.glob("games/*/actions.py"),
    ]
)
#: The calls that make a refusal: the class, and the server's short form.
REFUSE = ("Refusal", "refusal")


def _hands_on(path: Path, call: ast.Call) -> bool:
    """Whether ``call`` is the server's short form handing its code and params on as given
    (``Refusal(code, **params)`` in ``fanfold/server/refusals.py``)."""
    return (
        path.name == "refusals.py"
        and path.parent.name == "server"
        and all(keyword.arg is None for keyword in call.keywords)
    )


def _uses() -> tuple[dict[str, set[frozenset[str]]], set[str]]:
    """The codes the sources build refusals with, each with the sets of params it is given
    (``Refusal("code", a=...)``), and the codes named elsewhere as strings (handed to a
    ``Refusal(code)`` made further on: those take no params)."""
    registered = _registered()
    direct: dict[str, set[frozenset[str]]] = {}
    named: set[str] = set()
    for path in SOURCE.rglob("*.py"):
        tree = ast.parse(path.read_text(), str(path))
        registration = {
            id(key)
            for call in ast.walk(tree)
            if isinstance(call, ast.Call) and getattr(call.func, "id", "") == "templates"
            for argument in call.args
            if isinstance(argument, ast.Dict)
            for key in argument.keys
        }
        for node in ast.walk(tree):
            # ``refusal(...)`` is the server's short form of ``Refusal(...)``
            # (``fanfold.server.refusals``), which hands on its code and params unchanged.
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") in REFUSE:
                first = node.args[0] if node.args else None
                if isinstance(first, ast.Constant) and isinstance(first.value, str):
                    assert all(k.arg for k in node.keywords), f"{path}: **params hide names"
                    direct.setdefault(first.value, set()).add(
                        frozenset(str(k.arg) for k in node.keywords)
                    )
                elif not _hands_on(path, node):
                    assert not node.keywords, f"{path}:{node.lineno}: a code not written out"
            elif (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and node.value in registered
                and id(node) not in registration
            ):
                named.add(node.value)
    return direct, named


def test_every_code_has_a_template_with_exactly_its_params() -> None:
    registered = _registered()
    direct, named = _uses()
    assert len(direct) > 100  # the four games, the tables and the server
    for code, uses in direct.items():
        assert code in registered, f"{code} has no template"
        for params in uses:
            assert params == template_fields(registered[code]), code
    for code in named - set(direct):
        assert template_fields(registered[code]) == frozenset(), f"{code} is given no params"
    unused = set(registered) - set(direct) - named
    assert not unused, f"templates no code uses: {sorted(unused)}"
    for code in registered:
        assert CODE.match(code), code
    # what a player types that does not parse (a move, a card, a position) is refused with a
    # code too, never with English alone: every notation error the parsers raise is a Refusal
    for path in PARSERS:
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
                raised = node.exc
                if getattr(raised.func, "id", "") == "NotationError":
                    given = raised.args[0] if raised.args else None
                    made = isinstance(given, ast.Call) and getattr(given.func, "id", "") in REFUSE
                    assert made, f"{path}:{node.lineno}: a notation error without a code"


def test_a_refusal_is_its_english_sentence_with_its_code_and_params() -> None:
    _registered()
    refusal = Refusal("fan.too_few", fan=3, count=2)
    assert refusal == "fan 3 holds only 2 card(s)"
    assert (refusal.code, refusal.params) == ("fan.too_few", {"fan": 3, "count": 2})
    inner = Refusal("fano.needs_hard")
    outer = Refusal("fano.promote_needs", need=inner)
    assert outer == f"promoting needs {inner}"
    assert outer.to_json() == {
        "code": "fano.promote_needs",
        "params": {"need": {"code": "fano.needs_hard", "params": {}}},
    }
    copy = pickle.loads(pickle.dumps(refusal))
    assert (copy, copy.code, copy.params) == (refusal, refusal.code, refusal.params)
    with pytest.raises(ValueError, match="takes"):
        Refusal("fan.too_few", fan=3)
    with pytest.raises(ValueError, match="takes"):
        Refusal("fan.empty", fan=3, count=2)
    with pytest.raises(KeyError):
        Refusal("fan.no_such_code")
    with pytest.raises(ValueError, match="two templates"):
        templates({"fan.empty": "another sentence"})
    error = IllegalActionError(refusal)
    assert (str(error), error.refusal, error.args) == (refusal, refusal, (str(refusal),))
    assert IllegalActionError("plain words").refusal is None


@pytest.mark.parametrize(
    ("game", "text"),
    [("fano", "allow"), ("fantan", "AS"), ("morris", "3-5"), ("fan", "1-2:2")],
)
def test_each_games_illegal_action_raises_with_its_refusal(game: str, text: str) -> None:
    rules = get_game(game)
    state = rules.new_state(rules.default_config(), 1)
    with pytest.raises(IllegalActionError) as raised:
        rules.apply(state, rules.parse_action(text))
    refusal = raised.value.refusal
    assert refusal is not None
    assert refusal.code.startswith(f"{game}.")
    assert str(raised.value) == refusal == rules.explain_illegal(state, rules.parse_action(text))


def test_a_notation_error_is_a_code_with_the_text_typed_and_a_reason_inside() -> None:
    """What does not parse is refused with a code and the text as typed, its English sentence
    the error's; a reason found further in (a card in a hand) is a refusal inside, worded the
    same way; a place in a position (the header) is one too."""
    all_games()
    with pytest.raises(NotationError) as suit:
        Card.parse("7X")
    assert str(suit.value) == "'X' is not a suit (use C, D, H or S)"
    assert suit.value.refusal is not None
    assert suit.value.refusal.to_json() == {"code": "cards.not_a_suit", "params": {"text": "X"}}
    fantan = get_game("fantan")
    text = fantan.format_position(fantan.new_state(fantan.default_config(), 1))
    broken = text.replace(text.split("|")[1].split()[0], "7X", 1)
    with pytest.raises(NotationError) as hand:
        fantan.parse_position(broken)
    assert hand.value.refusal is not None
    assert hand.value.refusal.to_json() == {
        "code": "fantan.bad_hand",
        "params": {"seat": 1, "reason": {"code": "cards.not_a_suit", "params": {"text": "X"}}},
    }
    assert str(hand.value) == "seat 1's hand: 'X' is not a suit (use C, D, H or S)"
    fano = get_game("fano")
    position = fano.format_position(fano.new_state(fano.default_config(), 1))
    with pytest.raises(NotationError) as header:
        fano.parse_position(position.replace("seed=1", "seed=x", 1))
    assert str(header.value) == "header: seed must be a whole number, not 'x'"
    assert header.value.refusal is not None
    assert header.value.refusal.to_json()["params"]["where"] == {
        "code": "fano.in_header",
        "params": {},
    }
