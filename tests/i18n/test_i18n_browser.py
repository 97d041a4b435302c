"""The site in Chromium in Spanish, German and Japanese: the home page, a room and the account
page hold no English beyond proper names; the switcher changes the language and it stays; a
Memory game is played in Japanese through the button panel, and Bozu Mekuri names its poets in
Japanese script there."""
import itertools
import re

import polib
import pytest

from tests.browser.helpers import start_from_menu, status, version, wait_until, wait_version_after
from tests.browser.memory_play import Memory, read_cells

from .marking import PROJECT

pytestmark = pytest.mark.browser

PASSWORD = "correct horse battery"
LOCALES = {"es": "es-ES", "de": "de-DE", "ja": "ja-JP"}
# Names that stay as they are in every language: the switcher's autonyms, the acronym CPU, the
# JSON of "Download my data", key names in the panel's help, the game names that Spanish and
# German keep, and the test players' own names.
PROPER = {"english", "español", "deutsch", "cpu", "json", "enter", "space", "tab",
          "bozu", "mekuri", "gin", "rummy", "memory"}
WORD = re.compile(r"[A-Za-zÀ-ÿ]{2,}")
PLACEHOLDER = re.compile(r"%\(\w+\)[sd]")
_names = itertools.count(1)


def _words(text: str) -> set[str]:
    return {w.lower() for w in WORD.findall(PLACEHOLDER.sub(" ", text))}


def _vocabulary():
    english, translated = set(), {lang: set() for lang in LOCALES}
    for lang in LOCALES:
        for domain in ("django", "djangojs"):
            for entry in polib.pofile(str(PROJECT / "locale" / lang / "LC_MESSAGES" / f"{domain}.po")):
                english |= _words(entry.msgid + " " + entry.msgid_plural)
                translated[lang] |= _words(" ".join([entry.msgstr, *entry.msgstr_plural.values()]))
    return english, translated


ENGLISH, TRANSLATED = _vocabulary()

VISIBLE_TEXT_JS = """() => {
  const parts = [document.title, document.body.innerText];
  for (const el of document.querySelectorAll('[aria-label], [title], [placeholder], [alt]')) {
    for (const name of ['aria-label', 'title', 'placeholder', 'alt']) {
      if (el.hasAttribute(name)) parts.push(el.getAttribute(name));
    }
  }
  return parts.join('\\n');
}"""


def english_left(page, lang: str, names=()) -> list[str]:
    """English words a person sees or hears on the page: for Japanese any word in Latin
    letters, for Spanish and German any word of the site's English that the translation does
    not use itself; proper names aside."""
    allowed = PROPER | {w.lower() for n in names for w in WORD.findall(n)}
    text = page.evaluate(VISIBLE_TEXT_JS)
    found = []
    for word in WORD.findall(text):
        w = word.lower()
        if w in allowed:
            continue
        if lang == "ja" or (w in ENGLISH and w not in TRANSLATED[lang]):
            found.append(word)
    return sorted(set(found))


def new_page(pages, lang, width=1280, height=860):
    context = pages.chromium.new_context(locale=LOCALES[lang], viewport={"width": width, "height": height})
    context.set_default_timeout(15000)
    pages.contexts.append(context)
    return pages.open(context)


def sign_up(page, site) -> str:
    name = f"player{next(_names)}"
    page.goto(f"{site.url}/accounts/signup/")
    page.fill("#id_username", name)
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.locator("form.account-form button[type=submit]").click()
    page.wait_for_url(re.compile(r"/accounts/me/$"))
    return name


def test_the_english_check_sees_english(site, pages):
    page = new_page(pages, "de")
    page.goto(f"{site.url}/")
    page.evaluate("document.querySelector('h1').textContent = 'Play cards in your browser'")
    assert {"play", "cards", "your"} <= {w.lower() for w in english_left(page, "de")}
    page.evaluate("document.querySelector('h1').textContent = 'Karten spielen'")
    assert english_left(page, "de") == []


