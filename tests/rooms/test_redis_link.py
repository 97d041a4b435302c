"""games/rooms/redis_link.py: the fanout's own Redis connections. A command's reply comes back
to it in order, Redis's errors come back as errors, a subscription's messages go to the
subscriber, and a connection that ends fails what waits on it and says so; against the
machine's real Redis (db 1 of the tests' URL, channels of the test's own)."""
import asyncio
import secrets

import hiredis
import pytest
from django.conf import settings

from games.rooms import redis_link
from games.rooms.fanout import SERVICE_RESTART, Fanout
from games.rooms.redis_link import LinkLost, RedisLink
from tests.rooms.helpers import Watcher, wait_for


def needs_redis(test):
    skip = pytest.mark.skipif(settings.TEST_BACKEND != "services",
                              reason="the embedded run has no Redis; nothing there opens a link")
    return pytest.mark.services(skip(test))


@needs_redis
async def test_it_answers_each_command_in_the_order_sent_and_hands_messages_to_the_subscriber():
    channel = f"test:{secrets.token_hex(8)}".encode()
    heard = []
    subscriber = await RedisLink.open(settings.REDIS_URL, on_push=heard.append)
    publisher = await RedisLink.open(settings.REDIS_URL)
    try:
        subscriber.send(b"SUBSCRIBE", channel)
        await wait_for(lambda: heard == [[b"subscribe", channel, 1]])
        answers = [publisher.request(b"PUBLISH", channel, b"p:%d" % n) for n in range(1, 51)]
        assert await asyncio.gather(*answers) == [1] * 50  # one subscriber heard each
        await wait_for(lambda: len(heard) == 51)
        assert heard[1:] == [[b"message", channel, b"p:%d" % n] for n in range(1, 51)]
        assert await publisher.request(b"PUBLISH", channel + b":nobody", b"p:1") == 0
    finally:
        subscriber.close()
        publisher.close()


@needs_redis
async def test_it_gives_redis_errors_back_and_answers_on():
    link = await RedisLink.open(settings.REDIS_URL)
    try:
        with pytest.raises(hiredis.ReplyError, match="unknown command"):
            await link.request(b"NO-SUCH-COMMAND")
        assert await link.request(b"PING") == b"PONG"
    finally:
        link.close()


@needs_redis
async def test_it_fails_what_waits_and_says_so_when_the_connection_ends():
    lost = []
    link = await RedisLink.open(settings.REDIS_URL, on_lost=lambda which, exc: lost.append(which))
    killer = await RedisLink.open(settings.REDIS_URL)
    try:
        own_id = await link.request(b"CLIENT", b"ID")
        waiting = link.request(b"BLPOP", f"test:{secrets.token_hex(8)}".encode(), b"5")
        assert await killer.request(b"CLIENT", b"KILL", b"ID", b"%d" % own_id) == 1
        with pytest.raises(LinkLost):
            await asyncio.wait_for(waiting, 5)
        assert lost == [link] and link.lost
        with pytest.raises(LinkLost):
            link.request(b"PING")
    finally:
        killer.close()


@needs_redis
async def test_it_refuses_a_redis_it_cannot_reach_or_log_in_to():
    with pytest.raises(LinkLost, match="cannot connect"):
        await RedisLink.open("redis://127.0.0.1:1/0")  # nothing listens on port 1
    # The machine's Redis has no password: a login with one is refused.
    with pytest.raises(LinkLost, match="refused the login"):
        await RedisLink.open("redis://:not-the-password@127.0.0.1:6379/1")


def test_it_reads_the_database_a_url_names():
    assert redis_link.database("redis://127.0.0.1:6379/3") == 3
    assert redis_link.database("redis://127.0.0.1:6379") == 0
    assert redis_link.database("unix:///run/redis.sock?db=2") == 2


@needs_redis
async def test_a_fanout_whose_subscription_is_cut_closes_its_connections_for_a_resync():
    """Notices may have been missed while the subscription was down: every connection of that
    process is closed with SERVICE_RESTART (clients reconnect and resync); watching again subscribes again."""
    one, two = Fanout("process-one"), Fanout("process-two")
    here, there = Watcher(), Watcher()
    await one.watch("room-cut", here)
    await two.watch("room-cut", there)
    host, port = one._subscriber._transport.get_extra_info("sockname")[:2]
    killer = await RedisLink.open(settings.REDIS_URL)
    try:
        assert await killer.request(b"CLIENT", b"KILL", f"{host}:{port}".encode()) == b"OK"
        await wait_for(lambda: here.closed_with == SERVICE_RESTART)
        assert there.closed_with is None  # the other process's subscription is whole
        again = Watcher()
        await one.watch("room-cut", again)
        await wait_for(lambda: not one._unconfirmed)
        two.notify("room-cut", 9)
        await wait_for(lambda: again.notices == [9])
    finally:
        killer.close()
