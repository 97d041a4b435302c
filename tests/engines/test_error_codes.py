"""One list of error codes (games/engines/errors.py), and everything that names a code agrees
with it: the page's translations (site/js/errors.js), docs/protocol.md's table, and the server's
own sources, which name each code from the enum, never as a bare string that nothing checks."""
import ast
import re
from pathlib import Path

from games.engines.base import GameError
from games.engines.errors import ErrorCode

PROJECT = Path(__file__).resolve().parents[2]
CODES = {code.value for code in ErrorCode}
SCANNED = ("games", "accounts")  # every package that raises a GameError or answers with a code
SPELT = PROJECT / "games/engines/errors.py"  # where each code is written out, once


def test_the_page_translates_exactly_the_servers_codes():
    script = (PROJECT / "site/js/errors.js").read_text()
    table = re.search(r"^const MESSAGES = \{\n(.*?)^\};", script, re.S | re.M)
    assert table, "site/js/errors.js has no MESSAGES table"
    keys = re.findall(r"^\s+(\w+): gettext\(", table.group(1), re.M)
    assert len(keys) == len(set(keys)), "a code is translated twice"
    assert set(keys) == CODES


def test_the_protocol_page_lists_exactly_the_servers_codes():
    page = (PROJECT / "docs/protocol.md").read_text()
    section = re.search(r"^### Errors \(code: meaning\)\n(.*?)^##", page, re.S | re.M)
    assert section, "docs/protocol.md has no Errors section"
    rows = [line.split("|")[1] for line in section.group(1).splitlines() if line.startswith("| `")]
    listed = [code for first_column in rows for code in re.findall(r"`(\w+)`", first_column)]
    assert len(listed) == len(set(listed)), "a code is listed twice"
    assert set(listed) == CODES


def test_every_error_class_has_a_code_of_the_enum():
    def subclasses(cls):
        for sub in cls.__subclasses__():
            yield sub
            yield from subclasses(sub)

    assert {sub.__name__: sub.code for sub in subclasses(GameError)} == {
        "InvalidOptions": ErrorCode.INVALID_OPTIONS, "IllegalAction": ErrorCode.ILLEGAL_ACTION,
        "NotYourTurn": ErrorCode.NOT_YOUR_TURN, "InvalidState": ErrorCode.INVALID_STATE}
    assert GameError("refused", ErrorCode.NOT_ALLOWED).code == "not_allowed"


def _named_elsewhere(tree: ast.AST) -> set[int]:
    """The ids of the string constants that are not codes whatever their text: docstrings, the
    keys of dicts and subscripts (``reply["bad_token"]``), and the values set under any key but
    ``"code"`` (``{"status": "unavailable"}``, ``last["type"] = "game_over"``), either way of an
    ``if``-expression."""
    def values(node):
        if isinstance(node, ast.IfExp):
            return [*values(node.body), *values(node.orelse)]
        return [node]

    def not_code(key) -> bool:
        return not (isinstance(key, ast.Constant) and key.value == "code")

    skipped = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) \
                and node.body and isinstance(node.body[0], ast.Expr):
            skipped.add(id(node.body[0].value))
        elif isinstance(node, ast.Dict):
            skipped.update(id(key) for key in node.keys if key is not None)
            skipped.update(id(v) for key, value in zip(node.keys, node.values, strict=True)
                           if not_code(key) for v in values(value))
        elif isinstance(node, ast.Subscript):
            skipped.add(id(node.slice))
        if isinstance(node, ast.Assign) and len(node.targets) == 1 \
                and isinstance(node.targets[0], ast.Subscript) and not_code(node.targets[0].slice):
            skipped.update(id(v) for v in values(node.value))
    return skipped


def _is_error_code(node: ast.AST) -> bool:
    return isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "ErrorCode"


def test_no_code_is_a_bare_string_and_every_game_error_names_one():
    problems = []
    for package in SCANNED:
        for path in sorted((PROJECT / package).rglob("*.py")):
            if "migrations" in path.parts or path == SPELT:
                continue
            where = path.relative_to(PROJECT)
            tree = ast.parse(path.read_text(), str(where))
            skipped = _named_elsewhere(tree)
            for node in ast.walk(tree):
                if isinstance(node, ast.Constant) and node.value in CODES and id(node) not in skipped:
                    name = ErrorCode(node.value).name
                    problems.append(f"{where}:{node.lineno}: {node.value!r}, not ErrorCode.{name}")
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "GameError":
                    # GameError itself has no code of its own: each one raised names it.
                    code = node.args[1] if len(node.args) > 1 else next(
                        (k.value for k in node.keywords if k.arg == "code"), None)
                    if code is None or isinstance(code, ast.Constant):
                        problems.append(f"{where}:{node.lineno}: a GameError without an ErrorCode")
    assert problems == []


def test_the_scan_finds_a_bare_code():
    source = '''
def refuse(reply, last):
    """Raises not_allowed."""
    reply["bad_token"] = True
    last["type"] = "game_over"
    status = {"status": "ok" if reply else "unavailable"}
    raise GameError("No.", "not_allowed")
    return "no_free_seat", "Every seat is taken."
    send({"type": "error", "code": "unknown_type"})
    if exc.code == "room_not_found": pass
'''
    tree = ast.parse(source)
    skipped = _named_elsewhere(tree)
    bare = [node.value for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and node.value in CODES and id(node) not in skipped]
    assert sorted(bare) == ["no_free_seat", "not_allowed", "room_not_found", "unknown_type"]
