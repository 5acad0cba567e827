"""How much Fan Tan's ``hard`` loses to exact play in small endgames, from what it can see.

The arena's ``heuristic`` seats play a fixed function of their own hand and the layout, ties
broken uniformly at random (``benchmarks/fantan_model_check.py``), so once every hand is
small the best play of a seat that sees only its own view can be computed exactly:

* **the posterior** (:func:`posterior`): every split of the hidden cards among the other
  seats that keeps their hand sizes and every pass seen, each weighted by the chance the
  heuristic made their plays seen with it (each play from a choice of cards counts
  ``1 / ties`` when it is one of the heuristic's best cards, 0 otherwise; a seat's hand then
  is its hand now and the cards it has played since). The deal is drawn uniformly and the
  searching seat's own choices depend on its view only, so this is the exact chance of each
  hidden deal given the view;
* **exact play** (:meth:`Endgame.values`): an expectimax over an information-set tree. The
  others play the heuristic (a tie splits the deal's weight evenly among the tied cards); at
  each of the seat's later choices the deals are grouped by everything it has seen since
  (every play and pass is public), and each group plays the one card that wins the most of
  its weight. A choice never depends on the hidden deal;
* **perfect information** (:meth:`Endgame.perfect`): the same seat shown every hand, its
  best card per deal; and **the heuristic** (:meth:`Endgame.heuristic`) playing the seat.

This plays seeded four-seat games (one ``--agent`` seat, rotating, against three
``heuristic`` seats, seeds as in ``benchmarks/fantan_model_check.py``) and, at every choice of
the agent among two or more cards once every seat holds at most ``--cards`` cards, solves the
position exactly and compares the agent's card. The agent's expected loss to exact play over
an endgame is the sum of its regrets along the path it took (the performance-difference
identity: each regret is the exact value of the position less the exact value of the
agent's card, exact play after it); summed over the games it is the number of hands the agent
is expected to lose to exact play in those endgames.

Run: ``python3 benchmarks/fantan_endgame_bound.py --games 100 --cards 4``.
"""

from __future__ import annotations

import argparse
import itertools
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache

from fanfold.agents import create_agent
from fanfold.agents.strategy.fantan_scoring import PlayRecord, card_scores
from fanfold.games.fantan import GAME, FanTanConfig, FanTanView, rules
from fanfold.games.fantan.actions import Play
from fanfold.games.fantan.cards import SUIT_MASK, indices_of

Hands = tuple[int, ...]
#: A deal of the hidden cards with its weight: ``(weight, every seat's hand, layout)``.
World = tuple[float, Hands, int]
PASS_KEY = -1


