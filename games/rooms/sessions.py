"""A room's session: the games played at its table since it was made or since its last "New
session", kept in ``Room.session``, for a game whose GameSpec keeps one (``GameSpec.session``,
games/specs.py; Memory's).

Each finished game adds its engine's ``session_tally()`` (games/engines/base.py): per seat, its
points to the seat's running total (stored and sent under the name its GameSpec gives it, Memory's
"pairs": a tie-break round takes none, its cards are borrowed from the piles), and the points won
against each other seat (``against``: Memory's pairs whose card that seat had turned up before);
and a win for its winner (after any tie-break round; a draw is no one's win). The standings order
the seats by their running total; seats tied on it are ordered by the points each won against
the others of the tie over the session, then by games won (a game won by the other's resignation
counts), and share a place only when those are equal too. Each finished game keeps its own result
and record: the session is only the room's running sum of them.

The session also keeps each game's duration (from its first move to its end) and winner, so
that friends can race: the fastest win of the session is the quickest game that ended with a
winner on the table (a draw, or a win by the other's resignation, is no race won). Only the
latest ``PLAYED_KEPT`` games are kept (they go with every state), the fastest win apart.
"""
from __future__ import annotations

from collections.abc import Collection
from typing import Any

from games.engines.base import SessionTally
from games.rooms import registry
from games.specs import Session

# The games whose time and winner a session keeps and sends with every state: the latest ones
# (the fastest win is kept apart, so it outlives them).
PLAYED_KEPT = 30


def kept(game: str) -> Session:
    """What a session of this game keeps; only a game whose spec keeps one has a session."""
    keeps = registry.spec(game).session
    if keeps is None:
        raise ValueError(f"{game} keeps no session")
    return keeps


def new_session(game: str, players: int) -> dict[str, Any]:
    keeps = kept(game)
    return {"games": 0, keeps.total: [0] * players, "wins": [0] * players,
            "against": [[0] * players for _ in range(players)], "played": []}


def add_game(session: dict[str, Any] | None, game: str, tally: SessionTally, winners: Collection[int],
             draw: bool, seconds: float, resigned: bool = False) -> dict[str, Any]:
    """The session with one more finished game (a new dict; the old one is left as it was),
    which lasted ``seconds``."""
    keeps = kept(game)
    points, against = tally["points"], tally["against"]
    players = len(points)
    if not session:  # a room made before sessions
        session = new_session(game, players)
    number = session["games"] + 1
    played = {"game": number, "seconds": round(seconds, 1), "winner": None if draw else min(winners)}
    fastest = session.get("fastest_win")
    # A race is won on the table: a draw, or a win by the other's resignation, wins none.
    if played["winner"] is not None and not resigned and (fastest is None or played["seconds"] < fastest["seconds"]):
        fastest = played
    return {
        "games": number,
        keeps.total: [session[keeps.total][s] + points[s] for s in range(players)],
        "wins": [session["wins"][s] + (not draw and s in winners) for s in range(players)],
        "against": [[session["against"][s][o] + against[s][o] for o in range(players)]
                    for s in range(players)],
        # A session kept from before durations were kept lists only the games since.
        "played": [*session.get("played", []), played][-PLAYED_KEPT:],
        "fastest_win": fastest,
    }


def standings(session: dict[str, Any], game: str) -> list[dict[str, Any]]:
    """Best first: ``rank`` (shared by seats still tied), the running total (under the name the
    game's spec gives it) and ``wins``, and ``head_to_head``: the points won against the seats
    tied on the total with it (None if untied)."""
    keeps = kept(game)
    totals = session[keeps.total]
    players = range(len(totals))
    rows = []
    for seat in players:
        tied = [o for o in players if o != seat and totals[o] == totals[seat]]
        head_to_head = sum(session["against"][seat][o] for o in tied) if tied else None
        rows.append({"seat": seat, keeps.total: totals[seat], "wins": session["wins"][seat],
                     "head_to_head": head_to_head})

    def key(row: dict[str, Any]) -> tuple[int, int, int]:
        return row[keeps.total], row["head_to_head"] or 0, row["wins"]

    rows.sort(key=key, reverse=True)
    for index, row in enumerate(rows):
        row["rank"] = rows[index - 1]["rank"] if index and key(rows[index - 1]) == key(row) else index + 1
    return rows


def public(session: dict[str, Any] | None, game: str) -> dict[str, Any] | None:
    """What every connection is sent (nothing in a session is secret)."""
    if not session:
        return None
    return {"games": session["games"], "standings": standings(session, game),
            "played": session.get("played", []), "fastest_win": session.get("fastest_win")}
