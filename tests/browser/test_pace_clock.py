"""A friends room with a clock (issue 38) in two browsers, on a phone (390×844) and a laptop
(1366×768): the pace chosen in the menu, the clock of the seat to play on both screens (its
pill's ring and the panel's seconds, the same deadline on both), still under reduced motion,
the CPU playing the turns of a player who does nothing (their pill and the move line say so on
both screens, their own page says that their next move takes the seat back), the seat taken
over after three such turns and taken back with one tap, and the result counting the turns the
CPU played for him; and in a relaxed room (no clock), the others letting the CPU play a silent player's turn.

The sites are sites of their own, with the paces shortened by PACE_SCALE as an operator would:
Bozu Mekuri's normal pace, 15 s a turn, is 4.5 s on the first, and a relaxed room's two minutes
of silence are 6 s on the second.
"""
import re

import pytest

from tests.browser.conftest import BROWSER_TIMING, screenshot
from tests.browser.helpers import for_up_to, version, wait_playing, wait_until
from tests.live import embedded_env, running_site

pytestmark = pytest.mark.browser

PACE_SCALE = "0.3"
TURN_SECONDS = 4.5  # Bozu's normal pace, 15 s, times PACE_SCALE
SCREENS = [(390, 844), (1366, 768)]
RELAXED_SILENCE = 6  # seconds: the relaxed room's two minutes, scaled on a site of its own


@pytest.fixture(scope="module")
def paced_site(tmp_path_factory):
    tmp_path = tmp_path_factory.mktemp("paced-site")
    env = embedded_env(tmp_path, **BROWSER_TIMING, PACE_SCALE=PACE_SCALE)
    with running_site(tmp_path, env) as server:
        yield server


def pill(seat: int) -> str:
    return f"#seats .seat[data-seat='{seat}']"


def pill_text(page, seat: int) -> str:
    return page.locator(pill(seat)).inner_text()


def pill_js(seat: int) -> str:
    """The seat's pill, in the page's JavaScript."""
    return f"document.querySelector(\"{pill(seat)}\")"


def clock_of(page) -> dict:
    """The clock as the page draws it: whose pill has the ring, its seconds and how full it is,
    and the panel's line."""
    return page.evaluate("""() => {
        const ring = document.querySelector('#seats .seat-clock');
        const panel = document.getElementById('turn-clock');
        return {seat: ring ? Number(ring.closest('.seat').dataset.seat) : null,
                seconds: ring ? Number(ring.querySelector('.seat-clock-seconds').textContent) : null,
                left: ring ? Number(ring.style.getPropertyValue('--clock-left')) : null,
                panel: panel && !panel.hidden ? panel.textContent : null};
    }""")


def flip_if_my_turn(page) -> None:
    if page.locator("#flip").is_enabled():
        before = version(page)
        page.click("#flip")
        wait_until(page, f"Number(document.getElementById('room').dataset.version) > {before}")


