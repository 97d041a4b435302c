"""server/rate_limit.py on the suite's cache (Redis with the services backend, else in memory).

Each test counts under limit names of its own, so no count survives into another test or run."""
import logging
import secrets

from django.core.cache import caches
from django.test import override_settings

from server.rate_limit import Limit, Window, hit


def limit(*windows: tuple[int, int]) -> Limit:
    return Limit(f"test-{secrets.token_hex(4)}", tuple(Window(n, s) for n, s in windows))


def test_every_window_must_admit_and_the_retry_after_is_the_full_windows():
    minute_and_hour = limit((5, 60), (3, 3600))
    assert [hit((minute_and_hour, "192.0.2.1")) for _ in range(3)] == [0, 0, 0]
    # The hour's 3 bind before the minute's 5: the wait runs to the end of the hour's window.
    wait = hit((minute_and_hour, "192.0.2.1"))
    assert 60 < wait <= 3600
    assert hit((minute_and_hour, "192.0.2.2")) == 0


def test_a_refused_request_counts_against_nothing():
    per_address, per_account = limit((2, 60)), limit((2, 60))
    assert hit((per_address, "192.0.2.1"), (per_account, "7")) == 0
    assert hit((per_address, "192.0.2.2"), (per_account, "7")) == 0
    assert 1 <= hit((per_address, "192.0.2.3"), (per_account, "7")) <= 60  # the account is full
    assert 1 <= hit((per_address, "192.0.2.3"), (per_account, "7")) <= 60
    # 192.0.2.3 was refused twice and still has both of its requests.
    assert hit((per_address, "192.0.2.3")) == 0
    assert hit((per_address, "192.0.2.3")) == 0
    assert hit((per_address, "192.0.2.3")) > 0


@override_settings(CACHES={"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                                       "LOCATION": "rate-limit-keys"}})
def test_the_cache_holds_keyed_digests_not_subjects():
    hit((limit((1, 60)), "192.0.2.77"), (limit((1, 60)), "user-77"))
    keys = list(caches["default"]._cache)
    assert keys and not any("192.0.2.77" in key or "user-77" in key for key in keys)


@override_settings(CACHES={"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                                       "LOCATION": "redis://127.0.0.1:1/0"}})
def test_it_admits_requests_while_the_cache_is_unreachable(caplog):
    one = limit((1, 60))
    with caplog.at_level(logging.WARNING, "server.rate_limit"):
        assert [hit((one, "192.0.2.1")) for _ in range(3)] == [0, 0, 0]
    assert "the cache is unreachable" in caplog.text
