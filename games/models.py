"""Rooms: one row per room holds everything a game needs to continue after a restart.

The whole room (engine state, seats, CPU memories, the due time of its next timed step) lives
in one row with an integer ``version``; every change is one conditional UPDATE on that version
(see ``games.rooms.service``), so two writers can never merge. Seats are a JSON list on the row
rather than a table of their own: every change touches them together with the state, and one
row keeps each change to one UPDATE.
"""
import uuid
from typing import Any

from django.db import models

from games import specs


class JSONTextField(models.JSONField):
    """A JSON column that PostgreSQL keeps as the text it was sent (``json``: checked, not
    parsed), for the room's and its events' columns, which every change rewrites (the room's
    whole row) and nothing searches by JSON path. Parsing them into ``jsonb`` was about half of
    PostgreSQL's CPU per change (figures: bench/results/2026-12-02-database-threads.md, and
    for migration 0011 bench/results/2026-12-04-latency-tail-and-migrations.md). The one
    search of a room's seats reads their text (``service.rooms_of_user``), which keeps the
    spacing of the encoder that wrote it. Read back, the text is decoded as any JSONField's
    (its loader is registered in games/apps.py). On SQLite, as JSONField."""

    def db_type(self, connection):
        return "json" if connection.vendor == "postgresql" else super().db_type(connection)


class Room(models.Model):
    MODES = [("cpu", "vs CPU"), ("local", "this device"), ("solo", "solo"), ("friends", "friends")]
    STATUSES = [("waiting", "waiting"), ("playing", "playing"), ("finished", "finished")]

    id = models.CharField(primary_key=True, max_length=32)
    game = models.CharField(max_length=16, choices=specs.choices)  # a callable: no migration per game
    mode = models.CharField(max_length=16, choices=MODES)
    options: Any = JSONTextField()                     # the engine's canonical options
    cpu_level = models.CharField(max_length=16, blank=True, default="")
    origin = models.CharField(max_length=16, blank=True, default="")
    # relaxed | normal | quick: the seat to play's clock (games/rooms/pace.py); friends rooms only.
    # A default in the database too: a process of the version before, during a rolling deploy,
    # inserts rooms without this column.
    pace = models.CharField(max_length=8, default="relaxed", db_default="relaxed")
    status = models.CharField(max_length=16, choices=STATUSES, default="waiting")
    # Plain integers, not PositiveIntegerField: its CHECK (>= 0) was evaluated, and its
    # expression read again from the catalog's text, by every change (PostgreSQL's executor
    # prepares a table's checks per statement). Only the service writes these, counting up.
    version = models.IntegerField(default=1)
    seed = models.BigIntegerField()
    games_played = models.IntegerField(default=0)  # "play again" count: new seeds
    state: Any = JSONTextField()                       # engine State.to_json(): secret
    # [{"holder": "human"|"cpu"|"none", "token": sha256 hex|None, "user": id|None,
    #   "conns": {process: n}, "away_since": iso|None, "cpu": bool, "left": bool, "seen": bool,
    #   "former_token": sha256 hex|None, only once the seat changed hands (take_seat, leave)}]
    # read and written as games/rooms/seats.py's Seat, which keeps these keys exactly
    seats: Any = JSONTextField()
    cpus: Any = JSONTextField(default=dict)            # seat (str) -> CPU to_json(): secret
    # The turn being played and each seat's counts of turns, this game: games/rooms/pace.py's
    # Turns (null until the first change that keeps them)
    turns: Any = JSONTextField(null=True, blank=True)
    result: Any = JSONTextField(null=True, blank=True)  # the room-level result once finished
    session: Any = JSONTextField(null=True, blank=True)  # Memory only: games/rooms/sessions.py
    # The current game's commitment and what it hides (games/fairness.py): secret until
    # the game is over. Null for a room made before deals were committed to.
    fairness: Any = JSONTextField(null=True, blank=True)
    next_room = models.CharField(max_length=32, blank=True, default="")
    # The next timed step: step_at is the next CPU move or automatic step; due_at is the
    # earliest of step_at and any seat's takeover time, and is what schedulers look for.
    step_at = models.DateTimeField(null=True, blank=True)
    due_at = models.DateTimeField(null=True, blank=True, db_index=True)
    first_action_at = models.DateTimeField(null=True, blank=True)
    reconnections = models.IntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    # No index on updated_at: every change writes it, and an indexed column that changes makes
    # PostgreSQL write a new entry in every index of the table instead of a heap-only (HOT)
    # update. The hourly cleanup (games/rooms/cleanup.py) walks the rooms by id instead; a room
    # lives a day after its last change, so that walk stays short. The table is also stored
    # with room on each page for a row's next version (migration 0005, fillfactor).

    def __str__(self):
        return f"{self.game} {self.mode} room ({self.status}, v{self.version})"


