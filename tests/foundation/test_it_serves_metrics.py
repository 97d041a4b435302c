"""GET /metrics on a live server: Prometheus's text, counting an action played over a real
WebSocket and an error by its code, answered to loopback (the default METRICS_ALLOW) and refused
to an address outside METRICS_ALLOW, through a proxy, and to anything but GET."""
import urllib.error
import urllib.request

import pytest
from prometheus_client.parser import text_string_to_metric_families

from config.env import ConfigError, env_networks
from games.metrics import allowed
from tests.balancer import Balancer
from tests.live import embedded_env, free_port, migrate, start_daphne
from tests.rooms.helpers import connect, create_room, expect_error


def scrape(url: str, **headers: str) -> dict:
    """Every sample of the page by (name, labels), after checking it parses as Prometheus text."""
    with urllib.request.urlopen(urllib.request.Request(url + "/metrics", headers=headers), timeout=10) as response:
        assert response.status == 200
        assert response.headers["Content-Type"].startswith("text/plain; version=")
        text = response.read().decode()
    return {(sample.name, tuple(sorted(sample.labels.items()))): sample.value
            for family in text_string_to_metric_families(text) for sample in family.samples}


def refused(url: str, method: str = "GET", path: str = "/metrics", **headers: str) -> int:
    try:
        urllib.request.urlopen(urllib.request.Request(url + path, headers=headers, method=method), timeout=10)
    except urllib.error.HTTPError as exc:
        return exc.code
    raise AssertionError("answered")


@pytest.fixture
def env(tmp_path):
    env = embedded_env(tmp_path)
    migrate(env)
    return env


async def test_it_counts_an_action_played_over_a_websocket(tmp_path, env):
    server = start_daphne(tmp_path, env)
    try:
        server.wait_ready()
        before = scrape(server.url)
        assert before[("cardtable_actions_total", ())] == 0
        assert before[("cardtable_room_connections", ())] == 0
        assert ("cardtable_redis_link_up", ()) not in before  # the embedded site has no Redis
        assert before[("cardtable_scheduler_seconds_since_pass", ())] < 30
        assert before[("process_cpu_seconds_total", ())] > 0

        created = create_room(server.url, "memory", "solo", {"cards": 24})
        player = await connect(server.url, created["room_id"], created["seat_token"])
        await player.request("action", action={"type": "flip", "pos": "A1"})
        await expect_error(player, "action", "card_face_up", action={"type": "flip", "pos": "A1"})
        during = scrape(server.url)
        await player.close()

        assert during[("cardtable_actions_total", ())] == 1
        assert during[("cardtable_action_seconds_count", ())] == 1
        assert during[("cardtable_action_seconds_bucket", (("le", "+Inf"),))] == 1
        assert 0 < during[("cardtable_action_seconds_sum", ())] < 5
        assert during[("cardtable_errors_total", (("code", "card_face_up"),))] == 1
        assert during[("cardtable_room_connections", ())] == 1
        assert during[("cardtable_rooms_in_memory", ())] == 1
        assert during[("cardtable_rooms_db_calls_waiting", ())] == 0
        # Nothing in the page names a room, a token or a client.
        for secret in (created["room_id"], created["seat_token"]):
            assert all(secret not in str(key) for key in during)
    finally:
        server.stop()


def test_it_refuses_whoever_is_not_inside(tmp_path, env):
    loopback = start_daphne(tmp_path, env, name="loopback")
    elsewhere = start_daphne(tmp_path, {**env, "METRICS_ALLOW": "10.255.0.0/16,fd00:ffff::/32"}, name="elsewhere")
    try:
        loopback.wait_ready()
        elsewhere.wait_ready()
        assert refused(elsewhere.url) == 403  # 127.0.0.1 is not in METRICS_ALLOW there
        assert ("cardtable_actions_total", ()) in scrape(loopback.url)
        # Through a proxy (the balancer appends X-Forwarded-For): refused, whatever the address.
        assert refused(loopback.url, **{"X-Forwarded-For": "127.0.0.1"}) == 403
        assert refused(loopback.url, Forwarded="for=127.0.0.1") == 403
        assert refused(loopback.url, method="POST") == 405
    finally:
        loopback.stop()
        elsewhere.stop()


def test_the_balancer_passes_no_metrics_on_and_serves_its_own_apart(tmp_path, env):
    port = free_port()
    server = start_daphne(tmp_path, env, port=port)
    balancer = Balancer(["127.0.0.1"], port, tmp_path)
    try:
        server.wait_ready()
        balancer.wait_up()
        assert refused(balancer.url) == 404
        assert refused(balancer.url, path="/%6Detrics") == 404  # the same path to Daphne
        with urllib.request.urlopen(balancer.metrics_url, timeout=10) as response:
            own = response.read().decode()
        assert 'haproxy_backend_active_servers{proxy="rooms"} 1' in own
        assert ("cardtable_actions_total", ()) in scrape(server.url)  # straight to the process: answered
    finally:
        balancer.stop()
        server.stop()


def test_the_allowed_networks_are_the_connections_own(settings, monkeypatch):
    settings.METRICS_ALLOW = env_networks("METRICS_ALLOW", "10.0.0.0/8,::1")

    def scope(client, *headers):
        return {"client": client, "headers": list(headers)}

    assert allowed(scope(["10.1.2.3", 4000])) and allowed(scope(["::1", 4000]))
    assert allowed(scope(["::ffff:10.1.2.3", 4000]))  # an IPv4 client on a dual-stack socket
    assert not allowed(scope(["127.0.0.1", 4000])) and not allowed(scope(["192.0.2.9", 4000]))
    assert not allowed(scope(None))  # a Unix socket: no address to check
    assert not allowed(scope(["10.1.2.3", 4000], (b"x-forwarded-for", b"10.1.2.3")))
    for bad in ("", "10.0.0.0/33", "10.1.2.3/8", "loopback"):
        monkeypatch.setenv("METRICS_ALLOW", bad)
        with pytest.raises(ConfigError, match="METRICS_ALLOW"):
            env_networks("METRICS_ALLOW", "127.0.0.1")
