"""The collector in a real Chromium: the switch off sends nothing, on sends events, GPC means
off until the visitor turns it on.

Requests are observed on the server, in an access log this test's Daphne writes to a file:
Playwright does not report every navigator.sendBeacon made while a page is being left."""
import json
import sqlite3
import time

import pytest

from tests.browser.helpers import flip_bozu_until_finished, start_from_menu, status, wait_playing, wait_until
from tests.live import VENV_BIN, LiveServer, chromium, embedded_env, free_port, migrate

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    tmp_path = tmp_path_factory.mktemp("telemetry-browser")
    # The server writes the statistics it holds every 0.2 s, not every hour.
    env = embedded_env(tmp_path, CPU_DELAY_BOZU_FLIP="0.01", TELEMETRY_FLUSH_INTERVAL="0.2")
    migrate(env)
    port = free_port()
    access_log = tmp_path / "access.log"
    server = LiveServer([str(VENV_BIN / "daphne"), "--no-server-name", "--access-log", str(access_log),
                         "-b", "127.0.0.1", "-p", str(port), "config.asgi:application"],
                        env, port, tmp_path / "daphne.log")
    server.wait_ready()
    server.db_path = tmp_path / "db.sqlite3"
    server.access_log = access_log
    yield server
    server.stop()


@pytest.fixture(scope="module")
def browser():
    with chromium() as opened:
        yield opened


def events_in_db(site) -> list[dict]:
    """Accepted events, as the flush stored them (shuffled, with random keys)."""
    with sqlite3.connect(site.db_path) as db:
        db.row_factory = sqlite3.Row
        return [dict(row) for row in db.execute("SELECT * FROM telemetry_event")]


def stored_keys(site) -> set[str]:
    return {row["id"] for row in events_in_db(site)}


def stored_since(site, before: set[str]) -> list[dict]:
    """The events stored since ``before`` (the keys stored then): no order tells which came first."""
    return [row for row in events_in_db(site) if row["id"] not in before]


def sent_now(page) -> list[dict]:
    """Sends the page's queue now and returns the events sent, read from the body the page hands
    to fetch (Playwright shows no body for a Blob, and the page id is no longer stored)."""
    return page.evaluate("""async () => {
        const bodies = [];
        const fetch = window.fetch;
        window.fetch = (url, init) => { bodies.push(init.body); return fetch(url, init); };
        try { window.cardtableTelemetry.flush(); } finally { window.fetch = fetch; }
        return bodies.length === 1 ? JSON.parse(await bodies[0].text()).events : bodies.length;
    }""")


def telemetry_requests(site) -> int:
    return sum("/telemetry/events" in line for line in site.access_log.read_text().splitlines())


def test_with_the_switch_off_no_request_goes_to_the_endpoint(site, browser):
    context = browser.new_context()
    page = context.new_page()
    before, requests_before = stored_keys(site), telemetry_requests(site)
    page.goto(site.url + "/privacy/")
    switch = page.locator("#telemetry-switch")
    assert switch.is_checked()
    switch.click()
    assert not switch.is_checked()
    assert page.evaluate("localStorage.getItem('telemetry')") == "off"
    for path in ("/", "/bozu/", "/privacy/", "/"):
        page.goto(site.url + path)   # every navigation is a page hide: a beacon if anything queued
        assert page.evaluate("window.cardtableTelemetry.record({type: 'view3d_speed', fps: 60})") is False
    page.evaluate("window.cardtableTelemetry.flush()")
    page.goto("about:blank")
    time.sleep(1.0)
    assert telemetry_requests(site) == requests_before
    assert stored_since(site, before) == []
    # The same steps with the switch on do reach the server (so the silence above means something).
    context = browser.new_context()
    page = context.new_page()
    page.goto(site.url + "/privacy/")
    page.goto(site.url + "/")
    page.goto("about:blank")
    assert len(wait_for_rows(site, before, 2)) == 2
    # Daphne writes its access-log line after the response, so the count may trail the rows.
    assert wait_for_requests(site, requests_before + 2) == requests_before + 2
    context.close()


def wait_for_requests(site, expected: int) -> int:
    deadline = time.monotonic() + 10
    while telemetry_requests(site) < expected and time.monotonic() < deadline:
        time.sleep(0.1)
    return telemetry_requests(site)


def wait_for_rows(site, before: set[str], count: int) -> list[dict]:
    deadline = time.monotonic() + 10
    while len(stored_since(site, before)) < count and time.monotonic() < deadline:
        time.sleep(0.1)
    return stored_since(site, before)


