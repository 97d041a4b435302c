"""Playing on a phone (issues 15 and 37): at 390×844, 844×390 and 360×740, at each of the
player's turns, every legal action has a visible target on the table itself (inside
#table-wrap: Memory's card, Bozu's deck, Gin's hand card, stock, discard pile, Pass and Knock)
at scroll 0, marked with the action it sends (`data-act`, the protocol's action as compact
JSON), at least 36×36 CSS px of it uncovered (32×32 at 360×740), and the page never scrolls
sideways. The legal actions are read from the WebSocket frames the page receives, not from the
page, so a move the page forgot to offer fails the test. The button panel's targets, inside
#side-panel, keep the same contract (the keyboard's and screen readers' way to play).

Gin offers one Knock button, for the card it would knock with (the lifted card, else the
highest deadwood card that allows it): a knock with another card is that card lifted, then
Knock. So of the knocks, one must have its target.

The same play-throughs check what the player is told: "Your turn" above the table and in the
tab's title at each turn, "You" in the messages about their own moves, one "Menu" button on the
screen, the last move said once, the card buttons (Memory's grid, Gin's hand) and their keyboard
help out of sight on a touch screen but one tap away (and the board itself with the table hidden),
and a brief reason for a tap the table cannot take. A room page loaded on a slow
phone moves nothing once painted (cumulative layout shift below 0.1).
"""
from __future__ import annotations

import json
import time

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.browser.conftest import screenshot
from tests.browser.helpers import record_frames, start_from_menu, version, wait_until

pytestmark = pytest.mark.browser

PHONES = {"portrait": (390, 844), "landscape": (844, 390), "narrow": (360, 740)}
OTHER_SCREENS = [("gin", 768, 1024), ("bozu", 1366, 768), ("memory", 1920, 1080)]
TURNS = {"memory": 6, "bozu": 4, "gin": 6}

# Every element marked with data-act: what it sends, where it is, whether it is on the table or
# in the panel, and how much of it a tap reaches: the box of the points (every 2 px, so at most
# 2 px less than the truth) where the element itself is under the finger, not covered by
# anything, not disabled, not hidden.
TARGETS_JS = """() => [...document.querySelectorAll('[data-act]')].map(el => {
  const r = el.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  const reached = {left: Infinity, top: Infinity, right: -Infinity, bottom: -Infinity};
  const usable = !el.disabled && el.checkVisibility({visibilityProperty: true});
  for (let x = Math.max(r.left, 0) + 0.5; usable && x < Math.min(r.right, innerWidth); x += 2) {
    for (let y = Math.max(r.top, 0) + 0.5; y < Math.min(r.bottom, innerHeight); y += 2) {
      const under = document.elementFromPoint(x, y);
      if (under === null || !el.contains(under)) continue;
      reached.left = Math.min(reached.left, x); reached.right = Math.max(reached.right, x);
      reached.top = Math.min(reached.top, y); reached.bottom = Math.max(reached.bottom, y);
    }
  }
  return {act: el.dataset.act, left: r.left, top: r.top, right: r.right, bottom: r.bottom,
          width: r.width, height: r.height,
          where: el.closest('#table-wrap') ? 'table' : (el.closest('#side-panel') ? 'panel' : 'elsewhere'),
          reached: reached.right > reached.left ? reached : null,
          tappable: usable && hit !== null && el.contains(hit)};
})"""
# Whether the table has settled: no card still moving, turning or shaking (the endless pulse of
# what may be pressed aside), as a player sees it between two moves.
SETTLED_JS = """() => document.getAnimations().every(a => a.playState !== 'running'
  || a.effect.getComputedTiming().iterations === Infinity)"""
PAGE_JS = """() => ({width: innerWidth, height: innerHeight, scrollX, scrollY,
  scrollWidth: document.documentElement.scrollWidth})"""
# Layout shifts from the page's first byte on, as a browser reports them for the CLS metric.
LAYOUT_SHIFTS_JS = """window.layoutShift = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) if (!entry.hadRecentInput) window.layoutShift += entry.value;
}).observe({type: 'layout-shift', buffered: true});"""


def compact(action: dict) -> str:
    return json.dumps(action, separators=(",", ":"))


def latest_state(frames) -> dict | None:
    states = [f for f in frames if f.get("type") == "state"]
    return states[-1] if states else None


def my_turn(frames) -> dict | None:
    """The latest state when it asks this page for a move, else None."""
    state = latest_state(frames)
    if not state or state["room"]["status"] != "playing":
        return None
    view = state["view"]
    mine = state["room"]["you"]["seats"]
    return state if view["current_player"] in mine and view.get("legal_actions") else None


