"""Memory sessions and the tie-break round in a real browser: two games in one room leave the
session's standings on the result screen, and a tie for first (made on purpose by reading the
room's secret deal from the site's database, as a script that knows every card) lays out a
2 × 4 tie-break round that is played on the table and named on the result screen."""
import json
import re
import sqlite3

import pytest

from games.engines import memory
from tests.browser.engine_views import open_room_page, render_view
from tests.browser.helpers import (
    start_from_menu,
    status,
    version,
    wait_until,
    wait_version_after,
)
from tests.browser.memory_play import play_my_flips, read_cells

pytestmark = pytest.mark.browser


def standings(page) -> list[list[str]]:
    rows = page.locator("#session-standings table:not(.session-times) tbody tr")
    return [rows.nth(i).locator("td, th").all_inner_texts() for i in range(rows.count())]


def my_pairs(rows) -> int:
    return next(int(row[3]) for row in rows if row[1] == "You")


def test_it_shows_the_session_standings_after_two_games(site, pages):
    page = pages.new()
    start_from_menu(page, site, "memory", "cpu", {"cards": 24}, level="easy")
    play_my_flips(page)
    page.locator("#result").wait_for(state="visible")
    assert "after 1 game" in page.locator("#session-standings h3").inner_text()
    first = standings(page)
    page.locator("#result [data-room-act=play-again]").click()
    wait_until(page, "document.getElementById('room').dataset.status === 'playing'")
    # While the second game is played, each seat still shows its running totals.
    assert page.locator("#seats .seat-session").count() == 2
    play_my_flips(page)
    page.locator("#result").wait_for(state="visible")
    assert "after 2 games" in page.locator("#session-standings h3").inner_text()
    second = standings(page)
    # Every card of the game just played names who took it: "you" for this page's player.
    labels = page.locator(".memory-grid .cell").evaluate_all("cells => cells.map(c => c.getAttribute('aria-label'))")
    mine = my_pairs(second) - my_pairs(first)
    assert sum(label.endswith(": taken by you") for label in labels) == 2 * mine
    assert sum(label.endswith(": taken by Green") for label in labels) == 2 * (12 - mine)
    # Rank, player, games won, pairs: 12 pairs a game, two games; the most pairs first.
    pairs = [int(row[3]) for row in second]
    assert sum(pairs) == 24 and pairs == sorted(pairs, reverse=True)
    assert sum(int(row[2]) for row in second) <= 2
    assert all(int(b[3]) >= 0 for b in first) and sum(int(row[3]) for row in first) == 12
    # Each game's time and winner, and the fastest win (the session's race among friends).
    times = page.locator("#session-times tbody tr")
    assert times.count() == 2
    games = [times.nth(i).locator("td, th").all_inner_texts() for i in range(2)]
    assert [game[0] for game in games] == ["1", "2"]
    assert all(re.fullmatch(r"\d+:\d\d", game[2]) for game in games)
    won = [game for game in games if game[1] != "Draw"]
    if won:
        fastest = min(won, key=lambda game: tuple(map(int, game[2].split(":"))))
        assert page.locator("#session-fastest").inner_text().startswith(f"Fastest win: {fastest[1]} in ")
        assert page.locator("#session-times tr.fastest").count() == 1
    # The game's own result stays a single game's, counted in pairs as the session is: 12.
    own = page.locator("#result table.ranking").first
    assert own.locator("thead th").last.inner_text() == "Pairs"
    assert sum(map(int, own.locator("tbody tr td:last-child").all_inner_texts())) == 12
    # A new session starts the totals again: no game won, and only the pairs of the game now
    # played (the CPU may take one at once), where the two games before made 12 pairs each.
    page.locator("#result [data-room-act=new-session]").click()
    wait_until(page, "document.getElementById('room').dataset.status === 'playing'")
    wait_until(page, "(() => { const lines = [...document.querySelectorAll('#seats .seat-session')]"
                     ".map(e => e.textContent); return lines.length === 2"
                     " && lines.every(line => line.endsWith(' 0 games won'))"
                     " && lines.reduce((pairs, line) => pairs + parseInt(line, 10), 0) < 12; })()")


def secret_state(site):
    """The newest room's state, from the site's own database (next to its log)."""
    with sqlite3.connect(site.log_path.parent / "db.sqlite3") as db:
        (text,) = db.execute("SELECT state FROM games_room ORDER BY created_at DESC LIMIT 1").fetchone()
    return memory.State.from_json(json.loads(text))


def click_two(page, state, first, second):
    for index in (first, second):
        before = version(page)
        page.locator(f".memory-card[data-pos={state.grid.name(index)}]").click()
        wait_version_after(page, before)


