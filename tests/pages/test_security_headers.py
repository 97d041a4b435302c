"""Every response carries the strict Content-Security-Policy and the Permissions-Policy
(server/headers.py), and no page the site renders holds what that policy refuses: inline
script, <style> blocks, style attributes (SVG included), event-handler attributes or
javascript: URLs. tests/browser/test_csp.py checks the same in a real browser, with the
HTML the scripts build."""
import re
from datetime import UTC, datetime, timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import path

from config.urls import urlpatterns as site_urlpatterns
from games.signals import game_finished

pytestmark = pytest.mark.django_db

EXPECTED_CSP = {
    "default-src": ["'self'"],
    "script-src": ["'self'"],
    "style-src": ["'self'"],
    "img-src": ["'self'"],
    "font-src": ["'self'"],
    "connect-src": ["'self'", "ws://testserver"],
    "object-src": ["'none'"],
    "base-uri": ["'none'"],
    "form-action": ["'self'"],
    "frame-ancestors": ["'none'"],
}


def boom(request):
    raise RuntimeError("a bug in a view")


# The site's own URLs plus one view that fails, for the server-error page.
urlpatterns = [path("boom/", boom), *site_urlpatterns]


def csp(response) -> dict[str, list[str]]:
    header = response.headers["Content-Security-Policy"]
    directives = {}
    for part in header.split(";"):
        name, *sources = part.split()
        assert name not in directives, f"{name} twice in {header!r}"
        directives[name] = sources
    return directives


def permissions(response) -> dict[str, str]:
    return dict(item.strip().split("=", 1) for item in response.headers["Permissions-Policy"].split(","))


SCRIPT = re.compile(r"<script\b([^>]*)>(.*?)</script\s*>", re.S | re.I)
REFUSED = {
    "a <style> block": re.compile(r"<style\b", re.I),
    "a style attribute": re.compile(r"<[^>]*\sstyle\s*=", re.I),
    "an event-handler attribute": re.compile(r"<[^>]*\son[a-z]+\s*=", re.I),
    "a javascript: URL": re.compile(r"javascript:", re.I),
}


def refused_markup(html: str) -> list[str]:
    """What in this page the policy would refuse to apply or run."""
    found = [f"{what}: {m.group(0)[:120]!r}" for what, pattern in REFUSED.items()
             for m in pattern.finditer(html)]
    for m in SCRIPT.finditer(html):
        attributes, body = m.group(1), m.group(2)
        if 'type="application/json"' in attributes:
            continue  # a data block: never executed
        if "src=" not in attributes or body.strip():
            found.append(f"an inline script: {m.group(0)[:120]!r}")
    return found


def assert_strict(response, ws_origin="ws://testserver"):
    assert csp(response) == {**EXPECTED_CSP, "connect-src": ["'self'", ws_origin]}
    policy = permissions(response)
    assert policy["clipboard-write"] == "(self)"  # the invite link's Copy button
    for feature in ("camera", "microphone", "geolocation", "payment", "usb", "fullscreen"):
        assert policy[feature] == "()"
    if response["Content-Type"].startswith("text/html"):
        assert refused_markup(response.content.decode()) == []


def finished_game(user, day):
    finished_at = datetime(2026, 3, day, 15, 9, tzinfo=UTC)
    game_finished.send(sender="rooms", record={
        "game": "memory", "mode": "cpu", "options": {"players": 2, "cards": 24},
        "cpu_level": "easy", "moves": 30, "duration_seconds": 90.0,
        "started_at": finished_at - timedelta(seconds=90), "finished_at": finished_at,
        "seats": [{"seat": 0, "holder": "human", "user_id": user.id, "result": "win", "score": 8,
                   "rank": 1, "resigned": False, "failed_flips": None},
                  {"seat": 1, "holder": "cpu", "user_id": None, "result": "loss", "score": 4,
                   "rank": 2, "resigned": False, "failed_flips": None}],
        "room_origin": None, "reconnections": 0})


