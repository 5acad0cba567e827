"""Deals made card by card by OpenSpiel chance nodes (the ``deal=cards`` form of a game).

A :class:`CardDeal` says how a game's deal is a sequence of chance nodes whose outcomes are
cards: node ``k`` puts one of the cards not dealt yet (each equally likely) into a known
place, told to one seat (:meth:`CardDeal.receiver`) or to every seat (:data:`OPEN`). Every
deal of the cards is reached by one sequence of outcomes, so a state consistent with what a
player saw can be built by choosing outcomes (:meth:`CardDeal.outcomes_of`), which is how
:meth:`fanfold.envs.openspiel_game.FanfoldState.resample_from_infostate` re-deals.

A game whose rules deal again during a game (a Fan Tan match's next hand) is re-dealt by chance
nodes too: :meth:`CardDeal.redeals` says when an action began a new deal, and
:meth:`CardDeal.start` puts the chance-dealt cards into the state the rules made. Fano
(:class:`FanoDeal`) deals each draw pile so, told to no seat (:data:`NOBODY`), and every
reshuffle the rules make during an action (:meth:`CardDeal.act`: the action is taken again
with the reshuffle's order dealt by chance, through
:func:`fanfold.games.fano.rules.deck.reshuffle_orders`); its resampling trades the cards a
player never saw (:meth:`FanoDeal.replayed`) instead of sampling each deal's end
(:class:`HandDeal`).

>>> from fanfold.core.registry import get_game
>>> game = get_game("fantan")
>>> deal = card_deal(game, game.default_config())
>>> deal is not None and deal.nodes, deal.receiver(None, 0), deal.card_text(51)
(52, 0, 'KS')
"""

from __future__ import annotations

import dataclasses
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from typing import Any

from fanfold.core import lab_refusals as _lab_refusals  # noqa: F401  (registers the codes)
from fanfold.core.cards import Card
from fanfold.core.errors import FanfoldError, NotationError, Refusal
from fanfold.core.registry import AnyGame
from fanfold.games.fan.deals import NUM_FANS
from fanfold.games.fan.state import FanState, make_state
from fanfold.games.fano.actions import Mulligan
from fanfold.games.fano.cards import (
    WILD,
    base_card,
    is_combat,
    is_prestige,
    kind_of,
    parse_card,
    value_of,
)
from fanfold.games.fano.cards import card_text as fano_card_text
from fanfold.games.fano.rules.deck import deck_of, reshuffle_orders
from fanfold.games.fano.rules.turns import dealt_state
from fanfold.games.fano.state import FanoState, Phase, PlayerState
from fanfold.games.fantan.cards import indices_of
from fanfold.games.fantan.rules import dealer_of, leader_of, settle, start_hand
from fanfold.games.fantan.sampling import hidden_constraints
from fanfold.games.fantan.state import FanTanState

#: A card told to every seat (an open deal).
OPEN = -1
#: A card told to no seat: one put into a draw pile, whose order nobody sees (every seat is
#: told where it went, not which card it is).
NOBODY = -2
#: Cards in a standard pack: the outcomes of each chance node of these deals.
PACK = 52
#: Samples of a hand's end tried for one where the action that ended it is legal.
SAMPLE_TRIES = 400
#: Swaps tried to make a sampled hand's end score as the real one did.
REPAIR_STEPS = 4000


