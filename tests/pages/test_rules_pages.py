"""The rules pages: every section in every language, a FAQ of real questions, a short statistics
section with /privacy/'s own switch and a link to its full list, the original pages' sources,
tips and (Memory) glossary, pictures drawn with the table's cards, no other game's text, and on
the Bozu Mekuri page the 100 poets, the stored simulation and the options' figures."""
import io
import json
import re
import shlex
from html import unescape

import pytest
from django.core.management import call_command
from django.test import Client
from django.utils import translation

from games import bozu_page, catalog
from games.engines.bozu_cards import CARDS, EMPEROR_POEMS, POEMS

pytestmark = pytest.mark.django_db

SLUGS = [game["slug"] for game in catalog.games()]
LANGUAGES = ["en", "es", "de", "ja"]
SECTIONS = ["how-to-play", "options", "controls", "tips", "faq", "statistics", "sources"]
# Words only one game's page may use (English page; the other languages are checked on the
# games' translated names).
OWN_WORDS = {
    "memory": ["Concentration", "Pelmanism", "shinkei", "joker"],
    "bozu": ["Semimaru", "Hyakunin", "monk", "nyūdō", "lady", "ladies"],
    "gin": ["deadwood", "knock", "meld", "undercut", "lay off", "layoff"],
}


def page(slug, language="en") -> str:
    response = Client(HTTP_ACCEPT_LANGUAGE=language).get(f"/{slug}/rules/")
    assert response.status_code == 200 and response["Content-Language"] == language
    return response.content.decode()


def section(html, section_id) -> str:
    found = re.search(rf'<section id="{section_id}"[^>]*>(.*?)</section>', html, re.S)
    assert found, f"no section #{section_id}"
    return found.group(1)


def main(html) -> str:
    """The page's own content: the header's menu and the footer's links name every game."""
    return re.search(r'<main id="main"[^>]*>(.*?)</main>', html, re.S).group(1)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("slug", SLUGS)
def test_it_has_every_section_a_faq_and_sources_in_each_language(slug, language):
    html = page(slug, language)
    for section_id in SECTIONS:
        section(html, section_id)
        assert f'href="#{section_id}"' in html  # the table of contents points at it
    faq = section(html, "faq")
    questions = re.findall(r"<details><summary>([^<]+)</summary>\s*<p>[^<]+", faq)
    assert len(questions) >= 8 and len(set(questions)) == len(questions)
    assert faq.count("<details>") == len(questions)
    sources = section(html, "sources")
    assert re.fullmatch(r"\s*<h2>[^<]+</h2>\s*<ul>.*</ul>\s*", sources, re.S)
    assert re.search(r'<li><a href="https://[^"]+">[^<]+</a></li>', sources)


@pytest.mark.parametrize("slug", SLUGS)
def test_it_carries_the_same_statistics_switch_as_the_privacy_page(client, slug):
    switch = re.compile(r'<p class="telemetry-switch-row">\s*<label[^>]*>\s*<input type="checkbox"[^>]*'
                        r'data-telemetry-switch[^>]*>.*?</label>\s*</p>', re.S)
    privacy = switch.search(client.get("/privacy/").content.decode()).group(0)
    statistics = section(page(slug), "statistics")
    assert switch.search(statistics).group(0) == privacy
    # The full list is /privacy/'s field table, which the section links to.
    assert 'href="/privacy/#stored-fields"' in statistics
    assert 'id="stored-fields"' in client.get("/privacy/").content.decode()


def text(html) -> str:
    """What a reader reads: the words of the markup, without its tags."""
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html))).strip()


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("slug", SLUGS)
def test_the_statistics_section_is_short_and_plain(slug, language):
    html = page(slug, language)
    statistics = text(section(html, "statistics"))
    assert len(statistics) <= len(text(main(html))) / 5
    # Plain words in the page's language: no schema field names.
    assert "<code>" not in section(html, "statistics")
    for token in ("view3d", "ttff", "effectiveType", "cpu_level", "game_start"):
        assert token not in statistics


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("slug", SLUGS)
def test_no_page_carries_text_about_another_game(slug, language):
    body = main(page(slug, language))
    with translation.override(language):
        for other in SLUGS:
            if other != slug:
                # Not inside a word: the statistics' navigator.deviceMemory is no game.
                assert not re.search(rf'(?<!\w){re.escape(str(catalog.game(other)["name"]))}', body)
    if language == "en":
        for other, words in OWN_WORDS.items():
            for word in words if other != slug else ():
                assert not re.search(rf"\b{word}", body, re.I), (slug, word)
        assert "Gin Rummy has hidden cards" not in body
        assert "Every flip has been seen" not in body


