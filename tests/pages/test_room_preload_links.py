"""The room page names the ES modules its script will import (<link rel="modulepreload">), so a
phone fetches them at once rather than one import level after another (games/module_preloads.py)."""
import json
import re

import pytest

pytestmark = pytest.mark.django_db(transaction=True)  # rooms are written on their own database thread


def preloads(client, url):
    return re.findall(r'<link rel="modulepreload" href="([^"]+)">', client.get(url).content.decode())


def new_room(client, game):
    response = client.post("/api/rooms", json.dumps({"game": game, "mode": "cpu"}), content_type="application/json")
    assert response.status_code == 201
    return response.json()["invite_url"]


@pytest.mark.parametrize("game", ["memory", "bozu", "gin"])
def test_it_preloads_the_room_script_s_imports_and_its_own_game_only(client, game):
    urls = preloads(client, new_room(client, game))
    assert len(urls) == len(set(urls))
    for module in ("room/client.js", "room/table.js", "dom.js", "i18n.js", "errors.js", f"games/{game}.js"):
        assert f"/static/js/{module}" in urls
    assert "/static/js/games/common.js" in urls  # imported by every game's renderer
    assert not [u for u in urls if re.search(r"/games/(memory|bozu|gin)\.js$", u) and game not in u]
    assert "/static/js/room/page.js" not in urls  # its own <script> tag loads it


def test_an_unknown_room_preloads_no_game(client):
    urls = preloads(client, "/r/AbCdEfGhIjKlMnOpQrStUv")
    assert "/static/js/room/client.js" in urls
    assert not [u for u in urls if "/games/" in u]
