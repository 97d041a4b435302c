"""Deals anyone can verify and games that replay exactly (docs/protocol.md "Fairness",
docs/verify.md): a signed-in player plays a game of each kind to the end over the WebSocket;
every state carries the game's commitment from the first on and the reveal at the end, which
hashes to it and holds the cards that were shown; the player's own record keeps what replays
the game, and the replay shows every seat, at every step, exactly the view it was sent live
(in a friends game of people at every seat); each seat's replay file verifies."""
from __future__ import annotations

import asyncio
import json
import urllib.error
import urllib.request

import pytest

from games import fairness
from games.replay import states
from games.verify import check
from tests.accounts.accounts_testlib import Browser
from tests.rooms.helpers import LEVEL, close_all, connect, create_room, options, play, play_to_end

STEP_EVENTS = ("action", "automatic")


def get_json(url: str, headers: dict | None = None) -> tuple[int, dict]:
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def replay_url(site, room_id: str) -> str:
    return f"{site.url}/api/rooms/{room_id}/replay"


def verify_url(site, room_id: str) -> str:
    return f"{site.url}/api/rooms/{room_id}/verify"


@pytest.mark.parametrize("game", ["memory", "bozu", "gin"])
async def test_a_signed_in_game_commits_reveals_and_replays_as_it_was_shown(site, game):
    browser = Browser(site.url)
    browser.sign_up(f"fair-{game}-{site.kind}")
    created = create_room(site.url, game, "cpu", options(game), LEVEL[game])
    room_id, token = created["room_id"], created["seat_token"]
    conn = await browser.connect(room_id, token)
    try:
        for url in (replay_url(site, room_id), verify_url(site, room_id)):
            status, refused = get_json(url, {"X-Seat-Token": token})
            assert (status, refused["error"]["code"]) == (409, "game_not_over")
        final = await asyncio.wait_for(play(conn, LEVEL[game]), 120)
    finally:
        await conn.close()
    live = [m for m in conn.messages if m["type"] == "state"]
    first, commitment = live[0], live[0]["room"]["fairness"]["commitment"]
    assert first["room"]["fairness"] == {"commitment": commitment, "reveal": None}
    assert len(commitment) == 64 and commitment == commitment.lower()
    for message in live:
        shown = message["room"]["fairness"]
        assert shown["commitment"] == commitment
        assert (shown["reveal"] is None) == (message["room"]["status"] != "finished")

    reveal = final["room"]["fairness"]["reveal"]
    assert set(reveal) == {"game", "options", "salt", "seed", "decks"}
    assert (reveal["game"], reveal["options"]) == (game, final["room"]["options"])
    assert len(reveal["salt"]) == 32 and int(reveal["salt"], 16) >= 0
    assert fairness.hash_of(reveal) == commitment
    assert fairness.commitment(game, reveal["options"], reveal["seed"], reveal["salt"]) == commitment
    assert_decks_hold_what_was_shown(game, reveal["decks"], [m["view"] for m in live])

    # The player's own record keeps the replay ("Download my data" shows it).
    (record,) = json.loads(browser.get("/accounts/me/export/"))["game_records"]
    replay = record["replay"]
    assert (replay["seed"], replay["salt"]) == (reveal["seed"], reveal["salt"])
    assert (replay["commitment"], replay["cpu_level"]) == (commitment, LEVEL[game])  # as shown
    assert replay["result"]["scores"] == final["room"]["result"]["scores"]
    # At every version the player was sent, the replay at that many steps shows the same view.
    assert_every_seat_was_shown_the_replay(site, room_id, record, {0: conn})

    # The seat's replay file (anonymous players download it so) verifies.
    assert get_json(replay_url(site, room_id))[0] == 403
    assert get_json(replay_url(site, room_id), {"X-Seat-Token": "not-a-token"})[0] == 403
    status, file = get_json(replay_url(site, room_id), {"X-Seat-Token": token})
    assert status == 200
    assert {k: file[k] for k in ("seed", "salt", "actions", "cpus")} == {
        k: replay[k] for k in ("seed", "salt", "actions", "cpus")}
    assert file["fairness"] == final["room"]["fairness"]
    assert {entry["seat"] for entry in file["shown"]} == {0}
    report = check(file)
    assert report.problems == []
    assert report.cpu_moves == sum(1 for _, _, by in replay["actions"] if by == "cpu") > 0
    # The result screen's Verify runs the same checks for the seat's holder only.
    assert get_json(verify_url(site, room_id))[0] == 403
    assert get_json(verify_url(site, room_id), {"X-Seat-Token": "not-a-token"})[0] == 403
    assert get_json(verify_url(site, room_id), {"X-Seat-Token": token}) == (200, {
        "verified": True, "problems": [], "cpu_moves": report.cpu_moves, "commitment": commitment})


