"""A tap the table cannot take is answered (issue 37, point 6): on an upright phone (390×844),
a tap on a face-down Memory card while the CPU is to play shakes the card briefly and says why,
in the words of site/js/errors.js ("It is not your turn."), then the line goes; nothing is sent.

The CPU here takes seconds over each flip (its delay as an operator would set it), so that its
turn lasts long enough to be tapped into."""
import pytest

from tests.browser.conftest import BROWSER_TIMING
from tests.browser.helpers import (
    for_up_to,
    record_frames,
    record_sent,
    start_from_menu,
    version,
    wait_until,
    wait_version_after,
)
from tests.browser.memory_play import read_cells
from tests.live import embedded_env, running_site

pytestmark = pytest.mark.browser

TOAST_SHOWN = "!document.getElementById('toast').hidden"


@pytest.fixture(scope="module")
def slow_cpu_site(tmp_path_factory):
    tmp_path = tmp_path_factory.mktemp("slow-cpu-site")
    env = embedded_env(tmp_path, **{**BROWSER_TIMING, "CPU_DELAY_MEMORY_FLIP": "5"})
    with running_site(tmp_path, env) as server:
        yield server


def phone(pages):
    context = pages.chromium.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    context.set_default_timeout(15000)
    pages.contexts.append(context)
    return pages.open(context)


def to_play(frames) -> int | None:
    """Whose turn it is in the latest state the page was sent."""
    states = [frame for frame in frames if frame.get("type") == "state"]
    return states[-1]["view"]["current_player"] if states else None


def face_down(page) -> list[str]:
    return [cell["pos"] for cell in read_cells(page) if cell["state"] == "down"]


def test_a_tap_during_the_cpus_turn_says_it_is_not_your_turn(slow_cpu_site, pages):
    page = phone(pages)
    sent, frames = record_sent(page), record_frames(page)
    start_from_menu(page, slow_cpu_site, "memory", "cpu", {"cards": 24}, level="easy")
    # Red starts: two cards of its own, then again after a pair, until a miss hands the turn over.
    for _ in for_up_to(60):
        if to_play(frames) == 1:
            break
        before = version(page)
        page.locator(f".memory-card[data-pos='{face_down(page)[0]}']").tap()
        wait_version_after(page, before)
        for _ in for_up_to(5):  # a miss is shown a moment before the turn passes
            if to_play(frames) == 1:
                break
            page.wait_for_timeout(50)
    assert to_play(frames) == 1
    latest = [frame for frame in frames if frame.get("type") == "state"][-1]["version"]
    wait_until(page, f"Number(document.getElementById('room').dataset.version) >= {latest}")  # drawn
    page.evaluate("document.getElementById('toast').hidden = true")  # nothing said so far stays
    actions_before = sum(1 for message in sent if message.get("type") == "action")
    card = page.locator(f".memory-card[data-pos='{face_down(page)[0]}']")
    assert card.evaluate(
        "el => { const r = el.getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight; }")
    card.tap()
    wait_until(page, TOAST_SHOWN, 5)
    assert to_play(frames) == 1, "the CPU moved before the tap: its delay is too short for this machine"
    toast = page.locator("#toast")
    assert toast.inner_text() == "It is not your turn."
    assert toast.get_attribute("data-kind") == "refused"
    assert "refused" in card.get_attribute("class")  # the brief shake of what was tapped
    wait_until(page, "document.getElementById('toast').hidden", 10)  # brief: it goes by itself
    assert sum(1 for message in sent if message.get("type") == "action") == actions_before
