"""OpenSpiel: every fanfold game as a Python game, ``python_fanfold_<game>``.

>>> import pyspiel
>>> names = register()
>>> game = pyspiel.load_game("python_fanfold_morris")
>>> state = game.new_initial_state()
>>> state.current_player(), len(state.legal_actions())
(0, 14)

Game types: sequential; Morris is deterministic with perfect information; Fan patience is an
open deal (perfect information) and Fano and Fan Tan hide hands (imperfect information); the
three dealt games are *explicit stochastic*, in one of two forms (the ``deal`` parameter):

* ``cards`` (the default, :mod:`fanfold.envs.card_deals`): the deal is chance nodes whose
  outcomes are cards, each one of the cards not dealt yet, told to the seat it goes to (every
  card, in Fan patience); a Fan Tan match deals each hand so; Fano deals each draw pile so,
  told to nobody (nobody sees a pile's order), then chooses the first player, and deals every
  reshuffle so after the action that made it;
* ``seed`` (the form of game strings written before ``deal`` was a parameter): chance nodes
  draw the deal's seed a byte at a time (256 equally likely outcomes
  each: 16 bytes, a 128-bit seed, for Fano and Fan Tan, as many as a seat could never search;
  3 bytes for Fan patience, whose deal number is that number plus one), then the deal is made
  from that seed, and Fano's reshuffles come from it too.

States serialise (``pyspiel.serialize_game_and_state``) with OpenSpiel's
own form for Python games; games and states pickle (:meth:`FanfoldGame.__reduce__`,
:meth:`FanfoldState.__reduce__`), also into a process that never called :func:`register`.
Actions are the indices of :mod:`fanfold.envs.encodings`; observations (string and tensor)
are built from the player's view; the information state string (perfect recall, for
CFR-family algorithms) is what the player was told, step by step (:mod:`fanfold.envs.trail`:
the cards dealt, its view when the deal is made and after every action, each action as the
player was told it), a function of its own observations only; the information state tensor
(:mod:`fanfold.envs.infostate`, one size for the game) is the player's observation tensor and a
window of the last actions it was told of.
:meth:`FanfoldState.resample_from_infostate` re-deals the hidden cards consistently with a
player's view, for OpenSpiel's imperfect-information search (IS-MCTS): with ``deal=cards`` by
playing the game again from a deal consistent with everything the player saw, so the copy has
the player's information state (OpenSpiel's ``ResampleInfostateTest``).

Parameters: ``variant`` (a preset name), ``players`` (0: the preset's), ``options`` (config
options ``name=value`` joined by commas, e.g. ``turns_per_player=20``), ``seed`` (-1: the
deal is chance's; a seed: every state starts dealt from it, with no chance node),
``max_steps`` (-1: the default step limit; 0: none), ``position`` (a starting position in
the game's notation, with no chance node; empty for the deal), ``history_window`` (the
information state tensor's rows of told actions; -1: 16, or the game's length where shorter)
and ``deals`` (with a ``position`` of a game with hidden cards: the game starts with a chance
node choosing among that many deals of the cards seat 0 does not see, each the game's
``sample_state`` from seat 0's view seeded by its number; 0: none) and ``deal`` (``cards`` or
``seed``, above). A game cut by the step
limit ends with every return 0.

:func:`morris_value` and :func:`morris_value_keeping_actions` read the solved Morris table for an
OpenSpiel state, so that OpenSpiel's algorithms can be checked against the exact values.
"""

from __future__ import annotations

import random
from typing import Any

import pyspiel

from fanfold.core import lab_refusals as _lab_refusals  # noqa: F401  (registers the codes)
from fanfold.core.errors import ConfigError, FanfoldError, Refusal
from fanfold.core.registry import AnyGame, all_games, get_game
from fanfold.envs.card_deals import (
    CARD_DEALS,
    NOBODY,
    OPEN,
    CardDeal,
    FanoDeal,
    HandDeal,
    card_deal,
)
from fanfold.envs.encoding import Encoding
from fanfold.envs.encodings import ENCODINGS, encoding_for, resolve
from fanfold.envs.episode import Episode, default_max_steps
from fanfold.envs.infostate import DEFAULT_WINDOW, fill_history, information_state_layout
from fanfold.envs.trail import EVERYONE, NO_SEAT, Trail, same_story, told_of
from fanfold.play.setup import SEED_BITS
from fanfold.play.table import HUMAN
from fanfold.solvers.morris import load_table, rank_actions

