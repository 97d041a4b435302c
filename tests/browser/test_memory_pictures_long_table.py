"""Memory's picture deck and long table in a real browser: started from the menu, the pictures
are drawn from the sprite and named in the page's language (what a screen reader says), and the
long table lays out 4 rows of 13 on the table and in the button panel, on a laptop and on a
phone either way up, without sideways scrolling."""
import gettext

import pytest

from tests.browser.conftest import screenshot
from tests.browser.helpers import record_frames, start_from_menu, version, wait_until, wait_version_after
from tests.live import PROJECT

pytestmark = pytest.mark.browser

SPANISH = gettext.translation("djangojs", PROJECT / "locale", languages=["es"])
# Where each card of the table and each button of the panel is, and what it shows.
CARDS_JS = """() => [...document.querySelectorAll('.memory-card')].map(el => {
  const r = el.getBoundingClientRect();
  return {pos: el.dataset.pos, x: r.left + r.width / 2, y: r.top + r.height / 2};
})"""
ROWS_JS = """() => [...document.querySelectorAll('.memory-grid .memory-row')].map(row =>
  [...row.querySelectorAll('.cell')].map(cell => {
    const r = cell.getBoundingClientRect();
    return {pos: cell.dataset.pos, left: r.left, right: r.right, top: Math.round(r.top), width: r.width};
  }))"""
PAGE_JS = "() => ({width: innerWidth, scrollWidth: document.documentElement.scrollWidth})"


def latest_state(frames) -> dict:
    return [f for f in frames if f.get("type") == "state"][-1]


def latest_view(frames) -> dict:
    return latest_state(frames)["view"]


def wait_my_move(page, frames) -> dict:
    """The view once the page shows a state in which this solo player may flip."""
    wait_until(page, "document.querySelector('.memory-grid .cell[aria-disabled=false]') !== null")
    state = latest_state(frames)
    while not (state["view"]["legal_actions"] and version(page) == state["version"]):
        page.wait_for_timeout(20)
        state = latest_state(frames)
    return state["view"]


def next_flip(view, known: dict) -> str:
    """A player with a perfect memory: the partner of the first card, a known pair, else a card
    never seen."""
    down = [e["pos"] for e in view["layout"] if e["state"] == "down"]
    unseen = [pos for pos in down if pos not in known] or down
    if view["first"]:
        partner = [pos for pos in down if known.get(pos) == known[view["first"]]]
        return (partner or unseen)[0]
    pairs = [pos for pos in down if pos in known and [known.get(p) for p in down].count(known[pos]) == 2]
    return (pairs or unseen)[0]


