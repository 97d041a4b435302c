"""docker-compose.yml, deploy/haproxy.cfg, the Makefile and .ci/run say what the README says."""
import os
import re
import shutil
import subprocess

import yaml

from tests.live import PROJECT

README = (PROJECT / "README.md").read_text()


def compose():
    return yaml.safe_load((PROJECT / "docker-compose.yml").read_text())


def test_it_declares_every_production_service_with_health_checks():
    services = compose()["services"]
    assert set(services) == {"db", "redis", "migrate", "web", "balancer", "worker", "beat"}
    for name in ("db", "redis", "web", "worker"):
        assert "healthcheck" in services[name], name
    assert set(compose()["volumes"]) == {"pgdata", "redisdata"}
    for name in ("web", "worker", "beat"):
        env = services[name]["environment"]
        assert env["DEBUG"] == "0"
        assert env["DATABASE_URL"].startswith("postgres://")
        assert env["REDIS_URL"] == "redis://redis:6379/0"
        assert services[name]["depends_on"]["db"]["condition"] == "service_healthy"


def test_it_counts_clients_behind_the_proxies_the_readme_recommends():
    """Without the hop count every client behind the proxies shares one address (the proxy's).
    docker-compose puts two in front of Daphne: the TLS proxy and the balancer."""
    for name in ("web", "worker", "beat"):
        assert compose()["services"][name]["environment"]["TELEMETRY_PROXY_HOPS"] == "${TELEMETRY_PROXY_HOPS:-2}"
    production = README.split("## Production", 1)[1].split("\n## ", 1)[0]
    assert re.search(r"^\| `TELEMETRY_PROXY_HOPS` \|.*\| `0` \(docker-compose: `2`\) \|$", production, re.M)


def _published_addresses(service: dict, environ: dict) -> list[str]:
    """The host address of each port a service publishes, as docker compose would interpolate
    ``${NAME:-default}`` with ``environ``."""
    def interpolate(text):
        return re.sub(r"\$\{(\w+):-([^}]*)\}", lambda m: environ.get(m[1]) or m[2], text)
    ports = [interpolate(port) for port in service.get("ports", [])]
    return [port.rsplit(":", 2)[0] if port.count(":") == 2 else "0.0.0.0" for port in ports]


def test_it_publishes_the_balancer_on_the_loopback_interface_only():
    """Issue 35, finding 7: a client that reached the balancer directly, past the TLS proxy,
    named its own address in X-Forwarded-For for every limit (the two trusted hops)."""
    services = compose()["services"]
    assert _published_addresses(services["balancer"], {}) == ["127.0.0.1"]
    assert _published_addresses(services["balancer"], {"BALANCER_BIND": "0.0.0.0"}) == ["0.0.0.0"]
    assert [name for name, service in services.items() if "ports" in service] == ["balancer"]
    production = README.split("## Production", 1)[1].split("\n## ", 1)[0]
    assert "`BALANCER_BIND=0.0.0.0`" in production
    assert "`TELEMETRY_PROXY_HOPS` must equal the\nnumber of proxies really in front" in production


def test_it_runs_the_commands_the_readme_documents():
    services = compose()["services"]
    for name in ("migrate", "web"):
        command = " ".join(services[name]["command"])
        assert command in README, command
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


def test_it_sets_up_the_test_machine_from_make_test_alone():
    # The README's test command must work on a fresh machine by itself: .ci/run installs
    # nothing of its own, `make test` runs the prerequisites script before pytest.
    assert "apt-get" not in (PROJECT / ".ci" / "run").read_text()
    recipe = re.search(r"^test:.*\n((?:\t.*\n)+)", (PROJECT / "Makefile").read_text(), re.M).group(1)
    assert recipe.index("scripts/test-prerequisites.sh") < recipe.index("pytest")
    prerequisites = (PROJECT / "scripts" / "test-prerequisites.sh").read_text()
    for package in ("chromium", "haproxy", "fonts-ipafont-gothic", "nodejs", "npm"):
        assert package in prerequisites


