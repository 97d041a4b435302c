"""The engine contract (games/engines/base.py, docs/engines.md), checked on every game the site
registers (games/specs.py): a fourth game gets every test here for free.

Random playouts run each game to its end; at every step the state must survive a JSON round
trip, accept every legal action of every seat, refuse a sample of illegal ones with a code and
no trace, and show no seat a card that the engine itself declares hidden from it.
"""
import ast
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from games import specs
from games.engines.base import IllegalAction, InvalidOptions, InvalidState, is_int
from games.engines.contract import ENGINES, SESSION_STATES
from games.rooms import registry

REPO = Path(__file__).resolve().parents[2]
GAMES = specs.names()
MAX_STEPS = 5_000  # every game here ends long before: more means a game that never ends

# Actions no game of this site accepts, whatever its state: wrong JSON types, no type, an
# unknown type. Each must be refused with a code.
MALFORMED = [None, [], "flip", 7, {}, {"type": None}, {"type": 7}, {"type": "nonsense"},
             {"type": ["flip"]}]
# Values that are out of range for any field of an action (positions, cards, sources).
OUT_OF_RANGE = [None, -1, 10**9, "", "Z99", "ZZ", 1.5, True, [], {}]
NOT_SEATS = [-1, 99, True, "0", 0.0, [0]]


def seat_counts(game):
    """The fewest and the most players of the game, as its GameSpec says."""
    spec = registry.spec(game)
    return sorted({spec.fewest_players, spec.players.maximum})


def copy_of(engine, state):
    return engine.State.from_json(json.loads(json.dumps(state.to_json())))


def seats_of(state):
    return [None, *range(state.players)]


def part(value):
    """A card as ``parts_of`` lists it: a string as it is, an object as canonical JSON text."""
    return value if isinstance(value, str) else ("object", json.dumps(value, sort_keys=True))


def parts_of(value, skipped_keys, out=None):
    """Every string, key and flat object (one whose values are no lists or objects, like a card
    shown as an object) inside a JSON value, except what lies under ``skipped_keys``."""
    out = set() if out is None else out
    if isinstance(value, dict):
        if not any(isinstance(inner, (dict, list)) for inner in value.values()):
            out.add(part(value))
        for key, inner in value.items():
            out.add(key)
            if key not in skipped_keys:
                parts_of(inner, skipped_keys, out)
    elif isinstance(value, list):
        for inner in value:
            parts_of(inner, skipped_keys, out)
    elif isinstance(value, str):
        out.add(value)
    return out


def refused(state, seat, action):
    """Applies an action that must be refused with a code of its own; returns the code."""
    with pytest.raises(IllegalAction) as error:
        state.apply(seat, action)
    assert isinstance(error.value.code, str) and error.value.code not in ("illegal_action", "game_error")
    return error.value.code


def choices(state):
    """What may happen next: (seat, action) pairs, and (None, None) for the automatic step."""
    moves = [(seat, action) for seat in range(state.players) for action in state.legal_actions(seat)]
    if state.pending_automatic():
        moves.append((None, None))
    return moves


def playout(game, players, seed):
    """States from the deal to the end of a game, each with the step chosen next.

    Half the steps are the game's own CPU's choice (so that games end, as Gin Rummy's race to
    100 would not by chance alone); the others are random: first a kind of step at random,
    then one of that kind, so that rare actions (a knock among ten discards) are played too.
    """
    engine = registry.engine(game)
    options = engine.parse_options({"players": players}).to_json()
    state = engine.new_game(options, seed)
    rng = random.Random(seed)
    cpus = [registry.cpu_module(game).make_cpu(registry.spec(game).cpu_default, seat, seed, options)
            for seat in range(players)]
    for _ in range(MAX_STEPS):
        for seat, cpu in enumerate(cpus):
            cpu.observe(state.view(seat))
        moves = choices(state)
        if state.is_over:
            assert moves == [], "a finished game offers nothing to do"
            yield state, None
            return
        assert moves, "a game that is not over must let someone (or something) move it on"
        seat = state.current_player
        if seat is not None and rng.random() < 0.5:
            choice = (seat, cpus[seat].choose(state.view(seat)))
        else:
            kinds = sorted({action["type"] if action else "" for _, action in moves})
            kind = rng.choice(kinds)
            choice = rng.choice([(s, a) for s, a in moves if (a["type"] if a else "") == kind])
        yield state, choice
        seat, action = choice
        if action is None:
            state.apply_automatic()
        else:
            state.apply(seat, action)
    raise AssertionError(f"no end after {MAX_STEPS} steps")


CASES = [(game, players, seed) for game in GAMES for players in seat_counts(game)
         for seed in (1, 20261130)]


