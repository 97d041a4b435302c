"""The connections Daphne accepts send what they are given at once when nothing is waiting.

Twisted's ``FileDescriptor.write`` never sends: it appends to the connection's buffer and
registers the socket with the event loop, whose next turn sends the buffer and unregisters the
socket again. Under the asyncio reactor Daphne runs on, every WebSocket frame then costs two
``epoll_ctl`` calls, a turn of the loop and asyncio's bookkeeping for a writer (figures:
bench/results/2026-12-01-write-through.md).

``write`` below sends at once when the connection has nothing buffered, no close is under way
and no producer needs telling (none, or a streaming one that is not paused: the HTTP channel a
WebSocket was upgraded from stays registered as one). Whatever the kernel does not take, and
everything written while data is waiting, goes into Twisted's buffer by Twisted's own ``write``,
so bytes keep their order and flow control is Twisted's; so does every write once TLS is started
on the connection. A send that fails goes that way too: the reactor's ``doWrite`` meets the same
error and closes the connection as before.
"""
from __future__ import annotations

from twisted.internet import tcp

# Twisted's own write: TLS started on the connection, else the buffer. Server is patched, not
# Connection, so this stays the original whenever the module is imported.
_twisted_write = tcp.Connection.write


def write(self: tcp.Connection, data: bytes) -> None:
    if (not self.TLS and type(data) is bytes and data and self.connected and not self.disconnecting
            and not self._writeDisconnected and not self._aborting
            and not self._tempDataBuffer and self.offset == len(self.dataBuffer)
            and (self.producer is None or (self.streamingProducer and not self.producerPaused))):
        sent = self.writeSomeData(data)
        if isinstance(sent, int) and sent >= 0:  # else the connection is lost: Twisted's path
            if sent == len(data):
                return
            data = data[sent:]
    _twisted_write(self, data)


def send_without_waiting() -> None:
    """Idempotent: each start of the server calls it (config/asgi.py)."""
    tcp.Server.write = write  # type: ignore[method-assign,assignment]