def test_with_the_switch_on_events_arrive_bucketed_and_reduced(site, browser):
    context = browser.new_context()
    page = context.new_page()
    before = stored_keys(site)
    page.goto(site.url + "/")
    page.evaluate("""() => {
        window.cardtableTelemetry.record({type: "view3d_speed", fps: 47.3});
        window.cardtableTelemetry.record({type: "game_end", game: "bozu", mode: "cpu", cpu_level: "easy",
            settings: {players: 4, semimaru: "monk", emperor: "noble", lady_empty_again: false},
            result: "loss", move_count: 100, duration: 95.2});
    }""")
    sent = sent_now(page)
    assert len({event["page"] for event in sent}) == 1
    # The browser sends ranges, never the raw figures.
    assert {event["type"]: event.get("move_count") for event in sent}["game_end"] == "100-199"
    rows = wait_for_rows(site, before, 3)
    by_type = {row["type"]: row for row in rows}
    assert set(by_type) == {"page_view", "view3d_speed", "game_end"}
    assert by_type["view3d_speed"]["fps"] == "45-55"
    assert (by_type["game_end"]["duration"], by_type["game_end"]["result"]) == ("1-3m", "loss")
    assert by_type["game_end"]["move_count"] == "100-199"
    assert (by_type["page_view"]["browser"], by_type["page_view"]["os"]) == ("chrome", "linux")
    assert by_type["page_view"]["device"] == "desktop" and by_type["page_view"]["cores"] != "unknown"
    assert "page" not in rows[0]  # checked by the server, never stored
    first_page = sent[0]["page"]
    # The next page has a new page-open id, and the id is in no cookie and no storage.
    page.goto(site.url + "/")
    wait_until(page, "document.readyState === 'complete'")
    second = sent_now(page)
    assert [event["type"] for event in second] == ["page_view"] and second[0]["page"] != first_page
    stored = page.evaluate("JSON.stringify(Object.entries(localStorage)) + "
                           "JSON.stringify(Object.entries(sessionStorage)) + document.cookie")
    for page_id in (first_page, second[0]["page"]):
        assert page_id not in stored and page_id.replace("-", "") not in stored
        assert all(page_id not in c["value"] for c in context.cookies())
    context.close()


def test_global_privacy_control_means_off_until_the_visitor_turns_it_on(site, browser):
    context = browser.new_context(extra_http_headers={"Sec-GPC": "1"})
    context.add_init_script("Object.defineProperty(Navigator.prototype, 'globalPrivacyControl', {get: () => true})")
    page = context.new_page()
    before, requests_before = stored_keys(site), telemetry_requests(site)
    page.goto(site.url + "/privacy/")
    switch = page.locator("#telemetry-switch")
    assert not switch.is_checked()
    page.goto(site.url + "/")
    page.goto(site.url + "/privacy/")
    time.sleep(0.5)
    assert telemetry_requests(site) == requests_before
    page.locator("#telemetry-switch").click()
    assert page.locator("#telemetry-switch").is_checked()
    page.goto(site.url + "/")
    page.goto(site.url + "/privacy/")
    assert page.evaluate("navigator.globalPrivacyControl") is True
    # Stored although the browser sends Sec-GPC: the batch said the visitor turned it on.
    rows = wait_for_rows(site, before, 1)
    assert [row["type"] for row in rows] == ["page_view"]
    context.close()


def test_a_game_played_on_the_site_sends_its_start_and_end(site, browser):
    """The room page itself reports the game (not a hand-made event): start, end, 3D frame."""
    context = browser.new_context()
    page = context.new_page()
    before = stored_keys(site)
    start_from_menu(page, site, "bozu", "cpu", {"players": 2})
    flip_bozu_until_finished(page)
    assert status(page) == "finished"
    page.goto("about:blank")  # page hide: the queue goes out with sendBeacon
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        rows = stored_since(site, before)
        if {"game_start", "game_end"} <= {row["type"] for row in rows}:
            break
        time.sleep(0.1)
    by_type = {row["type"]: row for row in rows}
    start, end = by_type["game_start"], by_type["game_end"]
    for row in (start, end):
        assert (row["game"], row["mode"], row["cpu_level"]) == ("bozu", "cpu", "medium")
        assert json.loads(row["settings"]) == {"players": 2, "semimaru": "monk", "emperor": "noble",
                                               "lady_empty_again": False}
    assert end["result"] in {"win", "loss", "draw"}
    assert end["move_count"] in ("100-199", "200-399")  # every card of the deck was flipped
    assert end["duration"] != "unknown"
    assert "view3d_first_frame" in by_type
    context.close()


def test_a_friends_room_reports_how_it_was_made_and_joined(site, browser):
    host, guest = browser.new_context(), browser.new_context()
    before = stored_keys(site)
    host_page = host.new_page()
    start_from_menu(host_page, site, "bozu", "friends", {"players": 2}, wait_for="waiting")
    guest_page = guest.new_page()
    guest_page.goto(host_page.url)
    guest_page.locator("#join").click()
    wait_playing(guest_page)
    for page in (host_page, guest_page):
        page.goto("about:blank")
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        rows = stored_since(site, before)
        # (Stored in the batches the server's flushes write: wait for every kind.)
        kinds = [row["type"] for row in rows]
        if kinds.count("room_step") >= 4 and kinds.count("room_session") >= 2 and "room_created" in kinds:
            break
        time.sleep(0.1)
    made = [(r["game"], r["origin"], r["outcome"]) for r in rows if r["type"] == "room_created"]
    assert made == [("bozu", "menu", "ok")]
    steps = sorted((r["step"], r["outcome"]) for r in rows if r["type"] == "room_step")
    assert steps == [("connect", "ok"), ("connect", "ok"), ("join", "ok"), ("spectate", "ok")]
    sessions = [r["reconnections"] for r in rows if r["type"] == "room_session"]
    assert sessions == [0, 0]
    host.close()
    guest.close()
