"""The Fano330-R-Morris solver, checked against the rules engine and independent searches."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import numpy as np
import pytest

from fanfold.core.errors import NotationError
from fanfold.games.morris import GAME, Adjacency, MorrisConfig, MorrisState
from fanfold.games.morris.board import PIECES
from fanfold.games.morris.notation import format_key, parse_board
from fanfold.games.morris.rules import losing_line
from fanfold.solvers import morris as solver
from fanfold.solvers.morris import MorrisTable, Result, Value

VARIANTS = list(Adjacency)


@pytest.fixture(scope="session")
def spaces() -> dict[Adjacency, solver.PositionSpace]:
    return {adjacency: solver.PositionSpace(adjacency) for adjacency in Adjacency}


def bare(state: MorrisState) -> MorrisState:
    """The same position without history (the solver's values ignore history)."""
    return MorrisState(state.config, state.board, state.to_move)


def children(state: MorrisState) -> Iterator[MorrisState]:
    for action in GAME.legal_actions(state):
        yield bare(GAME.apply_legal(state, action))


def terminal_value(state: MorrisState) -> Value | None:
    """The value at the end of the game, straight from the engine's outcome."""
    outcome = GAME.outcome(state)
    if outcome is None:
        return None
    won = outcome.returns[state.to_move] > 0
    return Value(Result.WIN if won else Result.LOSS, 0)


def sample_states(adjacency: Adjacency, count: int, seed: int) -> list[MorrisState]:
    codes = solver.legal_codes()
    rng = random.Random(seed)
    config = MorrisConfig(adjacency)
    states = []
    for _ in range(count):
        board, side = solver.decode(int(codes[rng.randrange(len(codes))]))
        states.append(MorrisState(config, board, side))
    return states


# ----------------------------------------------------------------------------- positions


def count_legal_positions() -> int:
    """Count the positions the notation accepts, by a different route: piece-count classes."""
    stacks = ["", *PIECES, *(a + b for a in PIECES for b in PIECES if a != b)]
    boards: Counter[tuple[int, ...]] = Counter({(0, 0, 0, 0): 1})
    for _ in range(7):
        grown: Counter[tuple[int, ...]] = Counter()
        for counts, ways in boards.items():
            for stack in stacks:
                new = tuple(counts[i] + stack.count(piece) for i, piece in enumerate(PIECES))
                if max(new) <= 2:
                    grown[new] += ways
        boards = grown
    total = 0
    for (circles, triangles, black_circles, black_triangles), ways in boards.items():
        white, black = circles + triangles, black_circles + black_triangles
        total += ways * (2 if white == black else 1 if abs(white - black) == 1 else 0)
    return total


def test_every_legal_position_is_enumerated_once_in_order() -> None:
    codes = solver.legal_codes()
    assert len(codes) == count_legal_positions() == 2_462_182
    assert bool(np.all(codes[1:] > codes[:-1]))
    index, valid = solver.indexer().index(codes)
    assert bool(valid.all())
    assert np.array_equal(index, np.arange(len(codes)))


def test_index_accepts_exactly_what_the_notation_accepts() -> None:
    rng = random.Random(7)
    codes = solver.legal_codes()
    accepted_count = 0
    for number in range(3000):
        if number % 2:
            code = rng.randrange(2 * solver.BASE**7)  # almost never legal
        else:
            # A legal position with one point's stack replaced, or the side to move flipped.
            board, side = solver.decode(int(codes[rng.randrange(len(codes))]))
            changed = list(board)
            changed[rng.randrange(7)] = solver.STACKS[rng.randrange(solver.BASE)]
            code = solver.encode(changed, side ^ rng.randrange(2))
        board, side = solver.decode(code)
        assert solver.encode(board, side) == code
        text = format_key((board, side))
        try:
            parse_board(text)
            accepted = True
        except NotationError:
            accepted = False
        _, valid = solver.indexer().index(np.array([code], dtype=np.int64))
        assert bool(valid[0]) == accepted, text
        if accepted:
            accepted_count += 1
            assert int(codes[solver.indexer().index(np.array([code]))[0][0]]) == code
    assert 200 < accepted_count < 2800


def test_encode_round_trips_the_issue_example() -> None:
    board, side = parse_board("C/-/tc/-/-/-/T b")
    assert solver.decode(solver.encode(board, side)) == (board, side)


# ----------------------------------------------------------------------------- moves


@pytest.mark.parametrize("adjacency", VARIANTS)
def test_vectorised_moves_match_the_engine(
    adjacency: Adjacency, spaces: dict[Adjacency, solver.PositionSpace]
) -> None:
    space = spaces[adjacency]
    codes = solver.legal_codes()
    for state in sample_states(adjacency, 400, seed=11):
        index = solver.indexer().index(np.array([solver.encode(state.board, state.to_move)]))[0]
        found = space.successors(index) if not space.line[index[0]] else np.zeros(0, np.int64)
        expected = sorted(solver.encode(child.board, child.to_move) for child in children(state))
        assert sorted(int(codes[i]) for i in found) == expected, format_key(state.key)


@pytest.mark.parametrize("adjacency", VARIANTS)
def test_unmoves_are_exactly_the_engine_moves_backwards(
    adjacency: Adjacency, spaces: dict[Adjacency, solver.PositionSpace]
) -> None:
    space = spaces[adjacency]
    codes = solver.legal_codes()
    # Every move of every position, counted forwards, equals every move found backwards.
    everything = np.arange(space.size)
    backwards = space.predecessors(everything)
    backwards = backwards[~space.line[backwards]]
    assert len(backwards) == int(space.degree().sum())
    # And each predecessor found for a sample really has a move to the position.
    for state in sample_states(adjacency, 25, seed=12):
        code = solver.encode(state.board, state.to_move)
        index = solver.indexer().index(np.array([code]))[0]
        for before in space.predecessors(index):
            board, side = solver.decode(int(codes[before]))
            parent = MorrisState(state.config, board, side)
            if GAME.outcome(parent) is None:
                assert any(child.key == state.key for child in children(parent))


def test_losing_lines_match_the_engine(spaces: dict[Adjacency, solver.PositionSpace]) -> None:
    space = spaces[Adjacency.GEOMETRIC]
    rng = np.random.default_rng(3)
    codes = solver.legal_codes()
    for index in rng.integers(0, space.size, 2000):
        board, _ = solver.decode(int(codes[index]))
        assert bool(space.line[index]) == (losing_line(board) is not None)


# ----------------------------------------------------------------------------- values


@pytest.mark.parametrize("adjacency", VARIANTS)
def test_start_is_a_draw(adjacency: Adjacency, tables: dict[Adjacency, MorrisTable]) -> None:
    table = tables[adjacency]
    assert table.state_value(GAME.new_state(MorrisConfig(adjacency))) == Value(Result.DRAW)
    start = table.index(("",) * 7, 0)
    assert bool(table.reachable[start])


@pytest.mark.parametrize("adjacency", VARIANTS)
def test_table_follows_from_the_rules_everywhere(
    adjacency: Adjacency, tables: dict[Adjacency, MorrisTable]
) -> None:
    assert len(solver.inconsistent_positions(tables[adjacency])) == 0


def test_consistency_check_catches_a_wrong_value(tables: dict[Adjacency, MorrisTable]) -> None:
    table = tables[Adjacency.COMPLETE]
    state = GAME.parse_position("C/-/tc/-/-/-/T b", MorrisConfig(Adjacency.COMPLETE))
    index = table.index(state.board, state.to_move)
    broken = MorrisTable(
        table.adjacency, table.results.copy(), table.distances.copy(), table.reachable
    )
    broken.results[index] = 1 if table.results[index] != 1 else -1
    broken.distances[index] = 3
    assert index in solver.inconsistent_positions(broken)


@pytest.mark.parametrize("adjacency", VARIANTS)
def test_sampled_values_follow_from_engine_moves(
    adjacency: Adjacency, tables: dict[Adjacency, MorrisTable]
) -> None:
    """Recompute sampled values one ply deep with the engine's own moves and outcomes."""
    table = tables[adjacency]
    for state in sample_states(adjacency, 1500, seed=21):
        value = table.state_value(state)
        end = terminal_value(state)
        if end is not None:
            assert value == end, format_key(state.key)
            continue
        options = [table.state_value(child).for_mover() for child in children(state)]
        best = max(options, key=lambda option: option.rank)
        assert value == best, format_key(state.key)


def bounded_search(
    state: MorrisState, depth: int, memo: dict[object, Value | None]
) -> Value | None:
    """Plain negamax over the engine: the value if the game ends within ``depth`` plies."""
    key = (state.key, depth)
    if key in memo:
        return memo[key]
    result = terminal_value(state)
    if result is None and depth > 0:
        values = [bounded_search(child, depth - 1, memo) for child in children(state)]
        wins = [v.distance for v in values if v is not None and v.result is Result.LOSS]
        if wins:
            result = Value(Result.WIN, min(d or 0 for d in wins) + 1)
        elif all(v is not None and v.result is Result.WIN for v in values):
            result = Value(Result.LOSS, max((v.distance or 0) for v in values if v) + 1)
    memo[key] = result
    return result


@pytest.mark.parametrize(
    ("adjacency", "depth"), [(Adjacency.GEOMETRIC, 5), (Adjacency.COMPLETE, 4)]
)
def test_bounded_search_agrees_on_sampled_positions(
    adjacency: Adjacency, depth: int, tables: dict[Adjacency, MorrisTable]
) -> None:
    table = tables[adjacency]
    memo: dict[object, Value | None] = {}
    checked_short = 0
    for state in sample_states(adjacency, 400, seed=31):
        value = table.state_value(state)
        short = value.result is not Result.DRAW and (value.distance or 0) <= depth
        if not short and len(memo) > 30000:
            continue
        searched = bounded_search(state, depth, memo)
        if short:
            checked_short += 1
            assert searched == value, format_key(state.key)
        else:
            assert searched is None, format_key(state.key)
    assert checked_short > 100


@cache
def closure(position: str, adjacency: Adjacency) -> dict[tuple[tuple[str, ...], int], MorrisState]:
    start = GAME.parse_position(position, MorrisConfig(adjacency))
    seen = {start.key: start}
    todo = [start]
    while todo and len(seen) < 5000:
        state = todo.pop()
        if GAME.outcome(state) is None:
            for child in children(state):
                if child.key not in seen:
                    seen[child.key] = child
                    todo.append(child)
    return seen


def solve_by_iteration(
    states: dict[tuple[tuple[str, ...], int], MorrisState],
) -> dict[object, Value]:
    """An independent solver: iterate one-ply backups to a fixed point over a closed set."""
    values: dict[object, Value] = {}
    for key, state in states.items():
        end = terminal_value(state)
        values[key] = end if end is not None else Value(Result.DRAW)
    links = {key: [child.key for child in children(state)] for key, state in states.items()}
    changed = True
    while changed:
        changed = False
        for key, state in states.items():
            if GAME.outcome(state) is not None:
                continue
            options = [values[child].for_mover() for child in links[key]]
            best = max(options, key=lambda option: option.rank)
            if best.result is Result.DRAW:
                continue  # a draw stays a draw until a child resolves
            if values[key] != best:
                values[key] = best
                changed = True
    return values


@pytest.mark.parametrize(
    ("position", "adjacency"),
    [
        ("-/tC/-/c/T/tC/- b", Adjacency.GEOMETRIC),
        ("T/Ct/c/-/-/c/C b", Adjacency.GEOMETRIC),
    ],
)
def test_small_sub_spaces_agree_exactly(
    position: str, adjacency: Adjacency, tables: dict[Adjacency, MorrisTable]
) -> None:
    states = closure(position, adjacency)
    # Most positions reach a million others; these two are closed off by forced losing lines.
    assert 30 < len(states) < 5000
    expected = solve_by_iteration(states)
    table = tables[adjacency]
    for key, state in states.items():
        assert table.state_value(state) == expected[key], format_key(key)


def test_reachable_positions_match_an_engine_search(
    tables: dict[Adjacency, MorrisTable], spaces: dict[Adjacency, solver.PositionSpace]
) -> None:
    table = tables[Adjacency.GEOMETRIC]
    start = GAME.new_state(MorrisConfig())
    level = {start.key: start}
    codes = solver.legal_codes()
    digits = spaces[Adjacency.GEOMETRIC].digits
    pieces = (digits > 0).sum(axis=0) + (digits > len(PIECES)).sum(axis=0)
    for placed in range(5):
        found = {
            format_key(solver.decode(int(code)))
            for code in codes[(pieces == placed) & table.reachable]
        }
        assert found == {format_key(key) for key in level}
        level = {
            child.key: child
            for state in level.values()
            if GAME.outcome(state) is None
            for child in children(state)
        }


def test_principal_line_replays_to_the_promised_result(
    tables: dict[Adjacency, MorrisTable],
) -> None:
    table = tables[Adjacency.GEOMETRIC]
    checked = 0
    for state in sample_states(Adjacency.GEOMETRIC, 200, seed=41):
        value = table.state_value(state)
        if value.result is Result.DRAW or GAME.outcome(state) is not None:
            continue
        line = solver.principal_line(table, state)
        assert len(line) == value.distance
        end = state
        for action in line:
            end = GAME.apply(end, action)
        outcome = GAME.outcome(end)
        assert outcome is not None
        winner = state.to_move if value.result is Result.WIN else 1 - state.to_move
        assert outcome.returns[winner] > 0
        checked += 1
    assert checked > 50


def test_issue_example_position(tables: dict[Adjacency, MorrisTable]) -> None:
    state = GAME.parse_position("C/-/tc/-/-/-/T b")
    table = tables[Adjacency.GEOMETRIC]
    assert table.state_value(state) == Value(Result.DRAW)
    assert not bool(table.reachable[table.index(state.board, state.to_move)])
    best = {str(action) for action in solver.best_actions(table, state)}
    assert best == {"C2", "C4", "C5", "C6"}
    ranked = {str(action): value for action, value in solver.rank_actions(table, state)}
    assert ranked["C7"] == Value(Result.LOSS, 1)  # c on 7 completes the median 1-7-3 of circles


def test_a_repeating_move_counts_as_a_draw(tables: dict[Adjacency, MorrisTable]) -> None:
    table = tables[Adjacency.GEOMETRIC]
    codes = solver.legal_codes()
    rng = random.Random(5)
    while True:
        board, side = solver.decode(int(codes[rng.randrange(len(codes))]))
        state = MorrisState(MorrisConfig(), board, side)
        value = table.state_value(state)
        if not state.is_placement and value.result is Result.WIN and (value.distance or 0) > 2:
            break
    best = solver.best_actions(table, state)[0]
    after = bare(GAME.apply_legal(state, best))
    assert solver.action_value(table, state, best).result is Result.WIN
    repeated = MorrisState(state.config, state.board, side, frozenset({after.key}))
    assert solver.action_value(table, repeated, best) == Value(Result.DRAW)


# ----------------------------------------------------------------------------- cache


def test_cache_round_trip(tables: dict[Adjacency, MorrisTable], tmp_path: Path) -> None:
    table = tables[Adjacency.COMPLETE]
    path = tmp_path / "table.npz"
    solver.save_table(table, path)
    loaded = solver.read_table(path, Adjacency.COMPLETE)
    assert np.array_equal(loaded.results, table.results)
    assert np.array_equal(loaded.distances, table.distances)
    assert np.array_equal(loaded.reachable, table.reachable)
    with pytest.raises(solver.CacheError, match="complete variant"):
        solver.read_table(path, Adjacency.GEOMETRIC)


@pytest.mark.parametrize("damage", ["truncate", "garbage", "flip", "missing"])
def test_damaged_cache_is_rejected(
    damage: str, tables: dict[Adjacency, MorrisTable], tmp_path: Path
) -> None:
    path = tmp_path / "table.npz"
    solver.save_table(tables[Adjacency.GEOMETRIC], path)
    data = path.read_bytes()
    if damage == "truncate":
        path.write_bytes(data[: len(data) // 2])
    elif damage == "garbage":
        path.write_bytes(b"not a table")
    elif damage == "flip":
        # One result changed, the header (with its checksum) kept.
        with np.load(path) as archive:
            arrays = dict(archive)
        arrays["results"][0] = 0 if arrays["results"][0] else 1
        with path.open("wb") as handle:
            np.savez(handle, **arrays)
    else:
        path.unlink()
    with pytest.raises(solver.CacheError):
        solver.read_table(path, Adjacency.GEOMETRIC)


def test_load_rebuilds_a_corrupt_cache_with_a_message(
    tables: dict[Adjacency, MorrisTable], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    built: list[Adjacency] = []

    def fake_build(adjacency: Adjacency, progress: solver.ProgressFn = print) -> MorrisTable:
        built.append(adjacency)
        return tables[adjacency]

    monkeypatch.setattr(solver, "build_table", fake_build)
    monkeypatch.setattr(solver, "PACKAGED_DIR", tmp_path / "none")  # no packaged table
    path = solver.cache_path(Adjacency.GEOMETRIC, tmp_path)
    path.write_bytes(b"\x00" * 100)
    messages: list[str] = []
    table = solver.load_table(Adjacency.GEOMETRIC, cache_dir=tmp_path, message=messages.append)
    assert built == [Adjacency.GEOMETRIC]
    assert table is tables[Adjacency.GEOMETRIC]
    assert messages
    assert "rebuilding" in messages[0]
    # The rebuilt table was written back and now loads without building.
    solver.forget_loaded_tables()
    again = solver.load_table(Adjacency.GEOMETRIC, cache_dir=tmp_path, message=messages.append)
    assert built == [Adjacency.GEOMETRIC]
    assert np.array_equal(again.results, table.results)


def test_cache_directory_follows_the_environment(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv(solver.CACHE_ENV, str(tmp_path / "mine"))
    assert solver.default_cache_dir() == tmp_path / "mine"
    monkeypatch.delenv(solver.CACHE_ENV)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert solver.default_cache_dir() == tmp_path / "xdg" / "fanfold"
    assert solver.cache_path(Adjacency.COMPLETE, tmp_path).name == (
        f"morris-complete-v{solver.FORMAT_VERSION}.npz"
    )
