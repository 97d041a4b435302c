"""The feel of the game (issue 15): card sounds made with Web Audio behind a switch that starts
muted and is remembered in the browser, brief animations on a pair, a gin and a win, no motion
at all under prefers-reduced-motion, and the table lighting what the panel's keyboard focus is on.

An init script (Playwright's, which the Content-Security-Policy does not govern) counts the
AudioContexts made and the oscillators started, and records each animation class the page adds,
with the animation the stylesheet then gives the element."""
from __future__ import annotations

import pytest
from django.utils import translation

from games.engines import gin
from games.engines.gin_melds import CARDS
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

pytestmark = pytest.mark.browser

WATCH = """
window.feelSeen = {contexts: 0, oscillators: 0, classes: []};
const startOscillator = OscillatorNode.prototype.start;
OscillatorNode.prototype.start = function (...args) {
  window.feelSeen.oscillators += 1;
  return startOscillator.apply(this, args);
};
const PageAudioContext = window.AudioContext;
window.AudioContext = class extends PageAudioContext {
  constructor(...args) { super(...args); window.feelSeen.contexts += 1; }
};
// Each time an element takes one of the classes (marked, so that other changes of its class
// while it has it are not counted again).
const marked = {'pair-made': new WeakSet(), 'gin-made': new WeakSet(), 'celebrate': new WeakSet()};
new MutationObserver((records) => {
  for (const {target: el} of records) {
    for (const [name, set] of Object.entries(marked)) {
      if (!el.classList.contains(name)) { set.delete(el); continue; }
      if (set.has(el)) continue;
      set.add(el);
      window.feelSeen.classes.push({name, pos: el.dataset.pos || null,
        animation: getComputedStyle(el).animationName,
        face: el.querySelector('.face') ? getComputedStyle(el.querySelector('.face')).animationName : null});
    }
  }
}).observe(document, {subtree: true, attributes: true, attributeFilter: ['class']});
"""

SWITCH = "#sound-switch"
LOCALES = {"es": "es-ES", "de": "de-DE", "ja": "ja-JP"}


def seen(page) -> dict:
    return page.evaluate("window.feelSeen")


def watched_page(pages, **kwargs):
    page = pages.new(**kwargs)
    page.add_init_script(script=WATCH)
    return page


def flip_once(page, player: Memory) -> bool:
    """One flip through the button panel when this page may flip; False when it may not now."""
    cells = read_cells(page)
    player.look(cells)
    if not any(c["enabled"] for c in cells):
        page.wait_for_timeout(30)  # the CPU's turn, or a mismatch being shown
        return False
    target = player.choose(cells)
    before = version(page)
    page.locator(f".memory-grid .cell[data-pos='{target['pos']}']").click()
    wait_version_after(page, before)
    player.look(read_cells(page))
    return True


def play_until(page, done, seconds: float = 180) -> None:
    player = Memory()
    for _ in for_up_to(seconds):
        if done() or status(page) == "finished":
            return
        flip_once(page, player)


def switch_state(page) -> str:
    return page.get_attribute(SWITCH, "aria-pressed")


def test_it_starts_muted_and_remembers_the_switch_in_the_browser(site, pages):
    page = pages.new()
    start_from_menu(page, site, "memory", "cpu", {"cards": 24}, level="easy")
    assert switch_state(page) == "false"
    assert page.evaluate("localStorage.getItem('sound')") is None
    # A toggle button whose name is the page's own word for sound, whatever its state.
    with translation.override("en"):
        name = translation.gettext("Sound")
    assert page.get_by_role("button", name=name, exact=True, pressed=False).get_attribute("id") == "sound-switch"
    box = page.locator(SWITCH).bounding_box()
    assert box["width"] >= 44 and box["height"] >= 44, box

    page.locator(SWITCH).click()
    assert switch_state(page) == "true"
    assert page.evaluate("localStorage.getItem('sound')") == "on"
    page.reload()
    page.wait_for_selector("#room[data-status=playing]")
    assert page.get_by_role("button", name=name, exact=True, pressed=True).get_attribute("id") == "sound-switch"
    page.locator(SWITCH).press("Enter")  # a keyboard press toggles it too
    assert switch_state(page) == "false"
    page.reload()
    page.wait_for_selector("#room[data-status=playing]")
    assert switch_state(page) == "false"
    assert page.evaluate("localStorage.getItem('sound')") == "off"