@dataclass
class Endgame:
    """Exact values of the positions of one variant, for the seat ``me``.

    Every seat but ``me`` plays the heuristic (its best-scored card, ties uniformly); a seat
    with one playable card plays it, with none passes; the first seat out wins."""

    config: FanTanConfig
    me: int
    _table: tuple[int, ...] = field(init=False)
    _perfect: dict[tuple[Hands, int, int], float] = field(init=False, default_factory=dict)
    _plain: dict[tuple[Hands, int, int], float] = field(init=False, default_factory=dict)

    def __post_init__(self) -> None:
        if self.config.start_rank is None or self.config.opening is not None:
            raise ValueError("the endgame solver needs a fixed starting rank and no opening card")
        self._table = rules.suit_table(
            self.config.start_rank, self.config.ace_high, self.config.up_before_down
        )
        self._best = cache(self._best_cards)

    def playable(self, layout: int) -> int:
        """Every card that may be played to ``layout``."""
        table = self._table
        return (
            table[layout & SUIT_MASK]
            | table[(layout >> 13) & SUIT_MASK] << 13
            | table[(layout >> 26) & SUIT_MASK] << 26
            | table[(layout >> 39) & SUIT_MASK] << 39
        )

    def _best_cards(self, hand: int, layout: int) -> tuple[int, ...]:
        choices = hand & self.playable(layout)
        scores = card_scores(self.config, layout, self.config.start_rank, hand, choices)
        top = max(scores.values())
        return tuple(sorted(index for index, score in scores.items() if score == top))

    def best_cards(self, hand: int, layout: int) -> tuple[int, ...]:
        """The heuristic's best cards for ``hand`` on ``layout`` (index order)."""
        return self._best(hand, layout)

    def choices(self, hands: Hands, layout: int) -> int:
        """The cards ``me`` may play."""
        return hands[self.me] & self.playable(layout)

    def _run(
        self,
        hands: Hands,
        layout: int,
        seat: int,
        chance: float,
        key: tuple[int, ...],
        out: list[tuple[float, tuple[int, ...], int, Hands, int]],
    ) -> None:
        """Play on from ``seat`` to act until ``me`` has a choice of two or more cards or a
        seat goes out, splitting ``chance`` over the others' ties; appends ``(chance, key,
        winner or -1, hands, layout)``, ``key`` every action since the call."""
        players = len(hands)
        while True:
            hand = hands[seat]
            choices = hand & self.playable(layout)
            if not choices:
                key += (PASS_KEY,)
                seat = (seat + 1) % players
                continue
            if choices & (choices - 1):
                if seat == self.me:
                    out.append((chance, key, -1, hands, layout))
                    return
                best = self.best_cards(hand, layout)
            else:
                best = (choices.bit_length() - 1,)
            if len(best) > 1:
                for index in best:
                    self._play_on(hands, layout, seat, index, chance / len(best), key, out)
                return
            index = best[0]
            bit = 1 << index
            hands = (*hands[:seat], hand ^ bit, *hands[seat + 1 :])
            layout |= bit
            key += (index,)
            if not hand ^ bit:
                out.append((chance, key, seat, hands, layout))
                return
            seat = (seat + 1) % players

    def _play_on(
        self,
        hands: Hands,
        layout: int,
        seat: int,
        index: int,
        chance: float,
        key: tuple[int, ...],
        out: list[tuple[float, tuple[int, ...], int, Hands, int]],
    ) -> None:
        """``seat`` plays card ``index``, then :meth:`_run` on."""
        bit = 1 << index
        hand = hands[seat] ^ bit
        hands = (*hands[:seat], hand, *hands[seat + 1 :])
        key += (index,)
        if not hand:
            out.append((chance, key, seat, hands, layout | bit))
            return
        self._run(hands, layout | bit, (seat + 1) % len(hands), chance, key, out)

    def outcomes(
        self, hands: Hands, layout: int, index: int
    ) -> list[tuple[float, tuple[int, ...], int, Hands, int]]:
        """``me`` plays card ``index`` and play goes on to its next choice or the end."""
        out: list[tuple[float, tuple[int, ...], int, Hands, int]] = []
        self._play_on(hands, layout, self.me, index, 1.0, (), out)
        return out

    def values(self, worlds: Sequence[World]) -> dict[int, float]:
        """Each card ``me`` may play now: the weight of the worlds won by playing it and then
        playing the best card per view at every later choice. ``worlds`` show ``me`` the same
        view (its hand and the layout), with ``me`` to choose among two or more cards."""
        _, hands, layout = worlds[0]
        found = {}
        for index in indices_of(self.choices(hands, layout)):
            won = 0.0
            groups: dict[tuple[int, ...], list[World]] = {}
            for weight, world, at in worlds:
                for chance, key, winner, later, later_at in self.outcomes(world, at, index):
                    if winner >= 0:
                        won += weight * chance if winner == self.me else 0.0
                    else:
                        groups.setdefault(key, []).append((weight * chance, later, later_at))
            for group in groups.values():
                won += max(self.values(group).values())
            found[index] = won
        return found

    def value(self, worlds: Sequence[World]) -> float:
        """The weight of ``worlds`` exact play wins (see :meth:`values`)."""
        return max(self.values(worlds).values())

    def perfect(self, hands: Hands, layout: int) -> float:
        """The chance ``me`` (to choose) wins, shown every hand, playing its best card."""
        return self._solve(hands, layout, True)

    def heuristic(self, hands: Hands, layout: int) -> float:
        """The chance ``me`` (to choose) wins playing the heuristic itself."""
        return self._solve(hands, layout, False)

    def _solve(self, hands: Hands, layout: int, best: bool) -> float:
        memo = self._perfect if best else self._plain
        known = memo.get((hands, layout, self.me))
        if known is not None:
            return known
        choices = self.choices(hands, layout)
        cards = indices_of(choices) if best else list(self.best_cards(hands[self.me], layout))
        totals = []
        for index in cards:
            total = 0.0
            for chance, _, winner, later, later_at in self.outcomes(hands, layout, index):
                if winner >= 0:
                    total += chance if winner == self.me else 0.0
                else:
                    total += chance * self._solve(later, later_at, best)
            totals.append(total)
        found = max(totals) if best else sum(totals) / len(totals)
        memo[(hands, layout, self.me)] = found
        return found