@pytest.mark.parametrize(("width", "height"), SCREENS, ids=["phone", "laptop"])
def test_the_clock_and_the_cpu_keep_a_friends_room_going(paced_site, pages, width, height):
    alice = pages.new(width, height)
    alice.goto(f"{paced_site.url}/bozu/")
    form = alice.locator("form.menu[data-game=bozu]")
    form.locator("[data-option=players]").select_option("2")
    normal = form.locator("input[name=pace][value=normal]")
    # The menu says the seconds a turn of this game has at each pace, as the server counts them.
    assert form.locator("input[name=pace]:checked").get_attribute("value") == "relaxed"
    assert "4.5 s a turn" in form.locator(".menu-pace label:has(input[value=normal])").inner_text()
    normal.check()
    form.locator("button[data-mode=friends]").click()
    alice.wait_for_url(re.compile(r"/r/[A-Za-z0-9_-]+$"))
    wait_playing(alice, "waiting")
    room_url = alice.url

    # Bob asked for less motion: his clock keeps still and counts in seconds.
    context = pages.chromium.new_context(viewport={"width": width, "height": height}, reduced_motion="reduce")
    context.set_default_timeout(15000)
    pages.contexts.append(context)
    bob = pages.open(context)
    bob.goto(room_url)
    wait_playing(bob, "waiting")
    bob.click("#join")
    wait_playing(bob)
    wait_playing(alice)

    # Red (Alice) plays first: her clock runs on both screens, drawn from the server's deadline.
    wait_until(alice, f"{pill_js(0)}.querySelector('.seat-clock') !== null")
    wait_until(bob, f"{pill_js(0)}.querySelector('.seat-clock') !== null")
    mine, theirs = clock_of(alice), clock_of(bob)
    assert mine["seat"] == theirs["seat"] == 0
    assert 0 <= mine["seconds"] <= TURN_SECONDS + 1 and abs(mine["seconds"] - theirs["seconds"]) <= 1
    assert mine["panel"].startswith("Your turn:") and theirs["panel"].startswith("Red:")
    screenshot(alice, f"pace-clock-{width}x{height}")
    # The ring empties for Alice; Bob's stays full (only its seconds change).
    ring_left = "Number(document.querySelector('#seats .seat-clock').style.getPropertyValue('--clock-left'))"
    wait_until(alice, f"{ring_left} < .9")
    assert clock_of(bob)["left"] == 1
    flip_if_my_turn(alice)

    # Bob does nothing. His clock runs on both screens; at its end the CPU plays his turn.
    wait_until(bob, f"{pill_js(1)}.querySelector('.seat-clock') !== null")
    assert clock_of(alice)["seat"] == 1 and clock_of(bob)["panel"].startswith("Your turn:")
    # Screen readers hear once how long is left (Bozu's turn is under ten seconds from its start).
    wait_until(bob, "document.getElementById('last-move').textContent.includes('seconds left to play')")
    wait_until(alice, f"{pill_js(1)}.textContent.includes('played by the CPU')", timeout=TURN_SECONDS + 10)
    wait_until(alice, "document.getElementById('last-move').textContent.startsWith('The CPU played for Green: ')")
    wait_until(bob, "document.getElementById('last-move').textContent.startsWith('The CPU played for you: ')")
    # Bozu's panel shows the last flip beside its card, in the same words.
    wait_until(bob, "document.querySelector('#game-panel .bozu-last p').textContent"
                    ".startsWith('The CPU played for you: ')")
    wait_until(bob, "!document.getElementById('cpu-note').hidden")
    assert "Your next move takes your seat back." in bob.locator("#cpu-note").inner_text()
    assert "played by the CPU" in pill_text(bob, 1)
    screenshot(bob, f"pace-played-by-cpu-{width}x{height}")

    # Two more turns without him and the CPU takes his seat over, as after a disconnection.
    for _ in for_up_to(6 * TURN_SECONDS + 30):
        if "taken over by the CPU" in pill_text(alice, 1):
            break
        flip_if_my_turn(alice)
        alice.wait_for_timeout(50)
    assert "taken over by the CPU" in pill_text(alice, 1)
    wait_until(bob, "document.querySelector('#cpu-note #take-back') !== null")
    assert "the CPU is playing your seat" in bob.locator("#cpu-note").inner_text()
    # The tap that takes it back is on screen as the page opens, under the table on a phone.
    box = bob.locator("#cpu-note #take-back").bounding_box()
    assert box is not None, bob.evaluate("document.getElementById('side-panel').outerHTML")
    assert bob.evaluate("scrollY") == 0 and box["y"] >= 0 and box["y"] + box["height"] <= height
    screenshot(bob, f"pace-taken-over-{width}x{height}")

    # One tap and the seat is his again, on both screens.
    bob.click("#cpu-note #take-back")
    wait_until(bob, "document.getElementById('cpu-note').hidden")
    wait_until(alice, f"{pill_js(1)}.classList.contains('presence-connected')")
    assert "CPU" not in pill_text(alice, 1) and "CPU" not in pill_text(bob, 1)
    assert bob.locator("#room-you").inner_text() == "You play Green."

    # Bob resigns: the result says how many of his turns the CPU played (three timed out, and
    # those it played while it held his seat).
    bob.click("#resign")
    bob.click("#resign")
    alice.locator("#result").wait_for(state="visible")
    played_for_him = alice.locator("#cpu-turns li", has_text="Green:").inner_text()
    assert re.fullmatch(r"Green: \d+ turns played by the CPU", played_for_him)
    assert int(played_for_him.split()[1]) >= 3
    bob.locator("#result").wait_for(state="visible")
    assert bob.locator("#cpu-turns li", has_text="You:").inner_text() == played_for_him.replace("Green", "You")


@pytest.fixture(scope="module")
def hurried_site(tmp_path_factory):
    """A relaxed room's two minutes of silence are 6 s here."""
    tmp_path = tmp_path_factory.mktemp("hurried-site")
    env = embedded_env(tmp_path, **BROWSER_TIMING, PACE_SCALE=str(RELAXED_SILENCE / 120))
    with running_site(tmp_path, env) as server:
        yield server


def test_the_others_may_let_the_cpu_play_a_silent_turn_in_a_relaxed_room(hurried_site, pages):
    alice = pages.new(390, 844)
    alice.goto(f"{hurried_site.url}/bozu/")
    form = alice.locator("form.menu[data-game=bozu]")
    form.locator("[data-option=players]").select_option("2")
    form.locator("button[data-mode=friends]").click()  # relaxed, the default: no clock
    alice.wait_for_url(re.compile(r"/r/[A-Za-z0-9_-]+$"))
    wait_playing(alice, "waiting")
    bob = pages.new(390, 844)
    bob.goto(alice.url)
    wait_playing(bob, "waiting")
    bob.click("#join")
    wait_playing(alice)
    flip_if_my_turn(alice)
    wait_until(alice, "document.getElementById('turn-line').textContent === 'Green to play.'")
    assert clock_of(alice)["seat"] is None and clock_of(alice)["panel"] is None
    assert alice.locator("#let-cpu-play").count() == 0  # not before the silence is long enough

    # Bob stays silent: once the room's silence is long enough, Alice may let the CPU play for him
    # (Bob himself is not offered it: it is his own turn).
    alice.locator("#let-cpu-play").wait_for(state="visible", timeout=(RELAXED_SILENCE + 15) * 1000)
    assert alice.locator("#let-cpu-play").inner_text() == "Let the CPU play for Green"
    assert bob.locator("#let-cpu-play").count() == 0
    alice.click("#let-cpu-play")
    wait_until(alice, f"{pill_js(1)}.textContent.includes('played by the CPU')")
    wait_until(bob, "!document.getElementById('cpu-note').hidden")
    assert alice.locator("#let-cpu-play").count() == 0
