"""Seats over real WebSockets: takeover of a disconnected seat after the (shortened) delay and
reclaim with the token, a spectator taking a CPU seat, leave and resign, play again, a new link,
reconnecting with replay and with resync, and tokens that are forged or another seat's."""
from games.bot import Connection, ProtocolError
from tests.rooms.helpers import close_all, connect, create_room, expect_error, options, play_to_end


def presence(state, seat):
    return state["room"]["seats"][seat]["presence"]


async def friends_room(site, game, players=2, joining=None, **extra):
    created = create_room(site.url_for(0), game, "friends", options(game, players=players, **extra)
                          if game != "gin" else options(game, **extra))
    creator = await connect(site.url_for(0), created["room_id"], created["seat_token"])
    others = []
    for i in range(1, players if joining is None else joining + 1):
        conn = await connect(site.url_for(i), created["room_id"])
        await conn.request("join")
        others.append(conn)
    return created, creator, others


async def test_it_takes_over_a_disconnected_seat_and_gives_it_back(site):
    created, red, (green,) = await friends_room(site, "gin")
    room_id = created["room_id"]
    token = green.token
    await green.close()
    await red.wait_for(lambda s: presence(s, 1) == "disconnected", 5)
    # SEAT_TAKEOVER_DELAY is 1 s on the test servers; then the CPU plays Green's turns.
    await red.wait_for(lambda s: presence(s, 1) == "cpu", 10)
    back = await connect(site.url_for(1), room_id, token, last_version=red.state["version"])
    assert back.state["room"]["you"] == {"role": "player", "seats": [1]}
    assert presence(back.state, 1) == "connected"
    await red.wait_for(lambda s: presence(s, 1) == "connected", 5)
    finals = await play_to_end([red, back])
    assert all(f["room"]["status"] == "finished" for f in finals)
    await close_all(red, back)


async def test_it_lets_a_spectator_take_a_seat_the_cpu_plays(site):
    created, red, (green,) = await friends_room(site, "bozu", players=3, joining=1)
    # Yellow never joined: Red starts with the CPU in the free seat.
    await red.request("start")
    assert presence(red.state, 2) == "cpu"
    spectator = await connect(site.url_for(1), created["room_id"])
    await expect_error(spectator, "take_seat", "seat_not_available", seat=0)
    answer = await spectator.request("take_seat", seat=2)
    assert answer["room"]["you"] == {"role": "player", "seats": [2]} and spectator.token
    await red.wait_for(lambda s: presence(s, 2) == "connected", 5)
    finals = await play_to_end([red, green, spectator])
    assert {f["room"]["status"] for f in finals} == {"finished"}
    await close_all(red, green, spectator)


async def test_it_lets_a_player_leave_a_game_of_three(site):
    created, red, (green, yellow) = await friends_room(site, "bozu", players=3)
    await expect_error(yellow, "resign", "not_allowed")
    answer = await yellow.request("leave")
    assert answer["room"]["you"] == {"role": "spectator", "seats": []}
    assert presence(answer, 2) == "cpu"
    await expect_error(yellow, "action", "not_a_player", action={"type": "flip"})
    finals = await play_to_end([red, green], [yellow])
    assert all(f["room"]["status"] == "finished" for f in finals)
    await close_all(red, green, yellow)