@pytest.mark.parametrize("lang", ["es", "de", "ja"])
def test_home_room_and_account_pages_have_no_english_left(site, pages, lang):
    page = new_page(pages, lang)
    page.goto(f"{site.url}/")
    assert page.get_attribute("html", "lang") == lang
    assert english_left(page, lang) == []

    start_from_menu(page, site, "memory", "cpu", {"cards": 24}, level="easy")
    page.wait_for_selector(".memory-grid .cell")
    wait_until(page, "document.getElementById('last-move').textContent.length > 0")
    assert english_left(page, lang) == []
    # A refused move is explained in the page's language, not in the server's English.
    page.evaluate("window.roomClient.send('action', {action: {type: 'flip', pos: 'Z9'}})")
    toast = page.locator("#toast")
    toast.wait_for(state="visible")
    assert english_left(page, lang) == []
    assert toast.inner_text() != "There is no card at 'Z9'."

    name = sign_up(page, site)
    assert page.get_attribute("html", "lang") == lang
    assert english_left(page, lang, [name]) == []


def test_the_switcher_changes_the_language_and_it_stays(site, pages):
    page = pages.new()  # a browser asking for English
    page.goto(f"{site.url}/gin/rules/")
    assert page.get_attribute("html", "lang") == "en"
    page.locator(".lang-switch button[value=de]").click()
    wait_until(page, "document.documentElement.lang === 'de'")
    assert page.url.endswith("/gin/rules/")  # the same page, the same URL
    assert page.locator("h1").inner_text() == "So spielt man Gin Rommé"
    assert page.locator(".lang-switch button[value=de]").get_attribute("aria-pressed") == "true"
    page.goto(f"{site.url}/")
    assert page.get_attribute("html", "lang") == "de"
    assert english_left(page, "de") == []


def test_a_memory_game_in_japanese_through_the_panel(site, pages):
    page = new_page(pages, "ja")
    name = sign_up(page, site)
    start_from_menu(page, site, "memory", "cpu", {"cards": 24}, level="easy")
    assert page.locator("#room-you").inner_text() == "あなたは赤です。"
    player = Memory()
    flips = 0
    for _ in range(2000):
        if status(page) == "finished":
            break
        cells = read_cells(page)
        player.look(cells)
        if not any(c["enabled"] for c in cells):
            page.wait_for_timeout(30)  # the CPU's turn, or a mismatch being shown
            continue
        target = player.choose(cells)
        before = version(page)
        page.locator(f".memory-grid .cell[data-pos={target['pos']}]").click()
        flips += 1
        wait_version_after(page, before)
        if flips == 3:
            assert "めくりました" in page.locator("#last-move").inner_text()
            assert english_left(page, "ja", [name]) == []
    assert status(page) == "finished" and flips > 0

    result = page.locator("#result")
    result.wait_for(state="visible")
    assert result.locator("h2").inner_text() in ("あなたの勝ち！", "引き分け！", "緑の勝ち！")
    assert result.locator("thead").first.inner_text().split() == ["順位", "プレイヤー", "ペア"]  # Memory counts pairs
    # Under the game's own result, the session's standings (one game so far), in Japanese too.
    standings = result.locator("#session-standings thead").first  # the games' times follow
    assert standings.inner_text().split() == ["順位", "プレイヤー", "勝ち数", "ペア"]
    assert english_left(page, "ja", [name]) == []

    # The finished game on the account page, in Japanese, with a Japanese date.
    page.goto(f"{site.url}/accounts/me/")
    assert page.locator("#total-games").inner_text() == "1"
    record = page.locator("tr.record").first.inner_text()
    assert "神経衰弱" in record and "CPU対戦" in record and re.search(r"\d{4}/\d{2}/\d{2}", record)
    assert english_left(page, "ja", [name]) == []


def test_bozu_mekuri_names_its_poets_in_japanese_script_in_japanese(site, pages):
    page = new_page(pages, "ja")
    start_from_menu(page, site, "bozu", "cpu", {"players": 2})
    before = version(page)
    page.locator("#flip").click()
    wait_version_after(page, before)
    last = page.locator("#last-move").inner_text()
    assert "めくりました" in last and not re.search(r"[A-Za-z]", last)
    assert page.locator(".bozu-last .k-en").count() == 0
    assert page.locator(".bozu-last .k-ja").count() == 1
    assert english_left(page, "ja") == []

    # In Spanish the same card carries the romanised name, and the Japanese one as decoration.
    page = new_page(pages, "es")
    start_from_menu(page, site, "bozu", "cpu", {"players": 2})
    before = version(page)
    page.locator("#flip").click()
    wait_version_after(page, before)
    assert page.locator(".bozu-last .k-en").count() == 1
    # The player's own flip ("Volteas a …") or the CPU's after it ("Verde voltea a …").
    assert re.search(r"\b[Vv]olteas? a ", page.locator("#last-move").inner_text())
