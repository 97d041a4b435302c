"""bench/ws_load.py --server: each ASGI server started with the site's settings, runs alternated,
and their figures printed side by side (bench/results/2026-12-06-servers.md)."""
import sys
from pathlib import Path

import pytest
from django.conf import settings

from tests.live import PROJECT

sys.path.insert(0, str(PROJECT / "bench"))

import rooms_stack  # noqa: E402
import servers_venv  # noqa: E402
import ws_load  # noqa: E402


@pytest.fixture
def bench_bin(monkeypatch):
    """The bench environment's bin folder, without installing it."""
    fake = Path("/nonexistent/servers-venv/bin")
    monkeypatch.setattr(servers_venv, "ensure", lambda: fake)
    return fake


def test_every_server_gets_the_sites_message_size_and_no_access_log(bench_bin):
    assert rooms_stack.WEBSOCKET_MAX_MESSAGE_SIZE == settings.DAPHNE_WEBSOCKET_MAX_MESSAGE_SIZE
    uvicorn = rooms_stack.server_command("uvicorn", "127.0.0.2", 8123)
    assert uvicorn[0] == str(bench_bin / "uvicorn")
    for flags in (["--ws-max-size", str(settings.DAPHNE_WEBSOCKET_MAX_MESSAGE_SIZE)], ["--workers", "1"],
                  ["--host", "127.0.0.2"], ["--port", "8123"], ["--lifespan", "on"]):
        assert uvicorn[uvicorn.index(flags[0]) + 1] == flags[1]
    # X-Forwarded-For is read by server/client_address.py alone, never rewritten by the server.
    assert {"--no-access-log", "--no-server-header", "--no-proxy-headers"} <= set(uvicorn)
    granian = rooms_stack.server_command("granian", "127.0.0.1", 8124)
    assert granian[0] == str(bench_bin / "granian")
    assert granian[granian.index("--workers") + 1] == "1" and "--no-access-log" in granian
    assert granian[-1] == uvicorn[-1] == "config.asgi:application"


def test_daphne_runs_as_manage_py_serve_starts_it(bench_bin):
    command = rooms_stack.server_command("daphne", "127.0.0.1", 8125)
    assert command[1:] == ["manage.py", "serve", "--host", "127.0.0.1", "--port", "8125"]


def test_an_unknown_server_is_refused():
    with pytest.raises(ValueError, match="one of daphne, uvicorn, granian"):
        rooms_stack.server_command("hypercorn", "127.0.0.1", 8126)


def test_the_order_turns_each_round():
    assert ws_load.alternation(["daphne", "uvicorn", "granian"], 3) == [
        "daphne", "uvicorn", "granian", "uvicorn", "granian", "daphne", "granian", "daphne", "uvicorn"]
    assert ws_load.alternation(["daphne"], 2) == ["daphne", "daphne"]


def test_the_servers_are_printed_side_by_side_with_their_medians_and_each_run():
    def figures(per_second, cpu, p99, load):
        return {"per_second": per_second, "server_cpu_ms": cpu, "p50": 1.0, "p99": p99, "errors": 0,
                "connect_failures": 0, "load": f"{load} 1.00 1.00",
                "echo": {"server_cpu_ms": 0.3, "p99": 2.0}}
    runs = [("daphne", figures(200, 1.50, 9.0, "2.10")), ("uvicorn", figures(210, 1.20, 8.0, "2.20")),
            ("uvicorn", figures(220, 1.30, 7.0, "2.30")), ("daphne", figures(190, 1.40, 30.0, "2.40")),
            ("daphne", figures(205, 1.45, 10.0, "2.50")), ("uvicorn", figures(215, 1.10, 6.0, "2.60"))]
    table = ws_load.side_by_side(["daphne", "uvicorn"], runs)
    assert "server CPU per action: daphne 1.45 ms (1.50 / 1.40 / 1.45); uvicorn 1.20 ms (1.20 / 1.30 / 1.10)" in table
    assert "p99: daphne 10.0 ms (9.0 / 30.0 / 10.0); uvicorn 7.0 ms (8.0 / 7.0 / 6.0)" in table
    assert "load average at each start: daphne 2.10 / 2.40 / 2.50; uvicorn 2.20 / 2.30 / 2.60" in table


def test_the_command_line_takes_several_servers_and_refuses_them_with_a_target():
    with pytest.raises(SystemExit):
        ws_load.main(["--server", "uvicorn", "--target", "http://127.0.0.1:8000"])
    with pytest.raises(SystemExit):
        ws_load.main(["--server", "daphne", "--rounds", "11"])
    with pytest.raises(SystemExit):
        ws_load.main(["--server", "tornado"])
