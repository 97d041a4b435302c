import asyncio
import json
import logging
import time
from collections import deque

from autobahn.exception import Disconnected
from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer, AsyncWebsocketConsumer
from django.contrib.auth import get_user_model

from config.client_address import scope_client_address
from games import metrics
from games.engines.base import GameError
from games.rooms import db, limits, service, snapshots
from games.rooms.fanout import fanout
from games.rooms.messages import message_type
from games.rooms.scheduler import announce
from games.rooms.seats import seats_held_by

log = logging.getLogger(__name__)

MAX_MESSAGE_BYTES = 4096
MAX_MESSAGES_PER_SECOND = 20
MAX_REF_LENGTH = 32


class WithoutConnectionHop:
    """Channels runs Django's ``close_old_connections`` before every handler: a hop to its one
    shared sync thread for each message. These consumers never use Django's connection on the
    event loop (games/rooms/db.py keeps its own threads' connections; ``database_sync_to_async``
    tidies up around its own calls), so the hop only made every message of the process queue
    for that one thread: it was what grew the latency tail in bench/ws_load.py."""

    async def dispatch(self, message):
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)


class PingConsumer(WithoutConnectionHop, AsyncJsonWebsocketConsumer):
    """A tiny endpoint that proves WebSockets work end to end: answers ``ping`` with ``pong``."""

    channel_layer_alias = None  # needs no channel of its own

    async def receive_json(self, content, **kwargs):
        if isinstance(content, dict) and content.get("type") == "ping":
            await self.send_json({"type": "pong", "echo": content.get("echo")})
        else:
            await self.send_json({"type": "error", "code": "unknown_type",
                                  "message": "Send {\"type\": \"ping\"}."})


HELD_SEATS_CHANGES = {"start": service.start, "leave": service.leave, "resign": service.resign,
                      "play_again": service.play_again, "new_session": service.new_session}


def _user_id(scope) -> int | None:
    user = scope.get("user")
    if user is None or not user.is_authenticated:
        return None
    # A connection keeps the user it was opened with: once that account is deleted
    # (accounts/deletion.py), the seats it takes or greets must not name it again.
    return user.pk if get_user_model().objects.filter(pk=user.pk, is_active=True).exists() else None


