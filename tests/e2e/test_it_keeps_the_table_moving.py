"""A friends room's pace over real WebSockets (issue 38, docs/protocol.md "Pace"): a connected
player who stops playing has the CPU play their turn at the deadline, takes the seat back by
playing, and after three turns played for them in a row finds the seat held by the CPU and takes
it back; the other player sees the same clock and the same events. A relaxed room's
``let_cpu_play`` is refused before the (scaled) two minutes of silence and accepted after. The
deadline survives a SIGKILL: the restarted server plays the timed-out turn, once.

``PACE_SCALE`` shortens every pace as an operator would: 0.2 makes Bozu's normal 15 s per turn
3 s (time enough for the test's own player on a busy machine) and a relaxed room's 120 s 24 s.
"""
from __future__ import annotations

import json
import time

import pytest

from tests.e2e.conftest import make_site, two_process_backends
from tests.live import get_json
from tests.rooms.helpers import ProtocolError, close_all, connect, create_room, expect_error, options

SCALE = 0.2
BOZU_NORMAL = 15 * SCALE
RELAXED_WAIT = 120 * SCALE


@pytest.fixture(scope="module", params=two_process_backends())
def paced_site(request, tmp_path_factory):
    made, cleanup = make_site(request.param, tmp_path_factory.mktemp(f"paced-{request.param}"),
                              PACE_SCALE=str(SCALE))
    try:
        yield made
    finally:
        cleanup()


async def bozu_for_two(site, pace):
    """Red (seat 0, to play first in Bozu) and Green, both connected, the game started."""
    created = create_room(site.url_for(0), "bozu", "friends", options("bozu"), pace=pace)
    red = await connect(site.url_for(0), created["room_id"], created["seat_token"])
    green = await connect(site.url_for(1), created["room_id"])
    await green.request("join")  # the last free seat: the game starts
    for conn in (red, green):
        await conn.wait_for(lambda s: s["room"]["status"] == "playing", 5)
    return created, red, green


def seat(state, i):
    return state["room"]["seats"][i]


def cpu_played_for(state, i):
    event = state["event"] or {}
    return event.get("type") == "action" and event.get("seat") == i and event.get("by") == "cpu"


async def flip_when_to_play(conn, i):
    """Plays seat ``i``'s flip as soon as it is its turn (well inside its clock)."""
    await conn.wait_for(lambda s: s["view"]["current_player"] == i and seat(s, i)["presence"] != "cpu", 10)
    return await conn.request("action", action={"type": "flip"})


async def test_it_plays_a_silent_players_turn_then_takes_the_seat_over(paced_site):
    site = paced_site
    created, red, green = await bozu_for_two(site, "normal")
    assert red.state["room"]["pace"] == green.state["room"]["pace"] == "normal"
    # Red is to play: both screens show the same deadline, and only Red's seat has one.
    clock = seat(red.state, 0)
    assert seat(green.state, 0)["due"] == clock["due"] and clock["turn_seconds"] == pytest.approx(BOZU_NORMAL)
    assert 0 < clock["seconds_left"] <= BOZU_NORMAL
    assert "due" not in seat(red.state, 1) and "seconds_left" not in seat(red.state, 1)
    assert abs(clock["due"] / 1000 - (time.time() + clock["seconds_left"])) < 1.0

    # Red does nothing: at the deadline the CPU flips for Red, and both players see it so.
    for conn in (red, green):
        played = await conn.wait_for(lambda s: cpu_played_for(s, 0), 10)
        assert seat(played, 0)["timeouts"] == 1 and seat(played, 0)["presence"] == "connected"
        assert "due" not in seat(played, 0) and "due" in seat(played, 1)
    # Red plays its next turn itself: the seat is its own again, the count starts again.
    await flip_when_to_play(green, 1)
    answer = await flip_when_to_play(red, 0)
    assert answer["event"]["by"] == "human" and "timeouts" not in seat(answer, 0)

    # Three turns in a row played for Red: the seat passes to the CPU, as after a disconnection.
    for in_a_row in (1, 2, 3):
        await flip_when_to_play(green, 1)
        played = await green.wait_for(lambda s: cpu_played_for(s, 0), 10)
        assert seat(played, 0)["timeouts"] == in_a_row
    taken = await red.wait_for(lambda s: seat(s, 0)["presence"] == "cpu", 5)
    assert seat(taken, 0)["holder"] == "human" and "due" not in seat(taken, 0)
    assert taken["room"]["allowed"].get("take_seat") == [0]
    await expect_error(red, "action", "not_a_player", action={"type": "flip"})
    # One tap takes it back (the same take_seat a spectator sends; Red keeps its token).
    answer = await red.request("take_seat", seat=0)
    assert answer["room"]["you"] == {"role": "player", "seats": [0]}
    assert seat(answer, 0)["presence"] == "connected" and "timeouts" not in seat(answer, 0)
    assert [m["token"] for m in red.messages if m.get("type") == "joined"] == [created["seat_token"]]
    await green.wait_for(lambda s: seat(s, 0)["presence"] == "connected", 5)

    # What Green was told matches: every turn played for Red is an event with seat 0, by cpu.
    events = [m["event"] for m in green.messages if m.get("type") == "state" and m.get("event")]
    assert sum(1 for e in events if e.get("type") == "action" and e.get("seat") == 0 and e["by"] == "cpu") >= 4
    await close_all(red, green)


