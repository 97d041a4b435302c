"""Every mode of every game, played to the end by real WebSocket clients against live Daphne:
the embedded default, and two Daphne processes sharing PostgreSQL + Redis with the players
spread over both processes."""
import json

import pytest

from tests.rooms.helpers import close_all, connect, create_room, options, play_to_end

CASES = [
    ("memory", "cpu", {}), ("memory", "local", {}), ("memory", "solo", {}),
    ("memory", "friends", {}),
    ("bozu", "cpu", {"players": 3}), ("bozu", "local", {}), ("bozu", "friends", {"players": 3}),
    ("gin", "cpu", {}), ("gin", "friends", {}),
]


def finished_games(site, game, mode, more_than: int = -1) -> list[list[str]]:
    """The holders of every finished game of this game and mode (the operators' copies have
    random keys, so no row is "the latest"; other tests on the same site finish games too),
    once there are ``more_than`` (the servers write them at their next flush)."""
    rows = site.query_until(lambda rows: len(rows) > more_than,
                            "SELECT seats FROM games_finishedgame WHERE game = %s AND mode = %s", (game, mode))
    return [[seat["holder"] for seat in (seats if not isinstance(seats, str) else json.loads(seats))]
            for (seats,) in rows]


@pytest.mark.parametrize("game, mode, extra", CASES, ids=[f"{g}-{m}" for g, m, _ in CASES])
async def test_it_plays_to_the_end(site, game, mode, extra):
    before = finished_games(site, game, mode)
    created = create_room(site.url_for(0), game, mode, options(game, **extra))
    creator = await connect(site.url_for(0), created["room_id"], created["seat_token"])
    spectator = await connect(site.url_for(1), created["room_id"])
    players = [creator]
    if mode == "friends":
        seats = len(creator.state["room"]["seats"])
        for i in range(1, seats):
            joiner = await connect(site.url_for(i), created["room_id"])
            joined = await joiner.request("join")
            assert joiner.token and joined["room"]["you"] == {"role": "player", "seats": [i]}
            players.append(joiner)
        # The room started by itself when the last free seat was taken.
        await creator.wait_for(lambda s: s["room"]["status"] == "playing", 10)
    try:
        finals = await play_to_end(players, [spectator])
    finally:
        await close_all(*players, spectator)
    for final in finals:
        room = final["room"]
        assert room["status"] == "finished"
        assert room["result"]["ranking"] and final["view"]["is_over"] is True
    assert spectator.state["room"]["you"] == {"role": "spectator", "seats": []}
    assert spectator.state["room"]["status"] == "finished"
    expected_seats = {"local": "human", "solo": "human", "friends": "human"}.get(mode)
    # This game is the one row more, and its holders are the mode's.
    after = finished_games(site, game, mode, more_than=len(before))
    assert len(after) == len(before) + 1
    seats = len(finals[0]["room"]["seats"])
    holders = ["human"] * seats if expected_seats else ["human"] + ["cpu"] * (seats - 1)
    assert after.count(holders) == before.count(holders) + 1
