"""HTTP and WebSocket on one ASGI application, served by Daphne."""
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_asgi_app = get_asgi_application()  # before importing anything that touches models

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from config.routing import websocket_urlpatterns  # noqa: E402
from games.rooms.scheduler import start_when_reactor_runs, with_scheduler  # noqa: E402

# with_scheduler: every server process runs the rooms' timed steps (games/rooms/scheduler.py).
application = with_scheduler(ProtocolTypeRouter({
    "http": django_asgi_app,
    "websocket": AllowedHostsOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
}))
start_when_reactor_runs()

# The daily telemetry purge when there is no Celery beat (embedded default): telemetry/schedule.py.
from telemetry.schedule import start_embedded_purge_schedule  # noqa: E402

start_embedded_purge_schedule()
