"""A connection closed for flooding stops being read at once.

games/consumers.py closes a socket that keeps sending over the rate limit with FLOODING. Daphne
would then send the close frame and wait for the client's reply, reading and parsing (and
queueing for the consumer) every frame the flooder kept sending meanwhile, and the other rooms
of the process waited behind them (figures: bench/results/2026-12-06-flood.md). Here the
socket is read no more, Autobahn parses nothing more of what it had read, the close frame goes
out followed by the end of our half of the connection (so the client reads the code: closing a
socket with unread data would reset it instead), and the connection is cut ``CUT_AFTER``
seconds later. The consumer hears the disconnect then, as for any close.
"""
from __future__ import annotations

import asyncio

from autobahn.websocket.protocol import WebSocketProtocol as AutobahnProtocol
from daphne.ws_protocol import WebSocketProtocol

CUT_AFTER = 1.0  # seconds for the client to read the close frame
_daphne_server_close = WebSocketProtocol.serverClose
_codes_that_drop: frozenset[int] = frozenset()


def server_close(self: WebSocketProtocol, code: int | None = None) -> None:
    if code not in _codes_that_drop or self.state != AutobahnProtocol.STATE_OPEN:
        _daphne_server_close(self, code)
        return
    self.transport.pauseProducing()  # the kernel keeps what it has; nothing more is read
    _daphne_server_close(self, code)  # the close frame, written at once or buffered
    self.state = AutobahnProtocol.STATE_CLOSED  # Autobahn's loop over what it read stops
    self.data = b""
    self.transport.loseWriteConnection()  # after the close frame, the end of our half
    asyncio.get_running_loop().call_later(CUT_AFTER, self.transport.abortConnection)  # Daphne's reactor


def drop_after_closing_with(*codes: int) -> None:
    """Idempotent: each start of the server calls it (config/asgi.py)."""
    global _codes_that_drop
    _codes_that_drop = frozenset(codes)
    WebSocketProtocol.serverClose = server_close  # type: ignore[method-assign]