async def test_it_ends_a_two_player_game_on_resign_and_plays_again(site):
    created, red, (green,) = await friends_room(site, "gin")
    await expect_error(green, "leave", "not_allowed")
    answer = await green.request("resign")
    result = answer["room"]["result"]
    assert answer["room"]["status"] == "finished"
    assert result["resigned"] == 1 and result["winners"] == [0]
    await red.wait_for(lambda s: s["room"]["status"] == "finished", 5)
    await expect_error(red, "resign", "game_over")
    before = red.state["version"]
    again = await red.request("play_again")
    assert again["room"]["status"] == "playing" and again["version"] > before
    assert again["room"]["result"] is None
    await green.wait_for(lambda s: s["room"]["status"] == "playing", 5)
    finals = await play_to_end([red, green])
    assert all(f["room"]["status"] == "finished" for f in finals)
    # A new room from the result screen: the sender gets its own token, the others the link.
    ref = await red.send("new_link")
    while True:
        message = await red.recv()
        if message["type"] == "next_room" and message.get("ref") == ref:
            break
    assert message["seat_token"] and message["invite_url"] == f"/r/{message['room_id']}"
    seen = await green.wait_for(lambda s: s["room"]["next_room"] is not None, 5)
    assert seen["room"]["next_room"] == message["invite_url"]
    while not [m for m in green.messages if m["type"] == "next_room"]:
        await green.recv(5)  # the next_room message follows that state
    nexts = [m for m in green.messages if m["type"] == "next_room"]
    assert len(nexts) == 1 and "seat_token" not in nexts[0]
    follow = await connect(site.url_for(1), message["room_id"], message["seat_token"])
    assert follow.state["room"]["you"]["seats"] == [0]
    assert follow.state["room"]["status"] == "waiting"
    await close_all(red, green, follow)


async def test_it_replays_missed_events_or_resyncs(site):
    created = create_room(site.url_for(0), "bozu", "cpu", options("bozu", players=4))
    red = await connect(site.url_for(0), created["room_id"], created["seat_token"])
    await red.request("action", action={"type": "flip"})
    seen = red.state["version"]
    await red.wait_for(lambda s: s["view"]["legal_actions"], 10)
    await red.request("action", action={"type": "flip"})
    await red.wait_for(lambda s: s["view"]["legal_actions"], 10)
    latest = red.state["version"]
    again = await connect(site.url_for(1), created["room_id"], created["seat_token"], last_version=seen)
    hello = again.state
    assert hello["resync"] is False
    missed = hello["missed"]
    assert [e["version"] for e in missed] == list(range(seen + 1, hello["version"] + 1))
    assert hello["version"] >= latest + 1  # the second connection's presence is news too
    actions = [(e["seat"], e["by"]) for e in missed if e["type"] == "action"]
    # Red's second flip and the three CPUs' flips around it.
    assert (0, "human") in actions and {(1, "cpu"), (2, "cpu"), (3, "cpu")} <= set(actions)
    # Too far behind (more than 200 versions: two games of 100 flips): a full resync, the
    # view complete as always.
    await play_to_end([red])
    await red.request("play_again")
    await play_to_end([red])
    assert red.state["version"] > 201
    late = await connect(site.url_for(1), created["room_id"], created["seat_token"], last_version=1)
    assert late.state["resync"] is True and late.state["missed"] is None
    assert late.state["room"]["status"] == "finished" and late.state["view"]["is_over"]
    await close_all(red, again, late)


async def test_it_refuses_forged_and_foreign_tokens(site):
    created, red, (green,) = await friends_room(site, "gin")
    other = create_room(site.url_for(0), "gin", "cpu", options("gin"))
    for token in ("forged-" + "x" * 40, other["seat_token"]):
        conn = Connection(site.url_for(1), created["room_id"])
        try:
            await conn.open(token)
            raise AssertionError("a bad token was accepted")
        except ProtocolError as exc:
            assert exc.code == "bad_token"
        # Still connected, as a spectator: the answer to hello follows the error.
        state = await conn.wait_for(lambda s: True, 5)
        assert state["room"]["you"] == {"role": "spectator", "seats": []}
        await expect_error(conn, "action", "not_a_player", action={"type": "pass"})
        await conn.close()
    # Green's own token holds Green's seat only: it cannot act for Red.
    twin = await connect(site.url_for(0), created["room_id"], green.token)
    assert twin.state["room"]["you"]["seats"] == [1]
    await expect_error(twin, "action", "not_a_player", action={"type": "pass"}, seat=0)
    assert created["seat_token"] not in str(green.messages + twin.messages)
    await close_all(red, green, twin)
