"""games/rooms/commands.py: a command announces what it committed, whoever called it. From the
event loop at once; from a thread (the HTTP API's, a management command's, accounts') on the
scheduler's event loop once the thread's transaction has committed, and not at all when it
rolls back. Nothing else is needed of the caller."""
from __future__ import annotations

import asyncio
import threading

import pytest
from django.db import transaction

from games.rooms import commands, creation, service

pytestmark = pytest.mark.django_db(transaction=True)


class Heard:
    """The scheduler's loop, on a thread of its own, and what the announcements did there."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.notices: list[tuple[str, int, bool]] = []
        self.alarms: list[tuple[str, bool]] = []

    def notify(self, room_id: str, version: int) -> None:
        self.notices.append((room_id, version, threading.current_thread() is self.thread))

    def wake_at(self, room_id: str, due_at) -> None:
        self.alarms.append((room_id, threading.current_thread() is self.thread))

    def settle(self) -> None:
        """Everything handed to the loop so far has run."""
        asyncio.run_coroutine_threadsafe(asyncio.sleep(0), self.loop).result(5)


@pytest.fixture
def heard(monkeypatch):
    heard = Heard()
    heard.thread.start()
    monkeypatch.setattr(commands.fanout, "notify", heard.notify)
    monkeypatch.setattr(commands, "_alarm_clock", None)
    monkeypatch.setattr(commands, "_loop", None)
    commands.set_alarm_clock(heard.wake_at, heard.loop)
    yield heard
    heard.loop.call_soon_threadsafe(heard.loop.stop)
    heard.thread.join(5)
    heard.loop.close()


def test_it_announces_a_change_made_on_a_thread_on_the_schedulers_loop(heard):
    room, token = creation.create_room("memory", "solo", {"cards": 24}, seed=1)  # A1 and A2 differ
    hello = service.hello(room.id, token, None)
    first = service.act(room.id, [0], {"type": "flip", "pos": "A1"})
    second = service.act(room.id, [0], {"type": "flip", "pos": "A2"})
    heard.settle()
    assert heard.notices == [(room.id, outcome.room.version, True) for outcome in (hello, first, second)]
    # Two cards up: the conceal is due, and the command timed it on the loop.
    assert second.room.due_at is not None and heard.alarms == [(room.id, True)]


def test_it_announces_nothing_of_a_transaction_that_rolled_back(heard):
    room, token = creation.create_room("memory", "solo", {"cards": 24})
    with pytest.raises(RuntimeError), transaction.atomic():
        service.hello(room.id, token, None)
        raise RuntimeError("the caller's transaction fails after the change")
    heard.settle()
    assert heard.notices == []
    assert service.load(room.id).version == room.version


def test_it_announces_nothing_when_nothing_changed(heard):
    room, _ = creation.create_room("memory", "solo", {"cards": 24})
    outcome = service.hello(room.id, None, None)  # a spectator's hello changes no seat
    heard.settle()
    assert not outcome.changed and heard.notices == []


async def test_it_announces_a_change_made_on_the_loop_at_once(monkeypatch):
    notices = []
    monkeypatch.setattr(commands.fanout, "notify", lambda room_id, version: notices.append(version))
    room, token = await creation.create_room.on_loop("memory", "solo", {"cards": 24})
    outcome = await service.hello.on_loop(room.id, token, None)
    assert notices == [outcome.room.version]
