"""games/rooms/fanout.py: a change reaches every connection of the room once, in this process
directly and in the other processes through Redis pub/sub."""
import asyncio

import pytest
from django.conf import settings
from django.test import override_settings

from games.rooms.fanout import Fanout
from tests.rooms.helpers import Watcher, wait_for


@override_settings(REDIS_URL=None)
async def test_it_tells_this_process_connections_of_the_room():
    fanout = Fanout("p1")
    mover, other, elsewhere = Watcher(), Watcher(), Watcher()
    await fanout.watch("room-a", mover)
    await fanout.watch("room-a", other)
    await fanout.watch("room-b", elsewhere)
    fanout.notify("room-a", 7)
    assert (mover.notices, other.notices, elsewhere.notices) == ([7], [7], [])
    await fanout.unwatch("room-a", other)
    fanout.notify("room-a", 8)
    assert (mover.notices, other.notices) == ([7, 8], [7])


@pytest.mark.services
@pytest.mark.skipif(settings.TEST_BACKEND != "services",
                    reason="the embedded run has no Redis: the test above covers one process")
async def test_it_tells_the_other_processes_through_redis_once():
    one, two = Fanout("process-one"), Fanout("process-two")
    mover, here, there, not_watching = Watcher(), Watcher(), Watcher(), Watcher()
    await one.watch("room-x", mover)
    await one.watch("room-x", here)
    await two.watch("room-x", there)
    await two.watch("room-y", not_watching)
    one.notify("room-x", 3)
    await wait_for(lambda: there.notices == [3])
    two.notify("room-x", 4)
    await wait_for(lambda: here.notices == [3, 4] and mover.notices == [3, 4])
    await asyncio.sleep(0.2)  # time for a duplicate to arrive, if one were sent
    assert (mover.notices, here.notices, there.notices, not_watching.notices) == ([3, 4], [3, 4], [3, 4], [])

    await two.unwatch("room-x", there)
    one.notify("room-x", 5)
    await wait_for(lambda: here.notices[-1] == 5)
    await asyncio.sleep(0.2)
    assert there.notices == [3, 4]


@pytest.mark.services
@pytest.mark.skipif(settings.TEST_BACKEND != "services",
                    reason="the embedded run has no Redis: nothing is published there at all")
async def test_it_keeps_an_alone_rooms_notices_off_redis_until_another_process_watches():
    one, two = Fanout("process-one"), Fanout("process-two")
    mover, here, there = Watcher(), Watcher(), Watcher()
    await one.watch("room-q", mover)
    await one.watch("room-q", here)
    published: list[str] = []
    publish = one._publish
    one._publish = lambda room_id, version: (published.append(str(version)), publish(room_id, version))[1]
    # Once Redis answers that only this process heard a notice, the next ones stay here; this
    # process's own connections still hear every one.
    for version in range(1, 31):
        one.notify("room-q", version)
        await asyncio.sleep(0.02)
    assert here.notices == list(range(1, 31))
    assert "30" not in published and published, published

    # A second process that starts watching announces itself; the first publishes again, the
    # version it kept back first, so the newcomer misses nothing.
    await two.watch("room-q", there)
    await wait_for(lambda: there.notices[-1:] == [30])
    one.notify("room-q", 31)
    await wait_for(lambda: there.notices[-1:] == [31])
    two.notify("room-q", 32)
    await wait_for(lambda: here.notices[-1:] == [32] and mover.notices[-1:] == [32])
    await asyncio.sleep(0.2)  # time for a duplicate to arrive, if one were sent
    assert there.notices == [30, 31, 32]