class RoomConsumer(WithoutConnectionHop, AsyncWebsocketConsumer):
    """/ws/rooms/<room_id>/: parses each message, checks it against its schema
    (games/rooms/messages.py), hands it to its handler (``HANDLERS``), which asks the room
    service, and sends this connection its own view. Protocol: docs/protocol.md."""

    # No channel of its own: games/rooms/fanout.py hands it the room's notices (``notice``).
    channel_layer_alias = None

    async def connect(self):
        self.room_id = self.scope["url_route"]["kwargs"]["room_id"]
        self.token_hash = None
        self.seats: list[int] = []
        self.greeted = False
        self.sent_version = 0
        self.noticed_version = 0
        self.sending = asyncio.Lock()  # one state at a time, in version order
        self.catching_up: asyncio.Task | None = None
        self.sent_next_room = False
        self.received: deque[float] = deque()  # when the last second's messages came
        await self.accept()
        try:
            await snapshots.snapshot(self.room_id)  # the room exists (and is cached from now on)
        except GameError as exc:
            await self._send({"type": "error", "code": exc.code, "message": exc.message, "version": 0})
            await self.close(code=4404)
            return
        await fanout.watch(self.room_id, self)

    async def disconnect(self, code):
        if not hasattr(self, "room_id"):
            return
        await fanout.unwatch(self.room_id, self)
        if self.seats:
            held, self.seats = self.seats, []
            try:
                announce(await service.disconnect.on_loop(self.room_id, held), self)
            except GameError:
                pass  # the room is gone or the database is down: nothing to mark

    # ---- incoming ---------------------------------------------------------------------------

    async def receive(self, text_data=None, bytes_data=None):
        ref = None
        try:
            limited = self._over_rate_limit()
            if text_data is None:
                raise GameError("Messages are JSON text frames.", "malformed_json")
            if len(text_data.encode()) > MAX_MESSAGE_BYTES:
                raise GameError(f"A message may be at most {MAX_MESSAGE_BYTES} bytes.", "message_too_large")
            try:
                message = json.loads(text_data)
            except ValueError:
                raise GameError("That message is not valid JSON.", "malformed_json") from None
            if not isinstance(message, dict):
                raise GameError("A message must be a JSON object.", "malformed_json")
            ref = message.get("id")
            if ref is not None and (not isinstance(ref, str) or len(ref) > MAX_REF_LENGTH):
                ref = None
                raise GameError(f"id must be a string of at most {MAX_REF_LENGTH} characters.", "bad_field")
            if limited:
                raise GameError(f"At most {MAX_MESSAGES_PER_SECOND} messages a second; this one was ignored.",
                                "too_many_messages")
            schema = message_type(message.get("type"))
            if not (schema.before_hello or self.greeted):
                raise GameError("Send hello first.", "hello_required")
            schema.check(message)
            await self.HANDLERS[message["type"]](self, message, ref)
        except GameError as exc:
            await self._error(exc.code, exc.message, ref)

    def _over_rate_limit(self) -> bool:
        """Counts every frame, refused ones included, in a sliding one-second window."""
        now = time.monotonic()
        while self.received and self.received[0] <= now - 1.0:
            self.received.popleft()
        self.received.append(now)
        return len(self.received) > MAX_MESSAGES_PER_SECOND

    async def _ping(self, message, ref):
        await self._send({"type": "pong", "version": self.sent_version, **_ref(ref)})

    async def _hello(self, message, ref):
        if self.greeted:
            raise GameError("hello was already sent on this connection.", "not_allowed")
        token = message.get("token")
        last = message.get("last_version")
        user_id = await database_sync_to_async(_user_id)(self.scope)
        outcome = await db.call(service.hello, self.room_id, token, user_id)
        self.greeted = True
        if token and outcome.reply["seats"]:  # a token holds seats
            self.token_hash = service.hash_token(token)
            self.seats = outcome.reply["seats"]
        announce(outcome, self)
        if outcome.reply["bad_token"]:
            lost = outcome.reply["lost_seat"]
            await self._error("bad_token", "That token holds no seat in this room; you are a "
                                           "spectator.", ref, **({"lost_seat": lost} if lost else {}))
        async with self.sending:
            snap = await snapshots.snapshot(self.room_id, outcome.room.version)
            missed, resync = None, True
            if last is not None:
                missed = await db.call(service.events_after, self.room_id, last, snap.version)
                resync = missed is None
            await self._send_state(snap, ref, missed=missed, resync=resync)
        self._catch_up()  # changes noticed before hello was answered

    @metrics.timed_action
    async def _action(self, message, ref):
        await self._change(ref, service.act, self.room_id, self.seats, message["action"],
                           message.get("seat"), message.get("version"))

    async def _join(self, message, ref):
        user_id = await database_sync_to_async(_user_id)(self.scope)
        await self._take(ref, service.join, self.room_id, user_id, self.seats)

    async def _take_seat(self, message, ref):
        user_id = await database_sync_to_async(_user_id)(self.scope)
        await self._take(ref, service.take_seat, self.room_id, message["seat"], user_id, self.seats)

    async def _held_seats_change(self, message, ref):
        """start, leave, resign, play_again, new_session: the service decides from the seats held."""
        await self._change(ref, HELD_SEATS_CHANGES[message["type"]], self.room_id, self.seats)

    async def _new_link(self, message, ref):
        user_id = await database_sync_to_async(_user_id)(self.scope)
        wait = await limits.seconds_to_wait(scope_client_address(self.scope), user_id)
        if wait:
            await self._error("too_many_rooms", limits.refusal(wait), ref, retry_after=wait)
            return
        outcome = await db.call(service.new_link, self.room_id, self.seats)
        reply = outcome.reply
        announce(outcome, self)
        self.sent_next_room = True
        await self._send({"type": "next_room", "invite_url": service.invite_url(reply["room_id"]),
                          "room_id": reply["room_id"], "seat": reply["seat"],
                          "seat_token": reply["seat_token"], "version": outcome.room.version,
                          **_ref(ref)})
        await self._send_latest(outcome.room.version, ref)

    async def _change(self, ref, command, *args):
        outcome = await command.on_loop(*args)
        announce(outcome, self)
        await self._send_latest(outcome.room.version, ref)

    async def _take(self, ref, function, *args):
        outcome = await db.call(function, *args)
        token = outcome.reply["token"]
        self.token_hash = service.hash_token(token)
        self.seats = [outcome.reply["seat"]]
        announce(outcome, self)
        await self._send({"type": "joined", "seat": outcome.reply["seat"], "token": token,
                          "version": outcome.room.version, **_ref(ref)})
        await self._send_latest(outcome.room.version, ref)

    # One handler per message type of games/rooms/messages.py's MESSAGES, called with the
    # message already checked against its schema.
    HANDLERS = {
        "hello": _hello,
        "action": _action,
        "join": _join,
        "take_seat": _take_seat,
        "start": _held_seats_change,
        "leave": _held_seats_change,
        "resign": _held_seats_change,
        "play_again": _held_seats_change,
        "new_session": _held_seats_change,
        "new_link": _new_link,
        "ping": _ping,
    }

    # ---- outgoing ---------------------------------------------------------------------------

    def notice(self, version: int) -> None:
        """The room is at ``version`` now (games/rooms/fanout.py): send this connection its own
        view of it, unless it has seen it already. Several notices in a row send one state."""
        self.noticed_version = max(self.noticed_version, version)
        self._catch_up()

    def _catch_up(self) -> None:
        if (self.greeted and self.noticed_version > self.sent_version
                and (self.catching_up is None or self.catching_up.done())):
            self.catching_up = asyncio.get_running_loop().create_task(self._send_noticed())

    async def _send_noticed(self) -> None:
        try:
            while self.noticed_version > self.sent_version:
                sent = self.sent_version
                await self._send_latest(self.noticed_version)
                if self.sent_version == sent:
                    break  # the database holds nothing newer (the room was reset): stop asking
        except Exception:
            # The room could not be read (database down?): the client reconnects and resyncs.
            # No room id: it is the room's only key, and logs keep none (telemetry/logs.py).
            log.warning("could not send a room's new state", exc_info=True)
            await self.close(code=1011)

    async def _send_latest(self, version: int, ref=None) -> None:
        """The room's state at ``version`` or later; with ``ref`` (the answer to a request) even
        when this connection has seen that state, so the request gets its answer."""
        async with self.sending:
            snap = await snapshots.snapshot(self.room_id, max(version, self.sent_version))
            if ref is not None or snap.version > self.sent_version:
                await self._send_state(snap, ref)

    async def _send_state(self, snap, ref=None, missed=None, resync=None):
        """Call with ``self.sending`` held and ``snap`` no older than what was sent."""
        # Seats given up (leave) or taken by someone else are no longer this connection's.
        self.seats = seats_held_by(snap.seats, self.token_hash)
        self.sent_version = max(self.sent_version, snap.version)
        await self._send_text(snapshots.state_text(snap, self.seats, ref, missed, resync))
        if snap.room.next_room and not self.sent_next_room:
            self.sent_next_room = True
            await self._send({"type": "next_room", "invite_url": service.invite_url(snap.room.next_room),
                              "room_id": snap.room.next_room, "version": snap.version})

    @metrics.counted_error
    async def _error(self, code, message, ref, **fields):
        await self._send({"type": "error", "code": code, "message": message,
                          "version": self.sent_version, **fields, **_ref(ref)})

    async def _send(self, message):
        await self._send_text(json.dumps(message, separators=(",", ":")))

    async def _send_text(self, text):
        try:
            await self.send(text_data=text)
        except Disconnected:
            # The client went away while its answer was on the way: nothing to tell anyone;
            # the disconnect handler that follows marks its seats.
            pass


def _ref(ref):
    return {"ref": ref} if ref is not None else {}
