"""A server process SIGKILLed with a friends-room player connected through it: its connections
never say goodbye, so its heartbeat stopping is what tells the other (or restarted) process that
the seat is disconnected; the CPU takes the seat over after the (shortened) delay, and the
holder coming back with the token takes it back."""
import json

from tests.rooms.helpers import close_all, connect, create_room, options


def presence(state, seat):
    return state["room"]["seats"][seat]["presence"]


async def test_it_takes_over_the_seat_of_a_killed_servers_client(killable_site):
    site = killable_site
    two = len(site.servers) == 2
    created = create_room(site.url_for(0), "gin", "friends", options("gin"))
    room_id = created["room_id"]
    red = await connect(site.url_for(0), room_id, created["seat_token"])
    green = await connect(site.url_for(1), room_id)  # process 1, or the only process
    await green.request("join")
    token = green.token
    await red.wait_for(lambda s: s["room"]["status"] == "playing", 5)
    assert site.query("SELECT COUNT(*) FROM games_serverprocess")[0][0] == len(site.servers)

    if two:
        site.servers[1].kill()  # Green's process dies; Red's keeps running
    else:
        site.restart(0, kill=True)  # the only process dies and a new one starts
        await red.close()
        red = await connect(site.url_for(0), room_id, created["seat_token"])
    # With one process, Red's own connection died with it too: Red may have been swept (and
    # even taken over) before reconnecting, and is back in its seat either way.
    await red.wait_for(lambda s: presence(s, 1) == "cpu" and presence(s, 0) == "connected", 15)
    events = [json.loads(e) if isinstance(e, str) else e for (e,) in site.query(
        "SELECT event FROM games_roomevent WHERE room_id = %s ORDER BY version", (room_id,))]
    swept = [i for i, e in enumerate(events) if e.get("type") == "presence"
             and e.get("presence") == "disconnected" and 1 in e.get("seats", [])]
    took = [i for i, e in enumerate(events) if e == {"type": "takeover", "seat": 1}]
    assert len(swept) == 1 and len(took) == 1 and swept[0] < took[0], events
    if two:  # Red's process lived: only Green was swept
        assert events[swept[0]]["seats"] == [1], events
    # The dead process's row is gone; the live one(s) still beat.
    assert site.query("SELECT COUNT(*) FROM games_serverprocess")[0][0] == 1

    back = await connect(site.url_for(0), room_id, token, last_version=red.state["version"])
    assert back.state["room"]["you"] == {"role": "player", "seats": [1]}
    assert presence(back.state, 1) == "connected"
    await red.wait_for(lambda s: presence(s, 1) == "connected", 5)
    await close_all(red, back)
