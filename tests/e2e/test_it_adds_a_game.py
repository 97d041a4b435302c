"""Adding a game is one engine module, one CPU module and one GameSpec (games/specs.py). A toy
fourth game that lives only in the tests (tests/e2e/higher_card*.py) is registered through
the EXTRA_GAMES setting of live servers, then played the way a visitor plays: its menu page,
the menu's room creation, and a real WebSocket through to the result and the room's session of
two games, kept through the engine contract's session hook. No other file names it."""
from __future__ import annotations

import json
import subprocess
import sys
import urllib.error
import urllib.request
from html.parser import HTMLParser

import pytest

from games import specs
from tests.e2e.conftest import make_site, two_process_backends
from tests.e2e.higher_card_game import HIGHER_CARD
from tests.live import PROJECT
from tests.rooms.helpers import close_all, connect, create_room, play

EXTRA_GAMES = "tests.e2e.higher_card_game.HIGHER_CARD"


@pytest.fixture(scope="module", params=two_process_backends())
def toy_site(request, tmp_path_factory):
    made, cleanup = make_site(request.param, tmp_path_factory.mktemp(f"toy-{request.param}"),
                              EXTRA_GAMES=EXTRA_GAMES)
    try:
        yield made
    finally:
        cleanup()


@pytest.fixture
def registered():
    """The toy game in this process too (the bot finds its CPU through its GameSpec), and only
    for this test: the other tests list exactly the site's own games."""
    specs.register(HIGHER_CARD)
    yield HIGHER_CARD
    specs.unregister(HIGHER_CARD.name)


class MenuForm(HTMLParser):
    """Reads a game menu page as site/js/menu.js does: the form's game, each option field's
    value as the page would send it, the checked CPU level and the mode buttons."""

    def __init__(self):
        super().__init__()
        self.game = None
        self.options: dict = {}
        self.level = None
        self.modes: list[str] = []
        self.nav: list[str] = []
        self.specs_json = None
        self._select = None
        self._in_specs = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form" and "menu" in (a.get("class") or "").split():
            self.game = a["data-game"]
        elif tag == "select" and "data-option" in a:
            self._select = (a["data-option"], a["data-type"])
        elif tag == "option" and self._select and "selected" in a:
            key, kind = self._select
            self.options[key] = int(a["value"]) if kind == "int" else a["value"]
        elif tag == "input" and a.get("name") == "cpu_level" and "checked" in a:
            self.level = a["value"]
        elif tag == "button" and "data-mode" in a:
            self.modes.append(a["data-mode"])
        elif tag == "a" and self.nav is not None and a.get("href", "").endswith("/") and \
                a.get("href", "").count("/") == 2:
            self.nav.append(a["href"])
        elif tag == "script" and a.get("id") == "game-specs":
            self._in_specs = True

    def handle_endtag(self, tag):
        if tag == "select":
            self._select = None
        elif tag == "script":
            self._in_specs = False

    def handle_data(self, data):
        if self._in_specs:
            self.specs_json = json.loads(data)


def read_menu(url: str) -> MenuForm:
    with urllib.request.urlopen(url, timeout=10) as response:
        assert response.status == 200
        form = MenuForm()
        form.feed(response.read().decode())
    return form


