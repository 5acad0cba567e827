"""The Fano position notation: every card of every player, hidden ones included.

A position is a header and one section per seat, ``|`` between them::

    fano turn=5 player=1 phase=main seed=7 | level=0 hand=3H,4H field=AH,7H draw=2H,5H
    up=6H down=TH known=- specials=- protected=- shuffles=0 | level=0 hand=... | ...

* header: ``turn`` (from 1), ``player`` (whose turn, from 1), ``phase`` (``main``, ``mulligan``,
  ``draw-shuffle``, ``shuffle``, ``end``, ``over``) and ``seed`` (names later reshuffles);
* a seat: ``level`` (promotions so far), ``hand``, ``field`` (a joker in play with its value:
  ``JK4``), ``draw`` (the draw pile, next card first), ``up``/``down`` (face-up and face-down
  discards), ``known`` (hand cards everyone has seen), ``specials`` (``level:name`` for each
  use, names ``reverse``, ``oversum``, ``joker``, ``defend``), ``protected`` (cards under
  Perfect defense), ``shuffles`` (reshuffles so far). ``-`` is an empty list.

The Trionfey edition adds, in the header, ``attack`` (a declared attack in the defender's
counter window: ``4H>6S@2``, with ``/reverse`` for Reverse Fano; ``-`` for none) and ``foe``
(the player chosen as target this turn with three or more players, ``-`` for none) and
``support`` (the support once shown, when the defender may sacrifice a face-down card),
``priority`` (partnerships: the seat holding priority, by default the turn player); and in each
seat ``tribute`` (counters held) and ``hidden`` (cards in play lying face down).

Keys may come in any order and may be left out (empty, or 0); a seat written ``-`` has all
its cards in the draw pile. To set up a puzzle, name only the
cards that matter: every card of a seat's deck that the section does not place goes under the
named draw pile, in an order shuffled from the seed. A Temporary Joker ``TJ`` is in the game
exactly when a section places it.
"""

from __future__ import annotations

from dataclasses import replace

from fanfold.core.errors import (
    NotationError,
    Refusal,
    problems_joined,
    reason_of,
    refusal_words,
    templates,
)
from fanfold.core.rng import derive_rng
from fanfold.games.fano.actions import Declare, parse_action
from fanfold.games.fano.cards import (
    TEMP_JOKER,
    base_card,
    card_text,
    cards_text,
    parse_card,
    parse_cards,
)
from fanfold.games.fano.config import FanoConfig, Special, Teams
from fanfold.games.fano.rules import deck_of, invariant_violations
from fanfold.games.fano.state import FanoState, Pending, Phase, PlayerState

#: The notation's errors (:class:`~fanfold.core.errors.Refusal`), worded on the play
#: server's page from the same templates translated.
templates(
    {
        "fano.in_header": "header",
        "fano.in_seat": "seat {seat}",
        "fano.not_key_value": "{where}: '{text}' should be key=value",
        "fano.unknown_key": "{where}: unknown key '{key}'; keys: {keys}",
        "fano.key_twice": "{where}: {key} is given twice",
        "fano.not_a_number": "{where}: {name} must be a whole number, not '{text}'",
        "fano.special_form": "{where}: a special is level:name, e.g. 0:reverse, not '{text}'",
        "fano.unknown_special": "{where}: unknown special '{text}' (use {names})",
        "fano.attack_flag": "header: attack='{text}': only '/reverse' may follow the attack",
        "fano.attack_bad": "header: attack='{text}': {reason}",
        "fano.attack_form": "header: attack='{text}' should read like 4H>6S@2",
        "fano.attack_seat": "header: attack='{text}': no Player {seat}",
        "fano.not_a_position": "a Fano position starts with 'fano', e.g. 'fano turn=1 "
        "player=1 ...'",
        "fano.seat_count": "the position has {seats} seats but the game has {players}",
        "fano.player_range": "header: player must be 1 to {players}",
        "fano.unknown_phase": "header: unknown phase '{text}' (use {names})",
        "fano.header_trionfey_only": "header: attack, foe, support and priority belong to the "
        "Trionfey edition",
        "fano.priority_range": "header: priority must be 1 to {players}",
        "fano.priority_teams": "header: priority belongs to partnership games",
        "fano.support_alone": "header: a support is shown only for a declared attack",
        "fano.foe_range": "header: foe must be 1 to {players}",
    }
)
#: A special's level, named in a refusal of a level that is not a number (worded on the page).
refusal_words("a special's level")
#: Where in a position a refusal found the fault: the header.
_HEADER = Refusal("fano.in_header")