def test_it_refuses_a_pace_it_does_not_offer(paced_site):
    for mode, pace in (("friends", "slow"), ("cpu", "quick")):
        with pytest.raises(ProtocolError) as refused:
            create_room(paced_site.url, "bozu", mode, options("bozu"), pace=pace)
        assert refused.value.code == "invalid_pace"
    made = create_room(paced_site.url, "bozu", "cpu", options("bozu"))
    assert get_json(f"{paced_site.url}/api/rooms/{made['room_id']}")["body"]["pace"] == "relaxed"


async def test_it_lets_the_others_ask_the_cpu_to_play_after_two_minutes(paced_site):
    site = paced_site
    created, red, green = await bozu_for_two(site, "relaxed")
    started = time.monotonic()
    assert red.state["room"]["pace"] == "relaxed" and "due" not in seat(red.state, 0)
    # Too soon: refused, and nothing changes.
    assert "let_cpu_play" not in green.state["room"]["allowed"]
    version = green.state["version"]
    error = await expect_error(green, "let_cpu_play", "not_allowed")
    assert "2 minutes" in error["message"] and error["version"] == version
    # Red may not ask for its own turn, then or later.
    await expect_error(red, "let_cpu_play", "not_allowed")
    # After the (scaled) two minutes every other player is told it may.
    offered = await green.wait_for(lambda s: s["room"]["allowed"].get("let_cpu_play") is True, RELAXED_WAIT + 10)
    assert time.monotonic() - started >= RELAXED_WAIT - 0.5
    assert "let_cpu_play" not in red.state["room"]["allowed"]
    assert offered["view"]["current_player"] == 0
    answer = await green.request("let_cpu_play")
    assert cpu_played_for(answer, 0) and seat(answer, 0)["timeouts"] == 1
    await red.wait_for(lambda s: cpu_played_for(s, 0), 5)
    # It plays that one turn: Green is to play now, and may not ask again.
    assert answer["view"]["current_player"] == 1
    assert "let_cpu_play" not in answer["room"]["allowed"]
    await close_all(red, green)


@pytest.mark.parametrize("private_site", [{"PACE_SCALE": "0.2"}], indirect=True)
async def test_the_deadline_survives_a_restart(private_site):
    site = private_site
    created, red, green = await bozu_for_two(site, "normal")
    room_id, started = created["room_id"], red.state["version"]
    due = seat(red.state, 0)["due"] / 1000
    # A crash while Red thinks; the server is back only after Red's deadline passed.
    site.servers[0].kill()
    await close_all(red, green)
    time.sleep(max(0.0, due - time.time()) + 0.2)
    site.restart(kill=True)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        if get_json(f"{site.url}/api/rooms/{room_id}")["body"]["version"] > started:
            break
        time.sleep(0.05)
    rows = site.query("SELECT version, event FROM games_roomevent WHERE room_id = %s AND version > %s "
                      "ORDER BY version", (room_id, started))
    events = [json.loads(e) if isinstance(e, str) else e for _v, e in rows]
    # The timed-out turn was played for Red, once: the next turn is Green's (or its presence).
    assert events and events[0]["type"] == "action" and events[0]["seat"] == 0 and events[0]["by"] == "cpu"
    later = [e for e in events[1:] if e["type"] == "action"]
    assert not later or later[0]["seat"] == 1
