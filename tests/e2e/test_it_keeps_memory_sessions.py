"""Memory sessions (games/rooms/sessions.py) and the tie-break round in a room, over WebSockets.

The tie games are played by reading the room's secret state from the database, as a script
that knows where every card lies: with ``one_flip`` each turn takes at most one pair, so two
players who take one on every turn tie for first, and the tie-break round follows.
"""
import json

from games.engines import memory
from games.rooms import sessions
from tests.rooms.helpers import (
    close_all,
    connect,
    create_room,
    expect_error,
    options,
    play_to_end,
)


def secret_state(site, room_id):
    ((text,),) = site.query("SELECT state FROM games_room WHERE id = %s", (room_id,))
    return memory.State.from_json(json.loads(text) if isinstance(text, str) else text)


async def flip(conn, seat, state, index):
    return await conn.request("action", seat=seat, action={"type": "flip", "pos": state.grid.name(index)})


async def take_pair(site, conn, room_id):
    """The seat to move (on this device) takes the first pair still on the table."""
    state = secret_state(site, room_id)
    down = state.face_down()
    first = down[0]
    second = next(i for i in down[1:]
                  if memory.cards_match(state.cards[first], state.cards[i], state.options.match))
    seat = state.current_player
    await flip(conn, seat, state, first)
    return await flip(conn, seat, state, second)


def two_that_differ(state):
    """Two face-down cards that do not match, or None when every card left matches the others."""
    down = state.face_down()
    return next(((a, b) for a in down for b in down
                 if a < b and not memory.cards_match(state.cards[a], state.cards[b], state.options.match)),
                None)


def can_miss(state):
    return two_that_differ(state) is not None


async def miss(site, conn, room_id):
    """The seat to move turns up two cards that do not match (they are turned back by the room)."""
    state = secret_state(site, room_id)
    first, second = two_that_differ(state)
    seat = state.current_player
    await flip(conn, seat, state, first)
    await flip(conn, seat, state, second)
    return await conn.wait_for(lambda s: s["view"]["phase"] != "reveal", 10)


async def test_it_keeps_the_running_totals_over_three_games_and_starts_again(site):
    created = create_room(site.url_for(0), "memory", "cpu", options("memory"))
    room_id = created["room_id"]
    red = await connect(site.url_for(0), room_id, created["seat_token"])
    spectator = await connect(site.url_for(1), room_id)
    session = red.state["room"]["session"]
    assert session == {"games": 0, "standings": [
        {"seat": 0, "pairs": 0, "wins": 0, "head_to_head": 0, "rank": 1},
        {"seat": 1, "pairs": 0, "wins": 0, "head_to_head": 0, "rank": 1}], "played": [], "fastest_win": None}
    results = []
    for game in range(3):
        if game:
            await red.request("play_again")
        (final,) = await play_to_end([red])
        results.append(final["room"]["result"])
        session = final["room"]["session"]
        assert session["games"] == game + 1
        # Each game keeps its own result: 12 pairs on a 24-card table, never the session's sum.
        assert sum(final["room"]["result"]["pairs"]) == 12
        totals = {row["seat"]: row for row in session["standings"]}
        for seat in (0, 1):
            assert totals[seat]["pairs"] == sum(r["pairs"][seat] for r in results)
            assert totals[seat]["wins"] == sum(seat in r["winners"] and not r["draw"] for r in results)
        # The highest running total leads.
        ranked = [row["pairs"] for row in session["standings"]]
        assert ranked == sorted(ranked, reverse=True)
        # Each game's duration and winner, and the quickest game someone won.
        assert [g["game"] for g in session["played"]] == list(range(1, game + 2))
        assert [g["winner"] for g in session["played"]] == [None if r["draw"] else r["winners"][0] for r in results]
        assert all(0 < g["seconds"] < 120 for g in session["played"])
        won = [g for g in session["played"] if g["winner"] is not None]
        assert session["fastest_win"] == (min(won, key=lambda g: g["seconds"]) if won else None)
    # Spectators see the session too (nothing in it is secret).
    seen = await spectator.wait_for(lambda s: s["room"]["session"]["games"] == 3, 10)
    assert seen["room"]["session"] == session
    again = await red.request("new_session")
    assert again["room"]["status"] == "playing" and again["event"]["type"] == "new_session"
    assert again["room"]["session"]["games"] == 0
    assert all(row["pairs"] == 0 and row["wins"] == 0 for row in again["room"]["session"]["standings"])
    assert again["room"]["session"]["played"] == [] and again["room"]["session"]["fastest_win"] is None
    # Only between games, only by a player.
    await expect_error(red, "new_session", "not_allowed")
    await expect_error(spectator, "new_session", "not_a_player")
    await close_all(red, spectator)