class CardDeal(ABC):
    """A game's deal as :attr:`nodes` chance nodes, each one card of :attr:`cards`."""

    #: The chance nodes of one deal.
    nodes = PACK
    #: The chance outcomes (card indices ``0 .. outcomes - 1``).
    outcomes = PACK

    def __init__(self, game: AnyGame, config: Any) -> None:
        self.game = game
        self.config = config

    def cards(self) -> tuple[int, ...]:
        """Every card a deal deals, once each."""
        return tuple(range(PACK))

    def card_text(self, card: int) -> str:
        """A card as the game writes it."""
        return str(Card.from_index(card))

    def node_count(self, before: Any | None) -> int:
        """The chance nodes of the deal from ``before`` (as :meth:`receiver`)."""
        del before
        return self.nodes

    def choices(self, before: Any | None, dealt: Sequence[int]) -> list[int]:
        """The outcomes of the next chance node after ``dealt``, each as likely as it appears
        (a card twice in the list is twice as likely): the cards not dealt yet."""
        del before
        left = set(dealt)
        return [card for card in self.cards() if card not in left]

    def told_text(self, before: Any | None, node: int, outcome: int) -> str:
        """What the seats told of node ``node`` (:meth:`receiver`) are told of its outcome: the
        card (:data:`NOBODY`: where a card went, the same whatever the card)."""
        del before, node
        return self.card_text(outcome)

    def outcome_text(self, before: Any | None, node: int, outcome: int) -> str:
        """Chance's action at node ``node`` in words (``deal 7H to seat 1``)."""
        seat = self.receiver(before, node)
        whom = "" if seat == OPEN else f" to seat {seat}"
        return f"deal {self.card_text(outcome)}{whom}"

    @abstractmethod
    def receiver(self, before: Any | None, node: int) -> int:
        """The seat told the card of chance node ``node`` (:data:`OPEN`: every seat;
        :data:`NOBODY`: none), where ``before`` is the state the rules made for the new deal
        (``None``: the game's start)."""

    @abstractmethod
    def start(self, cards: Sequence[int], before: Any | None) -> Any:
        """The state dealt with ``cards`` (node by node) from ``before`` (``None``: a new
        game)."""

    def next_deal(self, cards: Sequence[int], before: Any | None) -> Any | None:
        """The deal that follows the one of ``cards`` from ``before`` before play goes on (the
        ``before`` of that deal), or ``None``: the deal is done (:meth:`start`)."""
        del cards, before
        return None

    def redeals(self, before: Any, after: Any) -> bool:
        """Whether the action from ``before`` to ``after`` began a new deal (dealt by chance)."""
        del before, after
        return False

    def act(self, before: Any, action: Any, apply: Callable[[], Any]) -> tuple[Any, Any | None]:
        """Take ``action`` in ``before`` by ``apply`` (which applies it, checked, and returns
        the state it leads to): that state, and the ``before`` of the deal that follows it
        (``None``: none; play goes on from the state)."""
        del action
        after = apply()
        return after, (after if self.redeals(before, after) else None)


class HandDeal(CardDeal):
    """A deal of the whole pack into hands (or places) that keep their cards until played:
    a state consistent with a player's view is dealt again by sampling where the unseen cards
    lie at each deal's end (:meth:`sample_end`, :meth:`holdings`, :meth:`outcomes_of`)."""

    def sample_end(
        self, moment: Any, action: Any | None, after: Any | None, player: int, rng: random.Random
    ) -> Any:
        """A state ``player`` cannot tell from ``moment`` (the game's ``sample_state`` from its
        view) where ``action``, the action that ended a deal's hand there, is legal and leads to
        what ``after`` shows (``None``: the game goes on from ``moment``)."""
        game = self.game
        view = game.observe(moment, player)
        sampled = game.sample_state(view, rng)
        if action is not None:
            for _ in range(SAMPLE_TRIES):
                if game.is_legal(sampled, action):
                    break
                sampled = game.sample_state(view, rng)
        return sampled

    @abstractmethod
    def holdings(self, state: Any) -> list[int]:
        """Each card's place in the deal's terms, for :meth:`outcomes_of`: the seat holding it
        (or where it lies) in ``state``, indexed by card."""

    def outcomes_of(
        self, places: Sequence[int], told: Sequence[int], before: Any | None
    ) -> list[int]:
        """The chance outcomes of a deal putting each card in ``places`` (by card: the seat it
        goes to) from ``before`` (as :meth:`receiver`), keeping the cards a player was told
        where they were (``told``, node by node: the card, or -1 where it was not told); the
        rest in card order."""
        pending: dict[int, list[int]] = {}
        for card in sorted(set(self.cards()) - set(told)):
            pending.setdefault(places[card], []).append(card)
        outcomes: list[int] = []
        for node, card in enumerate(told):
            if card >= 0:
                outcomes.append(card)
            else:
                outcomes.append(pending[self.receiver(before, node)].pop(0))
        return outcomes


