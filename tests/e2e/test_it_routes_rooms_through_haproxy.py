"""Two Daphne processes behind HAProxy with deploy/haproxy.cfg (as docker-compose runs them):
both players of a room reach the same process, different rooms reach both processes, and when
a room's process is killed its players reconnect through the balancer to the other process,
resync and play on. The balancer's health checks leave no database connections behind."""
from __future__ import annotations

import json
import secrets

import pytest
from django.conf import settings

from tests.balancer import Balancer, loopback_hosts
from tests.e2e.conftest import FAST_TIMING, SERVICES_DB_ADMIN, SERVICES_REDIS, _drop_database
from tests.live import embedded_env, free_port, get_json, migrate, services_reachable, start_daphne
from tests.rooms.helpers import ProtocolError, close_all, connect, create_room, options

pytestmark = pytest.mark.services

ROOMS_TO_TRY = 24  # rooms until both processes hold one (each room: one chance in two or so)
POOL_MAX = 2  # each process's pooled connections for pages (DB_POOL_MAX)


class Cluster:
    def __init__(self, tmp_path, database: str):
        self.database = database
        self.hosts = loopback_hosts(2)
        env = embedded_env(tmp_path, **FAST_TIMING, ALLOWED_HOSTS=",".join(self.hosts),
                           ROOMS_PER_ADDRESS="1000/minute", DB_POOL_MAX=str(POOL_MAX))
        env["DATABASE_URL"] = f"postgres://postgres@127.0.0.1:5432/{database}"
        env["REDIS_URL"] = settings.REDIS_URL or SERVICES_REDIS
        migrate(env)
        port = free_port()
        self.servers = [start_daphne(tmp_path, env, name=f"daphne{i}", host=host, port=port)
                        for i, host in enumerate(self.hosts)]
        self.balancer = None
        for server in self.servers:
            server.wait_ready()
        self.balancer = Balancer(self.hosts, port, tmp_path)
        self.balancer.wait_up()

    def query(self, sql: str, params: tuple = ()) -> list[tuple]:
        import psycopg
        with psycopg.connect(f"postgresql://postgres@127.0.0.1:5432/{self.database}") as db:
            return db.execute(sql, params).fetchall()

    def seat_processes(self, room_id: str) -> list[dict]:
        """Each seat's open connections per server process id (the room row's ``conns``)."""
        ((seats,),) = self.query("SELECT seats FROM games_room WHERE id = %s", (room_id,))
        seats = json.loads(seats) if isinstance(seats, str) else seats
        return [seat["conns"] for seat in seats]

    def stop(self):
        if self.balancer is not None:
            self.balancer.stop()
        for server in self.servers:
            server.stop()


@pytest.fixture
def cluster(tmp_path):
    if not services_reachable():
        pytest.fail("This test needs the local PostgreSQL and Redis (always up on CI).")
    import psycopg
    name = f"balancer_{secrets.token_hex(6)}"
    with psycopg.connect(SERVICES_DB_ADMIN, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    made = None
    try:
        made = Cluster(tmp_path, name)
        yield made
    finally:
        if made is not None:
            made.stop()
        _drop_database(name)


async def seated_pair(url: str):
    created = create_room(url, "memory", "friends", options("memory"))
    red = await connect(url, created["room_id"], created["seat_token"])
    green = await connect(url, created["room_id"])
    await green.request("join")
    await red.wait_for(lambda s: s["room"]["status"] == "playing", 10)
    return created["room_id"], red, green


async def move_and_see(mover, other):
    """The seat to move flips a card; the other player sees that version. A reconnection's
    presence change may land first: the mover then reads it and tries again."""
    for _ in range(5):
        state = mover.state
        try:
            await mover.request("action", action=state["view"]["legal_actions"][0],
                                version=state["version"])
            break
        except ProtocolError as exc:
            assert exc.code == "stale_version", exc.error
            await mover.wait_for(lambda s, refused=state["version"]: s["version"] > refused, 10)
    else:
        raise AssertionError("five stale versions in a row")
    version = mover.state["version"]
    await other.wait_for(lambda s: s["version"] >= version, 10)
    return version


def to_move(*players):
    return next(p for p in players if p.state["view"]["legal_actions"])


async def test_it_keeps_each_room_on_one_process_and_moves_it_when_that_process_dies(cluster):
    url = cluster.balancer.url
    room_id, red, green = await seated_pair(url)
    conns = cluster.seat_processes(room_id)
    assert len(conns[0]) == 1 and conns[0] == conns[1], conns  # {process: 1} twice, the same
    (process,) = conns[0]
    per_host = cluster.balancer.connections()
    assert sorted(per_host.values()) == [0, 2], per_host
    victim = cluster.hosts.index(max(per_host, key=per_host.get))
    survivor = 1 - victim
    await move_and_see(to_move(red, green), green if to_move(red, green) is red else red)

    # Other rooms hash to the other process too, each with both players on one process.
    processes = {process}
    for _ in range(ROOMS_TO_TRY):
        other_room, a, b = await seated_pair(url)
        other_conns = cluster.seat_processes(other_room)
        await close_all(a, b)
        assert len(other_conns[0]) == 1 and other_conns[0] == other_conns[1], other_conns
        processes |= set(other_conns[0])
        if len(processes) == 2:
            break
    assert len(processes) == 2, f"{ROOMS_TO_TRY + 1} rooms, all on one process"

    # The room's process dies: both players come back through the balancer, on the survivor.
    seen = red.state["version"]
    tokens = (red.token, green.token)
    cluster.servers[victim].kill()
    await close_all(red, green)
    red = await connect(url, room_id, tokens[0], last_version=seen)
    green = await connect(url, room_id, tokens[1], last_version=seen)
    assert red.state["version"] >= seen and green.state["version"] >= seen
    assert red.state["room"]["you"]["seats"] == [0] and green.state["room"]["you"]["seats"] == [1]
    per_host = cluster.balancer.connections()
    assert per_host == {cluster.hosts[survivor]: 2, cluster.hosts[victim]: 0}, per_host
    conns = cluster.seat_processes(room_id)
    # The dead process's count stays until its heartbeat is missed and it is swept.
    (new_process,) = {p for c in conns for p in c} - {process}
    assert all(c.get(new_process) == 1 for c in conns), conns

    mover = to_move(red, green)
    version = await move_and_see(mover, green if mover is red else red)
    assert version > seen
    await close_all(red, green)


def test_it_leaves_no_database_connection_behind_a_health_check(cluster):
    # The balancer already checks each process every second; 30 more checks each on top.
    for server in cluster.servers:
        for _ in range(30):
            assert get_json(server.url + "/healthz")["status"] == 200
    (([connections],)) = cluster.query(
        "SELECT COUNT(*) FROM pg_stat_activity WHERE datname = current_database() "
        "AND pid <> pg_backend_pid()")
    # Each process keeps the connections of its rooms' database threads (ROOMS_DB_THREADS, two),
    # which the checks run on, and its pool's (at most POOL_MAX, kept open between loans); a
    # connection per check would be 60 and more.
    assert connections <= 2 * (2 + POOL_MAX), connections
