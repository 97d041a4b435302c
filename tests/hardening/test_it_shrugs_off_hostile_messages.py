"""bench/fuzz_ws.py at a small scale against a live site (both backends): a couple of thousand
hostile frames (malformed JSON, binary, wrong types, oversized, unknown types, out-of-turn and
illegal actions, forged and replayed tokens, floods). The server logs no exception, closes no
connection with an error code, answers with errors, and no game changes; ten seconds after the
last connection closed no handler is busy and no seat counts a connection."""
import sys

import pytest

from tests.e2e.conftest import two_process_backends
from tests.hardening.conftest import start_site
from tests.live import PROJECT

sys.path.insert(0, str(PROJECT / "bench"))
from fuzz_ws import fuzz, settled  # noqa: E402


@pytest.fixture(params=two_process_backends())
def fuzzed_site(request, tmp_path):
    # Seat holders' connections come and go all the time here: no CPU takeover meanwhile.
    made, cleanup = start_site(request.param, tmp_path, SEAT_TAKEOVER_DELAY="600")
    try:
        yield made
    finally:
        cleanup()


async def test_it_answers_hostile_messages_with_errors_and_changes_nothing(fuzzed_site):
    site = fuzzed_site
    def log_text():
        return "".join(s.log() for s in site.servers)

    stats = await fuzz([site.url_for(i) for i in range(len(site.servers))], site.query, log_text,
                       messages=1800, connections=15, seed=7)
    stats.update(await settled(site.query, log_text))
    assert stats["sent"] >= 1800
    assert stats["server_exceptions"] == 0
    assert stats["closed_by_server"] == {}
    assert stats["state_changes"] == 0
    assert stats["slow_closes"] == 0
    assert stats["seats_counting"] == 0
    assert stats["connect_failures"] == 0
    # Every kind of refusal was met, so the messages reached every check.
    for code in ("malformed_json", "message_too_large", "too_many_messages", "unknown_type",
                 "bad_field", "not_your_turn", "not_a_player", "hello_required", "not_allowed"):
        assert stats["errors"].get(code), (code, stats["errors"])
