"""The rules pages carry what the original game pages had (issue 41): each original's sources,
Bozu Mekuri's tips with the figures of the site's own simulation, Memory's tips and glossary;
and the pictures drawn with the table's own cards (site/js/rules.js fills the placeholders of
games/templatetags/rules_pictures.py), in every language."""
import json
import re
import subprocess
import sys
from html import unescape
from pathlib import Path

import pytest

from games import bozu_page
from tests.pages.test_rules_pages import LANGUAGES, SLUGS, page, section

pytestmark = pytest.mark.django_db

PROJECT = Path(__file__).resolve().parents[2]
# Each original's sources, in its order: the public page each links to, or None where the
# original's page could not be found to link (the entry then names the work alone).
SOURCES = {
    "memory": [
        "https://ja.wikipedia.org/wiki/%E7%A5%9E%E7%B5%8C%E8%A1%B0%E5%BC%B1_(%E3%83%88%E3%83%A9%E3%83%B3%E3%83%97%E3%82%B2%E3%83%BC%E3%83%A0)",
        "https://kotobank.jp/word/%E7%A5%9E%E7%B5%8C%E8%A1%B0%E5%BC%B1-81606",
        "https://www.pagat.com/misc/pelmanism.html",
        "https://en.wikipedia.org/wiki/Concentration_(card_game)",
        "https://en.wikipedia.org/wiki/Pelmanism_(system)",
        "https://en.wikipedia.org/wiki/Concentration_(game_show)",
        "https://www.dcs.warwick.ac.uk/reports/186.html",
    ],
    "bozu": [
        None,  # Yoshikai Naoto, Doshisha Women's College
        None,  # Hamajima Shoten, Seito no Hiroba
        "https://www.tengudo.jp/blog/archives/1067",
        None,  # PolygonDrill
        "https://ja.wikipedia.org/wiki/%E5%B0%8F%E5%80%89%E7%99%BE%E4%BA%BA%E4%B8%80%E9%A6%96",
    ],
}
# The pictures of each page: figure id -> the cards drawn ("--" face down) or karuta kinds.
FIGURES = {
    "memory": {"figure-memory-grid": ["--"] * 15, "figure-memory-match": ["7S", "7H"],
               "figure-memory-mismatch": ["3D", "9C"]},
    "bozu": {"figure-bozu-cards": ["noble", "emperor", "lady", "monk", "semimaru"]},
    "gin": {"figure-gin-melds": ["7S", "7H", "7D", "3C", "4C", "5C", "6C"],
            "figure-gin-knock": ["2H", "3H", "4H", "8S", "8D", "8C", "5D", "6D", "7D", "4S", "5H", "8H"],
            "figure-gin-undercut": ["AS", "2S", "3S", "9H", "9D", "9C", "TH", "JH", "QH", "6D",
                                    "5C", "6C", "7C", "8C", "JD", "JS", "JC", "2C", "3D", "4S"]},
}


def figures(html) -> dict[str, tuple[list[str], str]]:
    """Each figure's drawn cards (or karuta kinds) and its caption."""
    found = {}
    for figure_id, body in re.findall(r'<figure class="rules-figure" id="([\w-]+)">(.*?)</figure>', html, re.S):
        cards = [code or "--" for code in re.findall(r'class="rules-card" data-card="(\w*)"', body)]
        kinds = [json.loads(unescape(data))["type"] for data in re.findall(r'data-karuta="([^"]+)"', body)]
        caption = re.search(r"<figcaption>([^<]+)</figcaption>", body).group(1).strip()
        found[figure_id] = (cards or kinds, caption)
    return found


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("slug", SLUGS)
def test_each_page_has_its_pictures_drawn_with_the_tables_cards(slug, language):
    html = page(slug, language)
    drawn = figures(html)
    assert {figure_id: cards for figure_id, (cards, _) in drawn.items()} == FIGURES[slug]
    captions = [caption for _, caption in drawn.values()]
    assert all(len(caption) > 20 for caption in captions) and len(set(captions)) == len(captions)
    assert re.search(r'<script type="module" src="[^"]*js/rules\.[^"]*js"></script>', html)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("slug", sorted(SOURCES))
def test_the_sources_are_the_originals_linked_to_their_pages(slug, language):
    items = re.findall(r"<li>(.*?)</li>", section(page(slug, language), "sources"), re.S)
    links = [(re.fullmatch(r'<a href="([^"]+)">[^<]+</a>', item) or [None, None])[1] for item in items]
    assert [unescape(link) if link else None for link in links] == SOURCES[slug]
    assert all(len(unescape(re.sub(r"<[^>]+>", "", item))) > 20 for item in items)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_memory_page_has_every_tip_and_the_six_term_glossary(language):
    html = page("memory", language)
    assert section(html, "tips").count("<li>") == 7
    glossary = section(html, "glossary")
    terms = re.findall(r"<dt>([^<]+)</dt><dd>([^<]+)</dd>", glossary)
    assert len(terms) == 6 and len({term for term, _ in terms}) == 6
    assert 'href="#glossary"' in html


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_bozu_tips_quote_the_simulated_figures_of_each_option(language):
    tips = section(page("bozu", language), "tips")
    assert tips.count("<li") == 4
    runs = {json.dumps(run["options"], sort_keys=True): run for run in bozu_page.stored_option_effects()["output"]}
    emperor = runs['{"emperor": "again"}']["shares"]
    lady = runs['{"lady_empty_again": true}']["shares"]
    decimal = "," if language in ("es", "de") else "."

    def shown(value):
        return f"{value:.1f}".replace(".", decimal)

    tip = unescape(re.search(r'<li id="options-tip">(.*?)</li>', tips, re.S).group(1))
    quoted = [shown(min(emperor)), shown(max(emperor)), shown(min(lady)), shown(max(lady)),
              shown(runs['{"semimaru": "others_to_centre"}']["semimaru_flipper_share"]),
              shown(runs["{}"]["semimaru_flipper_share"])]
    for figure in quoted:
        assert f"{figure} %" in tip, (figure, tip)
    # Emperors and ladies barely move the seats' chances; Semimaru's option moves a lot.
    assert max(emperor) - min(emperor) < 1.5 and max(lady) - min(lady) < 1.5
    assert runs['{"semimaru": "others_to_centre"}']["semimaru_flipper_share"] > runs["{}"]["semimaru_flipper_share"] + 5


def test_the_stored_option_figures_are_what_the_bench_prints():
    stored = bozu_page.stored_option_effects()
    words = stored["command"].split()
    assert words[:2] == ["python", "bench/bozu_options.py"]
    printed = subprocess.run([sys.executable, *words[1:]], cwd=PROJECT, capture_output=True, text=True, check=True)
    assert json.loads(printed.stdout) == stored["output"]
    assert all(run["games"] == 200_000 for run in stored["output"])
