"""The result screen's Verify and Download replay (issue 39, point 4): a player of a finished
game against the CPU, signed in or not, has the server check the seat's replay file
(GET /api/rooms/<id>/verify: the commitment, the decks from the seed, every card shown, the
result, every CPU move from its own views), held to the commitment the page was shown before
the first move; and downloads the file, which python -m games.verify checks the same."""
import json

import pytest

from games.verify import check
from tests.browser.helpers import start_from_menu, wait_until
from tests.browser.memory_play import play_my_flips

pytestmark = pytest.mark.browser


def test_a_player_verifies_and_downloads_a_finished_game(site, pages):
    page = pages.new()
    commitments = set()  # every commitment the page was shown, in its states

    def note_commitment(payload):
        message = json.loads(payload) if isinstance(payload, str) else {}
        fairness = (message.get("room") or {}).get("fairness")
        if message.get("type") == "state" and fairness:
            commitments.add(fairness["commitment"])
    page.on("websocket", lambda ws: ws.on("framereceived", note_commitment))
    start_from_menu(page, site, "memory", "cpu", {"cards": 24, "players": 2}, level="hard")
    play_my_flips(page)
    assert len(commitments) == 1

    page.locator("#verify-game").click()
    wait_until(page, "document.getElementById('verify-result') !== null")
    note = page.locator("#verify-result").inner_text()
    (commitment,) = commitments
    assert note.startswith(f"Verified: the deal was fixed before the first move (commitment {commitment[:12]}…)")
    assert "The CPU chose each of its" in note and "did not see the game begin" not in note

    # A server that answered for another deal than the one promised before the first move is
    # caught by the page itself.
    page.route("**/api/rooms/*/verify", lambda route: route.fulfill(json={
        "verified": True, "problems": [], "cpu_moves": 3, "commitment": "0" * 64}))
    page.locator("#verify-game").click()
    wait_until(page, "document.getElementById('verify-result').textContent.startsWith('Not verified')")
    assert page.locator("#verify-result").inner_text() == (
        "Not verified: this is not the deal promised before the first move.")
    page.unroute("**/api/rooms/*/verify")

    with page.expect_download() as downloading:
        page.locator("#download-replay").click()
    download = downloading.value
    assert download.suggested_filename == "memory-replay.json"
    with open(download.path(), encoding="utf-8") as handle:
        file = json.load(handle)
    assert file["fairness"]["commitment"] == commitment
    assert check(file).problems == []
