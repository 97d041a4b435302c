"""The pages never receive a hidden card: every WebSocket frame the browser gets,
checked while real games are played in it."""
import json
import re

import pytest

from tests.browser.gin_play import GinPlayer, last_view
from tests.browser.helpers import (
    for_up_to,
    record_frames,
    start_from_menu,
    status,
    version,
    wait_until,
    wait_version_after,
)
from tests.browser.memory_play import Memory, read_cells
from tests.rooms.helpers import without_the_reveal

pytestmark = pytest.mark.browser

CARD = re.compile(r'"(?:[A2-9TJQK][SHDC]|JK)"')
SECRET_KEYS = {"deck", "stock", "seed", "token", "seat_token", "face_up", "taken_by"}


def keys(value):
    if isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from keys(item)
    elif isinstance(value, list):
        for item in value:
            yield from keys(item)


def states(frames):
    """The state messages, less a finished game's fairness reveal (every deck, its seed and salt:
    public once nothing is secret); there is none before the end (without_the_reveal checks)."""
    return [without_the_reveal(f) for f in frames if f.get("type") == "state"]


def test_it_never_sends_a_face_down_memory_card(site, pages):
    page = pages.new()
    frames = record_frames(page)
    start_from_menu(page, site, "memory", "cpu", {"cards": 24, "players": 3}, level="hard")
    player = Memory()
    for _ in for_up_to(240):
        if status(page) == "finished":
            break
        cells = read_cells(page)
        if not any(c["enabled"] for c in cells):
            page.wait_for_timeout(20)
            continue
        target = player.choose(cells)
        before = version(page)
        page.locator(f".memory-grid .cell[data-pos={target['pos']}]").click()
        wait_version_after(page, before)
    assert status(page) == "finished"
    seen: dict[str, str] = {}
    assert len(states(frames)) > 30
    for frame in states(frames):
        assert not SECRET_KEYS & set(keys(frame)), frame
        for entry in frame["view"]["layout"]:
            if entry["state"] == "down":
                assert "card" not in entry, entry
            else:
                # A card once shown is always the same card at that place: nothing is re-dealt.
                assert seen.setdefault(entry["pos"], entry["card"]) == entry["card"]
    assert len(seen) == 24


def frames_of_play(frames):
    """The Gin state messages sent while a hand is played (not between hands)."""
    return [f for f in states(frames) if f["view"]["phase"] in ("upcard", "draw", "discard")]


def test_it_never_sends_the_opponents_gin_hand_or_the_stock(site, pages):
    page = pages.new()
    frames = record_frames(page)
    start_from_menu(page, site, "gin", "cpu", level="hard")
    player = GinPlayer(page, frames, use_table=False)
    # Hands are played until more than five frames of play have been checked: a CPU dealt a
    # hand it can knock with at once ends its hand after three.
    for _ in for_up_to(300):
        view = last_view(frames)
        if view["phase"] == "over" or (view["phase"] == "hand_over" and len(frames_of_play(frames)) > 5):
            break
        if not player.act():
            page.wait_for_timeout(20)
    checked = 0
    for frame in frames_of_play(frames):
        view = frame["view"]
        # Cards this seat may know: its hand, the discard pile, every public move of this hand.
        allowed = set(view["hand"]["cards"]) | set(view["discard_pile"])
        allowed |= {e["card"] for e in view["history"] if "card" in e}
        # ...and both hands of every hand before, shown to everybody when it ended.
        allowed |= {c.strip('"') for c in CARD.findall(json.dumps([view["last_hand"], view["previous_hands"]]))}
        text = json.dumps({k: v for k, v in frame.items() if k != "missed"})
        for card in CARD.findall(text):
            assert card.strip('"') in allowed, (card, frame)
        assert view["opponent"]["card_count"] in (10, 11)
        assert "hand" not in (view["opponent"] or {})
        checked += 1
    assert checked > 5


def test_it_never_sends_the_bozu_deck_order(site, pages):
    page = pages.new()
    frames = record_frames(page)
    start_from_menu(page, site, "bozu", "cpu", {"players": 2})
    for _ in range(30):
        wait_until(page, "!document.getElementById('flip').disabled")
        before = version(page)
        page.click("#flip")
        wait_version_after(page, before)
    flipped: set[int] = set()
    for frame in states(frames):
        assert not SECRET_KEYS & set(keys(frame)), frame
        last = frame["view"]["last"]
        if last:
            flipped.add(last["card"]["poem"])
        # Every poem in a frame has been flipped in front of everybody by then.
        poems = {v for k, v in _pairs(frame) if k == "poem"}
        assert poems <= flipped, (poems - flipped, frame)
    assert len(flipped) >= 30


def _pairs(value):
    if isinstance(value, dict):
        for key, item in value.items():
            yield key, item
            yield from _pairs(item)
    elif isinstance(value, list):
        for item in value:
            yield from _pairs(item)