_SEAT_KEYS = (
    "level",
    "hand",
    "field",
    "draw",
    "up",
    "down",
    "known",
    "specials",
    "protected",
    "shuffles",
)
_HEADER_KEYS = ("turn", "player", "phase", "seed", "attack", "foe", "support", "priority")
_TRIONFEY_SEAT_KEYS = ("tribute", "hidden")


def format_position(state: FanoState) -> str:
    """The position in Fano notation."""
    header = (
        f"fano turn={state.turn} player={state.turn_player + 1} "
        f"phase={state.phase.value} seed={state.seed}"
    )
    trionfey = state.config.trionfey
    if trionfey:
        pending = state.pending
        attack = "-"
        if pending is not None:
            attack = (
                f"{card_text(pending.attacker)}>{card_text(pending.target)}@{pending.defender + 1}"
                + ("/reverse" if pending.reverse else "")
            )
        foe = "-" if state.target_seat is None else str(state.target_seat + 1)
        support = "-" if pending is None or not pending.support else card_text(pending.support)
        header += f" attack={attack} foe={foe} support={support}"
        if state.config.teams is not Teams.NONE:
            header += f" priority={state.priority + 1}"
    sections = [header]
    for player in state.players:
        specials = ",".join(f"{level}:{special.value}" for level, special in player.specials)
        sections.append(
            f"level={player.level} hand={cards_text(player.hand)} "
            f"field={cards_text(player.field)} draw={cards_text(player.draw[::-1])} "
            f"up={cards_text(player.up)} down={cards_text(player.down)} "
            f"known={cards_text(player.known)} specials={specials or '-'} "
            f"protected={cards_text(player.protected)} shuffles={player.shuffles}"
            + (f" tribute={player.tribute} hidden={cards_text(player.hidden)}" if trionfey else "")
        )
    return " | ".join(sections)


def _pairs(text: str, allowed: tuple[str, ...], where: Refusal) -> dict[str, str]:
    result: dict[str, str] = {}
    if text.strip() == "-":
        return result
    for word in text.split():
        key, sep, value = word.partition("=")
        key = key.lower()
        if not sep:
            raise NotationError(Refusal("fano.not_key_value", where=where, text=word))
        if key not in allowed:
            raise NotationError(
                Refusal("fano.unknown_key", where=where, key=key, keys=", ".join(allowed))
            )
        if key in result:
            raise NotationError(Refusal("fano.key_twice", where=where, key=key))
        result[key] = value
    return result


def _number(text: str, name: str, where: Refusal) -> int:
    try:
        return int(text)
    except ValueError:
        raise NotationError(
            Refusal("fano.not_a_number", where=where, name=name, text=text)
        ) from None


def _specials(text: str, where: Refusal) -> tuple[tuple[int, Special], ...]:
    if text in ("", "-"):
        return ()
    result = []
    for item in text.split(","):
        level, sep, name = item.partition(":")
        if not sep:
            raise NotationError(Refusal("fano.special_form", where=where, text=item))
        try:
            special = Special(name.lower())
        except ValueError:
            names = ", ".join(special.value for special in Special)
            raise NotationError(
                Refusal("fano.unknown_special", where=where, text=name, names=names)
            ) from None
        result.append((_number(level, "a special's level", where), special))
    return tuple(result)


def _pending(text: str, config: FanoConfig) -> Pending | None:
    if text == "-":
        return None
    body, _, flag = text.partition("/")
    if flag not in ("", "reverse"):
        raise NotationError(Refusal("fano.attack_flag", text=text))
    try:
        action = parse_action(body)
    except NotationError as error:
        raise NotationError(
            Refusal("fano.attack_bad", text=text, reason=reason_of(error))
        ) from None
    if not isinstance(action, Declare) or action.seat is None or action.reverse:
        raise NotationError(Refusal("fano.attack_form", text=text))
    if not 0 <= action.seat < config.players:
        raise NotationError(Refusal("fano.attack_seat", text=text, seat=action.seat + 1))
    return Pending(action.attacker, action.target, action.seat, flag == "reverse")


