"""`python -m games.bot` plays a whole Gin Rummy game against the server's CPU from the command
line, over the real protocol."""
import subprocess
import sys

from tests.live import PROJECT


def test_it_plays_a_full_gin_rummy_game(embedded_site):
    before = embedded_site.query("SELECT count(*) FROM games_finishedgame WHERE game = 'gin'")[0][0]
    run = subprocess.run(
        [sys.executable, "-m", "games.bot", "--server", embedded_site.url, "--game", "gin",
         "--level", "hard", "--options", "target=25", "--verbose"],
        cwd=PROJECT, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0].startswith("Room ") and "(gin, cpu)" in lines[0]
    assert any(line.startswith("seat 0: ") for line in lines)
    assert any(line.startswith("CPU seat 1: ") for line in lines)
    assert lines[-1].startswith("Game over after version ")
    assert (" win for seat(s) [0]" in lines[-1]) != (" loss for seat(s) [0]" in lines[-1])
    after = embedded_site.query_until(lambda rows: rows[0][0] > before,
                                      "SELECT count(*) FROM games_finishedgame WHERE game = 'gin'")[0][0]
    assert after == before + 1


def test_it_explains_a_refused_room(embedded_site):
    run = subprocess.run(
        [sys.executable, "-m", "games.bot", "--server", embedded_site.url, "--game", "gin",
         "--options", "target=0"], cwd=PROJECT, capture_output=True, text=True, timeout=60)
    assert run.returncode == 1
    assert "Refused: invalid_options: target must be" in run.stderr


def test_it_replays_a_seeded_room_move_for_move(embedded_site):
    # A seeded room (the test servers run with DEBUG on) and the bot's own seed fix every deal
    # and every choice on both sides, so two runs play the same game: what a client tester needs.
    def run_bot() -> tuple[list[str], str]:
        run = subprocess.run(
            [sys.executable, "-m", "games.bot", "--server", embedded_site.url, "--game", "gin",
             "--options", "target=25", "--room-seed", "5", "--seed", "3", "--verbose"],
            cwd=PROJECT, capture_output=True, text=True, timeout=120)
        assert run.returncode == 0, run.stderr
        lines = run.stdout.splitlines()
        # The bot's own moves, without the versions they made (presence changes shift those)
        # and without next_hand, which the server may deal first whichever way.
        moves = [line.split(" -> ")[0] for line in lines
                 if line.startswith("seat 0: ") and "next_hand" not in line]
        return moves, lines[-1].split(": ", 1)[1]

    moves, outcome = run_bot()
    assert len(moves) > 10
    assert run_bot() == (moves, outcome)