@pytest.mark.parametrize("url", [
    "/", "/memory/", "/bozu/", "/gin/", "/memory/rules/", "/bozu/rules/", "/gin/rules/",
    "/r/AbCdEfGhIjKlMnOpQrStUv", "/privacy/", "/accounts/login/", "/accounts/signup/",
    "/accounts/password/reset/", "/admin/login/", "/jsi18n/", "/healthz/live",
    "/static/css/site.css", "/static/js/room/page.js", "/static/img/icon.svg",
])
def test_it_sends_both_policies_with_every_page_and_file(client, url):
    response = client.get(url)
    assert response.status_code == 200
    assert_strict(response)


@pytest.mark.parametrize("url", ["/no-such-page/", "/r/short", "/u/nobody/"])
def test_it_sends_both_policies_with_the_not_found_page(client, url):
    response = client.get(url)
    assert response.status_code == 404
    assert_strict(response)


@pytest.mark.urls(__name__)
def test_it_sends_both_policies_with_the_server_error_page():
    client = Client(raise_request_exception=False)
    response = client.get("/boom/")
    assert response.status_code == 500
    assert b"Something went wrong" in response.content
    assert b'<link rel="stylesheet" href="/static/css/error.css">' in response.content
    assert_strict(response)


def test_it_answers_a_failed_csrf_check_with_a_page_the_policy_allows():
    response = Client(enforce_csrf_checks=True).post("/accounts/login/", {"username": "a", "password": "b"})
    assert response.status_code == 403
    assert b"Form expired" in response.content
    assert_strict(response)


def test_it_names_the_websocket_origin_of_the_request(client, settings):
    settings.ALLOWED_HOSTS = ["cards.example", "[::1]"]
    assert csp(client.get("/", HTTP_HOST="cards.example:8000"))["connect-src"] == ["'self'", "ws://cards.example:8000"]
    # Behind the TLS proxy the page opens wss:// (settings.SECURE_PROXY_SSL_HEADER in production).
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    secure = client.get("/", HTTP_HOST="cards.example", HTTP_X_FORWARDED_PROTO="https")
    assert_strict(secure, ws_origin="wss://cards.example")
    # CSP has no way to write an IPv6 literal; 'self' covers the socket in current browsers.
    assert csp(client.get("/", HTTP_HOST="[::1]:8000"))["connect-src"] == ["'self'"]


def test_it_still_sends_the_policy_when_the_host_is_not_allowed(client):
    response = client.get("/", HTTP_HOST="evil.example")
    assert response.status_code == 400
    assert csp(response)["connect-src"] == ["'self'"]
    assert csp(response)["script-src"] == ["'self'"]


def test_it_keeps_the_account_pages_and_the_results_chart_within_the_policy(client):
    user = User.objects.create_user("chartist", password="correct horse battery")
    for day in (10, 11, 13):
        finished_game(user, day)
    client.force_login(user)
    me = client.get("/accounts/me/")
    assert b"<svg" in me.content and b'class="seg-win"' in me.content  # the chart is drawn
    assert_strict(me)
    for url in ("/accounts/password/change/", "/accounts/me/delete/"):
        assert_strict(client.get(url))


def test_it_keeps_the_admin_within_the_policy(admin_client):
    for url in ("/admin/", "/admin/games/room/", "/admin/games/finishedgame/", "/admin/auth/user/",
                "/admin/auth/user/add/", "/admin/telemetry/event/"):
        response = admin_client.get(url)
        assert response.status_code == 200, url
        assert_strict(response)
    dashboard = admin_client.get("/admin/telemetry/event/").content.decode()
    assert '<link rel="stylesheet" href="/static/css/telemetry-dashboard.css">' in dashboard


def test_it_finds_what_the_policy_refuses():
    """The page check above can fail: each kind of refused markup is found."""
    assert refused_markup('<p style="color: red">x</p>')
    assert refused_markup('<svg><rect style="fill: red"/></svg>')
    assert refused_markup("<style>p {}</style>")
    assert refused_markup('<button onclick="go()">')
    assert refused_markup('<a href="javascript:go()">')
    assert refused_markup("<script>go()</script>")
    assert refused_markup('<script src="/static/x.js">go()</script>')
    assert refused_markup('<script id="telemetry-config" type="application/json">{}</script>'
                          '<script type="module" src="/static/js/menu.js"></script>') == []
