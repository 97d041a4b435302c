"""What a contributor meets first: the licence, the guides, and the checks that run before a commit
(.pre-commit-config.yaml) and in `make lint`, each doing what it says on a file that breaks it."""
import re
import shlex
import subprocess

import pytest
import yaml

from tests.live import PROJECT

HOOKS = {hook["id"]: hook for repo in yaml.safe_load((PROJECT / ".pre-commit-config.yaml").read_text())["repos"]
         for hook in repo["hooks"]}


def test_the_licence_is_mit():
    licence = (PROJECT / "LICENSE").read_text()
    assert licence.startswith("MIT License\n\nCopyright (c) ")
    assert "Permission is hereby granted, free of charge" in licence


def test_contributing_gives_the_two_commands_and_the_way_to_add_a_game():
    guide = (PROJECT / "CONTRIBUTING.md").read_text()
    assert re.findall(r"^```\n(make \w+)\n```$", guide, re.M) == ["make run", "make test"]
    for cited in ("docs/engines.md", "tests/e2e/test_it_adds_a_game.py", "games/specs.py", "SECURITY.md",
                  "make lock", "make upgrade", "make audit", "make hooks"):
        assert cited in guide, cited


def test_security_asks_for_private_reports():
    policy = (PROJECT / "SECURITY.md").read_text()
    assert "## Reporting a vulnerability" in policy and "privately" in policy


def test_every_hook_runs_the_repositorys_own_tools():
    """Nothing is downloaded at commit time: every hook is local and calls a program of .venv or
    tools/eslint (language `system` runs the entry as it is)."""
    assert set(HOOKS) == {"ruff", "eslint", "migrations"}
    for hook in HOOKS.values():
        assert hook["language"] == "system"
        program = shlex.split(hook["entry"])[0]
        assert program.startswith((".venv/bin/", "tools/eslint/node_modules/.bin/")), program


def run_hook(name, *arguments, source=None):
    return subprocess.run([*shlex.split(HOOKS[name]["entry"]), *arguments], cwd=PROJECT, input=source,
                          capture_output=True, text=True)


# Each linter reads the file from its standard input under a name inside the repository (its
# configuration selects by path), so no file is written into the tree others are working in.
STDIN_NAMES = {"ruff": "games/contributor_check.py", "eslint": "site/js/contributor_check.js"}


def stdin_arguments(hook):
    name = STDIN_NAMES[hook]
    return ["--stdin-filename", name, "-"] if hook == "ruff" else ["--stdin", "--stdin-filename", name]


@pytest.mark.parametrize(("hook", "bad", "good"), [
    ("ruff", "import os\n", "import os\n\nprint(os.sep)\n"),
    ("eslint", "const unused = 1;\n", "export const used = 1;\n"),
])
def test_the_hooks_refuse_a_file_their_linter_refuses(hook, bad, good):
    assert re.search(HOOKS[hook].get("files", r"\.py$"), STDIN_NAMES[hook])
    refused = run_hook(hook, *stdin_arguments(hook), source=bad)
    assert refused.returncode == 1, refused.stdout + refused.stderr
    accepted = run_hook(hook, *stdin_arguments(hook), source=good)
    assert accepted.returncode == 0, accepted.stdout + accepted.stderr


def test_make_lint_and_the_hook_check_for_a_missing_migration():
    lint = re.search(r"^lint:.*\n((?:\t.*\n)+)", (PROJECT / "Makefile").read_text(), re.M).group(1)
    assert "manage.py makemigrations --check --dry-run" in lint
    assert HOOKS["migrations"]["entry"] == ".venv/bin/python manage.py makemigrations --check --dry-run"
    assert re.search(HOOKS["migrations"]["files"], "games/migrations/0011_room_json_text.py")
    assert re.search(HOOKS["migrations"]["files"], "accounts/models.py")
    checked = run_hook("migrations")
    assert checked.returncode == 0 and "No changes detected" in checked.stdout, checked.stdout + checked.stderr
