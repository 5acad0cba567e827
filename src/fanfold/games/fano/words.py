"""Fano's actions told in words for each watcher, and the cards they mark on the board.

A sentence is built from two things only, so it never tells a watcher more than they may know:

* the action as the watcher is told it (:meth:`FanoGame.public_action_text`): the deciding
  seat hears its own action whole; the others hear a discard, a card played face down or a
  sacrifice without the cards (a declined redraw is not told at all);
* the public part of the state before and after it (:func:`~fanfold.games.fano.view.public_part`,
  what every view shows): cards that left play, went to the face-up discards or entered play,
  a commander promoted, a discard pile reshuffled, tribute paid.

Cards are named with suit symbols (``A♥``, ``10♠``); seats by their suits (``Player 2 (♣)``),
"you" for the watcher's own. Each sentence is a :class:`~fanfold.core.phrases.Phrase` (a code
and its params), so that the page words it in its reader's language; a code whose subject is
the watcher (``fano.you.attacked``) has a template of its own, as languages conjugate "you".
"""

from __future__ import annotations

from collections import Counter

from fanfold.core.phrases import Phrase, PhraseParam, joined, listed, phrases
from fanfold.games.fano import actions as fa
from fanfold.games.fano import render
from fanfold.games.fano.choices import card_name
from fanfold.games.fano.state import FanoState
from fanfold.games.fano.view import PublicPlayer, field_ref, public_part

#: What a seat did, by what: ``{who}`` the seat, the rest its cards and notes. Each has a
#: twin for the watcher's own seat (``fano.you.CODE``), "You" as its subject.
_DONE = {
    "discarded_hidden_one": "discarded {count} card face down",
    "discarded_hidden": "discarded {count} cards face down",
    "played_hidden": "played a card face down (Perfect defense)",
    "substituted_hidden": (
        "sent {removed} to the discards and played a card face down in its place (Perfect defense)"
    ),
    "sacrificed_hidden": "sacrificed a face-down card instead",
    "attacked": "attacked {target} with {attacker}, support {support}{reverse}",
    "declared": "declared an attack on {target} with {attacker}{reverse}",
    "combined": "combined {first} and {second} into {result}{oversum}{back}",
    "countered": "countered: {first} and {second} combine into {result}{recruit}{back}",
    "promoted": "promoted the commander with {cards}",
    "defended": "used Perfect defense on {card}",
    "flipped": "turned {card} face up",
    "sacrificed": "sacrificed the face-down {card} instead",
    "played": "played {card}",
    "played_down": "played {card} face down (Perfect defense)",
    "substituted": "sent {removed} to the discards and played {card}",
    "substituted_down": "sent {removed} to the discards and played {card} face down",
    "discarded": "discarded {cards} face down",
    "recruited": "recruited {card} with {first} and {second}",
    "passed": "passed",
    "allowed": "allowed the attack (no counter)",
    "mulligan": "took a mulligan: the hand face up to the discards, three new cards",
    "kept": "kept the hand",
    "reshuffled": "reshuffled the discard pile",
    "reshuffled_joker": "reshuffled the discard pile with a Temporary Joker",
    "placed_joker": "put a joker on top of the draw pile (Spades)",
    "did": "{action}",
}
phrases({f"fano.{code}": "{who} " + template for code, template in _DONE.items()})
phrases({f"fano.you.{code}": "You " + template for code, template in _DONE.items()})
phrases(
    {
        "fano.told_more": "{did}: {more}.",
        "fano.then": "{first}; {rest}",
        "fano.recruiting": " (recruiting {card})",
        "fano.your_card": "your {card}",
        "fano.seats_card": "{seat}'s {card}",
        "fano.to_discards_one": "{cards} goes to the discards",
        "fano.to_discards": "{cards} go to the discards",
        "fano.leaves_play": "{cards} leaves play",
        "fano.leave_play": "{cards} leave play",
        "fano.enters_play": "{cards} enters play",
        "fano.enter_play": "{cards} enter play",
        "fano.you_may_counter": "you may counter or allow",
        "fano.may_counter": "{seat} may counter or allow",
        "fano.bluff_fails": "no support was shown: the bluff fails",
        "fano.your_promotion": "your commander is promoted to the {commander}",
        "fano.promotion": "{seat}'s commander is promoted to the {commander}",
        "fano.your_reshuffle": "your discard pile is reshuffled into the draw pile",
        "fano.reshuffle": "{seat}'s discard pile is reshuffled into the draw pile",
        # another seat's move ended a turn: the next player's draw emptied their pile
        "fano.your_turn_reshuffle": "your turn begins: your discard pile is reshuffled into "
        "the draw pile",
        "fano.turn_reshuffle": "{seat}'s turn begins: their discard pile is reshuffled into "
        "the draw pile",
        "fano.you_pay_tribute": "you pay {paid} tribute",
        "fano.pays_tribute": "{seat} pays {paid} tribute",
    }
)


