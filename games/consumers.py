import asyncio
import functools
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable
from typing import ClassVar

from autobahn.exception import Disconnected
from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncJsonWebsocketConsumer, AsyncWebsocketConsumer
from django.contrib.auth import get_user_model

from games import metrics
from games.engines.base import GameError
from games.engines.errors import ErrorCode
from games.rooms import cache, limits, links, replies, service, state_messages
from games.rooms.changes import Outcome
from games.rooms.departures import departures
from games.rooms.fanout import fanout
from games.rooms.messages import HELD_SEATS_CHANGES, MESSAGES, message_type, parse
from games.rooms.seats import seats_held_by
from server.client_address import scope_client_address

log = logging.getLogger(__name__)

MAX_MESSAGE_BYTES = 4096
MAX_MESSAGES_PER_SECOND = 20
MAX_REF_LENGTH = 32
# A connection that sends this many frames in a row over the rate limit is closed with
# FLOODING (docs/protocol.md): past the limit a frame is dropped unread, but still costs the
# process its WebSocket framing and dispatch, so a socket that never slows down must go.
FLOOD_FRAMES = 100
FLOODING = 4429
# Close code when the server failed on a connection (it could not read the room, a message
# raised): reconnect. Not the standard 1011: autobahn sends no code but 1000 and 3000-4999.
SERVER_FAILED = 4500


class WithoutConnectionHop:
    """Channels runs Django's ``close_old_connections`` before every handler: a hop to its one
    shared sync thread for each message. These consumers never use Django's connection on the
    event loop (games/rooms/db.py keeps its own threads' connections; ``database_sync_to_async``
    tidies up around its own calls), so the hop only made every message of the process queue
    for that one thread: it was what grew the latency tail
    (bench/results/2026-11-30-one-process-on-two-cores.md)."""

    async def dispatch(self, message):
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def __call__(self, scope, receive, send):
        """Channels' own loop (``await_many_dispatch``) waits for each message in a task of its
        own, several turns of the event loop a message, while Daphne queues a socket's frames
        as fast as they arrive: a flooding socket's frames piled up faster than they were
        counted, so the consumer saw that it flooded only seconds later. Reading the queue
        directly takes every frame already there without yielding. These consumers have no
        channel layer (``channel_layer_alias = None``), the one thing that loop adds."""
        self.scope = scope
        self.channel_layer = None
        self.base_send = send
        try:
            while True:
                await self.dispatch(await receive())
        except StopConsumer:
            pass