class FanTanDeal(HandDeal):
    """Fan Tan: the pack dealt one card at a time from the dealer's left, each card told to
    the seat it goes to; each hand of a match is dealt so."""

    def _dealer(self, before: Any | None) -> int:
        hand = 0 if before is None else int(before.hand_number)
        return dealer_of(self.config.players, hand)

    def receiver(self, before: Any | None, node: int) -> int:
        return int((self._dealer(before) + 1 + node) % self.config.players)

    def start(self, cards: Sequence[int], before: Any | None) -> FanTanState:
        config = self.config
        base = before or start_hand(config, 0, 0, (0,) * config.players, None)
        hands = [0] * config.players
        for node, card in enumerate(cards):
            hands[(base.dealer + 1 + node) % config.players] |= 1 << card
        leader = leader_of(config, base.dealer, hands)
        return dataclasses.replace(base, hands=tuple(hands), leader=leader, to_move=leader)

    def redeals(self, before: Any, after: Any) -> bool:
        return bool(after.hand_number != before.hand_number and not after.finished)

    def sample_end(
        self, moment: Any, action: Any | None, after: Any | None, player: int, rng: random.Random
    ) -> Any:
        """As the base class's, then, where the hand's scoring tells something of the hands
        left (penalty points), cards are swapped between the other seats that keep their
        hands (each swap one the view allows) until the scores come out as they did."""
        sampled = super().sample_end(moment, action, after, player, rng)
        if action is None or after is None:
            return sampled
        config = self.config
        actor = moment.to_move
        hands = list(sampled.hands)

        def missed(hands: list[int]) -> int:
            left = list(hands)
            left[actor] &= ~(1 << action.index)
            scores, pool = settle(config, left, actor, moment.scores, moment.pool)
            apart = sum(abs(a - b) for a, b in zip(scores, after.scores, strict=True))
            return int(apart + abs(pool - after.pool))

        now = missed(hands)
        if not now:
            return sampled
        _, _, forbidden, required = hidden_constraints(self.game.observe(moment, player))
        seats = [seat for seat in range(config.players) if seat not in (player, actor)]
        for _ in range(REPAIR_STEPS):
            if not now or len(seats) < 2:
                break
            first, second = rng.sample(seats, 2)
            give = indices_of(hands[first] & ~required[first] & ~forbidden[second])
            take = indices_of(hands[second] & ~required[second] & ~forbidden[first])
            if not give or not take:
                continue
            swap = (1 << rng.choice(give)) | (1 << rng.choice(take))
            trial = list(hands)
            trial[first] ^= swap
            trial[second] ^= swap
            score = missed(trial)
            if score <= now or rng.random() < 0.05:
                hands, now = trial, score
        return dataclasses.replace(sampled, hands=tuple(hands))

    def holdings(self, state: Any) -> list[int]:
        places = [OPEN] * PACK
        for seat, hand in enumerate(state.hands):
            for card in range(PACK):
                if hand >> card & 1:
                    places[card] = seat
        return places


class FanDeal(HandDeal):
    """Fan patience: the pack dealt face up, three cards to each of the first 17 fans and the
    last card to the 18th, every card told to the player."""

    def receiver(self, before: Any | None, node: int) -> int:
        return OPEN

    def start(self, cards: Sequence[int], before: Any | None) -> FanState:
        fans: list[list[Card]] = [[] for _ in range(NUM_FANS)]
        for node, card in enumerate(cards):
            fans[node % (NUM_FANS - 1) if node < PACK - 1 else NUM_FANS - 1].append(
                Card.from_index(card)
            )
        return make_state(self.config, fans)

    def holdings(self, state: Any) -> list[int]:
        return [OPEN] * PACK


@dataclasses.dataclass(frozen=True)
class FanoReshuffle:
    """A Fano reshuffle dealt by chance: the action that made it (``action``, taken in
    ``state``), the reshuffles of that action already dealt (``orders``: seat, reshuffles
    before, the new draw pile) and the one to deal: ``seat``'s discards (``cards``, sorted)
    after ``shuffles`` reshuffles."""

    state: Any
    action: Any
    orders: tuple[tuple[int, int, tuple[int, ...]], ...]
    seat: int
    shuffles: int
    cards: tuple[int, ...]