def _names(cards: list[int]) -> PhraseParam:
    return listed([card_name(card) for card in cards])


class _Teller:
    def __init__(self, state: FanoState, after: FanoState, seat: int, observer: int | None):
        self.state = state
        self.after = after
        self.seat = seat
        self.observer = observer
        trionfey = state.config.trionfey
        self.before_public = [public_part(p, trionfey) for p in state.players]
        self.after_public = [public_part(p, trionfey) for p in after.players]

    def label(self, seat: int) -> Phrase:
        return render.seat_label(self.state.config, seat)

    def owner_of(self, card: int) -> int | None:
        """The seat whose cards in play (face up, before the action) hold ``card``."""
        for number, public in enumerate(self.before_public):
            if card in public.field:
                return number
        return None

    def whose(self, card: int) -> PhraseParam:
        """``your A♥``, ``Player 2 (♣)'s A♥``."""
        owner = self.owner_of(card)
        if owner is None or owner == self.seat:
            if self.seat == self.observer:
                return Phrase("fano.your_card", card=card_name(card))
            return card_name(card)
        if owner == self.observer:
            return Phrase("fano.your_card", card=card_name(card))
        return Phrase("fano.seats_card", seat=self.label(owner), card=card_name(card))

    def phrase(
        self, action: fa.FanoAction, whole: bool
    ) -> tuple[str, dict[str, PhraseParam], set[int]]:
        """What the seat did (a code of :data:`_DONE`, its params) and the cards it names."""
        if not whole:
            if isinstance(action, fa.Discard):
                count = len(action.cards)
                code = "discarded_hidden_one" if count == 1 else "discarded_hidden"
                return code, {"count": count}, set()
            if isinstance(action, fa.Play):
                return "played_hidden", {}, set()
            if isinstance(action, fa.Substitute):
                removed = card_name(action.removed)
                return "substituted_hidden", {"removed": removed}, {action.removed}
            if isinstance(action, fa.Sacrifice):
                return "sacrificed_hidden", {}, set()
        if isinstance(action, fa.Attack):
            params: dict[str, PhraseParam] = {
                "target": self.whose(action.target),
                "attacker": card_name(action.attacker),
                "support": card_name(action.support),
                "reverse": Phrase("fano.reverse") if action.reverse else "",
            }
            return "attacked", params, {action.attacker, action.target, action.support}
        if isinstance(action, fa.Declare):
            params = {
                "target": self.whose(action.target),
                "attacker": card_name(action.attacker),
                "reverse": Phrase("fano.reverse") if action.reverse else "",
            }
            return "declared", params, {action.attacker, action.target}
        if isinstance(action, fa.Combine | fa.CombineCounter):
            params = {
                "first": card_name(action.first),
                "second": card_name(action.second),
                "result": card_name(action.result),
                "back": Phrase("fano.back", card=card_name(action.returned))
                if action.returned
                else "",
            }
            named = {action.first, action.second, action.result}
            if isinstance(action, fa.Combine):
                params["oversum"] = Phrase("fano.oversum") if action.oversum else ""
                return "combined", params, named
            params["recruit"] = (
                Phrase("fano.recruiting", card=card_name(action.recruited))
                if action.recruiters
                else ""
            )
            return "countered", params, named | {action.recruited}
        if isinstance(action, fa.Promote):
            return "promoted", {"cards": _names(list(action.cards))}, set(action.cards)
        if isinstance(action, fa.Defend):
            return "defended", {"card": card_name(action.card)}, {action.card}
        if isinstance(action, fa.Flip):
            return "flipped", {"card": card_name(action.card)}, {action.card}
        if isinstance(action, fa.Sacrifice):
            return "sacrificed", {"card": card_name(action.card)}, {action.card}
        if isinstance(action, fa.Play):
            code = "played_down" if action.face_down else "played"
            return code, {"card": card_name(action.card)}, {action.card}
        if isinstance(action, fa.Substitute):
            code = "substituted_down" if action.face_down else "substituted"
            params = {"removed": card_name(action.removed), "card": card_name(action.card)}
            return code, params, {action.removed, action.card}
        if isinstance(action, fa.Discard):
            return "discarded", {"cards": _names(list(action.cards))}, set(action.cards)
        if isinstance(action, fa.Recruit):
            params = {
                "card": card_name(action.card),
                "first": card_name(action.first),
                "second": card_name(action.second),
            }
            return "recruited", params, {action.card, action.first, action.second}
        if isinstance(action, fa.Pass):
            return "passed", {}, set()
        if isinstance(action, fa.Allow):
            return "allowed", {}, set()
        if isinstance(action, fa.Mulligan):
            return ("mulligan" if action.take else "kept"), {}, set()
        if isinstance(action, fa.Shuffle):
            return ("reshuffled_joker" if action.joker else "reshuffled"), {}, set()
        if isinstance(action, fa.PlaceJoker):
            return "placed_joker", {}, set()
        return "did", {"action": str(action)}, set()

    def consequences(self, action: fa.FanoAction, named: set[int]) -> list[Phrase]:
        """What changed in public: cards out of play, into play, promotions, reshuffles."""
        said: list[Phrase] = []
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
            code = "fano.to_discards_one" if len(to_discards) == 1 else "fano.to_discards"
            said.append(Phrase(code, cards=_names(to_discards)))
        if elsewhere:
            code = "fano.leaves_play" if len(elsewhere) == 1 else "fano.leave_play"
            said.append(Phrase(code, cards=_names(elsewhere)))
        shown = [card for card in came if card not in named]
        if shown:
            code = "fano.enters_play" if len(shown) == 1 else "fano.enter_play"
            said.append(Phrase(code, cards=_names(shown)))
        said += self._attack_end(action, gone)
        for number, (before, after) in enumerate(
            zip(self.before_public, self.after_public, strict=True)
        ):
            said += self._changes(number, before, after, action)
        return said

    def _attack_end(self, action: fa.FanoAction, gone: list[int]) -> list[Phrase]:
        """A declared attack (Trionfey) still open, or ended by a failed bluff."""
        pending = self.after.pending
        if pending is not None:
            if pending.defender == self.observer:
                return [Phrase("fano.you_may_counter")]
            return [Phrase("fano.may_counter", seat=self.label(pending.defender))]
        declared = self.state.pending
        if isinstance(action, fa.Declare):
            ends = (action.attacker, action.target)
        elif declared is not None:
            ends = (declared.attacker, declared.target)
        else:
            return []
        if ends[0] in gone and ends[1] not in gone:
            return [Phrase("fano.bluff_fails")]
        return []

    def _changes(
        self, number: int, before: PublicPlayer, after: PublicPlayer, action: fa.FanoAction
    ) -> list[Phrase]:
        said = []
        mine = number == self.observer
        who = self.label(number)
        if after.level > before.level:
            commander = render.commander(after.level)
            if mine:
                said.append(Phrase("fano.your_promotion", commander=commander))
            else:
                said.append(Phrase("fano.promotion", seat=who, commander=commander))
        if after.shuffles > before.shuffles and not isinstance(action, fa.Shuffle):
            begins = number != self.state.decider  # at the draw that began this seat's turn
            if mine:
                said.append(Phrase("fano.your_turn_reshuffle" if begins else "fano.your_reshuffle"))
            else:
                said.append(Phrase("fano.turn_reshuffle" if begins else "fano.reshuffle", seat=who))
        if after.tribute > before.tribute:
            paid = after.tribute - before.tribute
            if mine:
                said.append(Phrase("fano.you_pay_tribute", paid=paid))
            else:
                said.append(Phrase("fano.pays_tribute", seat=who, paid=paid))
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
    code, params, named = teller.phrase(action, whole)
    if observer == seat:
        did = Phrase(f"fano.you.{code}", **params)
    else:
        did = Phrase(f"fano.{code}", who=teller.label(seat), **params)
    more = teller.consequences(action, named)
    if more:
        return Phrase("fano.told_more", did=did, more=joined(more, "fano.then"))
    return Phrase("words.sentence", words=did)


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