@pytest.mark.parametrize("size", [(390, 844), (844, 390)])
def test_it_puts_the_switch_within_reach_on_a_phone(site, pages, size):
    page = pages.new(width=size[0], height=size[1])
    start_from_menu(page, site, "gin", "cpu", level="easy")
    switch = page.locator(SWITCH)
    switch.scroll_into_view_if_needed()
    box = switch.bounding_box()
    assert box["width"] >= 44 and box["height"] >= 44, box
    assert 0 <= box["x"] and box["x"] + box["width"] <= size[0]
    hit = page.evaluate("""() => { const r = document.querySelector('#sound-switch').getBoundingClientRect();
        const el = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return el !== null && document.querySelector('#sound-switch').contains(el); }""")
    assert hit
    switch.click()
    assert switch_state(page) == "true"


@pytest.mark.parametrize("lang", ["es", "de", "ja"])
def test_it_names_the_switch_in_the_page_language(site, pages, lang):
    context = pages.chromium.new_context(locale=LOCALES[lang], viewport={"width": 1280, "height": 860})
    pages.contexts.append(context)
    page = pages.open(context)
    start_from_menu(page, site, "bozu", "cpu", level="easy")
    assert page.evaluate("document.documentElement.lang") == lang
    with translation.override(lang):
        name = translation.gettext("Sound")
    assert page.get_by_role("button", name=name, exact=True).get_attribute("id") == "sound-switch"


def test_it_plays_sounds_only_when_sound_is_on(site, pages):
    quiet = watched_page(pages)
    start_from_menu(quiet, site, "memory", "cpu", {"cards": 24}, level="easy")
    player = Memory()
    flips = 0
    while flips < 8 and status(quiet) == "playing":
        flips += flip_once(quiet, player)
    assert flips == 8 or status(quiet) == "finished"
    assert (seen(quiet)["contexts"], seen(quiet)["oscillators"]) == (0, 0)

    loud = watched_page(pages)
    start_from_menu(loud, site, "memory", "cpu", {"cards": 24}, level="easy")
    loud.locator(SWITCH).click()  # the gesture that lets the page start audio
    assert seen(loud)["contexts"] == 1
    assert seen(loud)["oscillators"] == 0  # turning it on makes no sound by itself
    player = Memory()
    heard = []
    while len(heard) < 8 and status(loud) == "playing":
        before = seen(loud)["oscillators"]
        if flip_once(loud, player):
            heard.append(seen(loud)["oscillators"] - before)
    # Every flip of this page is heard (a tick at least), with one AudioContext for the page.
    assert heard and all(n >= 1 for n in heard), heard
    assert seen(loud)["contexts"] == 1

    loud.locator(SWITCH).click()
    assert switch_state(loud) == "false"
    before = seen(loud)["oscillators"]
    flipped = 0
    while flipped < 2 and status(loud) == "playing":
        flipped += flip_once(loud, player)
    assert seen(loud)["oscillators"] == before