def wait_my_turn(page, frames) -> dict:
    """Waits until it is this page's move and the page shows that very state."""
    def ready():
        state = my_turn(frames)
        return bool(state) and version(page) == state["version"]
    deadline = time.monotonic() + 30  # generous: the CPU's moves are slow on a loaded machine
    pressed = set()
    while not ready():
        assert time.monotonic() < deadline, "the player's turn did not come"
        state = latest_state(frames)
        view = state["view"] if state else {}
        if (view.get("phase") == "hand_over" and {"type": "next_hand"} in view.get("legal_actions", [])
                and state["version"] not in pressed and version(page) == state["version"]):
            # A Gin hand ended before this test's turns were played (a knock at once): the next
            # deal waits for this player's Next hand (the CPU waits for its opponent).
            pressed.add(state["version"])
            page.evaluate("document.getElementById('gin-next-hand')?.click()")
        page.wait_for_timeout(20)
    return my_turn(frames)


def check_targets(page, legal: list[dict], least: int = 36) -> dict[str, dict]:
    """Asserts the contract for each legal action on the table; answers a target for each."""
    wait_until(page, SETTLED_JS, 5)
    screen = page.evaluate(PAGE_JS)
    assert (screen["scrollX"], screen["scrollY"]) == (0, 0)
    assert screen["scrollWidth"] <= screen["width"], "the page scrolls sideways"
    found: dict[str, dict] = {}
    targets = page.evaluate(TARGETS_JS)
    stale = {t["act"] for t in targets} - {compact(a) for a in legal}
    assert stale == set(), f"targets of moves that are not legal now: {stale}"
    assert {t["where"] for t in targets} <= {"table", "panel"}, "a move target outside the table and the panel"
    for target in targets:
        action = json.loads(target["act"])
        assert target["act"] == compact(action), f"data-act is not compact JSON: {target['act']}"
        reached = target["reached"]
        if target["where"] == "table" and reached and min(reached["right"] - reached["left"],
                                                         reached["bottom"] - reached["top"]) >= least:
            found.setdefault(target["act"], target)
    knocks = [a for a in legal if a["type"] == "knock"]
    missing = [a for a in legal if a["type"] != "knock" and compact(a) not in found]
    assert missing == [], f"legal actions without a visible target of {least}×{least} px on the table: {missing}"
    if knocks:
        assert any(compact(k) in found for k in knocks), "no Knock target on the table"
    return found


def choose(game: str, legal: list[dict]) -> dict:
    """A plain move: never knock (the hand would end), else the first legal action."""
    if game == "gin":
        for kind in ("pass", "draw", "discard"):
            for action in legal:
                if action["type"] == kind:
                    return action
    return legal[0]


def tap(page, act: str):
    """Taps the on-screen target of `act` where it is now (a lifted card has moved)."""
    target = next((t for t in page.evaluate(TARGETS_JS) if t["act"] == act and t["tappable"]), None)
    if target is not None:  # None: the move was made meanwhile (its target is gone)
        page.mouse.click(target["left"] + target["width"] / 2, target["top"] + target["height"] / 2)


def play(page, element: dict, action: dict):
    """Taps the move's target until the room's version moves on. A tap can land while the panel
    is being redrawn (seen on a loaded machine), and is then lost; a lost tap changes nothing,
    so tapping again cannot make a second move: the version check comes first."""
    before, act = version(page), element["act"]
    for _ in range(3):
        tap(page, act)
        if action["type"] == "discard":
            page.wait_for_timeout(150)
            if version(page) == before:
                tap(page, act)  # the second tap on a lifted card discards it
        try:
            wait_until(page, f"Number(document.getElementById('room').dataset.version) > {before}", 8)
            return
        except PlaywrightTimeout:
            assert version(page) == before
    raise AssertionError(f"three taps on {act} changed nothing")


def phone(pages, width, height):
    context = pages.chromium.new_context(viewport={"width": width, "height": height}, is_mobile=True,
                                         has_touch=True, device_scale_factor=1)
    context.set_default_timeout(15000)
    pages.contexts.append(context)
    return pages.open(context)


# The sounds' notes as the page asks for them (an init script, which the page's
# Content-Security-Policy does not govern): the turn's sound begins on G5.
NOTES_JS = """window.notesPlayed = [];
const setFrequency = AudioParam.prototype.setValueAtTime;
AudioParam.prototype.setValueAtTime = function (value, time) {
  window.notesPlayed.push(Math.round(value));
  return setFrequency.call(this, value, time);
};"""
TURN_NOTE = 784
# Every element on screen whose own text is `text` (a leaf of the page, not hidden from sight).
SHOWN_JS = """(text) => [...document.querySelectorAll('body *')].filter(el =>
  el.textContent.trim() === text && ![...el.children].some(c => c.textContent.trim() === text)
  && el.checkVisibility({visibilityProperty: true}) && el.getBoundingClientRect().width > 2
  && el.getBoundingClientRect().height > 2).length"""