PREFIX = "python_fanfold_"
#: The bound on a game's actions where neither the game nor the caller sets one.
_NO_BOUND = 100_000
_registered: list[str] = []
#: Tries of a resampling (each a new deal; each deal's sample up to 20 times as many) before
#: it gives up.
_RESAMPLE_TRIES = 20
#: Outcomes of each chance node of the deal: one byte of the deal's seed.
CHANCE_OUTCOMES = 256
_UNIFORM_BYTE = [(value, 1.0 / CHANCE_OUTCOMES) for value in range(CHANCE_OUTCOMES)]
#: Bytes of the deal's seed: a game with hidden cards draws as many bits as a new game of
#: fanfold does (too many for a seat to search from the cards it sees); an open deal draws a
#: deal number (three bytes: deals 1 to 16,777,216).
HIDDEN_DEAL_BYTES = SEED_BITS // 8
OPEN_DEAL_BYTES = 3
#: The games dealt card by card unless ``deal=seed`` is given.
CARDS_BY_DEFAULT = frozenset(CARD_DEALS)


def _player_range(game: AnyGame) -> tuple[int, int]:
    counts = [count for preset in game.presets() for count in preset.player_counts]
    if not counts:
        counts = [game.num_players(preset.config) for preset in game.presets()]
    return min(counts), max(counts)


def _game_type(game: AnyGame) -> pyspiel.GameType:
    low, high = _player_range(game)
    kind = pyspiel.GameType
    dealt = game.traits.chance
    return kind(
        short_name=PREFIX + game.name,
        long_name=f"fanfold {game.title}",
        dynamics=kind.Dynamics.SEQUENTIAL,
        chance_mode=kind.ChanceMode.EXPLICIT_STOCHASTIC if dealt else kind.ChanceMode.DETERMINISTIC,
        information=(
            kind.Information.IMPERFECT_INFORMATION
            if game.has_hidden_information
            else kind.Information.PERFECT_INFORMATION
        ),
        utility=kind.Utility.ZERO_SUM if game.traits.zero_sum else kind.Utility.GENERAL_SUM,
        reward_model=kind.RewardModel.TERMINAL,
        max_num_players=high,
        min_num_players=low,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={
            "variant": game.presets()[0].name,
            "players": 0,
            "options": "",
            "seed": -1,
            "max_steps": -1,
            "position": "",
            "history_window": -1,
            "deals": 0,
            "deal": "cards" if game.name in CARDS_BY_DEFAULT else "seed",
        },
    )


def _options(text: str) -> dict[str, str]:
    """Config options from ``name=value`` pairs joined by commas, or ``name:value`` pairs
    joined by semicolons (the form a game's string keeps)."""
    options: dict[str, str] = {}
    pairs, sign = (text.split(";"), ":") if ":" in text or ";" in text else (text.split(","), "=")
    for part in filter(None, (item.strip() for item in pairs)):
        name, equals, value = part.partition(sign)
        if not equals:
            raise ConfigError(Refusal("envs.options_form", part=repr(part)))
        options[name.strip()] = value.strip()
    return options


def options_text(options: dict[str, str]) -> str:
    """Options in the form a game's string can carry (OpenSpiel splits a game's string at
    ``,`` and ``=``): ``name:value`` pairs joined by semicolons."""
    return ";".join(f"{name}:{value}" for name, value in options.items())


class FanfoldGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel ships no type information
    """A fanfold game and variant as an OpenSpiel game."""

    #: The fanfold game's short name (each registered subclass sets its own).
    fanfold_name = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        game = get_game(self.fanfold_name)
        game_type = _game_type(game)
        values = {**game_type.parameter_specification, **(params or {})}
        options = _options(str(values["options"]))
        values["options"] = options_text(options)
        if int(values["players"]):
            options["players"] = str(values["players"])
        found, config = resolve(game.name, str(values["variant"]), options)
        self.fanfold_game = found
        self.config = config
        self.encoding: Encoding = encoding_for(found, config)
        limit = int(values["max_steps"])
        self.max_steps = default_max_steps(found) if limit < 0 else (limit or None)
        self.position = str(values["position"]) or None
        seed = int(values["seed"])
        self.fixed_seed = seed if seed >= 0 else None
        #: How the deal is drawn: ``cards`` (chance nodes whose outcomes are cards) or
        #: ``seed`` (the seed's bytes; the form of game strings without ``deal``).
        self.deal_form = _deal_form(game, params or {}, str(values["deal"]))
        values["deal"] = self.deal_form
        dealt_by_chance = self.position is None and self.fixed_seed is None
        #: The card-by-card deal (``deal=cards``; ``None``: none).
        self.card_deal: CardDeal | None = (
            card_deal(found, config) if dealt_by_chance and self.deal_form == "cards" else None
        )
        self.deal_bytes = (
            0
            if self.card_deal is not None
            else _deal_bytes(game_type, found, self.position, self.fixed_seed)
        )
        #: Deals of a ``position``'s hidden cards the game starts by choosing among (0: none).
        self.deals = int(values["deals"])
        if self.deals:
            if self.position is None or not found.has_hidden_information:
                raise ConfigError(Refusal("envs.deals_need_position"))
            if self.deals < 0:
                raise ConfigError(Refusal("envs.deals_count", deals=self.deals))
        low, high = found.traits.returns
        longest = self.max_steps or found.longest_game(config) or _NO_BOUND
        window = int(values["history_window"])
        #: Rows of the information-state tensor's window of told actions
        #: (:mod:`fanfold.envs.infostate`).
        self.history_window = min(longest, DEFAULT_WINDOW) if window < 0 else window
        self.information_state_layout = information_state_layout(self.encoding, self.history_window)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.encoding.num_actions,
            max_chance_outcomes=(
                self.card_deal.outcomes
                if self.card_deal is not None
                else self.deals or (CHANCE_OUTCOMES if self.deal_bytes else 0)
            ),
            num_players=self.encoding.players,
            min_utility=low,
            max_utility=high,
            utility_sum=0.0 if found.traits.zero_sum else None,
            max_game_length=longest,
        )
        super().__init__(game_type, info, values)

    def new_initial_state(self) -> FanfoldState:
        """A new game: at the deal's first chance node (or the choice among ``deals``), or
        dealt from the ``seed`` parameter."""
        if self.deal_bytes or self.deals or self.card_deal is not None:
            return FanfoldState(self)
        return FanfoldState(self, seed=self.fixed_seed or 0)

    def chance_count(self) -> int:
        """The outcomes of each chance node: a seed byte's 256, or ``deals``."""
        return self.deals or CHANCE_OUTCOMES

    def dealt_position(self, number: int) -> str:
        """The start position of deal ``number`` of ``deals``: the ``position`` with every card
        seat 0 does not see re-dealt by the game's ``sample_state`` from seat 0's view, with a
        generator seeded by ``number`` (deals may repeat: each is one equally likely outcome)."""
        game = self.fanfold_game
        start = game.parse_position(self.position or "", self.config)
        sampled = game.sample_state(game.observe(start, 0), random.Random(number))
        return str(game.format_position(sampled))

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> FanfoldObserver | InformationStateObserver:
        """The observer of a seat's view (string and tensor), or with ``perfect_recall`` of its
        information state (:class:`InformationStateObserver`: the perfect-recall string, and
        the fixed-size tensor of :mod:`fanfold.envs.infostate`)."""
        if params:
            raise ValueError(f"the observer takes no parameters, not {params}")
        if iig_obs_type is not None and iig_obs_type.perfect_recall:
            return InformationStateObserver(self)
        return FanfoldObserver(self)

    def __reduce__(self) -> tuple[Any, tuple[str, dict[str, Any]]]:
        """Pickle as the short name and parameters, loaded again by :func:`load_pickled_game`
        (which registers the games first). Each game's class is made by :func:`register`, so
        pickle cannot find it by name as OpenSpiel's own pickling (the class, then the game's
        string) needs; and the parameters, unlike the game's string, keep a ``position``
        whose notation holds ``,`` or ``=``."""
        return load_pickled_game, (self.get_type().short_name, dict(self.get_parameters()))


def load_pickled_game(short_name: str, params: dict[str, Any]) -> FanfoldGame:
    """A pickled game loaded again (:meth:`FanfoldGame.__reduce__`): the games are registered
    first, so this works in a new process (``multiprocessing``'s spawn) too."""
    register()
    game: FanfoldGame = pyspiel.load_game(short_name, params)
    return game


