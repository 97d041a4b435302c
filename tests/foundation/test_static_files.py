"""Static files as production serves them (server/static_storage.py, games/webapp.py): every ES
module under a hashed name that its importers and the room page's preload links use too, each
cached for a year; pages, /jsi18n/ compressed; the JavaScript catalog under a versioned URL
cached for a year; a web manifest with icons, so a phone can install the site.

The files are collected once, by `collectstatic` with the production storage, into a folder of
the test's own; the site then runs in this process with DEBUG off on that folder."""
import gzip
import json
import posixpath
import re
import struct
import subprocess
import sys

import pytest
from django.test import Client

from tests.live import PROJECT, embedded_env

pytestmark = pytest.mark.django_db(transaction=True)  # rooms are written on their own database thread

STORAGE = "server.static_storage.HashedModulesStaticFilesStorage"
RELATIVE_IMPORT = re.compile(r"""^\s*(?:import|export)\b[^"'();]*?["'](\.{1,2}/[^"']+\.js)["']""", re.M)
HASHED = re.compile(r"\.[0-9a-f]{12}\.(js|css|png|svg)$")
A_YEAR_IMMUTABLE = "max-age=315360000, public, immutable"  # WhiteNoise's for a hashed file


@pytest.fixture(scope="module")
def collected(tmp_path_factory):
    root = tmp_path_factory.mktemp("staticfiles")
    script = ("import django; django.setup(); from django.conf import settings; "
              f"settings.STATIC_ROOT = {str(root)!r}; "
              "from django.core.management import call_command; "
              "call_command('collectstatic', '--noinput', verbosity=0)")
    env = embedded_env(root, DEBUG="0", SECRET_KEY="s" * 20 + "0123456789abcdefghijklmnopqrstuvwxyz",
                       DJANGO_SETTINGS_MODULE="config.settings")
    run = subprocess.run([sys.executable, "-c", script], cwd=PROJECT, env=env, capture_output=True, text=True,
                         timeout=300)
    assert run.returncode == 0, run.stderr
    return root


@pytest.fixture
def production(collected, settings):
    settings.DEBUG = False
    settings.STATIC_ROOT = collected
    settings.STORAGES = {**settings.STORAGES, "staticfiles": {"BACKEND": STORAGE}}
    settings.WHITENOISE_USE_FINDERS = False
    settings.WHITENOISE_AUTOREFRESH = False
    return Client()  # a new client: its WhiteNoise reads the folder above


def manifest(collected):
    return json.loads((collected / "staticfiles.json").read_text())["paths"]


def test_every_module_imports_the_others_by_their_hashed_names(collected):
    paths = manifest(collected)
    hashed = set(paths.values())
    imports = 0
    for name, stored in paths.items():
        if not name.endswith(".js"):
            continue
        for imported in RELATIVE_IMPORT.findall((collected / stored).read_text()):
            target = posixpath.normpath(posixpath.join(posixpath.dirname(stored), imported))
            assert target in hashed, f"{stored} imports {imported}"
            assert target != stored
            imports += 1
    assert imports > 30  # every module of site/js/room and games is among them


def test_the_room_page_names_hashed_modules_each_cached_for_a_year(production):
    created = production.post("/api/rooms", json.dumps({"game": "memory", "mode": "cpu"}),
                              content_type="application/json")
    assert created.status_code == 201
    page = production.get(created.json()["invite_url"]).content.decode()
    preloads = re.findall(r'<link rel="modulepreload" href="([^"]+)">', page)
    renderer = re.search(r'data-renderer="([^"]+)"', page).group(1)
    assert renderer in preloads and re.fullmatch(r"/static/js/games/memory\.[0-9a-f]{12}\.js", renderer)
    scripts = re.findall(r'<script type="module" src="([^"]+)">', page)
    styles = re.findall(r'<link rel="stylesheet" href="([^"]+)">', page)
    for url in preloads + scripts + styles:
        assert HASHED.search(url), url
        response = production.get(url, HTTP_ACCEPT_ENCODING="gzip, br")
        assert response.status_code == 200, url
        assert response["Cache-Control"] == A_YEAR_IMMUTABLE, url
        assert response["Content-Encoding"] in ("gzip", "br"), url


def test_pages_and_the_javascript_catalog_are_compressed(production):
    for path in ("/", "/memory/"):
        response = production.get(path, HTTP_ACCEPT_ENCODING="gzip")
        assert response["Content-Encoding"] == "gzip", path
        assert b"Memory" in gzip.decompress(response.content)
    page = production.get("/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    catalog = re.search(r'<script src="(/jsi18n/\?v=[0-9a-f]{12})"></script>', page).group(1)
    response = production.get(catalog, HTTP_ACCEPT_ENCODING="gzip", HTTP_ACCEPT_LANGUAGE="de")
    assert response["Content-Encoding"] == "gzip"
    assert "max-age=31536000" in response["Cache-Control"] and "immutable" in response["Cache-Control"]
    assert b"django.catalog" in gzip.decompress(response.content)
    # Another language is another URL; an old page's version gets today's catalog, not cached.
    english = re.search(r'<script src="(/jsi18n/\?v=[0-9a-f]{12})"></script>',
                        production.get("/", HTTP_ACCEPT_LANGUAGE="en").content.decode()).group(1)
    assert english != catalog
    stale = production.get("/jsi18n/?v=000000000000", HTTP_ACCEPT_LANGUAGE="de")
    assert stale.status_code == 200 and stale["Cache-Control"] == "no-cache"


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def test_the_web_manifest_makes_the_site_installable(production):
    page = production.get("/").content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page
    response = production.get("/manifest.webmanifest", HTTP_ACCEPT_LANGUAGE="ja")
    assert response["Content-Type"] == "application/manifest+json"
    app = json.loads(response.content)
    # What a browser requires to offer installing: a name, a start URL within its scope, a
    # standalone display, and icons of 192 and 512 pixels.
    assert app["name"] == app["short_name"] != "Card Table"  # in the page's language
    assert (app["start_url"], app["scope"], app["display"]) == ("/", "/", "standalone")
    pngs = {icon["sizes"]: icon["src"] for icon in app["icons"] if icon["type"] == "image/png"}
    assert set(pngs) == {"192x192", "512x512"}
    for sizes, url in pngs.items():
        icon = production.get(url)
        assert icon.status_code == 200 and icon["Cache-Control"] == A_YEAR_IMMUTABLE
        assert png_size(b"".join(icon.streaming_content)) == tuple(int(n) for n in sizes.split("x"))