# What a player reads of each "Deadwood" line on screen (not the names kept for screen readers
# only, in a 1 px box): its box, whether its text is cut, whether something covers it.
DEADWOOD_JS = """() => [...document.querySelectorAll('body *')].filter(el =>
  /^Deadwood/.test(el.textContent.trim()) && el.children.length === 0
  && el.checkVisibility({visibilityProperty: true}) && el.getBoundingClientRect().width > 2).map(el => {
  const r = el.getBoundingClientRect();
  const under = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return {text: el.textContent, left: r.left, right: r.right, height: r.height,
          cut: el.scrollWidth > el.clientWidth + 1, covered: under === null || !el.contains(under)};
})"""


def load_measuring_layout_shift(page, frames_of) -> tuple:
    """Opens the room again in a new tab of the same phone (the seat is in its storage) on a
    slow line and a slow processor, as a phone on 4G loads it, and answers the tab, its frames
    and the layout shift summed until the game is drawn and has settled."""
    url = page.url
    page.close()
    tab = page.context.new_page()
    frames = frames_of(tab)
    tab.add_init_script(LAYOUT_SHIFTS_JS)
    cdp = tab.context.new_cdp_session(tab)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", {"offline": False, "latency": 150,
                                                  "downloadThroughput": 200_000, "uploadThroughput": 100_000})
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": 4})
    tab.goto(url)
    tab.wait_for_selector("#room[data-status=playing]")
    tab.wait_for_timeout(1500)
    shift = tab.evaluate("window.layoutShift")
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": 1})
    cdp.send("Network.emulateNetworkConditions", {"offline": False, "latency": 0,
                                                  "downloadThroughput": -1, "uploadThroughput": -1})
    return tab, frames, shift


def assert_told_whose_turn(page, state):
    assert page.inner_text("#turn-line") == "Your turn"
    assert page.title().startswith("● Your turn · ")
    last = state["view"].get("last")
    if last and last.get("seat") in state["room"]["you"]["seats"] and last.get("type") != "deal":
        # A message about this page's own move speaks to it.
        assert page.inner_text("#last-move").startswith("You "), page.inner_text("#last-move")


# The panel's card buttons, the keyboard's and screen readers' way to play.
CARD_BUTTONS = {"memory": ".memory-grid", "gin": ".gin-hand-buttons"}


def assert_card_buttons_one_tap_away(page, selector: str):
    """On a touch screen the cards on the table are the board: the panel's buttons for them are
    there (for screen readers and keys) but out of sight until "Show the card buttons"; with
    the table hidden (Panel only) they are the board, no switch needed."""
    buttons = page.locator(selector)
    assert buttons.locator("button").count() >= 10, "the card buttons are gone, not only out of sight"
    assert buttons.bounding_box()["width"] <= 1, "the panel's card buttons are a second board"
    page.click("text=Show the card buttons")
    assert buttons.bounding_box()["width"] > 200
    page.click("text=Hide the card buttons")
    assert buttons.bounding_box()["width"] <= 1
    page.click("[data-view=panel]")
    assert buttons.bounding_box()["width"] > 200 and not page.locator(".card-buttons-switch").is_visible()
    page.click("[data-view=overhead]")
    assert buttons.bounding_box()["width"] <= 1
    page.evaluate("scrollTo(0, 0)")  # the panel is below the fold on an upright phone


def assert_refused(page, element, reason: str):
    """Taps `element` where it is and expects the brief reason, then clears it from the screen
    (it would cover the bottom of a phone's table for the next checks)."""
    box = page.locator(element).bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    wait_until(page, "!document.getElementById('toast').hidden", 5)
    assert page.inner_text("#toast") == reason
    page.evaluate("document.getElementById('toast').hidden = true")


