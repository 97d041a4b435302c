"""End to end through the rooms service (docs/protocol.md) on a live Daphne: a signed-in player's
finished game lands in their record and stats; an abandoned game does not; a resignation is a
loss; signing in on the room page before the end gets the game recorded."""
from __future__ import annotations

import asyncio
import json
import re
import urllib.request

import pytest
from accounts_testlib import Browser

from games.bot import Connection, create_room, play
from tests.live import embedded_env, running_site

FAST_TIMING = {"CPU_DELAY_MEMORY_FLIP": "0.002", "MEMORY_CONCEAL_DELAY": "0.01",
               "CPU_DELAY_BOZU_FLIP": "0.002", "CPU_DELAY_GIN_STEP": "0.002",
               "GIN_NEXT_HAND_DELAY": "0.01", "SEAT_TAKEOVER_DELAY": "0.5"}


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    tmp_path = tmp_path_factory.mktemp("accounts-e2e")
    env = embedded_env(tmp_path, **FAST_TIMING)
    with running_site(tmp_path, env) as server:
        yield server


def room_status(url: str, room_id: str) -> str:
    with urllib.request.urlopen(f"{url}/api/rooms/{room_id}", timeout=5) as response:
        return json.loads(response.read())["status"]


async def wait_finished(url: str, room_id: str, timeout: float = 60) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while room_status(url, room_id) != "finished":
        assert loop.time() < deadline, "the CPU did not finish the game"
        await asyncio.sleep(0.1)


def outcome(final: dict) -> str:
    result = final["room"]["result"]
    seats = set(final["room"]["you"]["seats"])
    if seats & set(result["winners"]):
        return "draw" if result.get("draw") else "win"
    return "loss"


async def test_a_finished_game_appears_in_the_record_and_the_stats(site):
    browser = Browser(site.url)
    browser.sign_up("finisher")
    assert browser.total_games() == 0
    created = create_room(site.url, "bozu", "cpu", {"players": 2}, "easy")
    conn = await browser.connect(created["room_id"], created["seat_token"])
    try:
        final = await asyncio.wait_for(play(conn, "easy"), 120)
    finally:
        await conn.close()
    assert final["room"]["status"] == "finished"
    assert browser.my_games() == [{"game": "Bozu Mekuri", "mode": "vs CPU", "level": "Easy",
                                   "result": outcome(final)}]
    assert browser.total_games() == 1
    # Another visitor's finished game is not this player's.
    anonymous = create_room(site.url, "bozu", "cpu", {"players": 2}, "easy")
    other = Connection(site.url, anonymous["room_id"])
    await other.open(anonymous["seat_token"])
    try:
        await asyncio.wait_for(play(other, "easy"), 120)
    finally:
        await other.close()
    assert browser.total_games() == 1


async def test_an_abandoned_game_adds_nothing(site):
    browser = Browser(site.url)
    browser.sign_up("quitter")
    # Walks away from a game with a friend: after the takeover delay the CPU plays the seat
    # and finishes the game, which is not the player's.
    created = create_room(site.url, "bozu", "friends", {"players": 2}, "easy")
    conn = await browser.connect(created["room_id"], created["seat_token"])
    await conn.request("start")  # with the CPU in the free seat
    await conn.wait_for(lambda s: s["view"].get("current_player") == 0, 30)
    await conn.request("action", action={"type": "flip"})
    await conn.close()
    await wait_finished(site.url, created["room_id"])
    # Leaves a three-player game ("Leave (CPU plays for you)"): the CPU finishes it.
    created = create_room(site.url, "bozu", "friends", {"players": 3}, "easy")
    conn = await browser.connect(created["room_id"], created["seat_token"])
    try:
        await conn.request("start")
        await conn.request("leave")
    finally:
        await conn.close()
    await wait_finished(site.url, created["room_id"])
    # Closes the page in the middle of a game against the CPU (or starts another one): the
    # game stays unfinished.
    created = create_room(site.url, "bozu", "cpu", {"players": 2}, "easy")
    conn = await browser.connect(created["room_id"], created["seat_token"])
    await conn.wait_for(lambda s: s["view"].get("current_player") == 0, 30)
    await conn.request("action", action={"type": "flip"})
    await conn.close()
    assert room_status(site.url, created["room_id"]) == "playing"
    # One game played to its end (by resigning) afterwards: the only one in the record, so the
    # games above were seen finishing and left out, not merely not stored yet.
    created = create_room(site.url, "bozu", "cpu", {"players": 2}, "easy")
    conn = await browser.connect(created["room_id"], created["seat_token"])
    try:
        await conn.request("resign")
        await conn.wait_for(lambda s: s["room"]["status"] == "finished", 10)
    finally:
        await conn.close()
    assert browser.my_games() == [{"game": "Bozu Mekuri", "mode": "vs CPU", "level": "Easy",
                                   "result": "loss (resigned)"}]
    assert browser.total_games() == 1


async def test_a_resignation_counts_as_a_loss(site):
    browser = Browser(site.url)
    browser.sign_up("resigner")
    created = create_room(site.url, "bozu", "cpu", {"players": 2}, "hard")
    conn = await browser.connect(created["room_id"], created["seat_token"])
    try:
        await conn.request("resign")
        final = await conn.wait_for(lambda s: s["room"]["status"] == "finished", 10)
    finally:
        await conn.close()
    assert final["room"]["status"] == "finished"
    assert browser.my_games() == [{"game": "Bozu Mekuri", "mode": "vs CPU", "level": "Hard",
                                   "result": "loss (resigned)"}]
    html = browser.get("/accounts/me/")
    assert '<dd id="total-games">1</dd>' in html and '<dd id="win-rate">0%</dd>' in html


async def test_signing_in_on_the_room_page_before_the_end_records_the_game(site):
    browser = Browser(site.url)
    created = create_room(site.url, "bozu", "cpu", {"players": 2}, "easy")
    anonymous = await browser.connect(created["room_id"], created["seat_token"])
    await anonymous.wait_for(lambda s: s["view"].get("current_player") == 0, 30)
    await anonymous.request("action", action={"type": "flip"})
    browser.sign_up("latecomer")    # the page's sign-in link, then back to the room
    # The new page connects before the old socket is gone, so the shortened (0.5 s) takeover
    # of a disconnected seat cannot finish the game for the player in between.
    conn = await browser.connect(created["room_id"], created["seat_token"])
    await anonymous.close()
    try:
        final = await asyncio.wait_for(play(conn, "easy"), 120)
    finally:
        await conn.close()
    assert browser.my_games() == [{"game": "Bozu Mekuri", "mode": "vs CPU", "level": "Easy",
                                   "result": outcome(final)}]


async def test_a_solo_memory_game_is_scored_by_failed_flips(site):
    browser = Browser(site.url)
    browser.sign_up("soloist")
    created = create_room(site.url, "memory", "solo", {"cards": 24})
    conn = await browser.connect(created["room_id"], created["seat_token"])
    try:
        final = await asyncio.wait_for(play(conn, "medium"), 120)
    finally:
        await conn.close()
    flips = final["room"]["result"]["failed_flips"]
    (game,) = browser.my_games()
    assert (game["game"], game["mode"], game["level"]) == ("Memory", "solo", "–")
    assert game["result"] == (f"{flips} failed flip" if flips == 1 else f"{flips} failed flips")
    html = browser.get("/accounts/me/")
    assert "Personal bests: solo Memory" in html
    assert re.search(rf"<th scope=\"row\">24 cards</th>\s*<td>{flips} failed flips? in \d+:\d\d", html)
