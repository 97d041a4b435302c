"""The one way into a room: a ``Command`` runs a change to the end, commit and announcement
included, so its callers (the consumers, the HTTP API, the scheduler, ``accounts/``) never
have to remember the step after a commit.

One calling convention: ``service.act(...)`` from synchronous code (the rooms' threads, a
management command, a test), ``await service.act.on_loop(...)`` from the event loop. A command
that needs the database before its change (it registers this process, or reads another room)
is built and applied on the rooms' threads (``changes.apply``); the others are built on the
loop and applied by ``changes.apply_on_loop``.

The announcement of a committed change (``announce``) tells the room's connections
(games/rooms/fanout.py) and times the room's next step; this process's cache of the room
(games/rooms/cache.py) already holds the change, put there by the commit. The scheduler owns
that timer and imports the service, so it gives this module its alarm clock when it starts
(``set_alarm_clock``) instead of being imported here. An announcement made off the
event loop (a thread) is handed to the loop after the thread's transaction commits.
"""
from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
from datetime import datetime
from typing import Generic, ParamSpec, TypeVar

from django.db import transaction

from games.rooms import db
from games.rooms.changes import Change, Outcome, apply, apply_on_loop
from games.rooms.fanout import fanout

P = ParamSpec("P")
R = TypeVar("R")

AlarmClock = Callable[[str, datetime], None]
_alarm_clock: AlarmClock | None = None
_loop: asyncio.AbstractEventLoop | None = None


def set_alarm_clock(wake_at: AlarmClock, loop: asyncio.AbstractEventLoop) -> None:
    """The scheduler, starting in ``loop``: ``wake_at(room_id, due_at)`` times a room's step."""
    global _alarm_clock, _loop
    _alarm_clock, _loop = wake_at, loop


def announce(outcome: Outcome) -> None:
    """A committed change: the room's connections (they build their own views: nothing hidden
    leaves the process) and the timer of its next step."""
    if not outcome.changed:
        return
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        transaction.on_commit(functools.partial(_announce_from_a_thread, outcome))
        return
    _announce(outcome)


def _announce(outcome: Outcome) -> None:
    room = outcome.room
    fanout.notify(room.id, room.version)
    if room.due_at is not None:
        wake(room.id, room.due_at)


def wake(room_id: str, due_at: datetime) -> None:
    """Times the room's next step where this process runs its scheduler (from any thread)."""
    if _alarm_clock is None or _loop is None:
        return  # no scheduler in this process (a management command, a test): polling covers it
    try:
        running = asyncio.get_running_loop()
    except RuntimeError:
        running = None
    if running is _loop:
        _alarm_clock(room_id, due_at)
    elif not _loop.is_closed():
        _loop.call_soon_threadsafe(_alarm_clock, room_id, due_at)


def _announce_from_a_thread(outcome: Outcome) -> None:
    """Off the loop, only what is safe there: the connections live on the loop."""
    if _loop is not None and not _loop.is_closed():
        _loop.call_soon_threadsafe(_announce, outcome)


class Command(Generic[P]):
    """A service command (games/rooms/service.py): ``build(...)`` makes its ``Change``, which
    is applied, committed and announced. ``on_threads``: ``build`` reads or writes the database,
    so from the loop the whole change runs on the rooms' threads, as one piece of work there
    (the row read and the write with nothing queued between them)."""

    def __init__(self, build: Callable[P, Change], *, on_threads: bool = False) -> None:
        self.build = build
        self.on_threads = on_threads
        functools.update_wrapper(self, build)

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> Outcome:
        outcome = self._apply(*args, **kwargs)
        announce(outcome)
        return outcome

    async def on_loop(self, *args: P.args, **kwargs: P.kwargs) -> Outcome:
        if self.on_threads:
            outcome = await db.call(self._apply, *args, **kwargs)
        else:
            outcome = await apply_on_loop(self.build(*args, **kwargs))
        announce(outcome)
        return outcome

    def _apply(self, *args: P.args, **kwargs: P.kwargs) -> Outcome:
        change = self.build(*args, **kwargs)
        return apply(change.room_id, change.change, change.expected_version)


def command(*, on_threads: bool) -> Callable[[Callable[P, Change]], Command[P]]:
    """``@command(on_threads=True)``: a ``Command`` whose change is built with the database."""
    return functools.partial(Command, on_threads=on_threads)


class OnThreads(Generic[P, R]):
    """A read of the rooms, or a room's creation, made with Django's database connection:
    ``service.load(...)`` from synchronous code, ``await service.load.on_loop(...)`` from the
    event loop (on the rooms' threads). A creation announces its room itself."""

    def __init__(self, function: Callable[P, R]) -> None:
        self.function = function
        functools.update_wrapper(self, function)

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R:
        return self.function(*args, **kwargs)

    async def on_loop(self, *args: P.args, **kwargs: P.kwargs) -> R:
        return await db.call(self.function, *args, **kwargs)
