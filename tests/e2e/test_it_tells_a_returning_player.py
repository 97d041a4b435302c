"""A player coming back with the token of a seat that changed hands is told what became of it
(docs/protocol.md, hello): taken by someone else, or left by them and played by the CPU."""
from games.bot import Connection, ProtocolError
from tests.e2e.test_it_handles_seats import friends_room, presence


async def hello_refused(url, room_id, token) -> tuple[dict, Connection]:
    conn = Connection(url, room_id)
    try:
        await conn.open(token)
    except ProtocolError as exc:
        assert exc.code == "bad_token"
        await conn.wait_for(lambda s: True, 5)  # the answer to hello: a spectator's state
        return exc.error, conn
    raise AssertionError("the old token still held a seat")


async def test_it_says_the_seat_was_taken_by_someone_else(site):
    created, red, (green,) = await friends_room(site, "gin")
    token = green.token
    await green.close()
    await red.wait_for(lambda s: presence(s, 1) == "cpu", 10)
    carol = Connection(site.url_for(0), created["room_id"])
    await carol.open(None)
    await carol.request("take_seat", seat=1)
    error, back = await hello_refused(site.url_for(1), created["room_id"], token)
    assert error["lost_seat"] == {"seat": 1, "reason": "taken"}
    assert back.state["room"]["you"] == {"role": "spectator", "seats": []}
    assert token not in str(error)
    await back.close()
    # A token that never held a seat here gets the plain error.
    error, stranger = await hello_refused(site.url_for(1), created["room_id"], "forged-" + "x" * 40)
    assert "lost_seat" not in error
    await stranger.close()
    await carol.close()
    await red.close()


async def test_it_says_the_seat_was_left_and_lets_it_be_taken_back(site):
    created, red, (green, yellow) = await friends_room(site, "bozu", players=3)
    token = yellow.token
    await yellow.request("leave")
    await yellow.close()
    error, back = await hello_refused(site.url_for(1), created["room_id"], token)
    assert error["lost_seat"] == {"seat": 2, "reason": "left"}
    answer = await back.request("take_seat", seat=2)  # the one tap that takes it back
    assert answer["room"]["you"] == {"role": "player", "seats": [2]}
    for conn in (red, green, back):
        await conn.close()