def parse_position(text: str, config: FanoConfig | None = None) -> FanoState:
    """A state from Fano notation (see the module docstring).

    Raises:
        NotationError: the text is malformed or the position breaks the rules (a card in two
            places, five cards in play, ...).
    """
    sections = [section.strip() for section in text.strip().split("|")]
    head = sections[0].split(None, 1)
    if not head or head[0].lower() != "fano":
        raise NotationError(Refusal("fano.not_a_position"))
    header = _pairs(head[1] if len(head) > 1 else "", _HEADER_KEYS, _HEADER)
    seat_keys = _SEAT_KEYS + _TRIONFEY_SEAT_KEYS
    seats = sections[1:]
    if config is None:
        config = FanoConfig(players=max(2, len(seats)))
    if len(seats) != config.players:
        raise NotationError(Refusal("fano.seat_count", seats=len(seats), players=config.players))
    seed = _number(header.get("seed", "0"), "seed", _HEADER)
    turn = _number(header.get("turn", "1"), "turn", _HEADER)
    turn_player = _number(header.get("player", "1"), "player", _HEADER) - 1
    if not 0 <= turn_player < config.players:
        raise NotationError(Refusal("fano.player_range", players=config.players))
    try:
        phase = Phase(header.get("phase", "main").lower())
    except ValueError:
        names = ", ".join(phase.value for phase in Phase)
        raise NotationError(
            Refusal("fano.unknown_phase", text=header["phase"], names=names)
        ) from None
    players = []
    for seat, section in enumerate(seats):
        where = Refusal("fano.in_seat", seat=seat + 1)
        pairs = _pairs(section, seat_keys, where)
        hand, field, draw, up, down = (
            parse_cards(pairs.get(key, "-")) for key in ("hand", "field", "draw", "up", "down")
        )
        placed = [base_card(card) for card in (*hand, *field, *draw, *up, *down)]
        unplaced = list(deck_of(config, seat))
        for card in placed:
            if card in unplaced:
                unplaced.remove(card)
        derive_rng(seed, "setup", seat).shuffle(unplaced)
        players.append(
            PlayerState(
                hand=tuple(sorted(hand)),
                field=tuple(sorted(field)),
                draw=(*unplaced, *draw[::-1]),
                up=tuple(sorted(up)),
                down=tuple(sorted(down)),
                known=tuple(sorted(parse_cards(pairs.get("known", "-")))),
                level=_number(pairs.get("level", "0"), "level", where),
                specials=_specials(pairs.get("specials", "-"), where),
                protected=tuple(sorted(parse_cards(pairs.get("protected", "-")))),
                shuffles=_number(pairs.get("shuffles", "0"), "shuffles", where),
                temp_jokers=placed.count(TEMP_JOKER),
                tribute=_number(pairs.get("tribute", "0"), "tribute", where),
                hidden=tuple(sorted(parse_cards(pairs.get("hidden", "-")))),
            )
        )
    if not config.trionfey and any(
        key in header for key in ("attack", "foe", "support", "priority")
    ):
        raise NotationError(Refusal("fano.header_trionfey_only"))
    priority = 0
    if config.teams is not Teams.NONE:
        default = str(turn_player + 1)
        priority = _number(header.get("priority", default), "priority", _HEADER) - 1
        if not 0 <= priority < config.players:
            raise NotationError(Refusal("fano.priority_range", players=config.players))
    elif "priority" in header:
        raise NotationError(Refusal("fano.priority_teams"))
    pending = _pending(header.get("attack", "-"), config)
    support = header.get("support", "-")
    if support != "-":
        if pending is None:
            raise NotationError(Refusal("fano.support_alone"))
        pending = replace(pending, support=parse_card(support))
    foe = header.get("foe", "-")
    target_seat = None if foe == "-" else _number(foe, "foe", _HEADER) - 1
    if target_seat is not None and not 0 <= target_seat < config.players:
        raise NotationError(Refusal("fano.foe_range", players=config.players))
    state = FanoState(
        config, seed, tuple(players), turn_player, phase, turn, pending, target_seat, priority
    )
    problems = invariant_violations(state)
    if problems:
        raise NotationError(Refusal("game.impossible_position", problems=problems_joined(problems)))
    return state