class FanoDeal(CardDeal):
    """Fano: each seat's deck shuffled into its draw pile, card by card (node ``k`` of a
    seat's pile is the ``k``-th card it will draw), seat 0's first; then a node choosing the
    first player (its outcomes are seats, told to everyone). Every reshuffle of a discard pile
    during the game is dealt so too, after the action that made it: nobody sees a draw pile's
    order, so every seat is told only that a card went into it (:data:`NOBODY`); the cards a
    seat draws it then sees in its hand. Chance's outcomes are the card codes of
    :mod:`fanfold.games.fano.cards` (the first player's node: seat numbers)."""

    #: Card codes are below 11 * 16 (value 10, spades).
    outcomes = 11 * 16

    def _piles(self) -> list[tuple[int, ...]]:
        return [deck_of(self.config, seat) for seat in range(self.config.players)]

    def _pile_of(self, node: int) -> tuple[int, int]:
        """The seat whose pile node ``node`` of the first deal deals, and where that pile's
        nodes start (seat ``players``: the first player's node)."""
        start = 0
        for seat, pile in enumerate(self._piles()):
            if node < start + len(pile):
                return seat, start
            start += len(pile)
        return self.config.players, start

    def cards(self) -> tuple[int, ...]:
        return tuple(card for pile in self._piles() for card in pile)

    def card_text(self, card: int) -> str:
        return str(fano_card_text(card))

    def node_count(self, before: Any | None) -> int:
        if isinstance(before, FanoReshuffle):
            return len(before.cards)
        return len(self.cards()) + 1

    def choices(self, before: Any | None, dealt: Sequence[int]) -> list[int]:
        if isinstance(before, FanoReshuffle):
            left = list(before.cards)
        else:
            seat, start = self._pile_of(len(dealt))
            if seat == self.config.players:
                return list(range(seat))
            left = list(self._piles()[seat])
            dealt = dealt[start:]
        for card in dealt:
            left.remove(card)
        return left

    def receiver(self, before: Any | None, node: int) -> int:
        if before is None and self._pile_of(node)[0] == self.config.players:
            return OPEN
        return NOBODY

    def _seat_of(self, before: Any | None, node: int) -> int:
        return before.seat if isinstance(before, FanoReshuffle) else self._pile_of(node)[0]

    def told_text(self, before: Any | None, node: int, outcome: int) -> str:
        if self.receiver(before, node) == OPEN:
            return f"seat {outcome} plays first"
        return f"a card into seat {self._seat_of(before, node)}'s draw pile"

    def outcome_text(self, before: Any | None, node: int, outcome: int) -> str:
        if self.receiver(before, node) == OPEN:
            return f"seat {outcome} plays first"
        seat = self._seat_of(before, node)
        return f"deal {self.card_text(outcome)} into seat {seat}'s draw pile"

    def start(self, cards: Sequence[int], before: Any | None) -> FanoState:
        if isinstance(before, FanoReshuffle):
            after, missing = self._replay(before, cards)
            assert missing is None, "a reshuffle was left to deal"
            return after
        piles = []
        first = 0
        for pile in self._piles():
            # node by node the drawing order; a draw pile keeps the next card to draw last
            piles.append(PlayerState(draw=tuple(reversed(cards[first : first + len(pile)]))))
            first += len(pile)
        return dealt_state(self.config, 0, tuple(piles), cards[-1])

    def next_deal(self, cards: Sequence[int], before: Any | None) -> Any | None:
        if not isinstance(before, FanoReshuffle):
            return None
        return self._replay(before, cards)[1]

    def act(self, before: Any, action: Any, apply: Callable[[], Any]) -> tuple[Any, Any | None]:
        wanted: list[tuple[int, int, tuple[int, ...]]] = []

        def order(seat: int, shuffles: int, cards: tuple[int, ...]) -> tuple[int, ...]:
            wanted.append((seat, shuffles, cards))
            return cards

        with reshuffle_orders(order):
            after = apply()
        if not wanted:
            return after, None
        return after, FanoReshuffle(before, action, (), *wanted[0])

    def replayed(self, state: Any, player: int, rng: random.Random) -> Any:
        """``state`` (an OpenSpiel state of this deal) played again as far as ``player``
        cannot tell: each other seat's cards that ``player`` never saw (in play, face up, known
        in hand, or named in an action it was told of) trade places with others of that seat
        it never saw (the whole game through: the piles they were dealt into and the actions
        that moved them; a redraw the traded cards offer another seat, which ``player`` is not
        told of, declined, and one they no longer offer left out), and the cards of every seat's
        draw
        pile that are not drawn yet (the player's own too) are put in a new order."""
        spiel = state.get_game()
        history = [int(action) for action in state.history()]
        walk = spiel.new_initial_state()
        #: each pile dealt: its seat and its positions in the history (the drawing order)
        piles: list[tuple[int, list[int]]] = []
        actors: dict[int, int] = {}
        for position, outcome in enumerate(history):
            if walk.is_chance_node():
                before, node = walk.before, len(walk.cards)
                if self.receiver(before, node) == NOBODY:
                    seat = self._seat_of(before, node)
                    if node == 0 or piles[-1][0] != seat:
                        piles.append((seat, []))
                    piles[-1][1].append(position)
            else:
                actors[position] = walk.current_player()
            walk.apply_action(outcome)
        # where the player last saw the piles: the state now, or before the action whose
        # reshuffles are being dealt (none during the first deal)
        since = len(history)
        reference = None
        if not walk.is_chance_node():
            reference = walk.fanfold_state
        elif isinstance(walk.before, FanoReshuffle):
            reference = walk.before.state
            since = max(actors)
        relabel = self._relabelling(state, player, rng)
        relabelled = list(history)
        for seat, positions in piles:
            for position in positions:
                relabelled[position] = relabel[seat].get(history[position], history[position])
        encoding = spiel.encoding
        for position, seat in actors.items():
            if seat != player and relabel[seat]:
                action = encoding.action(seat, history[position])
                relabelled[position] = encoding.action_index(
                    seat, _relabelled_action(action, relabel[seat])
                )
        last = dict(piles)
        for seat, positions in last.items():
            undrawn = len(positions)
            if reference is not None and positions[0] < since:
                undrawn = _undrawn([history[p] for p in positions], reference.players[seat].draw)
            tail = positions[len(positions) - undrawn :]
            cards = [relabelled[position] for position in tail]
            rng.shuffle(cards)
            for position, card in zip(tail, cards, strict=True):
                relabelled[position] = card
        return self._played(spiel, relabelled, player)

    def _played(self, spiel: Any, history: Sequence[int], player: int) -> Any:
        """A new game with ``history`` played, each other seat's redraw declined where the
        traded cards offer one the history does not answer, and a declined one left out where
        they no longer offer it."""
        encoding = spiel.encoding
        other = spiel.new_initial_state()
        for action in history:
            if not other.is_chance_node():
                seat = other.current_player()
                offered = seat != player and other.fanfold_state.phase is Phase.MULLIGAN
                decline = encoding.action_index(seat, Mulligan(False))
                declined = seat != player and encoding.action(seat, action) == Mulligan(False)
                if offered and not isinstance(encoding.action(seat, action), Mulligan):
                    other.apply_action(decline)
                elif declined and not offered:
                    continue
            other.apply_action(action)
        return other

    def _relabelling(self, state: Any, player: int, rng: random.Random) -> list[dict[int, int]]:
        """For each seat, its cards ``player`` never saw mapped to where they trade places, at
        random (jokers keep theirs), except where the rules tell something of a card: one in a
        hand whose redraw the seat took (every seat is told of it, so the hand was one the
        redraw is offered for) trades with a prestige card (Trionfey: a card of its value), and
        one that lay face down in play (Trionfey's Perfect defense) with a combat card.

        Raises:
            FanfoldError: the random choices left such a card nothing to trade with (choose
                again)."""
        seen, taken, face_down = _cards_seen(state, player, self.game)
        relabel: list[dict[int, int]] = []
        for seat, pile in enumerate(self._piles()):
            mapping: dict[int, int] = {}
            if seat != player:
                unseen = [card for card in pile if card not in seen and kind_of(card) < WILD]
                free = list(unseen)
                rng.shuffle(free)
                # the redraw's hand: classic, prestige cards; Trionfey, an 8, a 9 and a 10
                offered: Callable[[int, int], bool] = (
                    (lambda one, two: value_of(one) == value_of(two))
                    if self.config.trionfey
                    else (lambda one, two: is_prestige(two))
                )
                rules: list[tuple[int, Callable[[int, int], bool]]] = [
                    (card, offered) for card in unseen if card in taken[seat]
                ] + [
                    (card, lambda one, two: is_combat(two))
                    for card in unseen
                    if card in face_down[seat] and card not in taken[seat]
                ]
                for card, allowed in rules:
                    image = next((other for other in free if allowed(card, other)), None)
                    if image is None:
                        raise FanfoldError(Refusal("envs.no_card_to_trade"))
                    mapping[card] = image
                    free.remove(image)
                mapping.update(zip([c for c in unseen if c not in mapping], free, strict=True))
            relabel.append(mapping)
        return relabel

    def _replay(
        self, deal: FanoReshuffle, cards: Sequence[int]
    ) -> tuple[FanoState, FanoReshuffle | None]:
        """The action of ``deal`` taken again with its reshuffles dealt (this one by
        ``cards``, in drawing order), and the next reshuffle it makes that is not dealt yet."""
        orders = (*deal.orders, (deal.seat, deal.shuffles, tuple(reversed(cards))))
        known = {(seat, shuffles): pile for seat, shuffles, pile in orders}
        wanted: list[tuple[int, int, tuple[int, ...]]] = []

        def order(seat: int, shuffles: int, sorted_cards: tuple[int, ...]) -> tuple[int, ...]:
            pile = known.get((seat, shuffles))
            if pile is None:
                wanted.append((seat, shuffles, sorted_cards))
                return sorted_cards
            return pile

        with reshuffle_orders(order):
            after = self.game.apply_legal(deal.state, deal.action)
        if not wanted:
            return after, None
        return after, FanoReshuffle(deal.state, deal.action, orders, *wanted[0])