class PingConsumer(WithoutConnectionHop, AsyncJsonWebsocketConsumer):
    """A tiny endpoint that proves WebSockets work end to end: answers ``ping`` with ``pong``."""

    channel_layer_alias = None  # needs no channel of its own

    async def receive_json(self, content, **kwargs):
        if isinstance(content, dict) and content.get("type") == "ping":
            await self.send_json(replies.echo(content.get("echo")))
        else:
            await self.send_json(replies.echo_refused())


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
    service, and sends this connection its own view. Protocol: docs/protocol.md.

    Frames are counted against the rate as they arrive (``receive``) and handled one after
    another by a task of the connection's own (``_work``), so the server learns at once that
    the connection closed, whatever is still queued. Then nothing more is done for it
    (``_let_go``): the queued messages are dropped, the message being handled is cancelled
    but for a room change already under way (``_change_of_room``), and the seats it held are
    handed to games/rooms/departures.py, which takes them off the room whatever happens."""

    # No channel of its own: games/rooms/fanout.py hands it the room's notices (``notice``).
    channel_layer_alias = None
    # Each message type's handler, derived from MESSAGES below the class.
    HANDLERS: ClassVar[dict[str, Callable[..., Awaitable[None]]]]

    async def connect(self):
        self.room_id = self.scope["url_route"]["kwargs"]["room_id"]
        self.token_hash = None
        self.token: str | None = None  # the token its seats are held by (a take-back answers with it)
        self.seats: list[int] = []
        self.greeted = False
        self.sent_version = 0
        self.noticed_version = 0
        self.sending = asyncio.Lock()  # one state at a time, in version order
        self.catching_up: asyncio.Task | None = None
        self.sent_next_room = False
        self.received: deque[float] = deque(maxlen=MAX_MESSAGES_PER_SECOND)  # when the last frames came
        self.over_limit_in_a_row = 0
        self.over_limit_answered_at = float("-inf")
        self.inbox: deque[Callable[[], Awaitable[None]]] = deque()  # frames to handle, in order
        self.working: asyncio.Task | None = None
        self.closed = False
        # While it answers a request of its own, a connection holds the notices of the room's
        # changes (its own among them) until its answer is sent: one state, not two.
        self.answering = False
        await self.accept()
        try:
            await cache.latest(self.room_id)  # the room exists (and is cached from now on)
        except GameError as exc:
            await self._send(replies.error(exc.code, exc.message, 0))
            await self._close_for(4404)
            return
        await fanout.watch(self.room_id, self)

    async def disconnect(self, code):
        if not hasattr(self, "room_id"):
            return
        self._let_go()
        await fanout.unwatch(self.room_id, self)
        if self.working is not None:
            await asyncio.wait([self.working])  # (cancelled by _let_go: only its end is awaited)

    def _let_go(self) -> None:
        """The connection is closed, or about to be: its seats no longer count it, and the work
        it asked for is dropped. Once only; a seat it comes to hold later is let go by ``_hold``."""
        if self.closed:
            return
        self.closed = True
        departures.record(self.room_id, self.seats)
        self.seats = []
        self.inbox.clear()
        for task in (self.working, self.catching_up):
            if task is not None and task is not asyncio.current_task():
                task.cancel()

    def _hold(self, seats: list[int]) -> None:
        """This connection counts in ``seats`` now (a change counted it there)."""
        if self.closed:
            departures.record(self.room_id, seats)
        else:
            self.seats = seats

    async def _change_of_room(self, change: Awaitable[Outcome],
                              counted: Callable[[Outcome], list[int]] = lambda outcome: []) -> Outcome:
        """A room change, run to its end even when this connection closes meanwhile: once sent
        to the database it may commit (and the command then announces it), and the seats it
        ``counted`` this connection in must let it go. Only the wait is cancelled."""
        running = asyncio.ensure_future(change)
        try:
            return await asyncio.shield(running)
        except asyncio.CancelledError:
            running.add_done_callback(functools.partial(self._changed_after_close, counted))
            raise

    def _changed_after_close(self, counted: Callable[[Outcome], list[int]], running: asyncio.Future) -> None:
        if running.cancelled() or running.exception() is not None:
            return  # nothing was written
        departures.record(self.room_id, counted(running.result()))  # (the command announced it)

    # ---- incoming ---------------------------------------------------------------------------

    async def receive(self, text_data=None, bytes_data=None):
        """Every frame: over the rate limit it is dropped unread (answered once a second, and a
        connection that keeps on is closed); else it is queued for ``_work``."""
        if self.closed:
            return
        if self._over_rate_limit():
            self.over_limit_in_a_row += 1
            if self.over_limit_in_a_row >= FLOOD_FRAMES:
                await self._close_for(FLOODING)
            elif self.received[-1] - self.over_limit_answered_at >= 1.0:
                self.over_limit_answered_at = self.received[-1]
                self._queue(functools.partial(
                    self._error, ErrorCode.TOO_MANY_MESSAGES,
                    f"At most {MAX_MESSAGES_PER_SECOND} messages a second; the rest of this second's were ignored.",
                    None))
            return
        self.over_limit_in_a_row = 0
        self._queue(functools.partial(self._handle, text_data))

    def _queue(self, work: Callable[[], Awaitable[None]]) -> None:
        self.inbox.append(work)
        if self.working is None or self.working.done():
            self.working = asyncio.get_running_loop().create_task(self._work())

    async def _work(self) -> None:
        while self.inbox and not self.closed:
            try:
                await self.inbox.popleft()()
            except Exception:
                # Whatever went wrong (a bug, MemoryError), the connection ends cleanly and
                # its seats stop counting it. No room id: logs keep none (telemetry/logs.py).
                log.exception("a room connection's message failed; closing the connection")
                await self._close_for(SERVER_FAILED)

    async def _close_for(self, code: int) -> None:
        self._let_go()
        await self.close(code=code)

    async def _handle(self, text_data: str | None) -> None:
        ref = None
        try:
            if text_data is None:
                raise GameError("Messages are JSON text frames.", ErrorCode.MALFORMED_JSON)
            if len(text_data) > MAX_MESSAGE_BYTES or len(text_data.encode()) > MAX_MESSAGE_BYTES:
                raise GameError(f"A message may be at most {MAX_MESSAGE_BYTES} bytes.", ErrorCode.MESSAGE_TOO_LARGE)
            message = parse(text_data)
            ref = message.get("id")
            if ref is not None and (not isinstance(ref, str) or len(ref) > MAX_REF_LENGTH):
                ref = None
                raise GameError(f"id must be a string of at most {MAX_REF_LENGTH} characters.", ErrorCode.BAD_FIELD)
            schema = message_type(message.get("type"))
            if not (schema.before_hello or self.greeted):
                raise GameError("Send hello first.", ErrorCode.HELLO_REQUIRED)
            schema.check(message)
            self.answering = True
            await self.HANDLERS[message["type"]](self, message, ref)
        except GameError as exc:
            await self._error(exc.code, exc.message, ref)
        finally:
            self.answering = False
            self._catch_up()  # what changed meanwhile, beyond what the answer showed

    def _over_rate_limit(self) -> bool:
        """Counts every frame, refused ones included: over the limit when the last
        ``MAX_MESSAGES_PER_SECOND`` frames before this one all came within a second."""
        now = time.monotonic()
        full = len(self.received) == MAX_MESSAGES_PER_SECOND and self.received[0] > now - 1.0
        self.received.append(now)
        return full

    async def _ping(self, message, ref):
        await self._send(replies.pong(self.sent_version, ref))

    async def _hello(self, message, ref):
        if self.greeted:
            raise GameError("hello was already sent on this connection.", ErrorCode.NOT_ALLOWED)
        token = message.get("token")
        last = message.get("last_version")
        user_id = await database_sync_to_async(_user_id)(self.scope)
        outcome = await self._change_of_room(service.hello.on_loop(self.room_id, token, user_id),
                                             lambda outcome: outcome.reply["seats"])
        self.greeted = True
        if token and outcome.reply["seats"]:  # a token holds seats
            self.token, self.token_hash = token, links.hash_token(token)
            self._hold(outcome.reply["seats"])
        if outcome.reply["bad_token"]:
            lost = outcome.reply["lost_seat"]
            await self._error(ErrorCode.BAD_TOKEN, "That token holds no seat in this room; you are a "
                                           "spectator.", ref, **({"lost_seat": lost} if lost else {}))
        async with self.sending:
            snap = await cache.latest(self.room_id, outcome.room.version)
            missed, resync = None, True
            if last is not None:
                missed = await service.events_after.on_loop(self.room_id, last, snap.version)
                resync = missed is None
            await self._send_state(snap, ref, missed=missed, resync=resync)

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

    async def _held_seats(self, message, ref):
        """start, leave, resign, play_again, new_session, let_cpu_play: the service's command of
        the message's name decides from the seats held."""
        await self._change(ref, HELD_SEATS_COMMANDS[message["type"]], self.room_id, self.seats)

    async def _new_link(self, message, ref):
        user_id = await database_sync_to_async(_user_id)(self.scope)
        wait = await limits.seconds_to_wait(scope_client_address(self.scope), user_id)
        if wait:
            await self._error(ErrorCode.TOO_MANY_ROOMS, limits.refusal(wait), ref, retry_after=wait)
            return
        outcome = await self._change_of_room(service.new_link.on_loop(self.room_id, self.seats))
        reply = outcome.reply
        self.sent_next_room = True
        await self._send(replies.next_room(reply["room_id"], outcome.room.version, seat=reply["seat"],
                                           seat_token=reply["seat_token"], ref=ref))
        await self._send_latest(outcome.room.version, ref)

    async def _change(self, ref, command, *args):
        outcome = await self._change_of_room(command.on_loop(*args))
        await self._send_latest(outcome.room.version, ref)

    async def _take(self, ref, command, *args):
        """join, take_seat: a new seat for this connection, with its new token; or its own seat
        taken back from the CPU (the token it holds it by stays, and the seat counted it already)."""
        outcome = await self._change_of_room(command.on_loop(*args), _newly_counted)
        token = outcome.reply["token"]
        if token is not None:
            self.token, self.token_hash = token, links.hash_token(token)
            self._hold([outcome.reply["seat"]])
        await self._send(replies.joined(outcome.reply["seat"], self.token, outcome.room.version, ref))
        await self._send_latest(outcome.room.version, ref)

    # ---- outgoing ---------------------------------------------------------------------------

    def notice(self, version: int) -> None:
        """The room is at ``version`` now (games/rooms/fanout.py): send this connection its own
        view of it, unless it has seen it already. Several notices in a row send one state."""
        self.noticed_version = max(self.noticed_version, version)
        self._catch_up()

    def _catch_up(self) -> None:
        if (self.greeted and not self.closed and not self.answering and self.noticed_version > self.sent_version
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
            await self._close_for(SERVER_FAILED)

    async def _send_latest(self, version: int, ref=None) -> None:
        """The room's state at ``version`` or later; with ``ref`` (the answer to a request) even
        when this connection has seen that state, so the request gets its answer."""
        async with self.sending:
            snap = await cache.latest(self.room_id, max(version, self.sent_version))
            if ref is not None or snap.version > self.sent_version:
                await self._send_state(snap, ref)

    async def _send_state(self, snap, ref=None, missed=None, resync=None):
        """Call with ``self.sending`` held and ``snap`` no older than what was sent."""
        if self.closed:
            return  # its seats were let go (_let_go): none is this connection's again
        # Seats given up (leave) or taken by someone else are no longer this connection's.
        self.seats = seats_held_by(snap.seats, self.token_hash)
        self.sent_version = max(self.sent_version, snap.version)
        await self._send_text(state_messages.state_text(snap, self.seats, ref, missed, resync))
        if snap.room.next_room and not self.sent_next_room:
            self.sent_next_room = True
            await self._send(replies.next_room(snap.room.next_room, snap.version))

    @metrics.counted_error
    async def _error(self, code, message, ref, **fields):
        await self._send(replies.error(code, message, self.sent_version, ref, **fields))

    async def _send(self, message):
        await self._send_text(replies.text(message))

    async def _send_text(self, text):
        try:
            await self.send(text_data=text)
        except Disconnected:
            # The client went away while its answer was on the way: nothing to tell anyone;
            # the disconnect handler that follows marks its seats.
            pass


def _newly_counted(outcome: Outcome) -> list[int]:
    """The seat a join or take_seat counted the connection in (none when it took its own back)."""
    return [outcome.reply["seat"]] if outcome.reply["token"] is not None else []


# The service command of each held-seats message, and the handler of every message type: both
# derived from games/rooms/messages.py's MESSAGES, the one list of what a client may send.
HELD_SEATS_COMMANDS = {kind: getattr(service, kind) for kind in HELD_SEATS_CHANGES}
RoomConsumer.HANDLERS = {kind: getattr(RoomConsumer, f"_{message.handler}") for kind, message in MESSAGES.items()}