@pytest.mark.parametrize("size", PHONES)
@pytest.mark.parametrize("game", ["memory", "bozu", "gin"])
def test_it_offers_every_legal_move_on_the_table_on_a_phone(site, pages, game, size):
    width, height = PHONES[size]
    least = 32 if width == 360 else 36
    page = phone(pages, width, height)
    frames = record_frames(page)
    start_from_menu(page, site, game, "cpu")
    if size != "landscape":
        page, frames, shift = load_measuring_layout_shift(page, record_frames)
        assert shift < 0.1, f"cumulative layout shift {shift:.3f}"
    if game == "bozu":
        page.add_init_script(NOTES_JS)
        page.reload()
        page.wait_for_selector("#room[data-status=playing]")
        page.click("#sound-switch")  # below the fold on a small phone: scrolled to, then back
        page.evaluate("scrollTo(0, 0)")
    for turn in range(TURNS[game]):
        state = wait_my_turn(page, frames)
        legal = state["view"]["legal_actions"]
        found = check_targets(page, legal, least)
        assert_told_whose_turn(page, state)
        if game == "gin":
            for line in page.evaluate(DEADWOOD_JS):
                assert line["height"] >= 12 and not line["cut"] and not line["covered"], line
                assert 0 <= line["left"] and line["right"] <= width, line
        if game == "bozu" and turn > 0:
            assert TURN_NOTE in page.evaluate("window.notesPlayed"), "no sound when the turn came"
            assert page.evaluate(SHOWN_JS, page.text_content("#last-move")) == 1, "the last move is shown twice"
        first = state["view"].get("first")
        if game == "memory" and first:
            assert_refused(page, f".memory-card[data-pos='{first}']", "That card is already face up.")
        if turn == 1 and game in CARD_BUTTONS:
            assert_card_buttons_one_tap_away(page, CARD_BUTTONS[game])
        if turn == 2:
            screenshot(page, f"phone-{game}-{size}")
        action = choose(game, legal)
        play(page, found[compact(action)], action)
    assert page.evaluate(SHOWN_JS, "Menu") == 1, "two Menu buttons"
    if game == "memory":
        assert not page.locator(".panel-help").is_visible()  # no keys on a touch screen
    if game == "bozu" and size == "portrait":
        watcher = pages.new()
        watcher.goto(page.url)
        watcher.wait_for_selector("#room[data-status=playing]")
        assert_refused(watcher, ".bozu-deck", "Only a player at the table can do that.")
    if game == "gin" and size == "portrait":  # resigning is for games of two
        page.click("#resign")
        page.click("#resign")
        wait_until(page, "!document.getElementById('result').hidden")
        assert "You resigned." in page.inner_text("#result")


def test_it_keeps_the_keyboard_help_for_the_players(site, pages):
    """A spectator has no card to turn over: no help on keys; a player on a computer has it."""
    page = pages.new()
    start_from_menu(page, site, "memory", "cpu")
    assert page.locator(".panel-help").is_visible()
    assert page.locator(".memory-grid").is_visible()
    watcher = pages.new()
    watcher.goto(page.url)
    watcher.wait_for_selector("#room[data-status=playing]")
    assert not watcher.locator(".panel-help").is_visible()
    assert page.inner_text("#turn-line") == "Your turn" and watcher.inner_text("#turn-line") == "Red to play."


@pytest.mark.parametrize(("game", "width", "height"), OTHER_SCREENS)
def test_it_fits_the_table_and_panel_on_other_screens(site, pages, game, width, height):
    page = pages.new(width, height)
    frames = record_frames(page)
    start_from_menu(page, site, game, "cpu")
    state = wait_my_turn(page, frames)
    screen = page.evaluate(PAGE_JS)
    assert screen["scrollWidth"] <= screen["width"], "the page scrolls sideways"
    for selector in ("#table-viewport", "#game-panel"):
        box = page.locator(selector).bounding_box()
        assert box["width"] > 200 and box["height"] > 100, selector
        assert box["x"] >= 0 and box["x"] + box["width"] <= width, selector
        assert box["y"] < height, f"{selector} starts below the fold"
    check_targets(page, state["view"]["legal_actions"])


@pytest.mark.parametrize("path", ["/", "/gin/"])
def test_it_folds_the_header_menu_on_a_phone(site, pages, path):
    page = phone(pages, *PHONES["portrait"])
    page.goto(f"{site.url}{path}")
    toggle = page.locator("#menu-toggle")
    assert page.locator(".site-header").bounding_box()["height"] <= 56
    assert toggle.is_visible() and toggle.get_attribute("aria-expanded") == "false"
    assert not page.locator(".site-nav a[href='/memory/']").is_visible()
    assert page.evaluate(PAGE_JS)["scrollWidth"] <= PHONES["portrait"][0]
    toggle.click()
    assert toggle.get_attribute("aria-expanded") == "true"
    link = page.locator(".site-nav a[href='/memory/']")
    assert link.is_visible() and link.bounding_box()["height"] >= 44
    page.keyboard.press("Escape")
    assert not link.is_visible() and toggle.get_attribute("aria-expanded") == "false"
    # A wide screen shows the whole header and no Menu button.
    page.set_viewport_size({"width": 1280, "height": 800})
    assert not toggle.is_visible() and page.locator(".site-nav a[href='/memory/']").is_visible()
