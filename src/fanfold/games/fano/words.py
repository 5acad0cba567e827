"""Fano's actions told in words for each watcher, and the cards they mark on the board.

A sentence is built from two things only, so it never tells a watcher more than they may know:

* the action as the watcher is told it (:meth:`FanoGame.public_action_text`): the deciding
  seat hears its own action whole; the others hear a discard, a card played face down or a
  sacrifice without the cards (a declined redraw is not told at all);
* the public part of the state before and after it (:func:`~fanfold.games.fano.view.public_part`,
  what every view shows): cards that left play, went to the face-up discards or entered play,
  a commander promoted, a discard pile reshuffled, tribute paid.

Cards are named with suit symbols (``A♥``, ``10♠``); seats by their suits (``Player 2 (♣)``),
"you" for the watcher's own.
"""

from __future__ import annotations

from collections import Counter

from fanfold.games.fano import actions as fa
from fanfold.games.fano import render
from fanfold.games.fano.choices import card_name
from fanfold.games.fano.state import FanoState
from fanfold.games.fano.view import PublicPlayer, field_ref, public_part


def _names(cards: list[int]) -> str:
    names = [card_name(card) for card in cards]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


class _Teller:
    def __init__(self, state: FanoState, after: FanoState, seat: int, observer: int | None):
        self.state = state
        self.after = after
        self.seat = seat
        self.observer = observer
        trionfey = state.config.trionfey
        self.before_public = [public_part(p, trionfey) for p in state.players]
        self.after_public = [public_part(p, trionfey) for p in after.players]

    def label(self, seat: int) -> str:
        return "you" if seat == self.observer else render.seat_label(self.state.config, seat)

    def owner_of(self, card: int) -> int | None:
        """The seat whose cards in play (face up, before the action) hold ``card``."""
        for number, public in enumerate(self.before_public):
            if card in public.field:
                return number
        return None

    def whose(self, card: int) -> str:
        """``your A♥``, ``Player 2 (♣)'s A♥``."""
        owner = self.owner_of(card)
        if owner is None or owner == self.seat:
            return ("your " if self.seat == self.observer else "") + card_name(card)
        if owner == self.observer:
            return f"your {card_name(card)}"
        return f"{render.seat_label(self.state.config, owner)}'s {card_name(card)}"

    def phrase(self, action: fa.FanoAction, whole: bool) -> tuple[str, set[int]]:
        """What the seat did (past tense, without the subject) and the cards it names."""
        if not whole:
            if isinstance(action, fa.Discard):
                count = len(action.cards)
                return f"discarded {count} card{'s' if count != 1 else ''} face down", set()
            if isinstance(action, fa.Play):
                return "played a card face down (Perfect defense)", set()
            if isinstance(action, fa.Substitute):
                return (
                    f"sent {card_name(action.removed)} to the discards and played a card face "
                    "down in its place (Perfect defense)",
                    {action.removed},
                )
            if isinstance(action, fa.Sacrifice):
                return "sacrificed a face-down card instead", set()
        if isinstance(action, fa.Attack):
            reverse = " (Reverse Fano)" if action.reverse else ""
            return (
                f"attacked {self.whose(action.target)} with {card_name(action.attacker)}, "
                f"support {card_name(action.support)}{reverse}",
                {action.attacker, action.target, action.support},
            )
        if isinstance(action, fa.Declare):
            reverse = " (Reverse Fano)" if action.reverse else ""
            return (
                f"declared an attack on {self.whose(action.target)} with "
                f"{card_name(action.attacker)}{reverse}",
                {action.attacker, action.target},
            )
        if isinstance(action, fa.Combine):
            oversum = " (Oversum)" if action.oversum else ""
            back = f", {card_name(action.returned)} back to hand" if action.returned else ""
            return (
                f"combined {card_name(action.first)} and {card_name(action.second)} into "
                f"{card_name(action.result)}{oversum}{back}",
                {action.first, action.second, action.result},
            )
        if isinstance(action, fa.CombineCounter):
            recruit = ""
            if action.recruiters:
                recruit = f" (recruiting {card_name(action.recruited)})"
            back = f", {card_name(action.returned)} back to hand" if action.returned else ""
            return (
                f"countered: {card_name(action.first)} and {card_name(action.second)} combine "
                f"into {card_name(action.result)}{recruit}{back}",
                {action.first, action.second, action.result, action.recruited},
            )
        if isinstance(action, fa.Promote):
            return f"promoted the commander with {_names(list(action.cards))}", set(action.cards)
        if isinstance(action, fa.Defend):
            return f"used Perfect defense on {card_name(action.card)}", {action.card}
        if isinstance(action, fa.Flip):
            return f"turned {card_name(action.card)} face up", {action.card}
        if isinstance(action, fa.Sacrifice):
            return (
                f"sacrificed the face-down {card_name(action.card)} instead",
                {action.card},
            )
        if isinstance(action, fa.Play):
            down = " face down (Perfect defense)" if action.face_down else ""
            return f"played {card_name(action.card)}{down}", {action.card}
        if isinstance(action, fa.Substitute):
            down = " face down" if action.face_down else ""
            return (
                f"sent {card_name(action.removed)} to the discards and played "
                f"{card_name(action.card)}{down}",
                {action.removed, action.card},
            )
        if isinstance(action, fa.Discard):
            return f"discarded {_names(list(action.cards))} face down", set(action.cards)
        if isinstance(action, fa.Recruit):
            return (
                f"recruited {card_name(action.card)} with {card_name(action.first)} and "
                f"{card_name(action.second)}",
                {action.card, action.first, action.second},
            )
        if isinstance(action, fa.Pass):
            return "passed", set()
        if isinstance(action, fa.Allow):
            return "allowed the attack (no counter)", set()
        if isinstance(action, fa.Mulligan):
            taken = "took a mulligan: the hand face up to the discards, three new cards"
            return (taken if action.take else "kept the hand"), set()
        if isinstance(action, fa.Shuffle):
            joker = " with a Temporary Joker" if action.joker else ""
            return f"reshuffled the discard pile{joker}", set()
        if isinstance(action, fa.PlaceJoker):
            return "put a joker on top of the draw pile (Spades)", set()
        return str(action), set()

    def consequences(self, action: fa.FanoAction, named: set[int]) -> list[str]:
        """What changed in public: cards out of play, into play, promotions, reshuffles."""
        said: list[str] = []
        gone: list[int] = []
        came: list[int] = []
        for before, after in zip(self.before_public, self.after_public, strict=True):
            gone += list((Counter(before.field) - Counter(after.field)).elements())
            came += list((Counter(after.field) - Counter(before.field)).elements())
        discarded = Counter[int]()
        for before, after in zip(self.before_public, self.after_public, strict=True):
            discarded += Counter(after.up) - Counter(before.up)
        to_discards = [card for card in gone if discarded[card] > 0]
        elsewhere = [card for card in gone if discarded[card] == 0 and card not in named]
        if isinstance(action, fa.Substitute):
            to_discards = [card for card in to_discards if card != action.removed]
        if to_discards:
            verb = "goes" if len(to_discards) == 1 else "go"
            said.append(f"{_names(to_discards)} {verb} to the discards")
        if elsewhere:
            verb = "leaves" if len(elsewhere) == 1 else "leave"
            said.append(f"{_names(elsewhere)} {verb} play")
        shown = [card for card in came if card not in named]
        if shown:
            verb = "enters" if len(shown) == 1 else "enter"
            said.append(f"{_names(shown)} {verb} play")
        said += self._attack_end(action, gone)
        for number, (before, after) in enumerate(
            zip(self.before_public, self.after_public, strict=True)
        ):
            said += self._changes(number, before, after, action)
        return said

    def _attack_end(self, action: fa.FanoAction, gone: list[int]) -> list[str]:
        """A declared attack (Trionfey) still open, or ended by a failed bluff."""
        pending = self.after.pending
        if pending is not None:
            return [f"{self.label(pending.defender)} may counter or allow"]
        declared = self.state.pending
        if isinstance(action, fa.Declare):
            ends = (action.attacker, action.target)
        elif declared is not None:
            ends = (declared.attacker, declared.target)
        else:
            return []
        if ends[0] in gone and ends[1] not in gone:
            return ["no support was shown: the bluff fails"]
        return []

    def _changes(
        self, number: int, before: PublicPlayer, after: PublicPlayer, action: fa.FanoAction
    ) -> list[str]:
        said = []
        who = self.label(number)
        if after.level > before.level:
            owner = "your" if number == self.observer else f"{who}'s"
            said.append(f"{owner} commander is promoted to the {render.commander(after.level)}")
        if after.shuffles > before.shuffles and not isinstance(action, fa.Shuffle):
            owner = "your" if number == self.observer else f"{who}'s"
            said.append(f"{owner} discard pile is reshuffled into the draw pile")
        if after.tribute > before.tribute:
            paid = after.tribute - before.tribute
            verb = "pay" if number == self.observer else "pays"
            said.append(f"{who} {verb} {paid} tribute")
        return said