def test_make_test_runs_the_linters_before_the_suite():
    # CI only calls `make test`, so the linters must run from it, after the prerequisites
    # (eslint is installed with npm) and before pytest: a lint failure stops the run.
    makefile = (PROJECT / "Makefile").read_text()
    recipe = re.search(r"^test:.*\n((?:\t.*\n)+)", makefile, re.M).group(1)
    assert recipe.index("scripts/test-prerequisites.sh") < recipe.index("lint") < recipe.index("pytest")
    lint = re.search(r"^lint:.*\n((?:\t.*\n)+)", makefile, re.M).group(1)
    for tool in ("ruff check", "mypy", "eslint"):
        assert tool in lint, tool
    # eslint comes from the committed lock file, exactly: `npm ci`, never `npm install`.
    assert "npm ci" in makefile and "npm install" not in makefile
    assert (PROJECT / "tools" / "eslint" / "package-lock.json").is_file()


# ---- the balancer (deploy/haproxy.cfg) ---------------------------------------------------------

HAPROXY_CFG = PROJECT / "deploy" / "haproxy.cfg"


def haproxy_sections() -> dict[str, list[str]]:
    """"frontend site" -> its lines, comments and blank lines left out."""
    sections, current = {}, None
    for raw in HAPROXY_CFG.read_text().splitlines():
        line = raw.split("#", 1)[0].rstrip()
        if not line.strip():
            continue
        if not raw[0].isspace():
            current = sections.setdefault(line.strip(), [])
        else:
            current.append(" ".join(line.split()))
    return sections


def test_it_puts_the_web_processes_behind_the_balancer_of_the_repository():
    services = compose()["services"]
    balancer, web = services["balancer"], services["web"]
    assert "./deploy/haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro" in balancer["volumes"]
    assert balancer["ports"] == ["${BALANCER_BIND:-127.0.0.1}:8000:8000"] and "ports" not in web  # only through it
    assert web["deploy"]["replicas"] == balancer["environment"]["WEB_PROCESSES"] == "${WEB_PROCESSES:-2}"
    assert balancer["environment"]["ALLOWED_HOSTS"] == web["environment"]["ALLOWED_HOSTS"]
    # Replicas do not migrate at once: one service does, before any of them starts.
    assert web["depends_on"]["migrate"]["condition"] == "service_completed_successfully"
    assert services["migrate"]["restart"] == "no"
    # The configuration's defaults are compose's: the service `web`, the port it serves on.
    serve = web["command"]
    port = serve[serve.index("--port") + 1]
    templates = [line for lines in haproxy_sections().values() for line in lines
                 if line.startswith("server-template")]
    assert templates and all(f'"${{WEB_SERVERS-web:{port}}}"' in t for t in templates), templates
    assert 'bind "${BALANCER_BIND-:8000}"' in haproxy_sections()["frontend site"]


def test_it_routes_a_rooms_websockets_by_the_room_id_and_the_rest_round_robin():
    sections = haproxy_sections()
    assert "use_backend rooms if { path_beg /ws/rooms/ }" in sections["frontend site"]
    assert "default_backend pages" in sections["frontend site"]
    rooms, pages = sections["backend rooms"], sections["backend pages"]
    # /ws/rooms/<id>/ split at slashes: "", "ws", "rooms", "<id>".
    assert "balance hash path,field(4,/)" in rooms and "hash-type consistent" in rooms
    assert "balance roundrobin" in pages
    assert [line for line in rooms if line.startswith("server-template")] == \
        [line for line in pages if line.startswith("server-template")]
    defaults = sections["defaults"]
    for line in ("mode http", "option forwardfor", "option redispatch", "timeout tunnel 1h",
                 "option httpchk", "http-check expect status 200"):
        assert line in defaults, line
    assert any(line.startswith("http-check send meth GET uri /healthz/ready ") for line in defaults)
    # Health-checked servers, each with enough points on the hash ring to share rooms evenly.
    assert any(line.startswith("default-server weight 100 check ") for line in defaults)
    assert not any(line.startswith("log ") for section in sections.values() for line in section)


def test_it_writes_a_balancer_configuration_haproxy_accepts():
    haproxy = shutil.which("haproxy") or shutil.which("haproxy", path="/usr/sbin")
    if haproxy is None:  # the structure is checked above; make test installs haproxy (scripts/test-prerequisites.sh)
        assert "haproxy" in (PROJECT / ".ci" / "run").read_text()
        return
    result = subprocess.run([haproxy, "-c", "-f", str(HAPROXY_CFG)], capture_output=True, text=True,
                            env={**os.environ, "ALLOWED_HOSTS": "cards.example"}, timeout=30)
    assert result.returncode == 0, result.stdout + result.stderr
