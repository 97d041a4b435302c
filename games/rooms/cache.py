"""This process's cache of its rooms: one entry per room, the latest version the process wrote
or read, with what was decoded and encoded from that version once for everybody.

An entry holds the room (read only) with its row's JSON columns as the text written or read,
the public event that made its version, and, made on first use, the engine state and the
seats decoded from the row and each seat's view as the text it is sent.

A move touches the cache once at each of its steps (tests/rooms/test_cache.py counts them):

- its change starts from it: ``copy`` gives a fresh ``Room`` of the row, which the change may
  edit, and the entry's engine state, if decoded, which the change ``copy()``s (the engines'
  contract, games/engines/base.py) instead of decoding the row's text again; no read;
- the change's commit puts the new version in (``committed``, called by games/rooms/changes.py
  right after the write, on the thread or event loop that wrote it, so no change starts from
  the version before it), with the state and seats it was encoded from: nothing is decoded
  again for the views;
- each connection's state message reads it (``latest``, games/rooms/state_messages.py); a
  version this process did not write (another process's change, or one this process never
  kept) is read once, row and event together (``storage.load_with_event_on_loop``), and
  becomes the entry that the process's own next change of the room starts from: a room played
  across processes costs two round trips a change instead of four
  (bench/results/2026-12-04-sixteen-cores-evening.md).

A write from an entry is version-checked as always (a write that lost the race forgets the
entry). A refusal decided from it is trusted only while this is the only live server process
(every write then went through this cache, so the entry is current) and a flood of illegal
requests costs no database work; with several processes a refusal, like "nothing to do", is
decided again from the database (``changes.apply``), so an entry made stale by another process
never refuses or skips anything.
"""
from __future__ import annotations

import asyncio
import threading
from collections import OrderedDict
from typing import Any

from django.db import DEFAULT_DB_ALIAS

from games.models import Room
from games.rooms import jsontext, registry, storage
from games.rooms.seats import Seat

SIZE = 2000  # rooms kept; the least recently used goes first

_FIELDS = [f.attname for f in Room._meta.concrete_fields]  # the row's order, ``Room.from_db``'s


class Entry:
    """One version of a room as this process knows it. Nothing edits the room, the state or
    the seats once they are here: a change edits a ``copy``."""

    def __init__(self, room: Room, texts: storage.Texts, event: dict[str, Any] | None,
                 state: Any = None, seats: list[Seat] | None = None) -> None:
        self.room = room
        self.texts = texts  # the row's JSON columns as their texts (a null one is absent)
        self.event = {"version": room.version, **event} if event else None
        self._state = state
        self._seats = seats
        self._view_texts: dict[int | None, str] = {}
        # The state message's texts shared by every connection (games/rooms/state_messages.py).
        self.event_text: str | None = None
        self.shared_room_text: str | None = None
        self.clocked: bool | None = None  # a turn's clock runs: the seats' seconds left change

    @property
    def version(self) -> int:
        return int(self.room.version)

    @property
    def state(self) -> Any:
        if self._state is None:
            self._state = registry.engine(self.room.game).State.from_json(self.room.state)
        return self._state

    @property
    def seats(self) -> list[Seat]:
        if self._seats is None:
            self._seats = [Seat.from_json(s) for s in self.room.seats]
        return self._seats

    @property
    def current_player(self) -> int | None:
        player: int | None = self.state.current_player
        return player

    def view_text(self, seat: int | None) -> str:
        """The JSON text of the engine's ``view(seat)``, built and encoded once per seat and
        version: every connection of that seat in this process is sent the same text. Encoded
        whole, in one orjson call: encoding key by key to share the values the seats' views have
        in common cost more than building the view."""
        text = self._view_texts.get(seat)
        if text is None:
            text = self._view_texts[seat] = jsontext.dumps(self.state.view(seat))
        return text

    def copy(self) -> tuple[Room, Any]:
        """A fresh room of the row, for a change to edit, and the engine state the row's
        ``state`` was encoded from or decoded into (None: not yet), which the change must not
        edit."""
        # from_db (Django's documented way to make an instance of a row read from the database):
        # the values in field order, which Model.__init__ takes far faster than by name. The
        # other columns' values (texts, numbers, times) are never edited in place: shared.
        texts, kept = self.texts, self.room
        room: Room = Room.from_db(DEFAULT_DB_ALIAS, _FIELDS, [
            jsontext.loads(texts[f]) if f in texts else getattr(kept, f) for f in _FIELDS])
        return room, self._state


_entries: OrderedDict[str, Entry] = OrderedDict()
_lock = threading.Lock()  # the changes' threads and the event loop share the entries
_reading: dict[str, asyncio.Lock] = {}  # one read of a room at a time (event loop)


def entry(room_id: str) -> Entry | None:
    """The room's kept entry, without reading anything."""
    with _lock:
        found = _entries.get(room_id)
        if found is not None:
            _entries.move_to_end(room_id)
        return found


def _keep(new: Entry, over_same_version: bool) -> Entry:
    """Keeps ``new`` unless a newer version is kept (or, unless ``over_same_version``, the
    same one: its decoded state and texts stay). Returns the entry kept."""
    room_id = new.room.pk
    with _lock:
        kept = _entries.get(room_id)
        if kept is not None and (kept.version > new.version
                                 or (kept.version == new.version and not over_same_version)):
            return kept
        _entries[room_id] = new
        _entries.move_to_end(room_id)
        while len(_entries) > SIZE:
            old, _ = _entries.popitem(last=False)
            _reading.pop(old, None)
        return new


def copy(room_id: str) -> tuple[Room, Any] | None:
    """Where a change of the room starts (``Entry.copy``), or None: read the row."""
    found = entry(room_id)
    return None if found is None else found.copy()


def committed(room: Room, texts: storage.Texts, event: dict[str, Any], state: Any,
              seats: list[Seat] | None) -> None:
    """The change just committed (the one update of the cache after a commit): ``room`` at its
    new version, ``texts`` its JSON columns as written (``storage.commit``), ``event`` the new
    version's, ``state`` and ``seats`` (when the change has them) what ``room.state`` and
    ``room.seats`` were encoded from. Nothing may edit them from now on."""
    _keep(Entry(room, texts, event, state, seats), over_same_version=True)


def forget(room_id: str) -> None:
    """The room may have moved on without this process (a write lost the race), or the version
    kept may never be committed (a write inside a transaction that may roll back)."""
    with _lock:
        _entries.pop(room_id, None)


async def latest(room_id: str, min_version: int = 0) -> Entry:
    """The room at ``min_version`` or later, read (once for all the connections waiting on it)
    when this process keeps none that new; raises ``GameError`` (room_not_found)."""
    found = entry(room_id)
    if found is not None and found.version >= min_version:
        return found
    reading = _reading.setdefault(room_id, asyncio.Lock())
    async with reading:
        found = entry(room_id)  # what the read this one waited for brought
        if found is None or found.version < min_version:
            room, event, texts = await storage.load_with_event_on_loop(room_id)
            found = _keep(Entry(room, texts, event), over_same_version=False)
        return found


def rooms_kept() -> int:
    """How many rooms this process keeps (GET /metrics)."""
    return len(_entries)