async def test_it_keeps_no_session_for_other_games(site):
    created = create_room(site.url_for(0), "bozu", "cpu", options("bozu"))
    conn = await connect(site.url_for(0), created["room_id"], created["seat_token"])
    assert conn.state["room"]["session"] is None
    await play_to_end([conn])
    await expect_error(conn, "new_session", "not_allowed")
    await close_all(conn)


async def test_it_plays_a_tie_break_round_and_counts_its_winner_in_the_session(site):
    created = create_room(site.url_for(0), "memory", "local",
                          {"players": 2, "cards": 24, "one_flip": True, "tie_break": True})
    room_id = created["room_id"]
    conn = await connect(site.url_for(0), room_id, created["seat_token"])
    spectator = await connect(site.url_for(1), room_id)
    while not secret_state(site, room_id).in_tie_break:
        state = await take_pair(site, conn, room_id)
    view = state["view"]
    assert view["tie_break"]["round"] == 1 and view["tie_break"]["seats"] == [0, 1]
    assert (view["rows"], view["columns"], len(view["layout"])) == (2, 4, 8)
    assert view["scores"] == [12, 12] and state["room"]["status"] == "playing"
    watched = await spectator.wait_for(lambda s: s["view"]["tie_break"]["round"] == 1, 10)
    assert all("card" not in entry for entry in watched["view"]["layout"])
    # A tie within the tie-break: 2 pairs each, so a second round is laid out.
    for _ in range(4):
        state = await take_pair(site, conn, room_id)
    assert state["view"]["tie_break"]["round"] == 2 and state["view"]["tie_break"]["rounds"] == [[2, 2]]
    loser = state["view"]["current_player"]
    while state["room"]["status"] != "finished":
        current = secret_state(site, room_id)
        # The loser misses whenever two cards left down differ (a round's pairs may share a rank,
        # and then every card left matches every other one).
        if current.current_player == loser and can_miss(current):
            state = await miss(site, conn, room_id)
        else:
            state = await take_pair(site, conn, room_id)
    result = state["room"]["result"]
    winner = 1 - loser
    assert result["winners"] == [winner] and result["draw"] is False
    assert result["tie_break"]["rounds"][0] == [2, 2] and result["tie_break"]["winner"] == winner
    standings = {row["seat"]: row for row in state["room"]["session"]["standings"]}
    # The session counts the game's pairs (6 each), not the round's, and the round's winner's win.
    assert standings[winner]["pairs"] == standings[loser]["pairs"] == 6
    assert standings[winner]["wins"] == 1 and standings[loser]["wins"] == 0
    # The game's record (the operators' copy of what game_finished sends) has the round's
    # winner as the winner: a tie-break game is no draw.
    # (Other tests share the site: any tie-break game's record is no draw, and this one's is there.)
    # (Written at the server's next flush.)
    def tie_break_records(rows):
        return [{s["seat"]: s["result"] for s in (json.loads(seats) if isinstance(seats, str) else seats)}
                for seats, opts in rows if (json.loads(opts) if isinstance(opts, str) else opts).get("tie_break")]
    rows = site.query_until(lambda rows: {winner: "win", loser: "loss"} in tie_break_records(rows),
                            "SELECT seats, options FROM games_finishedgame WHERE mode = 'local'")
    records = tie_break_records(rows)
    assert {winner: "win", loser: "loss"} in records
    assert not any("draw" in results.values() for results in records)
    await close_all(conn, spectator)


