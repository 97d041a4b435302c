"""games/rooms/redis_link.py's keepalive: a subscribed link's PING is answered as a push that the
link takes for itself, a link whose PING goes unanswered is closed (its owner hears of it), TCP
keepalive is on; and the fanout's keep_alive opens a lost publisher again. Against a Redis of
the test's own, which the test stops and freezes (never the machine's shared one)."""
import os
import signal
import socket

from games.rooms.fanout import Fanout
from games.rooms.redis_link import RedisLink
from tests.hardening.test_it_survives_outages import RedisServer
from tests.rooms.helpers import wait_for


async def test_a_subscribed_link_takes_its_pongs_and_a_silent_one_is_closed(tmp_path):
    redis = RedisServer(tmp_path)
    redis.start()
    heard, lost = [], []
    url = f"redis://127.0.0.1:{redis.port}/0"
    subscriber = await RedisLink.open(url, on_push=heard.append, on_lost=lambda link, exc: lost.append(link))
    publisher = await RedisLink.open(url)
    try:
        sock = subscriber._transport.get_extra_info("socket")
        assert sock.getsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE) == 1
        subscriber.send(b"SUBSCRIBE", b"keepalive-test")
        await wait_for(lambda: heard == [[b"subscribe", b"keepalive-test", 1]])
        for _ in range(3):  # each PING answered before the next: the link stays open
            subscriber.ping()
            publisher.ping()
            await wait_for(lambda: not subscriber._pinged and not publisher._pinged)
        assert heard == [[b"subscribe", b"keepalive-test", 1]] and not subscriber.lost
        assert await publisher.request(b"PUBLISH", b"keepalive-test", b"x") == 1
        await wait_for(lambda: heard[-1] == [b"message", b"keepalive-test", b"x"])

        os.kill(redis.process.pid, signal.SIGSTOP)  # the connection stays, nothing answers
        try:
            subscriber.ping()
            subscriber.ping()  # the previous one is unanswered: the link is closed
            await wait_for(lambda: lost == [subscriber])
            assert subscriber.lost
        finally:
            os.kill(redis.process.pid, signal.SIGCONT)
    finally:
        subscriber.close()
        publisher.close()
        redis.stop()


async def test_keep_alive_opens_a_lost_publisher_again(tmp_path, settings):
    redis = RedisServer(tmp_path)
    redis.start()
    settings.REDIS_URL = f"redis://127.0.0.1:{redis.port}/0"
    fanout = Fanout("keepalive-test")
    try:
        assert await fanout.reachable(2.0)
        assert fanout.links_open() == {"publisher": True, "subscriber": False}
        redis.stop()
        await wait_for(lambda: not fanout.links_open()["publisher"])
        assert not await fanout.reachable(2.0)
        redis.start()
        fanout.keep_alive()
        await wait_for(lambda: fanout.links_open()["publisher"])
        assert await fanout.reachable(2.0)
    finally:
        fanout._publisher.close()
        redis.stop()
