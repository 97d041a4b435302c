"""Every app's imports point the way docs/architecture.md ("Packages") says they do.

A package that imports one it should only be heard from (``games`` importing ``telemetry``)
makes the two one tangle: neither can change, be tested or be read alone. The rules below are
the document's, one by one; the test reads every ``.py`` file of every app with ``ast`` (the
imports inside functions too, and ``importlib.import_module`` of a literal name) and names each
import that breaks one.
"""
import ast
from pathlib import Path

from tests.live import PROJECT

APPS = ("config", "server", "games", "accounts", "telemetry")
# The apps proper: what config's composition modules alone may name, and server must not.
SITE_APPS = ("games", "accounts", "telemetry")
# config's modules that put the site together: they name every app by design.
COMPOSITION = {"config.settings", "config.test_settings", "config.urls", "config.routing",
               "config.asgi", "config.celery"}
# (importer, imported): an importer's module is the prefix or inside it; so is the imported one.
FORBIDDEN = [
    ("games", "accounts"), ("games", "telemetry"),
    ("accounts", "telemetry"), ("telemetry", "accounts"),
    ("games.engines", "django"),
    ("games.cpu", "django"),
    # server's runtime pieces sit below the apps, which import them; they read the settings
    # through django.conf, never from config.
    ("server", "games"), ("server", "accounts"), ("server", "telemetry"), ("server", "config"),
]
# Within the project, these import only from themselves and the packages listed.
ONLY_FROM = {
    "games.engines": ("games.engines",),
    "games.cpu": ("games.cpu", "games.engines"),
}


def inside(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def module_name(path: Path) -> str:
    parts = path.relative_to(PROJECT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_names(module: str, source: str, is_package: bool = False) -> set[str]:
    """Every module ``source`` imports, as absolute dotted names."""
    names = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = module.split(".")
                base = base[:len(base) - node.level + (1 if is_package else 0)]
                names.add(".".join(base + ([node.module] if node.module else [])))
            else:
                names.add(node.module or "")
        elif isinstance(node, ast.Call) and node.args and (
                getattr(node.func, "attr", None) == "import_module"
                or getattr(node.func, "id", None) in ("import_module", "__import__")):
            first = node.args[0]
            if isinstance(first, ast.JoinedStr) and first.values:
                first = first.values[0]  # f"games.sim.{game}": its literal head
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                names.add(first.value.rstrip("."))
    return names


def broken_rules(module: str, names: set[str]) -> list[str]:
    broken = []
    for name in sorted(names):
        for importer, imported in FORBIDDEN:
            if inside(module, importer) and inside(name, imported):
                broken.append(f"{module} imports {name} ({importer} must not import {imported})")
        for package, allowed in ONLY_FROM.items():
            if inside(module, package) and name.split(".")[0] in APPS \
                    and not any(inside(name, a) for a in allowed):
                broken.append(f"{module} imports {name} ({package} imports only {', '.join(allowed)})")
        if inside(module, "config") and module not in COMPOSITION and name.split(".")[0] in SITE_APPS:
            broken.append(f"{module} imports {name} (only config's composition modules name the apps)")
    return broken


def app_files():
    for app in APPS:
        yield from sorted((PROJECT / app).rglob("*.py"))


def test_every_app_imports_in_the_documented_direction():
    broken = []
    files = 0
    for path in app_files():
        files += 1
        module = module_name(path)
        names = imported_names(module, path.read_text(encoding="utf-8"), path.name == "__init__.py")
        broken += broken_rules(module, names)
    assert files > 100  # it read the apps, not an empty folder
    assert broken == [], "\n".join(broken)


def test_the_documented_direction_is_the_one_checked():
    text = (PROJECT / "docs" / "architecture.md").read_text()
    assert "`games` imports nothing from `accounts` or `telemetry`" in text
    assert "`server/` sits below the apps: they import it, and it imports no app" in text
    assert "tests/foundation/test_import_direction.py" in text


def test_it_would_notice_an_import_against_the_direction():
    """The scanner passes only if it can see: fed made-up modules, it must object."""
    names = imported_names("games.finished", "def f():\n    from telemetry.schema import BUCKETS\n")
    assert broken_rules("games.finished", names) == [
        "games.finished imports telemetry.schema (games must not import telemetry)"]
    names = imported_names("games.engines.toy", "from ..rooms import service\nimport django.db\n")
    assert names == {"games.rooms", "django.db"}
    assert broken_rules("games.engines.toy", names) == [
        "games.engines.toy imports django.db (games.engines must not import django)",
        "games.engines.toy imports games.rooms (games.engines imports only games.engines)"]
    names = imported_names("games.sim.common", 'importlib.import_module(f"accounts.{x}")\n')
    assert broken_rules("games.sim.common", names) == [
        "games.sim.common imports accounts (games must not import accounts)"]
    assert broken_rules("config.env", {"games.models"}) == [
        "config.env imports games.models (only config's composition modules name the apps)"]
    assert broken_rules("server.hourly_buffer", {"games.models", "config.settings"}) == [
        "server.hourly_buffer imports config.settings (server must not import config)",
        "server.hourly_buffer imports games.models (server must not import games)"]
    assert broken_rules("games.rooms.limits", {"server.rate_limit"}) == []
    assert broken_rules("games.engines.toy", {"server.rate_limit"}) == [
        "games.engines.toy imports server.rate_limit (games.engines imports only games.engines)"]
    assert broken_rules("telemetry.schema", {"games.ranges", "config.env"}) == []
    assert imported_names("games", "from . import specs\n", is_package=True) == {"games"}