def test_it_lifts_the_two_cards_of_a_pair_and_celebrates_a_win(site, pages):
    page = watched_page(pages)
    frames = record_frames(page)
    start_from_menu(page, site, "memory", "solo", {"cards": 24})
    play_until(page, lambda: any(c["name"] == "pair-made" for c in seen(page)["classes"]))
    matches = [f["view"]["last"] for f in frames if f.get("type") == "state"
               and (f["view"].get("last") or {}).get("result") == "match"]
    first = [c for c in seen(page)["classes"] if c["name"] == "pair-made"]
    assert {c["pos"] for c in first} == set(matches[0]["pair"])
    assert {(c["animation"], c["face"]) for c in first} == {("pair-lift", "pair-glow")}
    # Brief: the class goes again once the effect has played.
    wait_until(page, "document.querySelectorAll('.pair-made').length === 0")

    play_until(page, lambda: False)
    assert status(page) == "finished"
    page.locator("#result").wait_for(state="visible")
    pairs = [c for c in seen(page)["classes"] if c["name"] == "pair-made"]
    assert len(pairs) == 24  # both cards of each of the 12 pairs
    celebrations = [c for c in seen(page)["classes"] if c["name"] == "celebrate"]
    assert [c["animation"] for c in celebrations] == ["celebrate"]


def test_it_moves_nothing_under_reduced_motion(site, pages):
    page = watched_page(pages)
    page.emulate_media(reduced_motion="reduce")
    start_from_menu(page, site, "memory", "solo", {"cards": 24})
    styles = page.evaluate("""() => [...document.querySelectorAll('.memory-card, .memory-card .face, .table-stage')]
        .map(el => { const s = getComputedStyle(el);
                     return [s.transitionDuration, s.animationName, s.animationDuration]; })""")
    assert styles and {tuple(s) for s in styles} == {("0s", "none", "0s")}, styles
    play_until(page, lambda: False)
    assert status(page) == "finished"
    classes = seen(page)["classes"]
    # The effects are still marked (the player still learns what happened) but nothing moves.
    assert len([c for c in classes if c["name"] == "pair-made"]) == 24
    assert {(c["animation"], c["face"]) for c in classes if c["name"] == "pair-made"} == {("none", "none")}
    assert [c["animation"] for c in classes if c["name"] == "celebrate"] == ["none"]
    # The flips are instant: a face-up card is turned the moment its class says so.
    page.locator("#look-at-table").click()
    assert page.evaluate("""() => [...document.querySelectorAll('.memory-card')].every(el =>
        getComputedStyle(el).transitionDuration === '0s' && el.getAnimations().length === 0)""")


def gin_view():
    """Seat 0 goes gin: ten cards in melds, the queen of diamonds discarded."""
    hand = ["5S", "6S", "7S", "8S", "9H", "9D", "9C", "KH", "KD", "KC", "QD"]
    state = gin.new_game({}, 1)
    rest = [c for c in CARDS if c not in hand + UNMATCHED + ["4H"]]
    state.hands = [hand, ["4H", *UNMATCHED]]
    state.discard_pile, state.stock = rest[:1], rest[1:]
    state.phase, state.current_player, state.taken_card = "discard", 0, None
    state.apply(0, {"type": "knock", "card": "QD"})
    return state.view(0)


UNMATCHED = ["2H", "3D", "5C", "7H", "8D", "TC", "JH", "2D", "6C"]


def test_it_makes_a_gin_glow_and_sound(site, pages):
    page = watched_page(pages)
    frames = record_frames(page)
    start_from_menu(page, site, "gin", "cpu", level="easy")
    page.locator(SWITCH).click()
    view = gin_view()
    assert view["last"]["type"] == "hand_over" and view["last"]["outcome"] == "gin"
    # The state a room sends when this page's player goes gin, through the page's own client.
    state = [f for f in frames if f.get("type") == "state"][-1]
    message = {**state, "version": state["version"] + 1, "view": view, "ref": None, "resync": False, "missed": None,
               "event": {"version": state["version"] + 1, "type": "action", "seat": 0, "by": "human",
                         "action": {"type": "knock", "card": "QD"}}}
    before = seen(page)["oscillators"]
    page.evaluate("message => window.roomClient.emit('state', message)", message)
    wait_until(page, "window.feelSeen.classes.some(c => c.name === 'gin-made')")
    glows = [c for c in seen(page)["classes"] if c["name"] == "gin-made"]
    assert [c["animation"] for c in glows] == ["gin-glow"]
    outcome = page.locator(".gin-handover.gin-made .gin-outcome").inner_text()
    assert outcome.startswith("You go gin!")  # said to Red, this page's player
    assert seen(page)["oscillators"] - before >= 6  # the gin's rising run of notes


