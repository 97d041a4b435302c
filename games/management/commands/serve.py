"""``manage.py serve [--host 0.0.0.0] [--port 8000]``: the one documented way to start the site's
server (Makefile, Dockerfile, docker-compose.yml, README "Production").

It runs Daphne in this process, so signals reach it directly and its exit status is the
command's, with the flags the site needs: no access log (the site keeps no record of its
visitors; config/asgi.py scrubs one anyway if another start asks for it), no Server header, and
the WebSocket message size limit of the settings (``DAPHNE_WEBSOCKET_MAX_MESSAGE_SIZE``).
"""
import ipaddress
import os

from daphne.cli import CommandLineInterface
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

APPLICATION = "config.asgi:application"


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
        CommandLineInterface().run(daphne_arguments(host, port))
