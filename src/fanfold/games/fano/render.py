"""Terminal text for Fano: the table as one player sees it, and the Fano plane."""

from __future__ import annotations

from fanfold.core.errors import refusal_words
from fanfold.core.game import drawn
from fanfold.core.phrases import Phrase, joined, phrases
from fanfold.games.fano.cards import ATTACK_SUPPORT, CYCLES, SUIT_SYMBOLS, card_text
from fanfold.games.fano.config import FanoConfig, Teams
from fanfold.games.fano.rules.zones import FIELD_SLOTS
from fanfold.games.fano.state import Phase
from fanfold.games.fano.view import FanoView

COMMANDERS = ("Jack", "Queen", "King")

#: Each phase in words (a phrase: the terminal words it in its language).
PHASE_CODES = {
    Phase.DRAW_SHUFFLE: "fano.phase_draw_shuffle",
    Phase.MULLIGAN: "fano.phase_mulligan",
    Phase.MAIN: "fano.phase_main",
    Phase.REACT: "fano.phase_react",
    Phase.SHUFFLE: "fano.phase_shuffle",
    Phase.END: "fano.phase_end",
    Phase.OVER: "fano.phase_over",
}

PLANE = r"""
                 1
                / \
               /   \          The Fano plane: 7 at the centre,
              2  7  5         the circle is 2-3-5.
             /       \
            /         \
           4 --- 3 --- 6
Each line is a cycle; a -> b means a attacks b with the line's third card in hand.
"""


phrases(
    {
        "fano.seat": "Player {number} ({suits})",
        "fano.promoted_again": "King, promoted again",
    }
)
# the terminal's words for the table and its status line
phrases(
    {
        "fano.phase_draw_shuffle": "draw phase (reshuffle: add a Temporary Joker?)",
        "fano.phase_mulligan": "draw phase (all prestige: mulligan or keep?)",
        "fano.phase_main": "main phase",
        "fano.phase_react": "main phase, an attack waits for the defender's counter or 'allow'",
        "fano.phase_shuffle": "main phase (reshuffle: add a Temporary Joker?)",
        "fano.phase_end": "end of turn (promoted: play, sub, discard or pass)",
        "fano.phase_over": "the game is over",
        "fano.board_turn": "Turn {turn} of at most {last}: {seat}, {phase}. You are {you}.",
        "fano.board_partnership": "  partnership {team}",
        "fano.board_partnership_priority": "  partnership {team}, priority",
        "fano.board_level": "{commander} ({level}/{most} promotions)",
        "fano.board_attacks": "  attacks {seat}",
        "fano.board_field": "field:",
        "fano.board_face_down": "[{card} face down]",
        "fano.board_own_hand": "hand: {hand}   face-down discards: {down}",
        "fano.board_hand": "hand: {count} cards   face-down discards: {down}",
        "fano.board_hand_known": "hand: {count} cards (known: {known})   face-down discards: "
        "{down}",
        "fano.board_piles": "draw pile: {count}   face-up discards: {up}",
        "fano.board_specials": "   specials used: {specials}",
        "fano.board_tribute": "   tribute: {count}",
        "fano.board_jokers_on_draw": "   jokers face up on the draw pile: {count}",
        "fano.board_temporary_jokers": "   Temporary Jokers in the game: {count}",
        "fano.board_attack": "Attack: {attacker} attacks {target} of {defender}",
        "fano.board_reverse": " (Reverse Fano)",
        "fano.board_support": "; support shown: {card} (sacrifice a face-down card?)",
        "fano.board_support_later": "; the support is shown when the attack resolves.",
        "fano.board_key": "(* = Perfect defense; type 'legal' for your moves, 'plane' for the "
        "arrows)",
        "fano.status_attack": "Turn {turn}: {seat} attacks {target} with {attacker}; {answer}",
        "fano.status_sacrifice": "the support {card} is shown; {defender} may sacrifice a "
        "face-down card or allow",
        "fano.status_counter": "{defender} may counter or allow",
        "fano.status": "Turn {turn}: {seat}, {phase}; attacks {target}",
        "fano.status_or": "{first} or {rest}",
        "fano.plane_help": "draw the Fano plane with every attack arrow",
    },
    terminal=True,
)
refusal_words(*COMMANDERS)


def seat_label(config: FanoConfig, seat: int) -> Phrase:
    """``Player 1 (♥)``, ``Player 2 (♠♣)``."""
    suits = "".join(SUIT_SYMBOLS[suit] for suit in config.suits_of(seat))
    return Phrase("fano.seat", number=seat + 1, suits=suits)


def commander(level: int) -> str:
    """The commander card of a level (a word of the catalogues: the page translates it)."""
    return COMMANDERS[level] if level < len(COMMANDERS) else Phrase("fano.promoted_again")


