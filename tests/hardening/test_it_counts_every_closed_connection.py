"""A seat counts the connections open in it, and every one that closes is taken off, however it
closes: thirty at once (their writes used to race, lose and be given up), after a message the
parser could not read (a RecursionError used to close the socket with 1011 and leave its count
behind), closed by the server for flooding, or with their process killed. Once a seat counts
nothing, the CPU takes it over after the (shortened) takeover delay, so the game goes on. And a
process declared dead while it was only stalled closes its connections when it comes back, so
that they reconnect and count again (they used to stay open, counted nowhere).

Each test reads the seat's count from the database, as the hourly cleanup and the takeover do."""
import asyncio
import json
import os
import signal
import sqlite3

import pytest
import websockets

from games.consumers import FLOOD_FRAMES, FLOODING, MAX_MESSAGES_PER_SECOND
from games.rooms.fanout import SERVICE_RESTART
from tests.e2e.conftest import two_process_backends
from tests.hardening.conftest import start_site
from tests.rooms.helpers import close_all, connect, create_room, options, wait_for


def presence(state, seat):
    return state["room"]["seats"][seat]["presence"]


def stored_seat(site, room_id, seat) -> dict:
    ((seats,),) = site.query("SELECT seats FROM games_room WHERE id = %s", (room_id,))
    return (json.loads(seats) if isinstance(seats, str) else seats)[seat]


def counted(site, room_id, seat) -> dict:
    """The seat's open connections per server process, as stored."""
    return stored_seat(site, room_id, seat)["conns"]


async def stall(site, pid):
    """SIGSTOPs a server process, outside a write on SQLite: one stopped while it held the
    file's write lock (its heartbeat, say) would stall every process sharing the file, which is
    why several processes run on PostgreSQL. On PostgreSQL its open transaction blocks nobody."""
    url = site.env["DATABASE_URL"]
    for _ in range(50):
        os.killpg(pid, signal.SIGSTOP)
        if not url.startswith("sqlite"):
            return
        try:
            with sqlite3.connect(url[len("sqlite:///"):], timeout=0.5) as db:
                db.execute("BEGIN EXCLUSIVE")  # no other lock held, read or write
                db.rollback()
            return
        except sqlite3.OperationalError:
            os.killpg(pid, signal.SIGCONT)
            await asyncio.sleep(0.05)
    raise AssertionError("the process held the database's write lock at every try")


async def taken_over(site, room_id, red):
    """Green's seat (1) counts no connection and the CPU plays it: the game goes on."""
    await red.wait_for(lambda s: presence(s, 1) == "cpu", 20)
    assert counted(site, room_id, 1) == {}


@pytest.fixture(params=two_process_backends())
def two_processes(request, tmp_path):
    """Two server processes on either backend (on the embedded one, two on one SQLite file)."""
    made, cleanup = start_site(request.param, tmp_path, processes=2)
    try:
        yield made
    finally:
        cleanup()


async def friends_game(site):
    """A Gin friends room being played: Red (seat 0) and Green (seat 1), each on a connection."""
    created = create_room(site.url_for(0), "gin", "friends", options("gin"))
    room_id = created["room_id"]
    red = await connect(site.url_for(0), room_id, created["seat_token"])
    green = await connect(site.url_for(0), room_id)
    await green.request("join")
    await red.wait_for(lambda s: s["room"]["status"] == "playing", 10)
    return room_id, red, green


async def raw_socket(url, room_id):
    host = url.split("://", 1)[1]
    return await websockets.connect(f"ws://{host}/ws/rooms/{room_id}/", origin=f"http://{host}",
                                    max_size=2 ** 22)


async def test_it_takes_over_a_seat_whose_thirty_connections_closed_at_once(killable_site):
    site = killable_site
    room_id, red, green = await friends_game(site)
    tabs = [await connect(site.url_for(i), room_id, green.token) for i in range(30)]
    assert sum(counted(site, room_id, 1).values()) == 31
    await red.wait_for(lambda s: presence(s, 1) == "connected", 5)

    await asyncio.gather(*(tab.close() for tab in [green, *tabs]))

    await taken_over(site, room_id, red)
    assert presence(red.state, 0) == "connected"
    await close_all(red)