class RoomEvent(models.Model):
    """The public event that made each version: what a reconnecting client missed."""

    # No index of its own: the (room, version) constraint's index serves every lookup by room,
    # and each event row would otherwise cost two more index entries (one plus its LIKE twin).
    # No foreign-key constraint in the database either: its check (a lookup and a share lock
    # of the room, run at every commit) cost PostgreSQL CPU at every change (figures:
    # bench/results/2026-12-04-latency-tail-and-migrations.md). The statement
    # that writes an event is the one that updates its room (games/rooms/storage.py), so the
    # room exists; rooms are deleted through the ORM, which deletes their events first
    # (on_delete=CASCADE is Django's). The event is written once and read whole: json text.
    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="events", db_index=False,
                             db_constraint=False)
    version = models.IntegerField()
    event = JSONTextField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["room", "version"], name="room_event_version")]

    def __str__(self):
        return f"v{self.version} {self.event.get('type')}"


class FinishedGame(models.Model):
    """The game_finished record (games/signals.py) for operators: one row per really finished
    game, kept so that it cannot be joined to anybody's own record (accounts.GameRecord, the one
    place a finished game is linked to an account): a random key (no order), the hour for its
    times, the statistics' ranges for its number of moves and duration, and per seat only who
    held it and how it ended (games/finished.py). An exact time, count or score would match the
    one game record that has it; so would the transaction, place or order the row was written
    in, so copies are written only by the hourly flush, shuffled (server/hourly_buffer.py)."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    game = models.CharField(max_length=16)
    mode = models.CharField(max_length=16)
    options = models.JSONField()
    cpu_level = models.CharField(max_length=16, blank=True, default="")
    moves = models.CharField(max_length=8)     # a range: games.ranges.GAME_RANGES["move_count"]
    duration = models.CharField(max_length=8)  # a range: games.ranges.GAME_RANGES["duration"]
    started_at = models.DateTimeField()  # the hour (UTC)
    finished_at = models.DateTimeField(db_index=True)  # the hour (UTC)
    seats = models.JSONField()  # [{"seat", "holder", "result", "rank", "resigned"}]
    room_origin = models.CharField(max_length=16, blank=True, default="")
    reconnections = models.PositiveIntegerField(default=0)

    def __str__(self):
        return f"{self.game} {self.mode} finished {self.finished_at:%Y-%m-%d %H:00}"


class ServerProcess(models.Model):
    """A live server process: it writes ``last_seen`` every few seconds (the scheduler's
    heartbeat). Seats count their connections per process (``Room.seats[i]["conns"]``); when a
    process stops beating (SIGKILL, power loss) its connections are gone too, and any live
    process's sweep marks those seats disconnected (games/rooms/service.py ``sweep``)."""

    id = models.CharField(primary_key=True, max_length=32)
    started_at = models.DateTimeField(auto_now_add=True)
    last_seen = models.DateTimeField(db_index=True)

    def __str__(self):
        return f"server process {self.id} (last seen {self.last_seen:%H:%M:%S})"