phrases(
    {
        "fano.plane": PLANE.rstrip("\n")
        + "\nCycles: {cycles}\n{arrows}\nReverse Fano (special) turns every arrow round: a "
        "attacks c with b in hand.",
        "fano.plane_attacks": "  {attacker} attacks {targets}",
        "fano.plane_with": "{target} (with {support})",
        "fano.plane_lines": "{first}\n{rest}",
    },
    terminal=True,
)


def plane_text() -> str:
    """The Fano plane with every attack arrow and the supports needed (a phrase: the terminal
    words it in its language; the drawing and the numbers stay)."""
    arrows: list[str] = []
    for attacker in range(1, 8):
        targets = [
            Phrase("fano.plane_with", target=target, support=ATTACK_SUPPORT[attacker][target])
            for target in range(1, 8)
            if ATTACK_SUPPORT[attacker][target]
        ]
        arrows.append(Phrase("fano.plane_attacks", attacker=attacker, targets=joined(targets)))
    cycles = " ".join(f"{a}->{b}->{c}->{a}" for a, b, c in CYCLES)
    return Phrase("fano.plane", cycles=cycles, arrows=joined(arrows, "fano.plane_lines"))


def _cards(cards: tuple[int, ...]) -> str:
    return " ".join(card_text(card) for card in cards) if cards else "-"


def drawing(view: FanoView) -> list[tuple[str, ...]]:
    """The table as ``view.player`` sees it, as lines of pieces (the labels phrases,
    :meth:`fanfold.core.game.Game.drawing`)."""
    config = view.config
    players = len(view.players)
    lines: list[tuple[str, ...]] = [
        (
            Phrase(
                "fano.board_turn",
                turn=view.turn,
                last=config.last_turn,
                seat=seat_label(config, view.turn_player),
                phase=Phrase(PHASE_CODES[view.phase]),
                you=seat_label(config, view.player),
            ),
        )
    ]
    for seat, public in enumerate(view.players):
        marker = ">" if seat == view.turn_player else " "
        head: list[str] = [marker, " ", seat_label(config, seat)]
        if config.teams is not Teams.NONE:
            code = "fano.board_partnership"
            if seat == view.priority:
                code = "fano.board_partnership_priority"
            head.append(Phrase(code, team="AB"[seat % 2]))
        level = Phrase(
            "fano.board_level",
            commander=commander(public.level),
            level=public.level,
            most=config.promotions_to_win,
        )
        head += ["  ", level]
        if players > 2 and not config.trionfey:
            head.append(
                Phrase(
                    "fano.board_attacks",
                    seat=Phrase("game.player", number=(seat + 1) % players + 1),
                )
            )
        lines.append(tuple(head))
        slots: list[str] = [
            f"[{card_text(card)}{'*' if card in public.protected else ''}]" for card in public.field
        ]
        if seat == view.player:
            slots += [Phrase("fano.board_face_down", card=card_text(card)) for card in view.hidden]
        slots += ["[??]"] * public.hidden_count if seat != view.player else []
        slots += ["[  ]"] * (FIELD_SLOTS - len(public.field) - public.hidden_count)
        field: list[str] = ["    ", Phrase("fano.board_field")]
        for slot in slots:
            field += [" ", slot]
        lines.append(tuple(field))
        if seat == view.player:
            hand = Phrase("fano.board_own_hand", hand=_cards(view.hand), down=_cards(view.down))
        elif public.known:
            hand = Phrase(
                "fano.board_hand_known",
                count=public.hand_count,
                known=_cards(public.known),
                down=public.down_count,
            )
        else:
            hand = Phrase("fano.board_hand", count=public.hand_count, down=public.down_count)
        lines.append(("    ", hand))
        piles: list[str] = [
            "    ",
            Phrase("fano.board_piles", count=public.draw_count, up=_cards(public.up)),
        ]
        specials = ", ".join(f"{special.value}@{level}" for level, special in public.specials)
        if specials:
            piles.append(Phrase("fano.board_specials", specials=specials))
        if config.tribute:
            piles.append(Phrase("fano.board_tribute", count=public.tribute))
        if public.jokers_on_draw:
            piles.append(Phrase("fano.board_jokers_on_draw", count=public.jokers_on_draw))
        elif public.temp_jokers and not config.trionfey:
            piles.append(Phrase("fano.board_temporary_jokers", count=public.temp_jokers))
        lines.append(tuple(piles))
    pending = view.pending
    if pending is not None:
        attack: list[str] = [
            Phrase(
                "fano.board_attack",
                attacker=card_text(pending.attacker),
                target=card_text(pending.target),
                defender=seat_label(config, pending.defender),
            )
        ]
        if pending.reverse:
            attack.append(Phrase("fano.board_reverse"))
        if pending.support:
            attack.append(Phrase("fano.board_support", card=card_text(pending.support)))
        else:
            attack.append(Phrase("fano.board_support_later"))
        lines.append(tuple(attack))
    if view.phase is not Phase.OVER:
        lines.append((Phrase("fano.board_key"),))
    return lines


def render(view: FanoView) -> str:
    """:func:`drawing` as text, in English."""
    return drawn(drawing(view))
