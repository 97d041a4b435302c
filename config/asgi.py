"""HTTP and WebSocket on one ASGI application, served by Daphne."""
import gc
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_asgi_app = get_asgi_application()  # before importing anything that touches models

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from config.routing import websocket_urlpatterns  # noqa: E402
from games.consumers import FLOODING  # noqa: E402
from games.metrics import with_metrics  # noqa: E402
from games.rooms.scheduler import start_when_reactor_runs, with_scheduler  # noqa: E402
from server.autobahn_debug import defer_debug_formatting  # noqa: E402
from server.flood_close import drop_after_closing_with  # noqa: E402
from server.websocket_auth import websocket_auth  # noqa: E402
from server.write_through import send_without_waiting  # noqa: E402
from telemetry.errors import with_error_reports  # noqa: E402
from telemetry.logs import keep_server_logs_anonymous  # noqa: E402

# Daphne's access log writes to a stream, past LOGGING: every start of the server (`daphne` with
# any flags, `manage.py serve`, `runserver`) imports this module before it builds its server, so
# the log gets no client address, room id or token, whatever --access-log says.
keep_server_logs_anonymous()
# Autobahn's debug lines are formatted only when written, not for every frame (server/autobahn_debug.py).
defer_debug_formatting()
# A frame goes to the socket at once when nothing is waiting, not on the loop's next turn.
send_without_waiting()
# A socket closed for flooding is dropped once its close frame is out, not read any longer.
drop_after_closing_with(FLOODING)

# with_scheduler: every server process runs the rooms' timed steps (games/rooms/scheduler.py).
# with_metrics: GET /metrics answered before Django, for the operators' scraper (games/metrics.py).
application = with_scheduler(ProtocolTypeRouter({
    "http": with_metrics(django_asgi_app),
    # with_error_reports: a room connection's exception reported scrubbed, when SENTRY_DSN is set.
    "websocket": with_error_reports(AllowedHostsOriginValidator(websocket_auth(URLRouter(websocket_urlpatterns)))),
}))
start_when_reactor_runs()

# Celery beat's tasks when there is no beat (embedded default): server/embedded_beat.py.
from server.embedded_beat import start_embedded_beat  # noqa: E402

start_embedded_beat()

# Garbage collection for a long-running server. Everything loaded so far (Django, the apps,
# the engines' tables) lives as long as the process: freezing it keeps every full collection
# from walking it again. And a young generation of 50,000 objects instead of 700 lets the
# objects of messages in flight die young instead of being promoted and walked by full
# collections: those full collections were the stalls behind the latency tail (figures:
# bench/results/2026-11-30-one-process-on-two-cores.md).
from config.env import env_int  # noqa: E402

gc.freeze()
gc.set_threshold(env_int("GC_GEN0_THRESHOLD", 50_000), 20, 20)
