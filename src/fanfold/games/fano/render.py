"""Terminal text for Fano: the table as one player sees it, and the Fano plane."""

from __future__ import annotations

from fanfold.core.errors import refusal_words
from fanfold.core.phrases import Phrase, phrases
from fanfold.games.fano.cards import ATTACK_SUPPORT, CYCLES, SUIT_SYMBOLS, card_text
from fanfold.games.fano.config import FanoConfig, Teams
from fanfold.games.fano.rules.zones import FIELD_SLOTS
from fanfold.games.fano.state import Phase
from fanfold.games.fano.view import FanoView

COMMANDERS = ("Jack", "Queen", "King")

PHASE_TEXT = {
    Phase.DRAW_SHUFFLE: "draw phase (reshuffle: add a Temporary Joker?)",
    Phase.MULLIGAN: "draw phase (all prestige: mulligan or keep?)",
    Phase.MAIN: "main phase",
    Phase.REACT: "main phase, an attack waits for the defender's counter or 'allow'",
    Phase.SHUFFLE: "main phase (reshuffle: add a Temporary Joker?)",
    Phase.END: "end of turn (promoted: play, sub, discard or pass)",
    Phase.OVER: "the game is over",
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
refusal_words(*COMMANDERS)


def seat_label(config: FanoConfig, seat: int) -> Phrase:
    """``Player 1 (♥)``, ``Player 2 (♠♣)``."""
    suits = "".join(SUIT_SYMBOLS[suit] for suit in config.suits_of(seat))
    return Phrase("fano.seat", number=seat + 1, suits=suits)


def commander(level: int) -> str:
    """The commander card of a level (a word of the catalogues: the page translates it)."""
    return COMMANDERS[level] if level < len(COMMANDERS) else Phrase("fano.promoted_again")


def plane_text() -> str:
    """The Fano plane with every attack arrow and the supports needed."""
    lines = [PLANE.rstrip("\n")]
    lines.append("Cycles: " + " ".join(f"{a}->{b}->{c}->{a}" for a, b, c in CYCLES))
    for attacker in range(1, 8):
        targets = [
            f"{target} (with {ATTACK_SUPPORT[attacker][target]})"
            for target in range(1, 8)
            if ATTACK_SUPPORT[attacker][target]
        ]
        lines.append(f"  {attacker} attacks " + ", ".join(targets))
    lines.append("Reverse Fano (special) turns every arrow round: a attacks c with b in hand.")
    return "\n".join(lines)


def _cards(cards: tuple[int, ...]) -> str:
    return " ".join(card_text(card) for card in cards) if cards else "-"


def render(view: FanoView) -> str:
    """The table as ``view.player`` sees it."""
    config = view.config
    players = len(view.players)
    lines = [
        f"Turn {view.turn} of at most {config.last_turn}: {seat_label(config, view.turn_player)}, "
        f"{PHASE_TEXT[view.phase]}. You are {seat_label(config, view.player)}.",
    ]
    for seat, public in enumerate(view.players):
        marker = ">" if seat == view.turn_player else " "
        slots = [
            f"[{card_text(card)}{'*' if card in public.protected else ''}]" for card in public.field
        ]
        if seat == view.player:
            slots += [f"[{card_text(card)} face down]" for card in view.hidden]
        slots += ["[??]"] * public.hidden_count if seat != view.player else []
        slots += ["[  ]"] * (FIELD_SLOTS - len(public.field) - public.hidden_count)
        specials = ", ".join(f"{special.value}@{level}" for level, special in public.specials)
        team = ""
        if config.teams is not Teams.NONE:
            team = f"  partnership {'AB'[seat % 2]}" + (
                ", priority" if seat == view.priority else ""
            )
        lines.append(
            f"{marker} {seat_label(config, seat)}{team}  {commander(public.level)}"
            f" ({public.level}/{config.promotions_to_win} promotions)"
            + (
                f"  attacks Player {(seat + 1) % players + 1}"
                if players > 2 and not config.trionfey
                else ""
            )
        )
        lines.append(f"    field: {' '.join(slots)}")
        if seat == view.player:
            hand = _cards(view.hand)
            down = _cards(view.down)
            lines.append(f"    hand: {hand}   face-down discards: {down}")
        else:
            known = f" (known: {_cards(public.known)})" if public.known else ""
            lines.append(
                f"    hand: {public.hand_count} cards{known}   face-down discards: "
                f"{public.down_count}"
            )
        extra = f"   specials used: {specials}" if specials else ""
        if config.tribute:
            extra += f"   tribute: {public.tribute}"
        if public.jokers_on_draw:
            extra += f"   jokers face up on the draw pile: {public.jokers_on_draw}"
        elif public.temp_jokers and not config.trionfey:
            count = public.temp_jokers
            extra += f"   Temporary Jokers in the game: {count}"
        lines.append(
            f"    draw pile: {public.draw_count}   face-up discards: {_cards(public.up)}{extra}"
        )
    pending = view.pending
    if pending is not None:
        lines.append(
            f"Attack: {card_text(pending.attacker)} attacks {card_text(pending.target)} of "
            f"{seat_label(config, pending.defender)}"
            + (" (Reverse Fano)" if pending.reverse else "")
            + (
                f"; support shown: {card_text(pending.support)} (sacrifice a face-down card?)"
                if pending.support
                else "; the support is shown when the attack resolves."
            )
        )
    if view.phase is not Phase.OVER:
        lines.append("(* = Perfect defense; type 'legal' for your moves, 'plane' for the arrows)")
    return "\n".join(lines)