def describe(
    state: FanoState,
    after: FanoState,
    action: fa.FanoAction,
    seat: int,
    observer: int | None,
    told: str,
) -> str:
    """``action``, taken by ``seat`` in ``state`` (leading to ``after``), in a sentence for
    ``observer``, who was told it as ``told`` (the public text; empty: nothing)."""
    if not told:
        return ""
    teller = _Teller(state, after, seat, observer)
    whole = observer == seat or told == str(action)
    phrase, named = teller.phrase(action, whole)
    who = teller.label(seat)
    sentence = f"{who[:1].upper()}{who[1:]} {phrase}"
    more = teller.consequences(action, named)
    if more:
        sentence += ": " + "; ".join(more)
    return sentence + "."


def highlight(
    state: FanoState, after: FanoState, action: fa.FanoAction, observer: int | None, told: str
) -> tuple[str, ...]:
    """The cards in play the action touched, as every view shows them after it: cards it
    brought into play and the cards it names that are still in play (``f:SEAT:CARD``)."""
    if not told:
        return ()
    trionfey = state.config.trionfey
    before_public = [public_part(p, trionfey) for p in state.players]
    after_public = [public_part(p, trionfey) for p in after.players]
    whole = observer == state.decider or told == str(action)
    named: set[int] = set()
    if whole:
        for name in ("attacker", "target", "first", "second", "card", "removed"):
            value = getattr(action, name, None)
            if isinstance(value, int) and value:
                named.add(value)
    refs: list[str] = []
    for number, (before, now) in enumerate(zip(before_public, after_public, strict=True)):
        fresh = Counter(now.field) - Counter(before.field)
        for card in now.field:
            if card in named or fresh[card] > 0:
                ref = field_ref(number, card)
                if ref not in refs:
                    refs.append(ref)
    return tuple(refs)