def posterior(view: FanTanView, limit: int = 2_000_000) -> list[World]:
    """The deals of the hidden cards consistent with ``view``, each with its chance under the
    heuristic model of the other seats (normalised; see the module docstring).

    Raises:
        ValueError: if more than ``limit`` hands of one seat would have to be tried.
    """
    config = view.config
    players = config.players
    record = PlayRecord(view, 0.0)
    forbidden = rules.pass_constraints(config, view.leader, view.history)
    hidden = ((1 << 52) - 1) & ~view.hand & ~view.layout
    others = [seat for seat in range(players) if seat != view.player]
    candidates: dict[int, dict[int, float]] = {}
    cards = indices_of(hidden)
    for seat in others:
        size = view.hand_counts[seat]
        if math.comb(len(cards), size) > limit:
            raise ValueError(f"{math.comb(len(cards), size)} hands to try for a seat")
        found = {}
        allowed = [index for index in cards if not forbidden[seat] >> index & 1]
        for chosen in itertools.combinations(allowed, size):
            hand = sum(1 << index for index in chosen)
            chance = record.seat_likelihood(seat, hand)
            if chance > 0.0:
                found[hand] = chance
        candidates[seat] = found
    worlds: list[World] = []
    first, *middle, last = others
    total = 0.0

    def extend(at: int, used: int, weight: float, hands: list[int]) -> None:
        nonlocal total
        if at == len(middle):
            rest = hidden & ~used
            chance = candidates[last].get(rest)
            if chance:
                hands[last] = rest
                worlds.append((weight * chance, tuple(hands), view.layout))
                total += weight * chance
            return
        seat = middle[at]
        for hand, chance in candidates[seat].items():
            if not hand & used:
                hands[seat] = hand
                extend(at + 1, used | hand, weight * chance, hands)

    for hand, chance in candidates[first].items():
        base = [0] * players
        base[view.player] = view.hand
        base[first] = hand
        extend(0, hand, chance, base)
    return [(weight / total, hands, layout) for weight, hands, layout in worlds]


@dataclass
class Tally:
    """What :func:`measure` found (see the module docstring)."""

    games: int = 0
    won: int = 0
    reached: int = 0
    won_reached: int = 0
    decisions: int = 0
    differ: int = 0
    regret: float = 0.0
    exact_entry: float = 0.0
    perfect_entry: float = 0.0
    heuristic_entry: float = 0.0
    worlds: int = 0
    most_worlds: int = 0
    skipped: int = 0
    seconds: float = 0.0
    regrets: list[float] = field(default_factory=list)
    #: By the most cards any seat holds at the choice: choices solved, cards worse, regret.
    by_cards: dict[int, list[float]] = field(default_factory=dict)