def take_pair(page, site):
    state = secret_state(site)
    down = state.face_down()
    partner = next(i for i in down[1:] if memory.cards_match(state.cards[down[0]], state.cards[i], "rank"))
    click_two(page, state, down[0], partner)


def can_miss(state) -> bool:
    down = state.face_down()
    return any(not memory.cards_match(state.cards[down[0]], state.cards[i], "rank") for i in down[1:])


def miss(page, site):
    state = secret_state(site)
    down = state.face_down()
    other = next(i for i in down[1:] if not memory.cards_match(state.cards[down[0]], state.cards[i], "rank"))
    click_two(page, state, down[0], other)
    wait_until(page, "[...document.querySelectorAll('.memory-grid .cell')]"
                     ".some(e => e.getAttribute('aria-disabled') === 'false')")


def test_it_plays_a_tie_break_round_on_the_table(site, pages):
    page = pages.new()
    start_from_menu(page, site, "memory", "local",
                    {"players": 2, "cards": 24, "one_flip": True, "tie_break": True})
    assert page.locator("#tie-break").is_hidden()
    # One pair a turn, in turn: 6 pairs each, a tie for first.
    for _ in range(12):
        take_pair(page, site)
    tie_line = page.locator("#tie-break")
    tie_line.wait_for(state="visible")
    assert "Tie-break round 1" in tie_line.inner_text()
    assert status(page) == "playing"
    cells = read_cells(page)
    assert len(cells) == 8 and {c["row"] for c in cells} == {0, 1} and all(c["state"] == "down" for c in cells)
    assert page.locator(".memory-card").count() == 8
    # The round: whoever starts takes every pair it can, the other misses where it can (the
    # cards left may all be of one rank: the round holds pairs of the same ranks), so the
    # starter takes at least 3 of the 4 pairs.
    starter = secret_state(site).current_player
    while status(page) != "finished":
        state = secret_state(site)
        if state.current_player != starter and can_miss(state):
            miss(page, site)
        else:
            take_pair(page, site)
    result = page.locator("#result")
    result.wait_for(state="visible")
    assert "Decided by a tie-break round" in page.locator("#tie-break-result").inner_text()
    names = {0: "Red", 1: "Green"}
    assert result.locator("h2").inner_text() == f"{names[starter]} wins!"


def engine_take_pair(state):
    """The player to move takes the first pair still face down."""
    down = state.face_down()
    partner = next(i for i in down[1:] if memory.cards_match(state.cards[down[0]], state.cards[i], "rank"))
    for index in (down[0], partner):
        state.apply(state.current_player, {"type": "flip", "pos": state.grid.name(index)})


def engine_miss(state):
    down = state.face_down()
    other = next(i for i in down[1:] if not memory.cards_match(state.cards[down[0]], state.cards[i], "rank"))
    seat = state.current_player
    for index in (down[0], other):
        state.apply(seat, {"type": "flip", "pos": state.grid.name(index)})
    state.apply_automatic()


def test_it_tells_each_player_and_a_spectator_about_the_tie_break(site, pages):
    """The round's line, its taken cards and the result's note say "you" to the seat they are
    about and name the seat by its colour to the other seat and to a spectator (issue 37)."""
    state = memory.new_game({"players": 2, "cards": 24, "one_flip": True, "tie_break": True}, 3)
    while not state.in_tie_break:
        engine_take_pair(state)
    starter = state.current_player
    engine_take_pair(state)
    in_round = {seat: state.view(seat) for seat in (0, 1, None)}
    while not state.is_over:
        if state.current_player != starter and can_miss(state):
            engine_miss(state)
        else:
            engine_take_pair(state)
    over = {seat: state.view(seat) for seat in (0, 1, None)}
    assert over[None]["result"]["winners"] == [starter]
    names = {0: "Red", 1: "Green"}
    pairs = over[None]["result"]["tie_break"]["pairs"][starter]
    page = pages.new()
    open_room_page(page, site, "memory")
    for seat in (0, 1, None):
        render_view(page, "memory", in_round[seat])
        line = page.locator("#tie-break").inner_text()
        taken = page.locator(".memory-grid .cell.state-taken").evaluate_all(
            "cells => cells.map(c => c.getAttribute('aria-label').split(': ').pop())")
        render_view(page, "memory", over[seat])
        note = page.evaluate("(view) => window.engineViewRenderer.resultDetails(view, view.result).textContent",
                             over[seat])
        winner = "you" if seat == starter else names[starter]
        assert taken == [f"taken by {winner}"] * 2
        assert note == f"Decided by a tie-break round: {winner} took {pairs} pairs of it."
        if seat is None:
            assert line == "Tie-break round 1: Red, Green play for the win."
        else:
            assert line == f"Tie-break round 1: you play for the win against {names[1 - seat]}."
