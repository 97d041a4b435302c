"""The catalogues: every marked string translated in Spanish, German and Japanese (no empty or
fuzzy entry, the same placeholders), nothing stale, and the committed .mo files compiled from
the current .po files (a fresh machine has no msgfmt; `make messages` recompiles them)."""
import re

import polib
import pytest
from django.test import Client
from django.utils import translation

from .extract import python_messages, script_messages, template_messages
from .marking import PROJECT

LANGUAGES = ("es", "de", "ja")
DOMAINS = ("django", "djangojs")
PLURAL_FORMS = {"es": "nplurals=2; plural=(n != 1);", "de": "nplurals=2; plural=(n != 1);",
                "ja": "nplurals=1; plural=0;"}
PLACEHOLDER = re.compile(r"%(?:\(\w+\))?[sd]|%%")


def catalogue(language, domain) -> polib.POFile:
    path = PROJECT / "locale" / language / "LC_MESSAGES" / f"{domain}.po"
    assert path.exists(), f"{path} is missing: run make messages"
    return polib.pofile(str(path))


@pytest.fixture(scope="module")
def marked():
    return {"django": python_messages() | template_messages(), "djangojs": script_messages()}


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("domain", DOMAINS)
def test_every_marked_string_has_an_entry_and_no_entry_is_stale(language, domain, marked):
    entries = {(e.msgctxt, e.msgid, e.msgid_plural or None) for e in catalogue(language, domain)
               if not e.obsolete}
    assert len(marked[domain]) > 150
    assert sorted(marked[domain] - entries, key=str) == [], "not in the catalogue: run make messages"
    assert sorted(entries - marked[domain], key=str) == [], "no longer in the sources: run make messages"


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("domain", DOMAINS)
def test_every_entry_is_translated_with_the_same_placeholders(language, domain):
    po = catalogue(language, domain)
    assert po.metadata["Language"] == language
    assert po.metadata["Plural-Forms"] == PLURAL_FORMS[language]
    assert not po.metadata_is_fuzzy
    nplurals = int(PLURAL_FORMS[language].split(";")[0].split("=")[1])
    problems = []
    for entry in po:
        if entry.obsolete:
            continue
        if "fuzzy" in entry.flags:
            problems.append(f"fuzzy: {entry.msgid!r}")
        if entry.msgid_plural:
            forms = [entry.msgstr_plural.get(i, "") for i in range(nplurals)]
            # The last form is the plural one; a one-form language says everything with it.
            sources = [entry.msgid] * (nplurals - 1) + [entry.msgid_plural]
        else:
            forms, sources = [entry.msgstr], [entry.msgid]
        for form, source in zip(forms, sources, strict=True):
            if not form.strip():
                problems.append(f"untranslated: {entry.msgid!r}")
            elif sorted(PLACEHOLDER.findall(form)) != sorted(PLACEHOLDER.findall(source)):
                problems.append(f"placeholders differ: {source!r} -> {form!r}")
    assert problems == []


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("domain", DOMAINS)
def test_the_committed_mo_file_is_compiled_from_the_po_file(language, domain):
    po = catalogue(language, domain)
    mo_path = PROJECT / "locale" / language / "LC_MESSAGES" / f"{domain}.mo"
    assert mo_path.exists(), f"{mo_path} is missing: run make compilemessages"
    mo = polib.mofile(str(mo_path))

    def content(entries):
        return {(e.msgctxt, e.msgid): (e.msgstr, tuple(sorted(e.msgstr_plural.items())))
                for e in entries if e.msgid}

    expected = content(e for e in po.translated_entries())
    assert content(mo) == expected, "out of date: run make compilemessages"
    assert mo.metadata.get("Plural-Forms") == po.metadata["Plural-Forms"]


def test_django_uses_the_catalogues():
    with translation.override("ja"):
        assert translation.gettext("Card Table") == "カードテーブル"
        assert translation.ngettext("%(cards)d card", "%(cards)d cards", 3) % {"cards": 3} == "3枚"
        assert translation.pgettext("result letter: win", "W") == "勝"
    with translation.override("de"):
        assert translation.ngettext("%(days)s day", "%(days)s days", 1) % {"days": 1} == "1 Tag"
        assert translation.ngettext("%(days)s day", "%(days)s days", 2) % {"days": 2} == "2 Tage"
    with translation.override("es"):
        assert translation.gettext("Play vs CPU") == "Contra la CPU"


@pytest.mark.parametrize("language, word", [("es", "Voltear una carta"), ("de", "Karte aufdecken"),
                                            ("ja", "カードをめくる")])
def test_the_javascript_catalogue_follows_the_language(db, language, word):
    def catalogue_text(accept):
        response = Client(HTTP_ACCEPT_LANGUAGE=accept).get("/jsi18n/")
        assert response.status_code == 200 and response.content.isascii()
        # The catalogue is JSON, with \uXXXX escapes for everything beyond ASCII.
        return re.sub(r"\\u([0-9a-f]{4})", lambda m: chr(int(m.group(1), 16)), response.content.decode())

    assert word in catalogue_text(language)
    assert word not in catalogue_text("en")
