"""SIGKILL the server mid-game and start it again: the room continues from its last applied
action, a CPU step that fell due while the server was down happens after the restart without
any client, and clients resync."""
import time

import pytest

from tests.live import get_json
from tests.rooms.helpers import close_all, connect, create_room, options, play_to_end


# The CPU waits 0.8 s before each flip, so the kill lands while its step is pending.
@pytest.mark.parametrize("private_site", [{"CPU_DELAY_BOZU_FLIP": "0.8"}], indirect=True)
async def test_it_continues_after_sigkill_and_restart(private_site):
    site = private_site
    created = create_room(site.url, "bozu", "cpu", options("bozu", players=2))
    room_id = created["room_id"]
    red = await connect(site.url, room_id, created["seat_token"])
    for _ in range(2):
        await red.wait_for(lambda s: s["view"]["legal_actions"], 10)
        await red.request("action", action={"type": "flip"})
    # Red's flip is applied; the CPU's flip is due in a moment. Kill now (a crash, no shutdown).
    before = red.state["version"]
    before_deck = red.state["view"]["deck_count"]
    assert site.query("SELECT due_at IS NOT NULL FROM games_room WHERE id = %s", (room_id,)) == [(1,)]
    site.restart(kill=True, CPU_DELAY_BOZU_FLIP="0.002")  # and quick from here on
    await red.close()
    # The CPU's due step happens after the restart with nobody connected.
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        summary = get_json(f"{site.url}/api/rooms/{room_id}")["body"]
        if summary["version"] > before + 1:
            break
        time.sleep(0.05)
    assert summary["version"] > before
    back = await connect(site.url, room_id, created["seat_token"], last_version=before)
    state = back.state
    assert state["view"]["deck_count"] <= before_deck - 1
    assert [e["version"] for e in state["missed"]] == list(range(before + 1, state["version"] + 1))
    assert any(e["type"] == "action" and e["by"] == "cpu" for e in state["missed"])
    final = (await play_to_end([back], timeout=150))[0]
    assert final["room"]["status"] == "finished" and sum(final["view"]["scores"]) <= 100
    await close_all(back)