#: The parameters of every game string written before ``deal`` was one: such a string (all
#: of them, no ``deal``) loads in the seed-byte form it was written in.
_SEED_FORM_PARAMETERS = frozenset(
    {"variant", "players", "options", "seed", "max_steps", "position", "history_window", "deals"}
)


def _deal_form(game: AnyGame, params: dict[str, Any], form: str) -> str:
    """``cards`` or ``seed``: the ``deal`` parameter, ``seed`` for an old game string (every
    parameter then but ``deal``), and ``seed`` for a game with no card deal."""
    if form not in ("cards", "seed"):
        raise ConfigError(Refusal("envs.deal_form", form=repr(form)))
    names = list(params)
    # OpenSpiel hands over the parameters given (in order) and then the defaults of those not
    # given: ``deal`` last, after all the others, was not given.
    if names and names[-1] == "deal" and set(names[:-1]) >= _SEED_FORM_PARAMETERS:
        return "seed"
    if form == "cards" and game.name not in CARD_DEALS:
        raise ConfigError(Refusal("envs.no_card_deal", game=game.title))
    return form


def _deal_bytes(
    game_type: pyspiel.GameType, game: AnyGame, position: str | None, seed: int | None
) -> int:
    """How many chance nodes (bytes of the seed) start a state: none for a game without
    chance, a fixed seed or a start position."""
    if game_type.chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC:
        return 0
    if position is not None or seed is not None:
        return 0
    return HIDDEN_DEAL_BYTES if game.has_hidden_information else OPEN_DEAL_BYTES


