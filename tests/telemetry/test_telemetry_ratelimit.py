from telemetry.ratelimit import RateLimiter


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