def test_it_types_every_game_the_site_offers():
    # contract.py is what mypy checks against the contract: a game missing there is unchecked.
    assert sorted(ENGINES) == sorted(GAMES)
    for game in GAMES:
        assert ENGINES[game] is registry.engine(game) and ENGINES[game].GAME == game
    # Likewise the states typed with the session hook: every game whose spec keeps a session.
    assert sorted(SESSION_STATES) == sorted(game for game in GAMES if registry.spec(game).session)
    for game, state_class in SESSION_STATES.items():
        assert state_class is registry.engine(game).State


@pytest.mark.parametrize("game, players, seed", CASES)
def test_it_plays_random_games_to_the_end_keeping_the_contract(game, players, seed):
    engine = registry.engine(game)
    other_games = [action for other in GAMES if other != game
                   for action in sample_actions(registry.engine(other))]
    steps = 0
    for state, choice in playout(game, players, seed):
        steps += 1
        assert state.players == players and state.moves >= 0
        # The JSON round trip and copy() are exact: same JSON, same views.
        for again in (copy_of(engine, state), state.copy()):
            assert again is not state and again.to_json() == state.to_json()
            assert all(again.view(seat) == state.view(seat) for seat in seats_of(state))
        if steps == 1:
            # The deal hides cards from everyone, so the view checks below can fail.
            assert all(state.hidden_cards(seat) for seat in seats_of(state))
        check_views(engine, state)
        check_every_legal_action_is_accepted(engine, state)
        check_illegal_actions_are_refused(state, other_games)
        if steps == 1 or choice is None:
            check_the_session_tally(game, state)
        if choice is None:
            check_the_end(engine, state)
    assert steps > 1


def check_views(engine, state):
    for seat in seats_of(state):
        view = state.view(seat)
        assert json.loads(json.dumps(view)) == view, "a view is plain JSON"
        assert view["game"] == engine.GAME and view["seat"] == seat
        assert view["players"] == state.players and view["is_over"] == state.is_over
        assert view["current_player"] == state.current_player
        assert view["legal_actions"] == state.legal_actions(seat)
        assert view["scores"] == state.scores()
        shown = parts_of(view, engine.EARLIER_DEALS)
        leaked = [card for card in state.hidden_cards(seat) if part(card) in shown]
        assert not leaked, f"seat {seat} is shown hidden cards {leaked}"
    for bad in NOT_SEATS:
        with pytest.raises(IllegalAction) as error:
            state.view(bad)
        assert error.value.code == "bad_seat"


def check_every_legal_action_is_accepted(engine, state):
    """Each legal action changes the state, played on a state read from JSON and on a
    ``copy()`` alike; neither trial touches the stored data or the state copied."""
    # One stored copy serves every trial: from_json must not share its lists with the data.
    data = json.loads(json.dumps(state.to_json()))
    before = state.to_json()
    for seat in seats_of(state):
        for action in state.legal_actions(seat):
            trial, copied = engine.State.from_json(data), state.copy()
            trial.apply(seat, action)
            copied.apply(seat, action)
            assert trial.to_json() != before, (seat, action)
            assert copied.to_json() == trial.to_json(), (seat, action)
            assert all(copied.view(s) == trial.view(s) for s in seats_of(state))
    if state.pending_automatic():
        trial, copied = copy_of(engine, state), state.copy()
        trial.apply_automatic()
        copied.apply_automatic()
        assert trial.to_json() != before and copied.to_json() == trial.to_json()
    else:
        with pytest.raises(IllegalAction) as error:
            state.apply_automatic()
        assert error.value.code == "no_automatic_step"
    assert state.to_json() == before


def check_illegal_actions_are_refused(state, other_games):
    """Refuses them all without a trace (the JSON holds everything a state is; compared once
    after all of them, as any trace would remain)."""
    before = state.to_json()
    legal = {seat: state.legal_actions(seat) for seat in seats_of(state)}
    some_action = next((action for actions in legal.values() for action in actions), {"type": "flip"})
    for action in MALFORMED:
        refused(state, state.current_player, action)
    for seat in [*NOT_SEATS, None]:
        refused(state, seat, some_action)
    for seat in range(state.players):
        # Another seat's action, out of turn.
        for action in [a for actions in legal.values() for a in actions if a not in legal[seat]][:3]:
            refused(state, seat, action)
        # Each field of a legal action set out of range, or a field too many.
        for action in legal[seat][:3]:
            variants = [{**action, "extra": 1}]
            variants += [{**action, key: bad} for key in action if key != "type" for bad in OUT_OF_RANGE]
            for variant in variants:
                if variant not in legal[seat]:
                    refused(state, seat, variant)
        for action in other_games:
            if action not in legal[seat]:
                refused(state, seat, action)
    assert state.to_json() == before


def check_the_end(engine, state):
    result = state.result()
    assert json.loads(json.dumps(result)) == result
    assert result["scores"] == state.scores() and len(result["scores"]) == state.players
    ranked = [seat for group in result["ranking"] for seat in group]
    assert sorted(ranked) == list(range(state.players))
    assert result["winners"] == result["ranking"][0]
    assert result["draw"] == (len(result["winners"]) > 1)
    assert state.current_player is None and state.pending_automatic() is None
    for seat in range(state.players):
        assert refused(state, seat, some_action_of(engine)) == "game_over"


