"""The steps the scheduler runs (games/rooms/scheduler.py): a room's timed step when it is
due (a seat taken over, a turn played for a silent player, an automatic step, a CPU move) and
the sweep of a dead server process's connections. Like the service's, each is a ``Command``
(games/rooms/commands.py) that announces itself.
"""
from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

from django.utils import timezone

from games.engines.base import GameError
from games.engines.errors import ErrorCode
from games.models import Room
from games.rooms import processes, registry, replays
from games.rooms.changes import Change, Work
from games.rooms.commands import Command, OnThreads

log = logging.getLogger(__name__)


@OnThreads
def due_rooms(now: datetime | None = None, limit: int = 100) -> list[tuple[str, datetime]]:
    now = now or timezone.now()
    return list(Room.objects.filter(due_at__lte=now).order_by("due_at")
                .values_list("id", "due_at")[:limit])


@Command
def run_step(room_id: str) -> Change:
    """Does the room's one step that is due now, if any: a takeover, an automatic step or a CPU
    move. Two processes may both try; the version check lets exactly one of them write."""

    def change(work: Work) -> None:
        room, now = work.room, work.now
        if room.due_at is None or room.due_at > now or room.status != "playing":
            return
        delay = timedelta(seconds=registry.takeover_delay())
        if room.mode == "friends":
            for i, s in enumerate(work.seats):
                at = s.takeover_at(delay)
                if at is not None and at <= now:
                    s.take_over()
                    work.set_state(work.state)
                    work.mark({"type": "takeover", "seat": i})
                    return
        turns = work.turns
        if room.mode == "friends":
            deadline = turns.deadline(room.game, room.pace, work.seats)
            if deadline is not None and deadline <= now and turns.seat is not None:
                play_for(work, turns.seat)  # its time ran out
                return
            offer = None if turns.offered else turns.offer_at(room.pace, work.seats)
            if offer is not None and offer <= now:
                turns.offered = True  # room.allowed lists let_cpu_play from this version on
                work.mark({"type": "room"})
                return
        if room.step_at is None or room.step_at > now:
            return
        state = work.state
        step = state.pending_automatic()
        if step:
            state.apply_automatic()
            work.set_state(state)
            work.mark({"type": "automatic", "step": step})
            work.redoable = True  # decided by the state alone (Gin's deals are seeded too)
            return
        seat = state.current_player
        if seat is None or not (work.seats[seat].cpu or turns.covering(seat)):
            room.step_at = None
            work.changed = True
            work.event = {"type": "room"}
            return
        action = _cpu_action(work, seat)
        state.apply(seat, action)
        if room.first_action_at is None:
            room.first_action_at = now
        work.set_state(state)
        work.mark({"type": "action", "seat": seat, "by": "cpu", "action": action})

    return Change(room_id, change)


def play_for(work: Work, seat: int) -> None:
    """The CPU plays the turn of ``seat``'s person from the seat's own view: its first action
    now, the rest as a CPU's timed steps (``changes.next_step_at``), until the turn is over or
    the person plays. The third such turn in a row hands the seat to the CPU (the holder takes
    it back with ``take_seat``, or by connecting again)."""
    room = work.room
    if work.turns.cover(seat):
        work.seats[seat].take_over()
    state = work.state
    action = _cpu_action(work, seat)
    state.apply(seat, action)
    if room.first_action_at is None:
        room.first_action_at = work.now
    work.set_state(state)
    work.mark({"type": "action", "seat": seat, "by": "cpu", "action": action})


def _cpu_action(work: Work, seat: int) -> dict[str, Any]:
    room = work.room
    cpu = registry.cpu_module(room.game)
    raw = room.cpus.get(str(seat))
    view = work.state.view(seat)
    player = cpu.cpu_from_json(raw) if raw else cpu.make_cpu(
        room.cpu_level, seat, replays.cpu_seed(room, seat), room.options)
    if not raw:
        player.observe(view)
        replays.cpu_started(room, seat, room.version)  # it saw the state the change started from
    try:
        action: dict[str, Any] = player.choose(view)
        room.cpus[str(seat)] = player.to_json()
        return action
    except GameError:
        # A CPU that cannot decide must not stall the room: play the first legal action.
        log.exception("CPU for %s could not choose; playing the first legal action", room.game)
        first: dict[str, Any] = work.state.legal_actions(seat)[0]
        return first


# --------------------------------------------------------------------------------------------
# Server processes (processes.py): a process that dies without closing its connections
# (SIGKILL) stops beating, and the next sweep by any live process forgets its connections, so
# their seats become disconnected and are taken over after the usual delay.

@Command
def forget_connections(room_id: str, process_id: str, last_seen: datetime) -> Change:
    """The seats of the room forget a dead process's connections; those left without one are
    away since the process was last seen alive."""

    def change(work: Work) -> None:
        away = []
        for i, s in enumerate(work.seats):
            if not s.forget(process_id):
                continue
            work.changed = True
            if s.went_away(last_seen.isoformat()):
                away.append(i)
        if work.changed:
            work.mark({"type": "presence", "seats": away, "presence": "disconnected"})

    return Change(room_id, change)


def sweep(process_id: str, last_seen: datetime) -> None:
    """Forgets a dead process's connections in every room that counts one, then its row."""
    for room_id in processes.rooms_counting(process_id):
        try:
            forget_connections(room_id, process_id, last_seen)
        except GameError as exc:
            if exc.code != ErrorCode.ROOM_NOT_FOUND:
                raise  # the row stays: the next sweep tries again
    processes.forget(process_id)
