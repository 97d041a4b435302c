import pytest

from telemetry.schema import BROWSERS, OSES
from telemetry.useragent import reduce_user_agent

CASES = [
    ("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 "
     "Safari/537.36", "chrome", "windows"),
    ("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 "
     "Safari/537.36 Edg/126.0.2592.87", "edge", "windows"),
    ("Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 "
     "Safari/605.1.15", "safari", "macos"),
    ("Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
     "CriOS/126.0.6478.54 Mobile/15E148 Safari/604.1", "chrome", "ios"),
    ("Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) FxiOS/127.0 "
     "Mobile/15E148 Safari/605.1.15", "firefox", "ios"),
    ("Mozilla/5.0 (X11; Linux x86_64; rv:127.0) Gecko/20100101 Firefox/127.0", "firefox", "linux"),
    ("Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) "
     "SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36", "samsung", "android"),
    ("Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 "
     "Safari/537.36", "chrome", "chromeos"),
    ("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 "
     "Safari/537.36 OPR/111.0.0.0", "opera", "windows"),
    ("curl/8.5.0", "other", "other"),
    ("", "other", "other"),
    (None, "other", "other"),
]


@pytest.mark.parametrize("ua,browser,os_family", CASES)
def test_it_reduces_a_user_agent_to_two_families(ua, browser, os_family):
    assert reduce_user_agent(ua) == (browser, os_family)
    assert browser in BROWSERS and os_family in OSES


def test_every_family_of_the_schema_is_reachable():
    assert {b for _, b, _ in CASES} == set(BROWSERS)
    assert {o for _, _, o in CASES} == set(OSES)
