"""The install is reproducible: `make install` puts exactly requirements/test.txt's versions in the
environment, the lock holds every requirement of pyproject.toml with a hash for each file, the
image installs the same lock, and every image the deployment runs is pinned to one release."""
import json
import re
import subprocess
import sys
import sysconfig
import tomllib
from importlib.metadata import distributions

import yaml
from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from tests.live import PROJECT

REQUIREMENTS = PROJECT / "requirements"
PYPROJECT = tomllib.loads((PROJECT / "pyproject.toml").read_text())
# `name==version ; marker \` opens each entry of a lock file written by uv (or pip-compile).
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;\\]+)(?:\s*;\s*([^\\]+?))?\s*\\?$", re.M)


def locked(name):
    """Every pin of lock file `name`: (canonical name, version, marker text or None, entry text)."""
    text = (REQUIREMENTS / name).read_text()
    starts = [m.start() for m in PIN.finditer(text)] + [len(text)]
    return [(canonicalize_name(m.group(1)), m.group(2), m.group(3), text[start:end])
            for m, start, end in zip(PIN.finditer(text), starts, starts[1:], strict=False)]


def applicable(name):
    """The pins of lock file `name` that apply to this interpreter and platform."""
    return {package: version for package, version, marker, _ in locked(name)
            if marker is None or Marker(marker).evaluate()}


def test_the_environment_holds_exactly_the_locked_versions():
    freeze = subprocess.run([sys.executable, "-m", "pip", "freeze"], capture_output=True, text=True,
                            check=True).stdout.splitlines()
    installed = {}
    for line in freeze:
        if "==" in line and not line.startswith(("#", "-e ")):
            package, version = line.split("==", 1)
            installed[canonicalize_name(package)] = version
    expected = applicable("test.txt")
    assert {p: (installed.get(p), v) for p, v in expected.items() if installed.get(p) != v} == {}, \
        "installed version differs from the lock: run `make install`"
    assert sorted(set(installed) - set(expected)) == [], \
        "installed but not locked: declare it in pyproject.toml and run `make lock`, or uninstall it"
    # The project itself, editable from this checkout (the tests import it from here).
    # (read from site-packages: the checkout's own cardtable.egg-info comes first on sys.path)
    installed_project = distributions(name="cardtable", path=[sysconfig.get_paths()["purelib"]])
    origin = json.loads(next(iter(installed_project)).read_text("direct_url.json"))
    assert origin == {"dir_info": {"editable": True}, "url": PROJECT.as_uri()}


def test_the_lock_holds_every_requirement_of_pyproject():
    project = PYPROJECT["project"]
    for lock, requirements in (("production.txt", project["dependencies"]),
                               ("test.txt", project["dependencies"] + project["optional-dependencies"]["test"])):
        pins = applicable(lock)
        for text in requirements:
            requirement = Requirement(text)
            name = canonicalize_name(requirement.name)
            assert name in pins, f"{name} is in pyproject.toml but not in requirements/{lock}: run `make lock`"
            assert requirement.specifier.contains(pins[name], prereleases=True), \
                f"requirements/{lock} pins {name}=={pins[name]}, outside {requirement}: run `make lock`"


def test_the_image_gets_the_same_versions_as_the_tests():
    production, test = applicable("production.txt"), applicable("test.txt")
    assert {p: (v, test.get(p)) for p, v in production.items() if test.get(p) != v} == {}


def test_every_locked_release_is_checked_against_a_hash():
    for lock in ("production.txt", "test.txt", "tools.txt"):
        entries = locked(lock)
        assert entries, lock
        for package, version, _, entry in entries:
            assert re.search(r"--hash=sha256:[0-9a-f]{64}", entry), f"{lock}: {package}=={version} has no hash"


def test_make_install_and_the_image_install_only_the_lock():
    makefile = (PROJECT / "Makefile").read_text()
    recipe = re.search(r"^\$\(STAMP\):(.*)\n((?:\t.*\n)+)", makefile, re.M)
    assert "$(LOCK)" in recipe.group(1) and "LOCK := requirements/test.txt" in makefile
    pip_installs = [line for line in recipe.group(2).splitlines() if "pip install" in line]
    assert pip_installs == ["\t$(BIN)/python -m pip install --quiet --require-hashes -r $(LOCK)",
                            "\t$(BIN)/python -m pip install --quiet --no-deps -e ."]
    dockerfile = (PROJECT / "Dockerfile").read_text()
    assert re.findall(r"^RUN pip install .*$", dockerfile, re.M) == [
        "RUN pip install --no-cache-dir --require-hashes -r requirements/production.txt",
        "RUN pip install --no-cache-dir --no-deps ."]


def test_every_image_is_pinned_to_one_release():
    """A floating tag (`postgres:16`, `redis:7`) would bring whatever was pushed under it last: each
    image names its digest, or else a release's full version (PostgreSQL's have two numbers)."""
    compose = yaml.safe_load((PROJECT / "docker-compose.yml").read_text())
    images = [service["image"] for service in compose["services"].values()
              if "image" in service and not service["image"].startswith("cardtable:")]
    images += re.findall(r"^FROM (\S+)", (PROJECT / "Dockerfile").read_text(), re.M)
    assert len(images) == 4
    for image in images:
        assert (re.fullmatch(r"[a-z0-9./-]+:\d+\.\d+[\w.-]*@sha256:[0-9a-f]{64}", image)
                or re.fullmatch(r"[a-z0-9./-]+:\d+\.\d+\.\d+[\w.-]*", image)), image