async def test_it_plays_a_game_registered_from_its_spec_alone(toy_site, registered):
    menu = read_menu(f"{toy_site.url}/higher_card/")
    # The menu, the nav and the page's game data come from its GameSpec alone.
    assert menu.game == "higher_card"
    assert menu.options == {"highest": 10}
    assert menu.level == "only" and menu.modes == ["cpu", "friends"]
    assert "/higher_card/" in menu.nav
    assert menu.specs_json["higher_card"]["options"][0]["choices"] == [
        {"value": 10, "off_when": []}, {"value": 5, "off_when": []}]
    # The toy game has no rules page, and its name claims nothing under it.
    with pytest.raises(urllib.error.HTTPError) as missing:
        urllib.request.urlopen(f"{toy_site.url}/higher_card/rules/", timeout=10)
    assert missing.value.code == 404

    # What the menu posts (site/js/menu.js): its game, mode, options, level and origin.
    created = create_room(toy_site.url, menu.game, menu.modes[0], menu.options, menu.level, "menu")
    player = await connect(toy_site.url, created["room_id"], created["seat_token"])
    watcher = await connect(toy_site.url_for(1), created["room_id"])
    try:
        final = await play(player, menu.level)
        seen = await watcher.wait_for(lambda s: s["room"]["status"] == "finished", 30)
        # The GameSpec keeps a session, and the room sums it from the engine's session_tally alone.
        await player.request("play_again")
        again = await play(player, menu.level)
        seen_again = await watcher.wait_for(lambda s: s["room"]["session"]["games"] == 2, 30)
    finally:
        await close_all(player, watcher)
    result = final["room"]["result"]
    cards = final["view"]["cards"]
    assert all(1 <= card <= 10 for card in cards) and result["scores"] == cards
    assert result["winners"] == ([0, 1] if cards[0] == cards[1] else [cards.index(max(cards))])
    assert seen["view"]["cards"] == cards  # both cards were shown to everyone at the end
    rows = toy_site.query_until(lambda rows: len(rows) == 2,
                                "SELECT game, mode, options FROM games_finishedgame WHERE game = %s", ("higher_card",))
    assert [(game, mode) for game, mode, _options in rows] == [("higher_card", "cpu")] * 2

    games = [final, again]
    session = again["room"]["session"]
    assert seen_again["room"]["session"] == session
    assert session["games"] == 2 and final["room"]["session"]["games"] == 1
    won = [None if g["room"]["result"]["draw"] else g["room"]["result"]["winners"][0] for g in games]
    assert [(g["game"], g["winner"]) for g in session["played"]] == [(1, won[0]), (2, won[1])]
    # Ranked by the running total of points (the cards shown), under the name its GameSpec gives it.
    totals = [sum(g["view"]["cards"][seat] for g in games) for seat in (0, 1)]
    standings = session["standings"]
    assert {row["seat"]: (row["points"], row["wins"]) for row in standings} == {
        seat: (totals[seat], won.count(seat)) for seat in (0, 1)}
    assert [row["points"] for row in standings] == sorted(totals, reverse=True)
    # Tied on points, each seat's head to head is the points it won from the other: its winning cards.
    tied = totals[0] == totals[1]
    for row in standings:
        won_from_the_other = sum(g["view"]["cards"][row["seat"]] for g, winner in zip(games, won, strict=True)
                                 if winner == row["seat"])
        assert row["head_to_head"] == (won_from_the_other if tied else None)


def test_it_refuses_what_the_spec_does_not_offer(toy_site, registered):
    # Solo is not among the toy's modes, and its CPU levels are its own.
    for body, code in [({"mode": "solo"}, "invalid_mode"), ({"cpu_level": "hard"}, "invalid_cpu_level"),
                       ({"options": {"highest": 7}}, "invalid_options")]:
        request = urllib.request.Request(
            f"{toy_site.url}/api/rooms",
            json.dumps({"game": "higher_card", "mode": "cpu", **body}).encode(),
            {"Content-Type": "application/json"}, method="POST")
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=10)
        assert refused.value.code == 400
        assert json.loads(refused.value.read())["error"]["code"] == code


def test_it_simulates_the_game_from_its_spec(toy_site):
    # manage.py simulate plays a game with no simulator of its own from its engine and CPU.
    done = subprocess.run([sys.executable, "manage.py", "simulate", "higher_card", "--games", "30"],
                          cwd=PROJECT, env=toy_site.env, capture_output=True, text=True, timeout=120,
                          check=True)
    summary = json.loads(done.stdout.strip().splitlines()[-1])
    assert summary["game"] == "higher_card" and summary["cpu"] == ["only", "only"]
    assert sum(summary["wins"]) + summary["draws"] == 30 and summary["unfinished"] == 0
