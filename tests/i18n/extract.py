"""The strings marked for translation, read in pure Python (no xgettext on a fresh machine): the
catalogue tests compare them with locale/*/LC_MESSAGES/*.po. Each is (context, msgid, plural)."""
from __future__ import annotations

import ast
import re

from django.utils.translation.template import templatize

from .marking import PROJECT, JsLexer, all_scripts, all_templates

PYTHON_APPS = ("config", "server", "games", "accounts", "telemetry")
PY_CALLS = {  # function → (context index, msgid index, plural index)
    "_": (None, 0, None), "gettext": (None, 0, None), "gettext_lazy": (None, 0, None),
    "gettext_noop": (None, 0, None), "ngettext": (None, 0, 1), "ngettext_lazy": (None, 0, 1),
    "pgettext": (0, 1, None), "pgettext_lazy": (0, 1, None), "npgettext": (0, 1, 2),
    "npgettext_lazy": (0, 1, 2),
}
Message = tuple  # (context or None, msgid, plural or None)


def _message(call: str, args: list) -> Message | None:
    ctx, msg, plural = PY_CALLS[call]
    try:
        return (args[ctx] if ctx is not None else None, args[msg],
                args[plural] if plural is not None else None)
    except IndexError:
        return None


def python_messages() -> set[Message]:
    found = set()
    for app in PYTHON_APPS:
        for path in (PROJECT / app).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            for node in ast.walk(ast.parse(path.read_text())):
                if not isinstance(node, ast.Call):
                    continue
                name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
                if name not in PY_CALLS:
                    continue
                args = [a.value if isinstance(a, ast.Constant) and isinstance(a.value, str) else None
                        for a in node.args]
                message = _message(name, args)
                if message and message[1] is not None:
                    found.add(message)
    return found


# templatize() writes each marked string as a Python literal, u'…' or u"…".
STRING = r"""u(?:'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")"""
TEMPLATE_CALL = re.compile(rf"\b(n?p?gettext)\(((?:{STRING}(?:, )?)+)")
STRING = re.compile(STRING)


def template_messages() -> set[Message]:
    found = set()
    for path in all_templates():
        code = templatize(path.read_text(), origin=str(path))
        for call, args in TEMPLATE_CALL.findall(code):
            message = _message(call, [ast.literal_eval(s) for s in STRING.findall(args)])
            if message:
                found.add(message)
    return found


def script_messages() -> set[Message]:
    found = set()
    for path in all_scripts():
        # Each call's literal arguments: a literal at position 0 starts a new call.
        args: list = []
        current = None
        for literal in JsLexer(path.read_text()).run():
            if not literal.marked:
                continue
            if literal.arg == 0 or current != literal.marked:
                if args:
                    message = _message(current, args)
                    if message:
                        found.add(message)
                args, current = [], literal.marked
            args.append(literal.text)
        if args:
            message = _message(current, args)
            if message:
                found.add(message)
    return found
