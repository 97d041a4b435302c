"""Hundreds of seeded games over real WebSockets; every message every seat and spectator received
is checked against what that seat may know at that version (the state rebuilt from the room's
seed and its public events): no face-down Memory card, no card of the Bozu deck, no card of the
Gin stock or of the opponent's hand (but what it took from the discard pile)."""
import asyncio
import copy
import importlib
import json
import random

import pytest

from games.models import Room
from games.rooms import cache, state_messages
from games.rooms.seats import Seat
from tests.rooms.helpers import HIDDEN, close_all, connect, create_room, options, play_to_end, scan_messages, strings_in

GAMES_PER_KIND = 8  # over the wire; the in-process scan below covers hundreds more
CONCURRENT = 8
KINDS = [("memory", "cpu", {}), ("bozu", "cpu", {"players": 3}), ("gin", "cpu", {}),
         ("gin", "friends", {})]


async def one_game(site, game, mode, extra, i):
    created = create_room(site.url_for(i), game, mode, options(game, **extra))
    room_id = created["room_id"]
    creator = await connect(site.url_for(i), room_id, created["seat_token"])
    spectator = await connect(site.url_for(i + 1), room_id)
    connections = {0: creator, None: spectator}
    players = [creator]
    if mode == "friends":
        other = await connect(site.url_for(i + 1), room_id)
        await other.request("join")
        connections[1] = other
        players.append(other)
    try:
        await play_to_end(players, [spectator])
    finally:
        await close_all(*connections.values())
    return room_id, connections


@pytest.mark.parametrize("game, mode, extra", KINDS, ids=[f"{g}-{m}" for g, m, _ in KINDS])
async def test_it_sends_no_hidden_card_to_anyone(embedded_site, game, mode, extra):
    semaphore = asyncio.Semaphore(CONCURRENT)

    async def limited(i):
        async with semaphore:
            return await one_game(embedded_site, game, mode, extra, i)

    games = await asyncio.gather(*(limited(i) for i in range(GAMES_PER_KIND)))
    checked = sum(scan_messages(embedded_site, room_id, conns) for room_id, conns in games)
    # Every game sent each connection at least one state per version it played through.
    assert checked > GAMES_PER_KIND * 2 * 10


def _canonical(value) -> str:
    return json.dumps(value, sort_keys=True)


def seeded_messages(game, opts, seed):
    """Plays one CPU-only game and yields, at every version, (state, seat, message) for every
    seat and a spectator, built by the very code the consumer sends with."""
    engine = importlib.import_module(f"games.engines.{game}")
    cpu = importlib.import_module(f"games.cpu.{game}")
    parsed = engine.parse_options(opts)
    state = engine.new_game(parsed, seed)
    players = state.players
    level = {"gin": "easy", "memory": "medium", "bozu": "easy"}[game]
    cpus = [cpu.make_cpu(level, s, seed + s, parsed.to_json()) for s in range(players)]
    seats = [Seat("human", "x").to_json() for _ in range(players)]
    event = {"type": "created"}
    for version in range(1, 5000):
        room = Room(id="r", game=game, mode="friends", status="finished" if state.is_over else "playing",
                    options=parsed.to_json(), cpu_level=level, seed=seed, version=version,
                    state=state.to_json(), seats=copy.deepcopy(seats), cpus={})
        snap = cache.Entry(room, {}, event)
        for seat in [*range(players), None]:
            text = state_messages.state_text(snap, [] if seat is None else [seat])
            message = json.loads(text)
            # The text shares what the views have in common: it must say exactly this view.
            assert _canonical(message["view"]) == _canonical(state.view(seat))
            yield state, seat, message
        if state.is_over:
            return
        if state.pending_automatic():
            event = {"type": "automatic", "step": state.pending_automatic()}
            state.apply_automatic()
        else:
            seat = state.current_player
            for s in range(players):
                cpus[s].observe(state.view(s))
            action = cpus[seat].choose(state.view(seat))
            state.apply(seat, action)
            event = {"type": "action", "seat": seat, "by": "cpu", "action": action}
    raise AssertionError("the game did not end")


# (game, options, games): 390 seeded games in all; three players on 24 cards tie often, so the
# tie-break's games play rounds (and rounds tied again).
SEEDED = [("memory", {"players": 3, "cards": 24}, 100),
          ("memory", {"players": 3, "cards": 24, "tie_break": True}, 60),
          ("memory", {"players": 2, "cards": 40, "jokers": True}, 40),
          ("memory", {"players": 2, "cards": 52, "deck": "pictures", "long_table": True}, 30),
          ("bozu", {"players": 4}, 120), ("gin", {"target": 25}, 40)]


@pytest.mark.parametrize("game, opts, games", SEEDED, ids=[f"{g}-{len(o)}" for g, o, _ in SEEDED])
def test_it_builds_no_message_with_a_hidden_card_in_seeded_games(game, opts, games):
    rng = random.Random(f"scan-{game}")
    checked = 0
    for _ in range(games):
        seed = rng.getrandbits(63)
        for state, seat, message in seeded_messages(game, opts, seed):
            leaked = HIDDEN[game](state, seat) & strings_in(message)
            assert not leaked, f"seed {seed}: seat {seat} was sent hidden {sorted(leaked)[:5]}"
            checked += 1
    assert checked > 1000
