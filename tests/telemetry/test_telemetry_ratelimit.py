import json
import urllib.request

from telemetry.ratelimit import RateLimiter
from tests.live import embedded_env, running_site
from tests.telemetry.helpers import event


class Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


def test_it_allows_the_limit_per_window_then_refuses_until_the_window_ends():
    clock = Clock()
    limiter = RateLimiter(limit=2, window=60, clock=clock)
    assert [limiter.allow("192.0.2.1") for _ in range(3)] == [True, True, False]
    assert limiter.allow("192.0.2.2") is True
    clock.now += 59.9
    assert limiter.allow("192.0.2.1") is False
    clock.now += 0.1
    assert limiter.allow("192.0.2.1") is True


def test_it_keeps_digests_not_addresses_and_stays_bounded():
    clock = Clock()
    limiter = RateLimiter(limit=5, window=10, clock=clock, max_entries=100)
    for i in range(100):
        limiter.allow(f"10.0.{i // 256}.{i % 256}")
    assert not any(isinstance(key, str) or b"10.0." in key for key in limiter._counts)
    clock.now += 11  # all windows over: the next insert sweeps them
    for i in range(101):
        limiter.allow(f"10.1.0.{i}")
    assert len(limiter) <= 100
    # A flood of live windows is halved, never unbounded.
    for i in range(500):
        limiter.allow(f"10.2.{i // 256}.{i % 256}")
    assert len(limiter) <= 100


def test_two_limiters_share_nothing():
    """Several processes: each counts alone (docs/telemetry.md)."""
    clock = Clock()
    first, second = RateLimiter(1, 60, clock), RateLimiter(1, 60, clock)
    assert first.allow("192.0.2.1") and second.allow("192.0.2.1")
    assert not first.allow("192.0.2.1") and not second.allow("192.0.2.1")


def test_it_tells_how_long_until_an_address_window_ends():
    clock = Clock()
    limiter = RateLimiter(limit=1, window=60, clock=clock)
    assert limiter.seconds_left("192.0.2.1") == 0
    limiter.allow("192.0.2.1")
    clock.now += 20.5
    assert limiter.seconds_left("192.0.2.1") == 39.5
    clock.now += 40
    assert limiter.seconds_left("192.0.2.1") == 0


def post_events(url: str, forwarded_for: str):
    """A beacon as the proxy forwards it: (status, Retry-After). Sec-GPC without the visitor's
    own opt-in: answered 202 and dropped, so nothing is stored; it counts all the same."""
    body = json.dumps({"events": [event()]}).encode()
    request = urllib.request.Request(url + "/telemetry/events", body, method="POST", headers={
        "Content-Type": "text/plain", "Sec-GPC": "1", "X-Forwarded-For": forwarded_for})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.headers["Retry-After"]
    except urllib.error.HTTPError as exc:
        return exc.code, exc.headers["Retry-After"]


def test_clients_behind_one_proxy_have_their_own_allowance_and_get_a_retry_after(tmp_path):
    """The default 120 requests a minute, a server behind one proxy (TELEMETRY_PROXY_HOPS=1)."""
    with running_site(tmp_path, embedded_env(tmp_path, TELEMETRY_PROXY_HOPS="1")) as server:
        assert {post_events(server.url, "198.51.100.1") for _ in range(120)} == {(202, None)}
        status, retry_after = post_events(server.url, "198.51.100.1")
        assert status == 429
        assert 1 <= int(retry_after) <= 60  # whole seconds until the minute's window ends
        # A forged entry to the left of the proxy's is the client's own claim: still refused.
        assert post_events(server.url, "203.0.113.5, 198.51.100.1")[0] == 429
        assert post_events(server.url, "198.51.100.2") == (202, None)