def check_the_session_tally(game, state):
    """A game whose spec keeps a session tells the room what a game adds to it, at its end or cut
    short by a resignation (here after its first step): per seat its points, and of them what it
    won against each other seat (nothing against itself). Asking changes nothing."""
    if registry.spec(game).session is None:
        return
    before = state.to_json()
    tally = state.session_tally()
    assert json.loads(json.dumps(tally)) == tally and set(tally) == {"points", "against"}
    points, against = tally["points"], tally["against"]
    assert len(points) == len(against) == state.players
    for seat in range(state.players):
        assert is_int(points[seat]) and points[seat] >= 0 and len(against[seat]) == state.players
        assert against[seat][seat] == 0
        assert all(is_int(won) and 0 <= won <= points[seat] for won in against[seat])
    assert state.to_json() == before


def some_action_of(engine):
    return sample_actions(engine)[0]


def sample_actions(engine):
    """A few actions of a game, as its first legal actions after the deal."""
    state = engine.new_game(None, 5)
    return [action for seat in range(state.players) for action in state.legal_actions(seat)][:4]


@pytest.mark.parametrize("game", GAMES)
def test_it_deals_the_same_game_from_the_same_seed_and_refuses_bad_seeds(game):
    engine = registry.engine(game)
    assert engine.new_game(None, 42).to_json() == engine.new_game(None, 42).to_json()
    assert any(engine.new_game(None, 42).to_json() != engine.new_game(None, seed).to_json()
               for seed in range(43, 53))
    for seed in ("42", 4.2, True, None):
        with pytest.raises(InvalidOptions):
            engine.new_game(None, seed)


@pytest.mark.parametrize("game", GAMES)
def test_it_refuses_options_that_are_not_options(game):
    engine = registry.engine(game)
    assert engine.parse_options(None).to_json() == engine.parse_options(engine.parse_options(None).to_json()).to_json()
    for raw in ("players=2", [], {"no such option": 1}, {"players": 0}, {"players": True}, {"players": 2.0}):
        with pytest.raises(InvalidOptions):
            engine.parse_options(raw)


@pytest.mark.parametrize("game", GAMES)
def test_it_refuses_a_stored_state_that_is_not_one(game):
    engine = registry.engine(game)
    state = engine.new_game(None, 3)
    for seat, action in choices(state)[:1]:
        state.apply(seat, action)
    data = state.to_json()
    broken = [None, [], {}, {**data, "unknown field": 1}]
    broken += [{k: v for k, v in data.items() if k != key} for key in data]
    broken += [registry.engine(other).new_game(None, 3).to_json() for other in GAMES if other != game]
    for bad in broken:
        with pytest.raises(InvalidState) as error:
            engine.State.from_json(bad)
        assert error.value.code == "invalid_state"


@pytest.mark.parametrize("game", GAMES)
def test_it_keeps_engines_and_cpus_free_of_django(game):
    # Engines and CPUs are pure Python: they run in the simulator, in a worker or in a test
    # without a configured Django, so neither may pull it in.
    spec = registry.spec(game)
    simulator = f"games.sim.{game}" if (REPO / "games" / "sim" / f"{game}.py").exists() else "games.sim.common"
    code = (f"import sys, {spec.engine}, {spec.cpu}, {simulator}; "
            "print(sorted(m for m in sys.modules if m == 'django' or m.startswith('django.')))")
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "[]"


@pytest.mark.parametrize("game", GAMES)
def test_it_never_lets_a_cpu_see_a_state(game):
    # A CPU learns the game only from its seat's view, like a person: its module never names
    # what makes or holds a whole state.
    source = Path(registry.cpu_module(game).__file__).read_text()
    names = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Name):
            names.add(node.id)
        elif isinstance(node, ast.Attribute):
            names.add(node.attr)
        elif isinstance(node, ast.alias):
            names.add(node.name.rsplit(".", 1)[-1])
    assert not names & {"State", "new_game", "from_json", "hidden_cards"}
    # And a CPU fed only its views (as JSON text, so nothing but data) plays legal actions.
    engine, cpu_module = registry.engine(game), registry.cpu_module(game)
    state = engine.new_game(None, 8)
    cpus = [cpu_module.make_cpu(registry.spec(game).cpu_default, seat, seat, None)
            for seat in range(state.players)]
    for _ in range(60):
        if state.is_over:
            break
        views = [json.loads(json.dumps(state.view(seat))) for seat in range(state.players)]
        for cpu, view in zip(cpus, views, strict=True):
            cpu.observe(view)
        if state.pending_automatic():
            state.apply_automatic()
            continue
        seat = state.current_player
        action = cpus[seat].choose(views[seat])
        assert action in state.legal_actions(seat)
        state.apply(seat, action)