def measure(games: int, seed: int, agent: str, cards: int, limit: int = 20_000) -> Tally:
    """Play ``games`` games from ``seed`` (one ``agent`` seat, rotating, three ``heuristic``)
    and solve each of the agent's choices once every seat holds at most ``cards`` cards
    (positions whose posterior has more than ``limit`` deals are skipped and counted)."""
    config = GAME.preset("standard").config
    tally = Tally(games=games)
    for number in range(games):
        deal = seed + number
        searcher = number % config.players
        agents = [
            create_agent(agent if seat == searcher else "heuristic", GAME, deal * 10 + seat)
            for seat in range(config.players)
        ]
        solver = Endgame(config, searcher)
        state = GAME.new_state(config, deal)
        entered = False
        while GAME.current_player(state) is not None:
            seat = state.to_move
            legal = GAME.legal_actions(state)
            view = GAME.observe(state, seat)
            action = agents[seat].choose(view, legal)
            if seat == searcher and len(legal) > 1 and max(view.hand_counts) <= cards:
                started = time.perf_counter()
                worlds = posterior(view)
                if not any(hands == state.hands for _, hands, _ in worlds):
                    raise AssertionError(f"the real deal is outside the posterior (deal {deal})")
                if len(worlds) > limit:
                    tally.skipped += 1
                else:
                    values = solver.values(worlds)
                    best = max(values.values())
                    assert isinstance(action, Play)
                    loss = best - values[action.index]
                    tally.decisions += 1
                    tally.differ += loss > 1e-9
                    tally.regret += loss
                    tally.regrets.append(loss)
                    row = tally.by_cards.setdefault(max(view.hand_counts), [0, 0, 0.0])
                    row[0] += 1
                    row[1] += loss > 1e-9
                    row[2] += loss
                    tally.worlds += len(worlds)
                    tally.most_worlds = max(tally.most_worlds, len(worlds))
                    if not entered:
                        entered = True
                        tally.reached += 1
                        tally.exact_entry += best
                        tally.perfect_entry += sum(
                            weight * solver.perfect(hands, layout)
                            for weight, hands, layout in worlds
                        )
                        tally.heuristic_entry += sum(
                            weight * solver.heuristic(hands, layout)
                            for weight, hands, layout in worlds
                        )
                tally.seconds += time.perf_counter() - started
            state = GAME.apply(state, action)
            if GAME.current_player(state) is None:
                won = rules.hand_winner(state) == searcher
                tally.won += won
                tally.won_reached += entered and won
    return tally


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--agent", default="hard")
    parser.add_argument("--cards", type=int, default=4, help="every hand at most this many")
    parser.add_argument("--limit", type=int, default=20_000, help="most deals in a posterior")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    if not 1 <= args.cards <= 13:
        parser.error("--cards must be 1 to 13")
    if args.limit < 1:
        parser.error("--limit must be at least 1")
    found = measure(args.games, args.seed, args.agent, args.cards, args.limit)
    print(
        f"{args.games} games, seeds {args.seed}..{args.seed + args.games - 1}, {args.agent} "
        f"against three heuristic seats; endgames: every hand at most {args.cards} cards"
    )
    rows = [
        ("games won by the agent", f"{found.won}"),
        ("games whose endgame the agent reached with a choice", f"{found.reached}"),
        ("  won by the agent", f"{found.won_reached}"),
        ("  exact play from the first choice (expected hands won)", f"{found.exact_entry:.2f}"),
        ("  the heuristic from there", f"{found.heuristic_entry:.2f}"),
        ("  shown every hand from there", f"{found.perfect_entry:.2f}"),
        ("agent's choices solved", f"{found.decisions}"),
        ("  its card worse than exact play's", f"{found.differ}"),
        ("  hands lost to exact play (sum of regrets)", f"{found.regret:.3f}"),
        ("  largest regret", f"{max(found.regrets, default=0.0):.3f}"),
        ("  deals in a posterior: mean / most", ""),
        ("positions skipped (posterior over --limit)", f"{found.skipped}"),
        ("seconds solving", f"{found.seconds:.1f}"),
    ]
    mean = found.worlds / found.decisions if found.decisions else 0.0
    rows[10] = (rows[10][0], f"{mean:.0f} / {found.most_worlds}")
    width = max(len(label) for label, _ in rows)
    for label, value in rows:
        print(f"{label:<{width}}  {value}")
    print("by the most cards a seat holds: choices solved, cards worse, hands lost")
    for most, (count, worse, lost) in sorted(found.by_cards.items()):
        print(f"  {most:>2}  {count:>5.0f}  {worse:>5.0f}  {lost:.3f}")


if __name__ == "__main__":
    main()