class FanfoldState(pyspiel.State):  # type: ignore[misc]  # pyspiel ships no type information
    """A game in progress: the deal's chance nodes (the cards dealt so far, or the seed's
    bytes drawn so far), then an :class:`~fanfold.envs.episode.Episode` with every seat a
    player, and the :class:`~fanfold.envs.trail.Trail` of what each seat was told.

    Args:
        game: the OpenSpiel game.
        seed: deal from this seed at once (no chance node); ``None`` starts at the deal's
            first chance node (or at once where the game has no chance).
        episode: go on from this episode instead (a resampled state).
    """

    def __init__(
        self, game: FanfoldGame, seed: int | None = None, episode: Episode | None = None
    ) -> None:
        super().__init__(game)
        #: The seed's bytes drawn so far by the deal's chance nodes (or the deal chosen).
        self.deal: list[int] = []
        #: The cards of the card-by-card deal in progress, node by node (``None``: none).
        self.cards: list[int] | None = None
        #: The state the rules made for a new deal in progress (``None``: the game's start).
        self.before: Any = None
        self.trail: Trail | None = None
        self._episode = episode
        if episode is None and game.card_deal is not None and seed is None:
            self.cards = []
        elif episode is None and (seed is not None or not (game.deal_bytes or game.deals)):
            self._episode = self._new_episode(seed or 0)
        if self._episode is not None:
            self.trail = Trail(None, "start", (self._episode.table.state,))

    @property
    def _fanfold_game(self) -> FanfoldGame:
        # The game object is shared, not copied with the state's attributes (OpenSpiel's
        # clone deep-copies them, and serialisation pickles them).
        game: FanfoldGame = self.get_game()
        return game

    def _new_episode(self, seed: int, position: str | None = None) -> Episode:
        game = self._fanfold_game
        return Episode(
            game.fanfold_game,
            game.config,
            game.encoding,
            [HUMAN] * game.encoding.players,
            seed=seed,
            max_steps=game.max_steps,
            start_position=position or game.position,
        )

    @property
    def episode(self) -> Episode:
        """The game after the deal. Raises :class:`pyspiel.SpielError` at a chance node."""
        if self._episode is None or self.cards is not None:
            raise pyspiel.SpielError("the cards are not dealt yet: this is a chance node")
        return self._episode

    @property
    def fanfold_state(self) -> Any:
        """The fanfold state underneath (after the deal)."""
        return self.episode.table.state

    def current_player(self) -> int:
        if self._episode is None or self.cards is not None:
            return int(pyspiel.PlayerId.CHANCE)
        seat = self._episode.decider
        return int(pyspiel.PlayerId.TERMINAL) if seat is None else seat

    def _cards_left(self) -> list[int]:
        """The next card-by-card chance node's outcomes, as often as each may come."""
        deal = self._fanfold_game.card_deal
        assert deal is not None
        assert self.cards is not None
        return deal.choices(self.before, self.cards)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The next card of the deal: every card not dealt yet, equally likely (a card the
        deal holds twice, twice as likely; Fano's first player: each seat); or the next byte
        of the deal's seed: 256 equally likely values; or one of ``deals`` equally likely
        deals."""
        if self.current_player() != pyspiel.PlayerId.CHANCE:
            raise pyspiel.SpielError("the deal is made: this is not a chance node")
        if self.cards is not None:
            left = self._cards_left()
            return [(card, left.count(card) / len(left)) for card in sorted(set(left))]
        count = self._fanfold_game.deals
        if count:
            return [(number, 1.0 / count) for number in range(count)]
        return list(_UNIFORM_BYTE)

    def _legal_actions(self, player: int) -> list[int]:
        if self.current_player() == pyspiel.PlayerId.CHANCE:
            if player != pyspiel.PlayerId.CHANCE:
                return []
            if self.cards is not None:
                return sorted(set(self._cards_left()))
            return list(range(self._fanfold_game.chance_count()))
        assert self._episode is not None
        if player != self._episode.decider:
            return []
        return self._episode.legal_indices()

    def _apply_action(self, action: int) -> None:
        if self.cards is not None:
            self._deal_card(action)
            return
        if self._episode is None:
            game = self._fanfold_game
            if game.deals:
                if not 0 <= action < game.deals:
                    raise pyspiel.SpielError(f"the deals are 0..{game.deals - 1}, not {action}")
                self.deal.append(action)
                self._episode = self._new_episode(action, game.dealt_position(action))
                self.trail = Trail(self.trail, "start", (self._episode.table.state,))
                return
            if not 0 <= action < CHANCE_OUTCOMES:
                raise pyspiel.SpielError(f"a byte of the deal's seed is 0..255, not {action}")
            self.deal.append(action)
            if len(self.deal) == game.deal_bytes:
                number = int.from_bytes(bytes(self.deal), "big")
                open_deal = not game.fanfold_game.has_hidden_information
                self._episode = self._new_episode(number + 1 if open_deal else number)
                self.trail = Trail(self.trail, "start", (self._episode.table.state,))
            return
        seat = self._episode.decider
        if seat is None:
            raise pyspiel.SpielError("the game is over")
        episode = self._episode
        before = episode.table.state
        deal = self._fanfold_game.card_deal

        def apply() -> Any:
            episode.act(seat, action)
            return episode.table.state

        if deal is None:
            after, redeal = apply(), None
        else:
            after, redeal = deal.act(before, episode.encoding.action(seat, action), apply)
        told = None if redeal is not None else after
        self.trail = Trail(self.trail, "action", (seat, action, before, told))
        if redeal is not None:
            self.cards = []
            self.before = redeal

    def _deal_card(self, card: int) -> None:
        """The card-by-card deal's next chance node deals ``card``."""
        deal = self._fanfold_game.card_deal
        assert deal is not None
        assert self.cards is not None
        if card not in self._cards_left():
            raise pyspiel.SpielError(f"card {card} is dealt already or is no card of this deal")
        node = len(self.cards)
        seat = deal.receiver(self.before, node)
        self.cards.append(card)
        told = {OPEN: EVERYONE, NOBODY: NO_SEAT}.get(seat, seat)
        self.trail = Trail(self.trail, "card", (told, deal.told_text(self.before, node, card)))
        if len(self.cards) < deal.node_count(self.before):
            return
        following = deal.next_deal(self.cards, self.before)
        if following is not None:
            self.cards = []
            self.before = following
            return
        dealt = deal.start(self.cards, self.before)
        if self._episode is None:
            self._episode = self._new_episode(
                0, self._fanfold_game.fanfold_game.format_position(dealt)
            )
        else:
            self._episode.table.state = dealt
        self.cards = None
        self.before = None
        self.trail = Trail(self.trail, "start", (self._episode.table.state,))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            deal = self._fanfold_game.card_deal
            if self.cards is not None and deal is not None:
                return deal.outcome_text(self.before, len(self.cards), action)
            if self._fanfold_game.deals:
                return f"deal {action}"
            return f"deal seed byte {len(self.deal) + 1}: {action}"
        seat = player if player >= 0 else 0
        episode = self.episode
        return str(episode.game.action_text(episode.encoding.action(seat, action)))

    def is_terminal(self) -> bool:
        return bool(self.current_player() == pyspiel.PlayerId.TERMINAL)

    def returns(self) -> list[float]:
        if self._episode is None or self.cards is not None:
            return [0.0] * self._fanfold_game.encoding.players
        return [float(value) for value in self._episode.returns()]

    def resample_from_infostate(self, player: int, sampler: Any) -> FanfoldState:
        """A state ``player`` cannot tell from this one, with the same information state.

        With the card-by-card deal (``deal=cards``), the game is played again from its start:
        each deal with the cards ``player`` was told where they were and the others re-dealt
        consistently with its view (the game's ``sample_state`` at the end of each deal's
        hand), then the same actions (Fano: the same game with the cards ``player`` never saw
        traded among themselves and the undrawn cards of each draw pile in a new order,
        :meth:`~fanfold.envs.card_deals.FanoDeal.replayed`); a game with nothing hidden is
        played again as it was. With the seed-byte deal the hidden cards are re-dealt from the
        player's view now and the copy starts there (its history and its information state
        start at that point).

        A new random stream is seeded by two draws of ``sampler`` (a ``pyspiel`` sampler or
        any callable returning floats in [0, 1)), so each resampled state has its own deal of
        the unseen cards. Before the deal, a state with as many chance outcomes drawn."""
        game = self._fanfold_game
        draws = [float(sampler()) for _ in range(2)]
        if not all(0.0 <= draw < 1.0 for draw in draws):
            raise ValueError(f"the sampler must return numbers in [0, 1), not {draws}")
        seed = int(draws[0] * 2**53) << 53 | int(draws[1] * 2**53)
        rng = random.Random(seed)
        if game.card_deal is not None or not game.fanfold_game.has_hidden_information:
            return resample_by_replay(self, player, rng)
        if self._episode is None:
            other = FanfoldState(game)
            for _ in self.deal:
                other.apply_action(rng.randrange(game.chance_count()))
            return other
        fanfold_game = game.fanfold_game
        view = fanfold_game.observe(self.fanfold_state, player)
        sampled = fanfold_game.sample_state(view, rng)
        return FanfoldState(game, episode=self._episode.going_on_from(sampled, seed))

    def __str__(self) -> str:
        deal = self._fanfold_game.card_deal
        if self.cards is not None and deal is not None:
            nodes = deal.node_count(self.before)
            return f"dealing: {len(self.cards)} of {nodes} cards dealt"
        if self._episode is None:
            if self._fanfold_game.deals:
                return f"dealing: one of {self._fanfold_game.deals} deals of the position"
            drawn = len(self.deal)
            return f"dealing: {drawn} of {self._fanfold_game.deal_bytes} seed bytes drawn"
        return str(self._episode.game.format_position(self._episode.table.state))

    def __reduce__(self) -> tuple[Any, tuple[FanfoldGame, str]]:
        """Pickle as the game (:meth:`FanfoldGame.__reduce__`) and the state's serialisation
        (``state.serialize()``: OpenSpiel's form for Python states, the history and the pickled
        attributes), loaded again by :func:`load_pickled_state`."""
        return load_pickled_state, (self._fanfold_game, self.serialize())

    def __setstate__(self, data: str) -> None:
        # OpenSpiel's own pickling of a state (``serialize_game_and_state``'s text, as pickles
        # of states made before :meth:`__reduce__` hold): register the games first.
        register()
        super().__setstate__(data)


def resample_by_replay(state: FanfoldState, player: int, rng: random.Random) -> FanfoldState:
    """``state`` played again from the start with every card-by-card deal re-dealt
    consistently with what ``player`` saw (:func:`replayed_deals`), checked: the copy's
    information state for ``player`` is the original's (:func:`~fanfold.envs.trail.same_story`;
    a few tries, each a new deal)."""
    game = state._fanfold_game
    deal = game.card_deal
    for _ in range(_RESAMPLE_TRIES):
        other = FanfoldState(game)
        try:
            if isinstance(deal, FanoDeal):
                other = deal.replayed(state, player, rng)
            else:
                for action in replayed_deals(state, player, rng):
                    other.apply_action(action)
        except (pyspiel.SpielError, FanfoldError):
            continue
        if same_story(state.trail, other.trail, game.fanfold_game, game.encoding, player):
            return other
    raise pyspiel.SpielError(
        f"no deal consistent with seat {player}'s view was found in {_RESAMPLE_TRIES} tries"
    )


def replayed_deals(state: FanfoldState, player: int, rng: random.Random) -> list[int]:
    """``state``'s history with each card-by-card deal's outcomes chosen again: the cards
    ``player`` was told stay where they were; the others go where the game's ``sample_state``
    from the player's view puts them at the end of that deal's hand (before the action that
    ended it; now for the last), with the cards played since the deal where they were."""
    game = state._fanfold_game
    deal = game.card_deal
    history = [int(action) for action in state.history()]
    if deal is None:
        return history
    assert isinstance(deal, HandDeal)
    walk = FanfoldState(game)
    #: per deal: where it starts in the history, the state before it, and the state (and the
    #: action taken there) where its hand is sampled
    deals: list[tuple[int, Any]] = []
    ends: list[tuple[Any, tuple[int, int] | None, Any]] = []
    for position, action in enumerate(history):
        if walk.cards is not None and not walk.cards:
            deals.append((position, walk.before))
        acting = walk.cards is None
        if acting:
            moment = walk.fanfold_state
            seat = walk.current_player()
        walk.apply_action(action)
        if acting and walk.cards is not None:  # the action ended a hand: a new deal follows
            ends.append((moment, (seat, action), walk.before))
    if walk.cards is None:
        ends.append((walk.fanfold_state, None, None))
    if walk.cards is not None and not walk.cards:
        deals.append((len(history), walk.before))
    for number, (start, before) in enumerate(deals):
        nodes = history[start : start + deal.nodes]
        told = [
            card if deal.receiver(before, node) in (player, OPEN) else -1
            for node, card in enumerate(nodes)
        ]
        if number < len(ends):
            places = _sampled_places(
                game, deal, deal.start(nodes, before), ends[number], player, rng
            )
            chosen = deal.outcomes_of(places, told, before)
        else:  # the deal in progress: the cards not told, at random
            unseen = [card for card in deal.cards() if card not in told]
            rng.shuffle(unseen)
            chosen = [card if card >= 0 else unseen.pop() for card in told]
        history[start : start + len(nodes)] = chosen
    return history


def _sampled_places(
    game: FanfoldGame,
    deal: HandDeal,
    dealt: Any,
    end: tuple[Any, tuple[int, int] | None, Any],
    player: int,
    rng: random.Random,
) -> list[int]:
    """Where each card of a deal goes: those held at the hand's end (``end``: the state, the
    action that ended the hand there and the state it led to, or the state now) where the
    deal's ``sample_end`` from the player's view there holds them, the others (played since
    the deal) where they were dealt."""
    moment, taken, after = end
    action = None if taken is None else game.encoding.action(*taken)
    sampled = deal.sample_end(moment, action, after, player, rng)
    held = deal.holdings(sampled)
    first = deal.holdings(dealt)
    return [held[card] if held[card] != OPEN else first[card] for card in range(len(first))]


def load_pickled_state(game: FanfoldGame, data: str) -> FanfoldState:
    """A pickled state loaded again (:meth:`FanfoldState.__reduce__`) in its unpickled game."""
    state: FanfoldState = game.deserialize_state(data)
    return state


class FanfoldObserver:
    """A seat's observation: the encoding's tensor and dict, and the view drawn as text."""

    def __init__(self, game: FanfoldGame) -> None:
        self._game = game
        layout = game.encoding.layout
        self.tensor = layout.zeros()
        self.dict = layout.views(self.tensor)

    def set_from(self, state: FanfoldState, player: int) -> None:
        """Fill :attr:`tensor` (and :attr:`dict`, its views) from ``player``'s view (all 0
        before the deal)."""
        self.tensor.fill(0.0)
        if state.is_chance_node():
            return
        view = self._game.fanfold_game.observe(state.fanfold_state, player)
        self._game.encoding.fill(view, self.dict)

    def string_from(self, state: FanfoldState, player: int) -> str:
        """``player``'s view as the terminal draws it (before the deal, a line saying so)."""
        if state.is_chance_node():
            return "the cards are not dealt yet"
        game = self._game.fanfold_game
        return str(game.render(game.observe(state.fanfold_state, player)))


class InformationStateObserver:
    """A seat's information state (perfect recall): what it was told along the state's
    :class:`~fanfold.envs.trail.Trail`, step by step: each card dealt to it (that a card went
    to another seat), its view when the deal is made, then for each action the acting seat,
    the action as this seat was told it (the game's ``public_action_text``: what the rules keep
    secret left out) and its view after it. Two states give one string exactly when the seat
    has seen the same game so far; a resampled state's trail is its own replayed game, so its
    string is the original's and stays so as both go on alike. Each step's lines are drawn once
    (clones and children share them).

    The tensor (:mod:`fanfold.envs.infostate`, the game's ``information_state_layout``) is
    the seat's observation tensor and the window of the last actions it was told of, from the
    same trail: a function of the string, of one size for the game (all 0 before the deal)."""

    def __init__(self, game: FanfoldGame) -> None:
        self._game = game
        layout = game.information_state_layout
        self.tensor = layout.zeros()
        self.dict: dict[str, Any] = layout.views(self.tensor)
        self._view_blocks = game.encoding.layout.views(self.dict["observation"])

    def set_from(self, state: FanfoldState, player: int) -> None:
        """Fill :attr:`tensor` (and :attr:`dict`, its views) with ``player``'s information
        state: its view now and the window of the actions it was told of."""
        self.tensor.fill(0.0)
        if state.is_chance_node():
            return
        spiel = self._game
        view = spiel.fanfold_game.observe(state.fanfold_state, player)
        spiel.encoding.fill(view, self._view_blocks)
        told = told_of(state.trail, spiel.fanfold_game, spiel.encoding, player)[1]
        fill_history(self.dict, told, player, spiel.encoding.players)

    def string_from(self, state: FanfoldState, player: int) -> str:
        """``player``'s information state (before anything is told: the seed bytes drawn,
        unseen)."""
        if state.trail is None:
            if self._game.card_deal is not None:
                return "the cards are not dealt yet"
            if self._game.deals:
                return f"the cards are not dealt yet (one of {self._game.deals} deals)"
            return f"the cards are not dealt yet ({len(state.deal)} seed bytes drawn)"
        spiel = self._game
        return told_of(state.trail, spiel.fanfold_game, spiel.encoding, player)[0]


def register() -> list[str]:
    """Register every game with an encoding (once); returns the OpenSpiel names."""
    if not _registered:
        for game in all_games():
            if game.name not in ENCODINGS:
                continue
            # OpenSpiel keeps the class it is given: one subclass per game.
            kind = type(
                f"Fanfold{game.name.title()}Game", (FanfoldGame,), {"fanfold_name": game.name}
            )
            pyspiel.register_game(_game_type(game), kind)
            _registered.append(PREFIX + game.name)
    return list(_registered)


# ------------------------------------------------------------------ the solved Morris table
def morris_value(state: FanfoldState) -> float:
    """The game-theoretic value of a Morris state for player 0 (White): 1 won, -1 lost, 0
    drawn under perfect play, from the solved table (the history is ignored, as the table
    does; see :mod:`fanfold.solvers.morris`)."""
    fanfold_state = state.fanfold_state
    table = load_table(fanfold_state.config.adjacency)
    value = table.state_value(fanfold_state)
    sign = {"win": 1.0, "loss": -1.0, "draw": 0.0}[value.result.value]
    return sign if fanfold_state.to_move == 0 else -sign


def morris_value_keeping_actions(state: FanfoldState) -> list[int]:
    """The action indices that keep the game-theoretic value of a Morris state: for the side
    to move, every move whose result (win, draw or loss, however fast) is the best one, by the
    solved table and checked against the history by the rules engine."""
    fanfold_state = state.fanfold_state
    table = load_table(fanfold_state.config.adjacency)
    ranked = rank_actions(table, fanfold_state)
    if not ranked:
        return []
    best = ranked[0][1].result
    encoding = state.episode.encoding
    seat = fanfold_state.to_move
    return sorted(
        encoding.action_index(seat, action) for action, value in ranked if value.result is best
    )