def poets(html) -> list[tuple[str, bool, str]]:
    """(group, emperor, item text) for every poet of #poets."""
    found = []
    for group, items in re.findall(r'<ul class="poets" data-group="(\w+)">(.*?)</ul>', section(html, "poets"), re.S):
        for attributes, text in re.findall(r"<li([^>]*)>(.*?)</li>", items, re.S):
            found.append((group, 'class="emperor"' in attributes, text))
    return found


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_bozu_page_lists_the_100_poets_by_type_with_the_emperors_marked(language):
    listed = poets(page("bozu", language))
    assert len(listed) == 100
    sizes = {group: sum(1 for g, _, _ in listed if g == group) for group in ("nobles", "ladies", "monks", "semimaru")}
    assert sizes == {"nobles": 66, "ladies": 21, "monks": 12, "semimaru": 1}
    emperors = [text for _, emperor, text in listed if emperor]
    assert len(emperors) == 7 and all('class="badge"' in text for text in emperors)
    assert sorted(int(re.search(r'poem-no">(\d+)<', text).group(1)) for _, emperor, text in listed if emperor) \
        == sorted(EMPEROR_POEMS)
    for card in (CARDS[poem] for poem in POEMS):
        item = next(text for _, _, text in listed if f'poem-no">{card.poem}<' in text)
        first, second = re.findall(r'<span (?:class="reading" )?lang="([\w-]+)">([^<]+)</span>', item)
        assert {unescape(first[1]), unescape(second[1])} == {card.poet, card.poet_ja}
        # The page's language first: the Japanese script on the Japanese page, romaji elsewhere.
        assert unescape(first[1]) == (card.poet_ja if language == "ja" else card.poet)


def figure(html, name) -> list[float]:
    return [float(v) for v in re.findall(rf'data-figure="{name}" data-value="([^"]+)"', html)]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_bozu_simulation_box_shows_the_stored_figures_and_the_command(language):
    stored = json.loads(bozu_page.SIMULATION_FILE.read_text())
    output = stored["output"]
    box = section(page("bozu", language), "simulation")
    assert figure(box, "wins") == output["wins"]
    assert figure(box, "share") == pytest.approx([100 * w / output["games"] for w in output["wins"]])
    assert figure(box, "mean_pile") == output["mean_score"]
    assert figure(box, "draws") == [output["draws"]]
    assert figure(box, "mean_winner_pile") == [output["mean_winner_score"]]
    assert figure(box, "mean_centre") == [output["mean_centre"]]
    shown = re.findall(r'data-figure="mean_pile" data-value="[^"]+">([^<]+)<', box)
    decimal = "," if language in ("es", "de") else "."
    assert shown == [f"{mean:.2f}".replace(".", decimal) for mean in output["mean_score"]]
    assert f"<code>{stored['command']}</code>" in box
    assert output["games"] == 200_000


def test_the_stored_simulation_is_what_its_command_prints():
    stored = json.loads(bozu_page.SIMULATION_FILE.read_text())
    words = shlex.split(stored["command"])
    assert words[:3] == ["python", "manage.py", "simulate"]
    out = io.StringIO()
    call_command(*words[2:], stdout=out)
    printed = json.loads(out.getvalue().strip().splitlines()[-1])
    printed.pop("seconds"), stored["output"].pop("seconds")
    assert printed == stored["output"]


def test_a_simulation_file_of_another_game_is_refused(tmp_path, monkeypatch):
    wrong = tmp_path / "sim.json"
    wrong.write_text(json.dumps({"command": "x", "output": {"game": "gin", "players": 2, "wins": [1, 1]}}))
    monkeypatch.setattr(bozu_page, "SIMULATION_FILE", wrong)
    bozu_page.stored_simulation.cache_clear()
    try:
        with pytest.raises(ValueError, match="not hold a Bozu Mekuri simulation"):
            bozu_page.stored_simulation()
    finally:
        bozu_page.stored_simulation.cache_clear()
