"""Each app owns its URLs; this file only mounts them."""
from django.contrib import admin
from django.urls import include, path

from games import health

handler500 = "server.errors.server_error"

urlpatterns = [
    path("healthz", health.ready, name="healthz"),  # the name first used: the same check as ready
    path("healthz/live", health.live, name="healthz-live"),
    path("healthz/ready", health.ready, name="healthz-ready"),
    path("admin/", admin.site.urls),
    path("api/", include("games.api_urls")),
    path("accounts/", include("accounts.urls")),
    path("", include("accounts.public_urls")),  # /u/<username>/
    path("", include("accounts.review_urls")),  # /replays/<record id>/review.json, verify.json, replay.json
    path("", include("telemetry.urls")),        # /telemetry/events, /privacy/
    path("", include("games.page_urls")),       # home, game menus and rules, /r/<room id>
]
