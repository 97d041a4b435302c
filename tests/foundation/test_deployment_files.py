"""docker-compose.yml, the Makefile and .ci/run say what the README says."""
import re
import subprocess

import yaml

from tests.live import PROJECT

README = (PROJECT / "README.md").read_text()


def compose():
    return yaml.safe_load((PROJECT / "docker-compose.yml").read_text())


def test_it_declares_every_production_service_with_health_checks():
    services = compose()["services"]
    assert set(services) == {"db", "redis", "web", "worker", "beat"}
    for name in ("db", "redis", "web", "worker"):
        assert "healthcheck" in services[name], name
    assert set(compose()["volumes"]) == {"pgdata", "redisdata"}
    for name in ("web", "worker", "beat"):
        env = services[name]["environment"]
        assert env["DEBUG"] == "0"
        assert env["DATABASE_URL"].startswith("postgres://")
        assert env["REDIS_URL"] == "redis://redis:6379/0"
        assert services[name]["depends_on"]["db"]["condition"] == "service_healthy"


def test_it_runs_the_commands_the_readme_documents():
    services = compose()["services"]
    web = services["web"]["command"][-1]
    assert "python manage.py migrate --noinput" in web
    daphne = web.split("exec ", 1)[1]
    assert daphne in README
    for name in ("worker", "beat"):
        command = " ".join(services[name]["command"][:6])
        assert command in README, command


def test_it_keeps_the_quick_start_to_two_commands():
    quick_start = README.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    commands = re.findall(r"^(make \w+)$", quick_start, re.M)
    assert commands == ["make run", "make test"]


def test_it_has_nothing_to_install_when_nothing_changed():
    # `make -q install` exits 0 when the install target is up to date.
    assert subprocess.run(["make", "-q", "install"], cwd=PROJECT).returncode == 0


def test_ci_runs_make_test_and_fails_on_failure():
    script = (PROJECT / ".ci" / "run").read_text()
    assert script.startswith("#!/usr/bin/env bash\n")
    assert "set -euo pipefail" in script
    assert re.search(r"^make test$", script, re.M)