# How many elements of the table and its buttons would move: a transition or an animation.
MOVING_JS = """() => [...document.querySelectorAll('#table-wrap, #table-wrap *, #side-panel *')].filter(el => {
  const s = getComputedStyle(el);
  return s.transitionDuration.split(', ').some(d => d !== '0s') || s.animationName !== 'none';
}).length"""


@pytest.mark.parametrize("game", ["bozu", "gin"])
def test_it_stills_every_table_under_reduced_motion(site, pages, game):
    moving = pages.new()
    start_from_menu(moving, site, game, "cpu", level="easy")
    assert moving.evaluate(MOVING_JS) > 0  # cards turn, the table eases, the playable pile pulses
    still = pages.new()
    still.emulate_media(reduced_motion="reduce")
    start_from_menu(still, site, game, "cpu", level="easy")
    assert still.evaluate(MOVING_JS) == 0


def lit(page, selector: str) -> bool:
    return page.evaluate("s => document.querySelector(s).classList.contains('keyed')", selector)


def test_it_lights_on_bozus_table_the_deck_the_flip_button_is_for(site, pages):
    page = pages.new()
    start_from_menu(page, site, "bozu", "cpu", level="easy")
    wait_until(page, "document.getElementById('flip').disabled === false")
    unlit = page.evaluate("getComputedStyle(document.querySelector('.bozu-deck')).outlineStyle")
    page.locator("#flip").focus()
    assert lit(page, ".bozu-deck")
    assert page.evaluate("getComputedStyle(document.querySelector('.bozu-deck')).outlineColor") == "rgb(127, 211, 255)"
    assert unlit == "none"
    page.locator("#room-actions a").focus()  # elsewhere in the side panel: nothing lit
    assert not lit(page, ".bozu-deck")


def test_it_lights_on_gins_table_what_the_focused_panel_button_is_for(site, pages):
    page = pages.new()
    start_from_menu(page, site, "gin", "cpu", level="easy")
    # Pass the upcard until our draw from the stock comes. The CPU may knock on its first turn
    # (about one deal in 400): then the next hand is dealt and we pass again.
    while True:
        wait_until(page, "document.querySelector('#gin-take-upcard, #gin-draw-stock, #gin-next-hand') !== null")
        if page.locator("#gin-draw-stock").count():
            break
        before = version(page)
        if page.locator("#gin-next-hand").count():
            page.locator("#gin-next-hand").press("Enter")
        else:
            page.locator("#gin-take-upcard").focus()
            assert lit(page, ".gin-discard") and not lit(page, ".gin-stock")
            page.locator("#gin-pass").press("Enter")
        wait_version_after(page, before)
    page.locator("#gin-draw-stock").focus()
    assert lit(page, ".gin-stock") and not lit(page, ".gin-discard")
    before = version(page)
    page.locator("#gin-draw-stock").press("Enter")
    wait_version_after(page, before)
    wait_until(page, "document.querySelector('.card-btn:enabled') !== null")
    button = page.locator(".card-btn:enabled").first
    card = button.get_attribute("data-card")
    button.focus()
    table_card = f".pcard.in-hand[data-card='{card}']"
    assert lit(page, table_card)
    assert page.locator(".gin-table .pcard.keyed").count() == 1
    glow = page.evaluate("s => getComputedStyle(document.querySelector(s + ' .face')).boxShadow", table_card)
    assert "127, 211, 255" in glow
    page.locator("#room-actions a").focus()
    assert page.locator(".gin-table .keyed").count() == 0
