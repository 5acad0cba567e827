"""Deals made card by card by OpenSpiel chance nodes (the ``deal=cards`` form of a game).

A :class:`CardDeal` says how a game's deal is a sequence of chance nodes whose outcomes are
cards: node ``k`` puts one of the cards not dealt yet (each equally likely) into a known
place, told to one seat (:meth:`CardDeal.receiver`) or to every seat (:data:`OPEN`). Every
deal of the cards is reached by one sequence of outcomes, so a state consistent with what a
player saw can be built by choosing outcomes (:meth:`CardDeal.outcomes_of`), which is how
:meth:`fanfold.envs.openspiel_game.FanfoldState.resample_from_infostate` re-deals.

A game whose rules deal again during a game (a Fan Tan match's next hand) is re-dealt by chance
nodes too: :meth:`CardDeal.redeals` says when an action began a new deal, and
:meth:`CardDeal.start` puts the chance-dealt cards into the state the rules made.

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
from collections.abc import Sequence
from typing import Any

from fanfold.core.cards import Card
from fanfold.core.registry import AnyGame
from fanfold.games.fan.deals import NUM_FANS
from fanfold.games.fan.state import FanState, make_state
from fanfold.games.fantan.cards import indices_of
from fanfold.games.fantan.rules import dealer_of, leader_of, settle, start_hand
from fanfold.games.fantan.sampling import hidden_constraints
from fanfold.games.fantan.state import FanTanState

#: A card told to every seat (an open deal).
OPEN = -1
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

    @abstractmethod
    def receiver(self, before: Any | None, node: int) -> int:
        """The seat told the card of chance node ``node`` (:data:`OPEN`: every seat), where
        ``before`` is the state the rules made for the new deal (``None``: the game's start)."""

    @abstractmethod
    def start(self, cards: Sequence[int], before: Any | None) -> Any:
        """The state dealt with ``cards`` (node by node) from ``before`` (``None``: a new
        game)."""

    def redeals(self, before: Any, after: Any) -> bool:
        """Whether the action from ``before`` to ``after`` began a new deal (dealt by chance)."""
        del before, after
        return False

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


class FanTanDeal(CardDeal):
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


class FanDeal(CardDeal):
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


#: The card deal of each game with one, by short name.
CARD_DEALS: dict[str, type[CardDeal]] = {"fantan": FanTanDeal, "fan": FanDeal}


def card_deal(game: AnyGame, config: Any) -> CardDeal | None:
    """The card-by-card deal of a game and variant (``None``: the game has none)."""
    kind = CARD_DEALS.get(game.name)
    return None if kind is None else kind(game, config)