def test_it_plays_the_picture_deck_chosen_in_the_menu_and_names_the_pictures_in_spanish(site, pages):
    context = pages.chromium.new_context(locale="es-ES", viewport={"width": 1366, "height": 768})
    context.set_default_timeout(15000)
    pages.contexts.append(context)
    page = pages.open(context)
    page.goto(f"{site.url}/memory/")
    form = page.locator("form.menu[data-game=memory]")
    form.locator("[data-option=deck]").select_option("pictures")
    # Pictures rule out what they cannot be: the match condition, the jokers, two decks.
    assert form.locator("[data-option=match]").is_disabled()
    assert form.locator("[data-option=jokers]").is_disabled()
    assert form.locator("[data-option=cards] option[value='104']").is_disabled()
    # What is ruled out is greyed; the deck size stays as it was (only its 104 is out).
    opacity = "el => getComputedStyle(el.closest('.field')).opacity"
    assert form.locator("[data-option=match]").evaluate(opacity) == "0.5"
    assert form.locator("[data-option=cards]").evaluate(opacity) == "1"
    frames = record_frames(page)
    start_from_menu(page, site, "memory", "solo", {"deck": "pictures", "cards": 24})
    assert latest_view(frames)["options"] == {"players": 1, "cards": 24, "jokers": False,
                                              "match": "identical", "one_flip": False,
                                              "deck": "pictures"}

    # Play until half the pairs are taken, then turn one more card: pictures face up on the
    # table and taken ones in the panel.
    known: dict[str, str] = {}
    while True:
        view = wait_my_move(page, frames)
        known.update({e["pos"]: e["card"] for e in view["layout"] if e["state"] == "up"})
        last = view["cards_left"] == 12 and not view["first"]
        pos = next_flip({**view, "first": None}, {}) if last else next_flip(view, known)
        before = version(page)
        page.locator(f".memory-grid .cell[data-pos={pos}]").click()
        wait_version_after(page, before)
        if last:
            break
    view = latest_view(frames)
    assert view["phase"] == "second" and view["first"] == pos  # it stays up: nothing races us
    shown = {e["pos"]: e["card"] for e in view["layout"] if e["state"] != "down"}
    assert len(shown) == 13
    for at, picture in shown.items():
        name = SPANISH.gettext(picture)
        assert name != picture  # a Spanish word, not the English id
        label = page.locator(f".memory-grid .cell[data-pos={at}]").get_attribute("aria-label")
        assert label.startswith(at) and name in label
        face = page.locator(f".memory-card[data-pos={at}] .face .picture")
        assert face.get_attribute("role") == "img" and face.get_attribute("aria-label") == name
    # The picture is a cell of the sprite: it loads, as an SVG image.
    image = page.evaluate(f"""() => getComputedStyle(
        document.querySelector('.memory-card[data-pos={pos}] .picture')).backgroundImage""")
    assert image.startswith('url("') and "/pictures" in image and image.endswith('.svg")')
    answer = page.request.get(image[5:-2])
    assert answer.ok and answer.headers["content-type"].startswith("image/svg+xml")
    page.wait_for_timeout(600)  # the flip's turn animation
    screenshot(page, "memory-pictures")


SCREENS = {"laptop": (1366, 768), "phone-portrait": (390, 844), "phone-landscape": (844, 390)}


@pytest.mark.parametrize("screen", SCREENS)
def test_it_lays_the_long_table_out_in_four_rows_of_thirteen_on_table_and_panel(site, pages, screen):
    width, height = SCREENS[screen]
    phone = screen.startswith("phone")
    context = pages.chromium.new_context(viewport={"width": width, "height": height}, is_mobile=phone,
                                         has_touch=phone, device_scale_factor=1)
    context.set_default_timeout(15000)
    pages.contexts.append(context)
    page = pages.open(context)
    frames = record_frames(page)
    # On one device (no CPU moving cards away) the table is still as it was dealt.
    start_from_menu(page, site, "memory", "local", {"cards": 52, "long_table": True})
    view = latest_view(frames)
    assert (view["rows"], view["columns"]) == (4, 13) and view["options"]["long_table"] is True

    # The table: 4 rows of 13 cards, each row at its own height, A1 … A13 from left to right.
    cards = page.evaluate(CARDS_JS)
    rows = {}
    for card in cards:
        rows.setdefault(round(card["y"]), []).append(card)
    assert sorted(len(row) for row in rows.values()) == [13] * 4
    for letter, y in zip("ABCD", sorted(rows), strict=True):
        row = sorted(rows[y], key=lambda card: card["x"])
        assert [card["pos"] for card in row] == [f"{letter}{c}" for c in range(1, 14)]

    # The panel follows: 4 rows of 13 buttons, each row on one line, all inside the screen (on
    # a touch screen one tap away).
    if phone:
        page.click("text=Show the card buttons")
    panel = page.evaluate(ROWS_JS)
    assert [[cell["pos"] for cell in row] for row in panel] == [
        [f"{letter}{c}" for c in range(1, 14)] for letter in "ABCD"]
    for row in panel:
        assert len({cell["top"] for cell in row}) == 1
        assert row[0]["left"] >= 0 and row[-1]["right"] <= width
        assert min(cell["width"] for cell in row) >= 20  # still a button a finger can find
    screen_size = page.evaluate(PAGE_JS)
    assert screen_size["scrollWidth"] <= screen_size["width"], "the page scrolls sideways"
    screenshot(page, f"memory-long-table-{screen}")
