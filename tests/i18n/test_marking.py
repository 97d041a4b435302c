"""Every user-visible string in the templates and in site/js is marked for translation."""
from django.utils.functional import Promise

from games.catalog import MODE_HELP, MODE_LABELS, games

from .marking import JsLexer, all_scripts, all_templates, js_findings, looks_like_text, template_findings


def test_it_finds_no_unmarked_text_in_any_template():
    templates = all_templates()
    assert len(templates) > 30
    findings = [str(f) for path in templates for f in template_findings(path)]
    assert findings == []


def test_it_finds_no_unmarked_text_in_any_script():
    scripts = all_scripts()
    assert len(scripts) >= 10
    findings = [str(f) for path in scripts for f in js_findings(path)]
    assert findings == []


def test_the_template_check_sees_text_attributes_and_emails(tmp_path):
    marked = '{% load i18n %}<p title="{% translate \'Hi\' %}">{% translate "Flip" %} {{ n }}</p>'
    assert _findings(tmp_path, marked) == []
    assert _findings(tmp_path, '{% blocktranslate %}A {{ b }} c{% endblocktranslate %}<b>—</b>') == []
    assert _findings(tmp_path, "<p>Flip a card</p>") == ["Flip a card"]
    assert _findings(tmp_path, '<button aria-label="Close">×</button>') == ["Close"]
    assert _findings(tmp_path, '<img alt="A felt table" src="x.png">') == ["A felt table"]
    assert _findings(tmp_path, '<input type="submit" value="Send">') == ["Send"]
    assert _findings(tmp_path, "<p>{% translate 'Hi' %} there</p>") == ["there"]
    assert _findings(tmp_path, "<p>残り</p>") == ["残り"]
    # Script and style bodies are code; the names of things are not text.
    assert _findings(tmp_path, "<script>let label = 1;</script><style>p{color:red}</style>") == []
    assert _findings(tmp_path, '<div class="room" data-game="memory"></div>') == []
    assert _findings(tmp_path, "Hello {{ name }},\n{% translate 'x' %}", ".txt") == ["Hello"]


def _findings(tmp_path, source, suffix=".html"):
    path = tmp_path / f"t{suffix}"
    path.write_text(source)
    return [f.text for f in template_findings(path)]


def _js(tmp_path, source):
    path = tmp_path / "t.js"
    path.write_text(source)
    return [f.text for f in js_findings(path)]


def test_the_script_check_sees_text_wherever_it_is_shown(tmp_path):
    assert _js(tmp_path, 'h("p", {class: "btn btn-primary"}, gettext("Flip a card"));') == []
    assert _js(tmp_path, 'fmt(ngettext("%(n)s card", "%(n)s cards", n), {n});') == []
    assert _js(tmp_path, 'pgettext("corner", "K"); el.classList.toggle("red-suit", s === "H");') == []
    # Unmarked text: as an element's child, a textContent, an aria-label, a toast, anywhere.
    assert _js(tmp_path, 'h("span", {class: "seat-tag"}, "score");') == ["score"]
    assert _js(tmp_path, 'el.textContent = "you";') == ["you"]
    assert _js(tmp_path, 'h("dl", {"aria-label": "counts"});') == ["counts"]
    assert _js(tmp_path, 'toast(`Lost ${n} cards`);') == ["Lost "]
    assert _js(tmp_path, 'const label = "Connection lost";') == ["Connection lost"]
    assert _js(tmp_path, 'const t = x ? "Copied" : y;') == ["Copied"]
    assert _js(tmp_path, 'el.setAttribute("title", "face down");') == ["face down"]
    # Code is not text: classes, selectors, events, CSS, comparisons, keys, regexps, comments.
    code = '''// A comment with Words in it
    /* and Another */ const re = /Flip a card/g;
    el.addEventListener("click", f); el.querySelector("[data-view=panel]");
    el.style.transform = `translate(-50%, -50%) scale(${s})`;
    if (event.key === "ArrowUp" || mode === "local") h("a", {class: "btn btn-quiet", href: `/${g}/`});
    throw new Error(`unknown bucket set ${name}`);'''
    assert _js(tmp_path, code) == []


def test_the_word_test_tells_words_from_code():
    for text in ["Flip", "connection lost", "It's a draw!", "Copied", "Could not start: %(r)s"]:
        assert looks_like_text(text), text
    for text in ["btn btn-primary", "memory-card", "(pointer: coarse)", "text/plain;charset=UTF-8",
                 "ArrowUp", "aria-label", "0 0 40 44", "H", "cubic-bezier(.5,0,.3,1)"]:
        assert not looks_like_text(text), text


def test_the_lexer_reads_nested_template_literals_and_regexps():
    source = 'const a = `x ${f(`y ${gettext("Inner")}`)} z`; const r = /"/; gettext("Outer");'
    literals = JsLexer(source).run()
    assert [(literal.text, bool(literal.marked)) for literal in literals] == [
        ("Inner", True), ("y \x00", False), ("x \x00 z", False), ("Outer", True)]


def test_the_game_menus_labels_are_translatable():
    """The game specs (games/specs.py, as games/catalog.py lists them): every name, tagline,
    option, choice and mode label is a lazy translation, so the menus follow the page's language."""
    texts = list(MODE_LABELS.values()) + list(MODE_HELP.values())
    for game in games():
        texts += [game["name"], game["tagline"], game["description"]]
        texts += [level["label"] for level in game["cpu_levels"]]
        for option in game["options"]:
            texts.append(option["label"])
            texts += [option["help"]] if option["help"] else []
            texts += [c["label"] for c in option.get("choices", [])]
    assert len(texts) > 50
    assert [str(t) for t in texts if not isinstance(t, Promise)] == []
