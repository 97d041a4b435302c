"""The one event other apps hear from rooms: a game has really finished.

``game_finished`` is sent once per finished game, after the transaction that finished it has
committed (``transaction.on_commit``), with ``record`` a plain dict:

    {
        "game": "memory" | "bozu" | "gin",
        "mode": "cpu" | "local" | "solo" | "friends",
        "options": {...},               # the engine's canonical options
        "cpu_level": "hard" | None,
        "moves": 57,                    # actions applied by players
        "duration_seconds": 312.5,      # first action to the end
        "started_at": datetime, "finished_at": datetime,   # aware, UTC
        "seats": [
            {"seat": 0, "holder": "human" | "cpu", "user_id": 12 | None,
             "result": "win" | "draw" | "loss" | "unfinished", "score": 30, "rank": 1,
             "resigned": False, "failed_flips": 4 | None},   # failed_flips: solo Memory
            ...
        ],
        "room_origin": "menu" | "result" | "new_link" | None,
        "reconnections": 0,
        "replay": {"seed", "salt", "actions", "cpus", "result", "commitment", "cpu_level"},  # docs/verify.md
    }

``replay`` is there only when a seat names a signed-in player: it is for their own records
(accounts), never for anything anonymous (the operators' copy leaves it out).

A Memory game decided by a tie-break round is the engine's result after the round: its winner
"win", every other seat "loss", each seat's score the game's own. A room's Memory session
(games/rooms/sessions.py) is never part of a record.

Abandoned games (left unfinished, replaced by "play again" before the end) send nothing.
The room id and seat tokens are never part of the record.
"""
from django.dispatch import Signal

game_finished = Signal()