def _undrawn(dealt: Sequence[int], draw: Sequence[int]) -> int:
    """How many cards of a pile dealt as ``dealt`` (in drawing order) are still in the draw
    pile ``draw`` (the next card to draw last): its bottom, the deal's last cards."""
    count = 0
    while count < min(len(dealt), len(draw)) and draw[count] == dealt[len(dealt) - 1 - count]:
        count += 1
    return count


def _cards_seen(
    state: Any, player: int, game: AnyGame
) -> tuple[set[int], list[set[int]], list[set[int]]]:
    """Along ``state``'s trail: the Fano cards ``player`` saw (in play, face up, known in a
    hand or in a declared attack in any view it had, or named in an action it was told of),
    each seat's cards in a hand whose redraw it took, and each seat's cards that lay face
    down in play (Trionfey's Perfect defense)."""
    spiel = state.get_game()
    seen: set[int] = set()
    taken: list[set[int]] = [set() for _ in range(spiel.num_players())]
    face_down: list[set[int]] = [set() for _ in range(spiel.num_players())]

    def view_of(fano: FanoState) -> None:
        for seat, held in enumerate(fano.players):
            face_down[seat].update(base_card(card) for card in held.hidden)
        view = game.observe(fano, player)
        for public in view.players:
            cards = (*public.field, *public.protected, *public.up, *public.known)
            seen.update(base_card(card) for card in cards)
        if view.pending is not None:
            pending = view.pending
            seen.update(base_card(card) for card in (pending.attacker, pending.target))
            if pending.support:
                seen.add(base_card(pending.support))

    for step in state.trail.steps() if state.trail is not None else ():
        if step.kind == "start":
            view_of(step.data[0])
        elif step.kind == "action":
            seat, index, before, after = step.data
            action = spiel.encoding.action(seat, index)
            if action == Mulligan(True):
                taken[seat].update(base_card(card) for card in before.players[seat].hand)
            for word in game.public_action_text(before, action, player).split():
                try:
                    seen.add(base_card(parse_card(word.strip(".,;:()"))))
                except NotationError:
                    continue
            if after is not None:
                view_of(after)
    return seen, taken, face_down


def _relabelled_action(action: Any, relabel: dict[int, int]) -> Any:
    """A Fano action with its cards traded as ``relabel`` says (a sorted list stays sorted)."""
    changes: dict[str, Any] = {}
    for field in dataclasses.fields(action):
        value = getattr(action, field.name)
        if field.name in ("seat", "owners") or isinstance(value, bool):
            continue
        if isinstance(value, int):
            changes[field.name] = relabel.get(value, value)
        elif isinstance(value, tuple) and all(isinstance(item, int) for item in value):
            traded = tuple(relabel.get(item, item) for item in value)
            changes[field.name] = tuple(sorted(traded)) if list(value) == sorted(value) else traded
    return dataclasses.replace(action, **changes)


#: The card deal of each game with one, by short name.
CARD_DEALS: dict[str, type[CardDeal]] = {"fantan": FanTanDeal, "fan": FanDeal, "fano": FanoDeal}


def card_deal(game: AnyGame, config: Any) -> CardDeal | None:
    """The card-by-card deal of a game and variant (``None``: the game has none)."""
    kind = CARD_DEALS.get(game.name)
    return None if kind is None else kind(game, config)
