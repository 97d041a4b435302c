"""Comments, docstrings and documents cite only what a reader of this repository can open.

A comment that names a file which was renamed or never written sends the reader nowhere, and one
that cites a document kept outside the repository says "the reason is elsewhere": both rot
without anything noticing. This test reads the prose of every source and document file (not the
code: a path in code fails when it runs) and names each citation that leads nowhere.
"""
import ast
import io
import os
import re
import tokenize
from pathlib import Path

from tests.live import PROJECT

# Folders the project creates or installs into; what is in them is not the project's prose.
SKIPPED_FOLDERS = {".git", ".venv", "__pycache__", "node_modules", "staticfiles", "test-artifacts"}
# Translations: their text is the templates' and the code's, already read there.
TRANSLATIONS = "locale"
# Every top-level folder (and .ci): a word followed by one of these and "/" is a repository path.
TOP_LEVEL = sorted(p.name for p in PROJECT.iterdir()
                   if p.is_dir() and p.name not in SKIPPED_FOLDERS and (p.name == ".ci" or not p.name.startswith(".")))
REPOSITORY_PATH = re.compile(
    r"(?<![\w/.\-])((?:" + "|".join(re.escape(name) for name in TOP_LEVEL) + r")/[\w./\-]*[\w/])")
# A path followed by one of these is a pattern (`bench/<script>`, `locale/*/…`), not a file.
PATTERN_NEXT = set("<*{[")
MARKDOWN_LINK = re.compile(r"\]\(([^)\s]+)\)")
# Documents that are not in the repository: a citation of them explains nothing to its reader.
OUTSIDE_DOCUMENTS = re.compile(r"\bSPEC\b|DESIGN\.md|\.\./shared|(?i:\bthe spec\b)")
HASH_COMMENTED = {".cfg", ".sh", ".toml", ".yml", ".yaml"}
HASH_COMMENTED_NAMES = {"Makefile", "Dockerfile", "run", ".dockerignore", ".gitignore"}


def source_files():
    for folder, folders, files in os.walk(PROJECT):
        folders[:] = [name for name in folders if name not in SKIPPED_FOLDERS | {TRANSLATIONS}
                      and (name == ".ci" or not name.startswith(".")) and not name.endswith(".egg-info")]
        for name in files:
            path = Path(folder) / name
            if path.suffix in {".py", ".js", ".html", ".md", ".css", ".txt"} | HASH_COMMENTED \
                    or name in HASH_COMMENTED_NAMES:
                yield path


def python_prose(text: str) -> str:
    """Comments and docstrings of a Python file."""
    parts = [token.string for token in tokenize.generate_tokens(io.StringIO(text).readline)
             if token.type == tokenize.COMMENT]
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            parts.append(ast.get_docstring(node, clean=False) or "")
    return "\n".join(parts)


def prose(path: Path, text: str) -> str:
    """The part of a file written for people: what a path in it should lead to."""
    if path.suffix == ".py":
        return python_prose(text)
    if path.suffix in {".js", ".css"}:
        return "\n".join(re.findall(r"/\*.*?\*/|(?<![:\\'\"])//.*", text, re.S))
    if path.suffix == ".html":
        return "\n".join(re.findall(r"\{#.*?#\}|<!--.*?-->|\{% comment %\}.*?\{% endcomment %\}", text, re.S))
    if path.suffix in {".md", ".txt"}:
        return text
    return "\n".join(re.findall(r"(?:^|\s)#.*", text, re.M))


def ignored_by_git(cited: str) -> bool:
    """Paths the project makes on first use (`bench/.lighthouse/`, `staticfiles/`)."""
    entries = [line.strip().rstrip("/") for line in (PROJECT / ".gitignore").read_text().splitlines()]
    return any(cited == entry or cited.startswith(entry + "/") for entry in entries if entry)


def dead_paths(path: Path, text: str) -> list[str]:
    dead = []
    for match in REPOSITORY_PATH.finditer(text):
        cited = match.group(1)
        if text[match.end():match.end() + 1] in PATTERN_NEXT or ignored_by_git(cited):
            continue
        if not (cited.endswith("/") or "." in cited.rsplit("/", 1)[-1]):
            continue  # a file has a suffix, a folder ends in "/"; `games/s` and `games/0003` are words
        if not (PROJECT / cited).exists():
            dead.append(cited)
    if path.suffix == ".md":
        for target in MARKDOWN_LINK.findall(text):
            target = target.split("#", 1)[0]
            if target and "://" not in target and not target.startswith("mailto:") \
                    and not (path.parent / target).exists():
                dead.append(target)
    return list(dict.fromkeys(dead))


def test_it_finds_no_path_that_leads_nowhere():
    dead = []
    for path in source_files():
        text = path.read_text(encoding="utf-8")
        dead += [f"{path.relative_to(PROJECT)}: {cited}" for cited in dead_paths(path, prose(path, text))]
    assert dead == [], "\n".join(dead)


def test_it_cites_no_document_outside_the_repository():
    # The whole file, code included: an error message that cites such a document reaches users.
    citations = []
    for path in source_files():
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if OUTSIDE_DOCUMENTS.search(line):
                citations.append(f"{path.relative_to(PROJECT)}:{number}: {line.strip()}")
    assert citations == [], "\n".join(citations)


def test_it_would_notice_a_dead_path_and_an_outside_citation():
    """The scanners above pass only if they can see: fed a made-up comment, they must object."""
    assert dead_paths(Path("example.py"), python_prose(
        '"""See docs/no-such-file.md and games/rooms/service.py."""\n')) == ["docs/no-such-file.md"]
    assert dead_paths(PROJECT / "README.md", "[a](docs/nowhere.md) [b](docs/memory.md)") == ["docs/nowhere.md"]
    assert dead_paths(Path("x.js"), prose(Path("x.js"), "// bench/<script> and locale/*/x.po\n")) == []
    # Split so that this file's own lines do not match.
    for citation in ("(SP" "EC 2.5)", "DESIGN" ".md", "../" "shared/notes", "what The " "Spec says"):
        assert OUTSIDE_DOCUMENTS.search(citation), citation