def assert_every_seat_was_shown_the_replay(site, room_id: str, record: dict, connections: dict) -> None:
    """Every state each connection was sent (``connections``: seat -> connection) shows its
    seat the view the record's replay gives that seat after as many steps as the room had
    taken by that version; and the replay ends over."""
    replay = record["replay"]
    events = site.query("SELECT version, event FROM games_roomevent WHERE room_id = %s", (room_id,))
    step_versions = sorted(v for v, e in events
                           if (e if isinstance(e, dict) else json.loads(e))["type"] in STEP_EVENTS)
    assert len(step_versions) == len(replay["actions"])
    views = {k: [state.view(seat) for seat in range(record["players"])]
             for k, state in states(record["game"], record["options"], replay["seed"], replay["actions"])}
    assert all(view["is_over"] for view in views[len(replay["actions"])])
    for seat, conn in connections.items():
        # From the state that gave the connection its seat on (a joiner watched before).
        live = [m for m in conn.messages if m["type"] == "state" and m["room"]["you"]["seats"] == [seat]]
        assert live and live[-1]["room"]["status"] == "finished"
        for message in live:
            steps = sum(1 for v in step_versions if v <= message["version"])
            assert message["view"] == views[steps][seat], (seat, message["version"], steps)


FRIENDS = {"memory": {"players": 3, "cards": 24}, "bozu": {"players": 3}, "gin": {"target": 25}}


@pytest.mark.parametrize("game", ["memory", "bozu", "gin"])
async def test_every_seat_of_a_friends_game_was_shown_what_the_replay_shows_it(site, game):
    """Every seat held by a person over the WebSocket (the creator signed in, the others not):
    each seat's live views are the replay's views of that seat, and each seat's own replay
    file, which lists them, verifies."""
    browser = Browser(site.url)
    browser.sign_up(f"fair-friends-{game}-{site.kind}")
    created = create_room(site.url, game, "friends", options(game, **FRIENDS[game]), pace="relaxed")
    room_id = created["room_id"]
    connections = {0: await browser.connect(room_id, created["seat_token"])}
    try:
        for seat in range(1, FRIENDS[game].get("players", 2)):
            connections[seat] = await connect(site.url, room_id)
            await connections[seat].request("join")
        await play_to_end(list(connections.values()))
    finally:
        await close_all(*connections.values())
    (record,) = json.loads(browser.get("/accounts/me/export/"))["game_records"]
    assert record["mode"] == "friends" and len(connections) == record["players"]
    assert_every_seat_was_shown_the_replay(site, room_id, record, connections)
    for seat, conn in connections.items():
        status, file = get_json(replay_url(site, room_id), {"X-Seat-Token": conn.token})
        assert status == 200 and {entry["seat"] for entry in file["shown"]} == {seat}
        assert file["fairness"]["commitment"] == record["replay"]["commitment"]
        assert check(file).problems == []


def assert_decks_hold_what_was_shown(game: str, decks: list, views: list[dict]) -> None:
    """Every card a live view showed is where the revealed deck has it."""
    if game == "memory":
        (table,) = decks  # no tie-break with these options
        shown = {(cell["pos"], cell["card"]) for view in views for cell in view["layout"] if "card" in cell}
        assert shown and all(table[pos] == card for pos, card in shown)
    elif game == "bozu":
        (deck,) = decks
        flips = {view["moves"]: view["last"]["card"] for view in views if view["last"]}
        assert flips and all(deck[moves - 1] == card for moves, card in flips.items())
    else:
        dealt = [set(deck[:21]) for deck in decks]  # both hands and the upcard
        for view in views:
            hand = set(view["hand"]["cards"]) if view.get("hand") else set()
            if view["phase"] == "upcard" and hand:
                assert any(hand <= cards for cards in dealt)