async def test_it_answers_a_deeply_nested_message_and_keeps_no_phantom_connection(killable_site):
    site = killable_site
    room_id, red, green = await friends_game(site)

    async def next_error():
        message = await green.recv(10)
        while message["type"] != "error":
            message = await green.recv(10)
        return message

    await green.ws.send("[" * 1500 + "]" * 1500)
    assert (await next_error())["code"] == "malformed_json"
    # Nested too deep inside a valid message: refused alike, unread (so without a ref).
    nested: list = []
    for _ in range(40):
        nested = [nested]
    await green.ws.send(json.dumps({"type": "action", "id": "deep", "action": {"type": "discard", "card": nested}}))
    error = await next_error()
    assert error["code"] == "malformed_json" and "ref" not in error, error
    # The socket stays open and the seat counts it once.
    assert (await green.request("ping"))["type"] == "pong"
    assert sum(counted(site, room_id, 1).values()) == 1

    await green.close()
    await taken_over(site, room_id, red)
    await close_all(red)


async def test_it_closes_a_flooding_socket_with_its_code_and_lets_its_seat_go(killable_site):
    site = killable_site
    room_id, red, green = await friends_game(site)
    flooder = await raw_socket(site.url_for(0), room_id)
    await flooder.send(json.dumps({"type": "hello", "token": green.token}))
    assert json.loads(await flooder.recv())["type"] == "state"
    await green.close()
    sent, answers = 0, []
    started = asyncio.get_running_loop().time()

    async def read():
        try:
            async for text in flooder:
                answers.append(json.loads(text))
        except websockets.ConnectionClosed:
            pass

    reading = asyncio.get_running_loop().create_task(read())
    try:
        while sent < 20 * FLOOD_FRAMES:  # far more than it takes to be closed
            await flooder.send(json.dumps({"type": "ping", "id": f"p{sent}"}))
            sent += 1
            if sent % 50 == 0:
                await asyncio.sleep(0)  # let the answers and the close be read
    except websockets.ConnectionClosed:
        pass
    try:
        await asyncio.wait_for(flooder.wait_closed(), 10)
    except TimeoutError:
        pass  # not closed by the server: code is None
    code = flooder.close_code
    reading.cancel()
    seconds = asyncio.get_running_loop().time() - started
    assert code == FLOODING, (code, sent)
    assert sent >= MAX_MESSAGES_PER_SECOND - 1 + FLOOD_FRAMES  # (the hello was the first frame)

    # Those over the limit were dropped unread, with one answer a second at most (without a
    # ref: it was not read), and none once the socket was closed: what it had queued was dropped.
    refusals = [a for a in answers if a["type"] == "error"]
    assert all(r["code"] == "too_many_messages" and "ref" not in r for r in refusals), refusals
    assert len(refusals) <= 1 + seconds, (refusals, seconds)
    pongs = [a for a in answers if a["type"] == "pong"]
    assert len(pongs) <= MAX_MESSAGES_PER_SECOND

    # The flooder held Green's seat, its last connection: the seat lets it go.
    await taken_over(site, room_id, red)
    await close_all(red)


async def test_it_forgets_the_connections_of_a_killed_process(killable_site):
    site = killable_site
    room_id, red, green = await friends_game(site)
    victim = len(site.servers) - 1  # the second process, or the only one (then restarted)
    tabs = [await connect(site.url_for(victim), room_id, green.token) for _ in range(30)]
    await green.close()
    assert sum(counted(site, room_id, 1).values()) == 30

    if len(site.servers) == 2:
        site.servers[victim].kill()
    else:
        site.restart(victim, kill=True)
        await red.close()
        red = await connect(site.url_for(0), room_id, red.token)
    await taken_over(site, room_id, red)
    for tab in tabs:
        tab.ws.transport.abort()
    await close_all(red)


async def test_it_counts_again_the_connections_of_a_process_declared_dead(two_processes):
    site = two_processes
    created = create_room(site.url_for(0), "gin", "friends", options("gin"))
    room_id = created["room_id"]
    red = await connect(site.url_for(0), room_id, created["seat_token"])
    green = await connect(site.url_for(1), room_id)
    await green.request("join")
    stalled = site.servers[1].process.pid

    await stall(site, stalled)  # silent, not dead: its sockets stay open
    try:
        # The other process declares it dead: its connection is forgotten, the CPU takes over.
        await wait_for(lambda: stored_seat(site, room_id, 1)["cpu"], 20)
        assert counted(site, room_id, 1) == {}
    finally:
        os.killpg(stalled, signal.SIGCONT)

    # Back, it learns so from its heartbeat and closes its room connections (as after a restart).
    with pytest.raises(websockets.ConnectionClosed) as closed:
        while True:
            await green.recv(20)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == SERVICE_RESTART
    back = await connect(site.url_for(1), room_id, green.token)
    assert back.state["room"]["you"]["seats"] == [1]
    assert presence(back.state, 1) == "connected"
    assert sum(counted(site, room_id, 1).values()) == 1
    await close_all(red, back)