def add_game(session, pairs, against, winners, draw, seconds, resigned=False):
    """``sessions.add_game`` with what a Memory game tallies (its engine's ``session_tally()``)."""
    return sessions.add_game(session, "memory", {"points": pairs, "against": against}, winners, draw, seconds,
                             resigned)


def test_it_breaks_a_tie_of_running_totals_by_the_pairs_won_against_each_other():
    session = sessions.new_session("memory", 3)
    # Game 1: seat 0 took 3 pairs that seat 1 had shown; seat 1 took 1 that seat 0 had shown.
    session = add_game(session, [5, 5, 2], [[0, 3, 0], [1, 0, 0], [0, 0, 0]], [0, 1], True, 50)
    session = add_game(session, [4, 4, 4], [[0, 0, 0], [0, 0, 2], [0, 0, 0]], [1], False, 60)
    standings = sessions.standings(session, "memory")
    assert [(row["seat"], row["rank"]) for row in standings] == [(0, 1), (1, 2), (2, 3)]
    assert standings[0]["pairs"] == standings[1]["pairs"] == 9
    # Pairs against seats not in the tie do not count: seat 1's 2 against seat 2 are left out.
    assert standings[0]["head_to_head"] == 3 and standings[1]["head_to_head"] == 1
    assert standings[2]["head_to_head"] is None
    # A draw is no one's win; the tie-break's winner (game 2) is.
    assert [row["wins"] for row in standings] == [0, 1, 0]
    # Equal against each other too: they share the place.
    even = add_game(sessions.new_session("memory", 2), [6, 6], [[1, 1], [1, 1]], [0, 1], True, 40)
    assert [row["rank"] for row in sessions.standings(even, "memory")] == [1, 1]


def test_it_keeps_each_games_duration_and_the_fastest_win():
    session = sessions.new_session("memory", 2)
    assert sessions.public(session, "memory")["fastest_win"] is None
    even = [[0, 0], [0, 0]]
    session = add_game(session, [7, 5], even, [0], False, 95.04)
    session = add_game(session, [6, 6], even, [0, 1], True, 31.0)   # a draw: nobody won
    session = add_game(session, [2, 10], even, [1], False, 12.0, resigned=True)  # seat 0 resigned
    session = add_game(session, [4, 8], even, [1], False, 64.26)
    shown = sessions.public(session, "memory")
    assert shown["played"] == [{"game": 1, "seconds": 95.0, "winner": 0}, {"game": 2, "seconds": 31.0, "winner": None},
                               {"game": 3, "seconds": 12.0, "winner": 1}, {"game": 4, "seconds": 64.3, "winner": 1}]
    # The quickest game won on the table: not the draw, not the resignation.
    assert shown["fastest_win"] == {"game": 4, "seconds": 64.3, "winner": 1}


def test_a_session_from_before_durations_numbers_its_new_games_after_the_old_ones():
    old = {"games": 2, "pairs": [9, 17], "wins": [0, 2], "against": [[0, 0], [0, 0]]}
    session = add_game(old, [8, 4], [[0, 0], [0, 0]], [0], False, 70)
    shown = sessions.public(session, "memory")
    assert shown["games"] == 3 and shown["played"] == [{"game": 3, "seconds": 70, "winner": 0}]
    assert shown["fastest_win"] == {"game": 3, "seconds": 70, "winner": 0}


def test_a_long_session_keeps_its_latest_games_and_its_fastest_win_for_ever():
    session = sessions.new_session("memory", 2)
    for number in range(1, sessions.PLAYED_KEPT + 6):
        seconds = 10.0 if number == 2 else 60.0 + number
        session = add_game(session, [7, 5], [[0, 0], [0, 0]], [0], False, seconds)
    shown = sessions.public(session, "memory")
    assert [game["game"] for game in shown["played"]] == list(range(6, sessions.PLAYED_KEPT + 6))
    assert shown["fastest_win"] == {"game": 2, "seconds": 10.0, "winner": 0}
