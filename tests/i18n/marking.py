"""Finds user-visible text that is not marked for translation, in templates and in site/js.

Templates: the translate and blocktranslate tags, variables and other tags are taken out, then
what is left is read as HTML: text outside <script>/<style>, and the attributes a person sees or
hears (title, alt, placeholder, aria-label, value of buttons, data-label-*). Any of that with a
letter in it is unmarked text, unless it is on the small ALLOWED list of proper names and symbols.

JavaScript: a small lexer finds every string literal (quotes and template literals, with the
text between ${…} parts) outside comments and regular expressions. Literals that are arguments
of gettext/ngettext/pgettext/npgettext are marked. Every other literal that reads like words
(see looks_like_text) is unmarked text; code strings (CSS classes, selectors, event names,
SVG paths, keys) do not read like words.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[2]
TEMPLATES = PROJECT / "templates"
SITE_JS = PROJECT / "site" / "js"

# Proper names and symbols that are the same in every language.
ALLOWED_TEMPLATE_TEXT = {
    "A", "K",               # card corners drawn on the home page's little fans of cards
    "坊主", "姫", "殿",      # the Japanese words on the home page's karuta (decoration, aria-hidden)
}
# Key names the scripts compare with what the browser reports (event.key).
ALLOWED_JS_LITERALS = {"Home", "End", "Escape"}

VISIBLE_ATTRIBUTES = {"title", "alt", "placeholder", "aria-label", "aria-description",
                      "aria-roledescription", "aria-valuetext", "label"}
MARK = "\x00"
LETTER = re.compile(r"[^\W\d_]")


@dataclass
class Finding:
    path: str
    line: int
    text: str

    def __str__(self):
        return f"{self.path}:{self.line}: {self.text!r}"


def _shown(path: Path) -> str:
    return str(path.relative_to(PROJECT)) if path.is_relative_to(PROJECT) else str(path)


# ---- templates ---------------------------------------------------------------------------

TEMPLATE_REMOVALS = [
    (re.compile(r"\{#.*?#\}", re.S), ""),
    # Blocks that fill an attribute in base.html (a CSS class), not text.
    (re.compile(r"\{%\s*block body_class\s*%\}.*?\{%\s*endblock\s*%\}", re.S), ""),
    (re.compile(r"\{%\s*comment\s*%\}.*?\{%\s*endcomment\s*%\}", re.S), ""),
    (re.compile(r"\{%\s*blocktrans(?:late)?\b.*?\{%\s*endblocktrans(?:late)?\s*%\}", re.S), MARK),
    (re.compile(r"\{%\s*trans(?:late)?\s.*?%\}", re.S), MARK),
    (re.compile(r"\{\{.*?\}\}", re.S), MARK),
    (re.compile(r"\{%.*?%\}", re.S), ""),
]


def strip_template(source: str) -> str:
    """The template with its marked strings, variables and tags taken out; newlines are kept
    so that line numbers still point at the source."""
    for pattern, replacement in TEMPLATE_REMOVALS:
        source = pattern.sub(lambda m, kept=replacement: kept + "\n" * m.group(0).count("\n"), source)
    return source


class _VisibleText(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[int, str]] = []
        self.skip = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self.skip += 1
        attrs = dict(attrs)
        for name, value in attrs.items():
            visible = name in VISIBLE_ATTRIBUTES or name.startswith("data-label")
            if name == "value" and tag in ("button", "input") and attrs.get("type") in ("submit", "button", "reset"):
                visible = True
            if visible and value:
                self.found.append((self.getpos()[0], value))

    def handle_endtag(self, tag):
        if tag in ("script", "style") and self.skip:
            self.skip -= 1

    def handle_data(self, data):
        if not self.skip:
            self.found.append((self.getpos()[0], data))


def unmarked_text(text: str, allowed: set[str]) -> str | None:
    for piece in text.split(MARK):
        piece = " ".join(piece.split())
        if LETTER.search(piece) and piece not in allowed:
            return piece
    return None


def template_findings(path: Path) -> list[Finding]:
    stripped = strip_template(path.read_text())
    if path.suffix == ".html":
        parser = _VisibleText()
        parser.feed(stripped)
        parser.close()
        chunks = parser.found
    else:  # plain-text templates (e-mails): all of it is read
        chunks = [(i + 1, line) for i, line in enumerate(stripped.splitlines())]
    findings = []
    for line, text in chunks:
        bad = unmarked_text(text, ALLOWED_TEMPLATE_TEXT)
        if bad:
            findings.append(Finding(_shown(path), line, bad))
    return findings


def all_templates() -> list[Path]:
    return sorted(p for p in TEMPLATES.rglob("*") if p.suffix in (".html", ".txt"))


# ---- JavaScript --------------------------------------------------------------------------

GETTEXT_CALLS = {"gettext", "ngettext", "pgettext", "npgettext", "gettext_noop"}
# After these, a "/" starts a regular expression rather than a division.
REGEX_BEFORE = set("(,=:[!&|?{};+-*%<>~^") | {"return", "typeof", "case", "of", "in", "=>", ""}


@dataclass
class Literal:
    line: int
    text: str        # for template literals: the static parts joined by MARK
    marked: str      # the gettext function it is an argument of ("" when none)
    arg: int         # its position among the arguments of the call it is in
    sink: bool       # where a person sees it: a child of h(), a textContent, an aria-label…
    thrown: bool = False  # not for people: a `throw new Error(…)` message, a class list, an id


# Calls whose arguments (from the given index on, or only those listed) are shown to people.
SINK_CALLS = {
    "h": range(2, 99), "fill": range(1, 99), "append": range(0, 99), "prepend": range(0, 99),
    "replaceChildren": range(0, 99), "createTextNode": (0,), "toast": (0,), "alert": (0,),
    "confirm": (0,), "button": (0,), "confirmButton": (0, 1), "btn": (0,), "Error": (0,),
}
CODE_KEYS = {"class", "className", "id", "role", "type", "name", "rel", "href", "lang", "tabindex"}
PATH = re.compile(r"[\w.-]*/[\w./-]*")
SINK_PROPERTIES = {"textContent", "innerText", "innerHTML", "title", "placeholder", "alt",
                   "ariaLabel", "value"}


class JsLexer:
    """Just enough of JavaScript to find string literals: comments, strings, template literals
    (nested), regular expressions; for each literal, which call it is an argument of (and at
    which position), which object key it is the value of, or which property it is assigned to."""

    def __init__(self, source: str):
        self.s = source
        self.i = 0
        self.literals: list[Literal] = []
        self.prev = ["", "", ""]          # the last significant tokens, newest last
        # One frame per open bracket: [bracket, callee, argument index, key].
        self.frames: list[list] = []
        self.last_string = ""

    @property
    def last(self):
        return self.prev[-1]

    def token(self, tok):
        self.prev = self.prev[1:] + [tok]

    def line(self, at) -> int:
        return self.s.count("\n", 0, at) + 1

    def run(self) -> list[Literal]:
        self.code(stop_depth=None)
        return self.literals

    def code(self, stop_depth):
        s = self.s
        ident = re.compile(r"[\w$]+")
        while self.i < len(s):
            c = s[self.i]
            if s.startswith("//", self.i):
                self.i = s.find("\n", self.i)
                if self.i < 0:
                    self.i = len(s)
            elif s.startswith("/*", self.i):
                self.i = s.index("*/", self.i) + 2
            elif c in "'\"":
                start = self.i
                self.add(start, self.quoted(c))
            elif c == "`":
                start = self.i
                self.add(start, self.template())
            elif c == "/" and self.last in REGEX_BEFORE:
                self.regex()
            elif c.isalpha() or c in "_$":
                m = ident.match(s, self.i)
                self.token(m.group(0))
                self.i = m.end()
            elif c.isspace():
                self.i += 1
            else:
                if c in "([{":
                    callee = self.last if c == "(" and ident.fullmatch(self.last or "-") else ""
                    if self.prev[-3:] == ["throw", "new", "Error"]:
                        callee = "throw"  # a programming error for developers, never shown
                    self.frames.append([c, callee, 0, None])
                elif c in ")]}":
                    if stop_depth is not None and len(self.frames) == stop_depth:
                        return  # the "}" that closes a ${…}
                    if self.frames:
                        self.frames.pop()
                elif c == "," and self.frames:
                    self.frames[-1][2] += 1
                    self.frames[-1][3] = None
                elif c == ":" and self.frames and self.frames[-1][0] == "{":
                    self.frames[-1][3] = self.last_string if self.last == "string" else self.last
                op = "=>" if s.startswith("=>", self.i) else c
                self.token(op)
                self.i += len(op)

    def add(self, start, text):
        frame = self.frames[-1] if self.frames else None
        marked = frame[1] if frame and frame[0] == "(" and frame[1] in GETTEXT_CALLS else ""
        sink = False
        if frame and frame[0] == "(" and frame[1] in SINK_CALLS:
            sink = frame[2] in SINK_CALLS[frame[1]]
        if frame and frame[0] == "{" and frame[3] in VISIBLE_ATTRIBUTES:
            sink = True
        # el.textContent = "…" (also the branches of a ?: right after it)
        if self.prev[-1] == "=" and self.prev[-2] in SINK_PROPERTIES:
            sink = True
        if self.prev[-1] == "=" and self.prev[-2] in ("=", "!"):
            sink = False  # x === "solo": a comparison
        # The message of a `throw new Error(…)` is for developers; a class list or an id is code.
        thrown = bool(frame) and (frame[1] == "throw" or (frame[0] == "{" and frame[3] in CODE_KEYS))
        arg = frame[2] if frame and frame[0] == "(" else -1
        self.literals.append(Literal(self.line(start), text, marked, arg, sink, thrown))
        if frame and frame[0] == "(" and frame[1] == "setAttribute" and frame[2] == 0:
            frame[3] = text  # setAttribute("aria-label", "…"): the next argument is shown
        elif frame and frame[0] == "(" and frame[1] == "setAttribute" and frame[2] == 1 \
                and frame[3] in VISIBLE_ATTRIBUTES:
            self.literals[-1].sink = True
        self.token("string")
        self.last_string = text

    def quoted(self, quote) -> str:
        s = self.s
        self.i += 1
        out = []
        while s[self.i] != quote:
            if s[self.i] == "\\":
                out.append(s[self.i + 1])
                self.i += 2
            else:
                out.append(s[self.i])
                self.i += 1
        self.i += 1
        return "".join(out)

    def template(self) -> str:
        s = self.s
        self.i += 1
        out = []
        while s[self.i] != "`":
            if s[self.i] == "\\":
                out.append(s[self.i + 1])
                self.i += 2
            elif s.startswith("${", self.i):
                self.i += 2
                out.append(MARK)
                saved = self.prev
                self.prev = ["", "", "("]
                self.code(stop_depth=len(self.frames))
                self.i += 1  # the closing }
                self.prev = saved
            else:
                out.append(s[self.i])
                self.i += 1
        self.i += 1
        return "".join(out)

    def regex(self):
        s = self.s
        self.i += 1
        in_class = False
        while True:
            c = s[self.i]
            if c == "\\":
                self.i += 2
                continue
            if c == "[":
                in_class = True
            elif c == "]":
                in_class = False
            elif c == "/" and not in_class:
                break
            self.i += 1
        self.i += 1
        while self.i < len(s) and s[self.i].isalpha():  # flags
            self.i += 1
        self.token("regex")


WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*")
CSS_CLASSES = set()
for _css in [PROJECT / "site" / "css", PROJECT / "accounts" / "static"]:
    for _file in _css.rglob("*.css"):
        CSS_CLASSES.update(re.findall(r"\.([a-z][\w-]*)", _file.read_text()))


def _plain(word: str) -> bool:
    return bool(WORD.fullmatch(word.strip("\"“”").rstrip("?!.,;:…")))


def looks_like_text(piece: str) -> bool:
    """Words meant for people, wherever the literal goes: letters beyond Latin; a capitalised
    word ("Flip"); or two or more plain words, most of the words in it, that are not all CSS
    class names ("connection lost", but not "btn btn-primary" or "meld deadwood"). Code strings
    (identifiers, selectors, CSS values, paths, markup) do not read like that."""
    piece = piece.strip()
    if not LETTER.search(piece) or piece in ALLOWED_JS_LITERALS:
        return False
    if any(ord(c) > 0x2FF and LETTER.match(c) for c in piece):
        return True
    words = piece.split()
    plain = [w for w in words if _plain(w)]
    if len(words) == 1:
        word = words[0]
        # "Flip", "Joker": a capitalised plain word; "red", "btn-primary", "ArrowUp": code.
        return bool(plain) and len(word) > 1 and word[0].isupper() \
            and not re.search(r"[a-z][A-Z]|[A-Z]{2}", word)
    if len(plain) < 2 or len(plain) * 2 < len(words) or max(map(len, plain)) < 2:
        return False
    return not all(w in CSS_CLASSES for w in words)


def js_findings(path: Path) -> list[Finding]:
    findings = []
    for literal in JsLexer(path.read_text()).run():
        if literal.marked:
            continue
        for piece in literal.text.split(MARK):
            shown = literal.sink and LETTER.search(piece) and piece.strip() not in ALLOWED_JS_LITERALS \
                and not PATH.fullmatch(piece.strip())
            if shown or (looks_like_text(piece) and not literal.thrown):
                findings.append(Finding(_shown(path), literal.line, piece))
                break
    return findings


def all_scripts() -> list[Path]:
    return sorted(SITE_JS.rglob("*.js"))
