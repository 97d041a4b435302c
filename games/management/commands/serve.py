"""``manage.py serve [--host 0.0.0.0] [--port 8000]``: the one documented way to start the site's
server (Makefile, Dockerfile, docker-compose.yml, README "Production").

It runs Daphne in this process, so signals reach it directly and its exit status is the
command's, with the flags the site needs: no access log (the site keeps no record of its
visitors; config/asgi.py scrubs one anyway if another start asks for it), no Server header, and
the WebSocket message size limit of the settings (``DAPHNE_WEBSOCKET_MAX_MESSAGE_SIZE``), and a
deadline for each request's head (``HTTP_HEADER_TIMEOUT``).
"""
import ipaddress
import os
from typing import Any

from daphne.cli import CommandLineInterface
from daphne.server import Server
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from twisted.internet import reactor as twisted_reactor

APPLICATION = "config.asgi:application"
# Twisted's interfaces declare their methods without ``self``, which mypy cannot read.
reactor: Any = twisted_reactor


def limit_head_time(channel, seconds: float) -> None:
    """Aborts the connection of a Twisted ``HTTPChannel`` whose request line and headers take
    longer than ``seconds`` to arrive, counted from the request's first byte. Twisted only
    closes a connection idle for a minute, so a client that sent a byte of header every few
    seconds held a connection (and its memory) for as long as it liked; HAProxy cuts such
    clients after its own ``timeout http-request``, but nothing did where Daphne is reached
    directly. A kept-alive connection waiting for its next request is left to Twisted's idle
    minute (a balancer reuses such connections), and neither the request's body, nor the
    application's answer, nor a WebSocket once upgraded (its head is complete by then) is
    limited by it."""
    timer = None
    awaiting_head = True

    def data_received(data, original=channel.dataReceived):
        nonlocal timer
        if awaiting_head and timer is None:
            timer = reactor.callLater(seconds, lambda: channel.transport and channel.transport.abortConnection())
        original(data)

    def cancel():
        nonlocal timer
        if timer is not None and timer.active():
            timer.cancel()
        timer = None

    def all_headers_received(original=channel.allHeadersReceived):
        nonlocal awaiting_head
        awaiting_head = False
        cancel()
        original()

    def request_done(request, original=channel.requestDone):
        nonlocal awaiting_head
        awaiting_head = True  # the next request on this kept-alive connection has as long
        original(request)

    def connection_lost(reason, original=channel.connectionLost):
        cancel()
        original(reason)

    channel.dataReceived = data_received
    channel.allHeadersReceived = all_headers_received
    channel.requestDone = request_done
    channel.connectionLost = connection_lost


class HeadTimeoutServer(Server):
    """Daphne's server, each of whose HTTP connections gets ``limit_head_time``."""

    def run(self):
        # The factory is made inside Server.run; the reactor calls this before it accepts any
        # connection.
        reactor.callWhenRunning(self._limit_head_time)
        super().run()

    def _limit_head_time(self):
        build = self.http_factory.buildProtocol

        def build_protocol(addr):
            protocol = build(addr)
            limit_head_time(protocol._channel, settings.HTTP_HEADER_TIMEOUT)
            return protocol
        self.http_factory.buildProtocol = build_protocol

    def listen_success(self, port):
        super().listen_success(port)
        # Every log line hides addresses ("Listening on TCP address [address]"): say plainly,
        # once, which URL to open. 0.0.0.0 listens on every address, this machine's included.
        host, number = self.listening_addresses[-1]
        host = "127.0.0.1" if host == "0.0.0.0" else f"[{host}]" if ":" in host else host
        print(f"Card Table is served at http://{host}:{number}/ (open it in a browser).", flush=True)


class SiteCommandLine(CommandLineInterface):
    server_class = HeadTimeoutServer


def daphne_arguments(host: str, port: int) -> list[str]:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        raise CommandError(
            f"--host must be an IP address such as 127.0.0.1 or 0.0.0.0, got {host!r}") from None
    if not 1 <= port <= 65535:
        raise CommandError(f"--port must be between 1 and 65535, got {port}")
    return ["--no-server-name", "--access-log", os.devnull, "--bind", host, "--port", str(port),
            "--websocket-max-message-size", str(settings.DAPHNE_WEBSOCKET_MAX_MESSAGE_SIZE),
            "--websocket-max-frame-size", str(settings.DAPHNE_WEBSOCKET_MAX_FRAME_SIZE),
            APPLICATION]


class Command(BaseCommand):
    help = "Serves the site (HTTP and WebSocket) with Daphne: no access log, no Server header."

    def add_arguments(self, parser):
        parser.add_argument("--host", default="127.0.0.1",
                            help="address to listen on (0.0.0.0 in a container); default 127.0.0.1")
        parser.add_argument("--port", type=int, default=8000, help="default 8000")

    def handle(self, *args, host, port, **options):
        SiteCommandLine().run(daphne_arguments(host, port))
