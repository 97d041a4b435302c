"""What the room keeps so that its current game can be checked and replayed (docs/verify.md).

``Room.fairness`` holds, for the game on the table: its ``seed`` and ``salt``, the
``commitment`` to them (games/fairness.py), the version of its first state (``since``), the
points where a CPU started playing a seat (``cpus``: ``[seat, version]``, the version whose state
that CPU saw first) and, once the game is over, its ``decks``. Only ``commitment``, and at the end
the reveal, ever leave the server (``public``). The game's actions are its events, already
stored (``RoomEvent``): ``game_log`` reads them once the game is over, for the players' own
records (accounts/records.py) and for a seat's replay file (``replay_file``).
"""
from __future__ import annotations

import random
from typing import Any

from games import fairness
from games.models import Room, RoomEvent
from games.replay import FORMAT, RECORD_KEYS, replay_views


def begin(room: Room, seed: int, first_version: int) -> None:
    """A new game is dealt from ``seed``: commit to it with a fresh salt."""
    salt = fairness.new_salt()
    room.fairness = {"seed": seed, "salt": salt,
                     "commitment": fairness.commitment(room.game, room.options, seed, salt),
                     "since": first_version, "cpus": []}


def new_version(room: Room) -> int:
    """The version the change being made will write (a new room is inserted at its own)."""
    return int(room.version) if room._state.adding else int(room.version) + 1


def game_seed(room: Room) -> int:
    """The seed the game on the table was dealt from (a room made before games were committed
    to: as ``play_again`` derived it)."""
    if room.fairness:
        return int(room.fairness["seed"])
    if not room.games_played:
        return int(room.seed)
    return random.Random(f"{room.seed}:{room.games_played}").getrandbits(63)


def cpu_seed(room: Room, seat: int) -> int:
    return fairness.cpu_seed(game_seed(room), seat)


def cpu_started(room: Room, seat: int, seen_version: int) -> None:
    """A new CPU plays ``seat`` from the state of ``seen_version`` on."""
    if room.fairness:
        room.fairness["cpus"].append([seat, seen_version])


def game_over(room: Room, final: Any) -> None:
    """The game is over: its decks are kept for the reveal."""
    if room.fairness:
        room.fairness["decks"] = fairness.decks(room.game, room.options, room.fairness["seed"], final)


def revealed(room: Room) -> dict[str, Any] | None:
    kept = room.fairness
    if not kept or room.status != "finished" or "decks" not in kept:
        return None
    return {**fairness.committed(room.game, room.options, kept["seed"], kept["salt"]),
            "decks": kept["decks"]}


def public(room: Room) -> dict[str, Any] | None:
    """``room.fairness`` of a state message: never the salt before the game is over."""
    if not room.fairness:
        return None
    return {"commitment": room.fairness["commitment"], "reveal": revealed(room)}


# --------------------------------------------------------------------------------------------
# The finished game's log, from its events.

def game_log(room_id: str, kept: dict[str, Any], upto_version: int) -> dict[str, Any]:
    """The actions of the game ``kept`` describes (a finished room's ``fairness``), up to the
    version that finished it: ``[seat, action, by]`` in order, ``by`` ``human`` or ``cpu``, and
    each automatic step as ``[null, {"type": step}, "auto"]``; ``cpus``: ``[seat, step]``, a CPU
    playing seat from the state after that many actions on."""
    events = (RoomEvent.objects.filter(room_id=room_id, version__gt=kept["since"],
                                       version__lte=upto_version)
              .order_by("version").values_list("version", "event"))
    actions: list[list[Any]] = []
    versions: list[int] = []
    for version, event in events:
        if event.get("type") == "action":
            actions.append([event["seat"], event["action"], event["by"]])
        elif event.get("type") == "automatic":
            actions.append([None, {"type": event["step"]}, "auto"])
        else:
            continue
        versions.append(version)
    cpus = [[seat, sum(1 for v in versions if v <= seen)] for seat, seen in kept["cpus"]]
    return {"seed": kept["seed"], "salt": kept["salt"], "actions": actions, "cpus": cpus}


def record_replay(room: Room) -> dict[str, Any] | None:
    """What a player's record keeps of the game the room just finished (None: a room made
    before games were committed to): its log and result, the commitment its players were shown
    before the first move (the replay page's Verify holds the record to it), and the CPU level
    its CPUs played at (the record's own ``cpu_level`` is empty when no seat ended with a CPU)."""
    if not room.fairness:
        return None
    return {**game_log(room.pk, room.fairness, room.version), "result": room.result,
            "commitment": room.fairness["commitment"], "cpu_level": room.cpu_level or None}


def replay_file(room: Room, seats: list[int]) -> dict[str, Any]:
    """The replay file of a finished room's game for the holder of ``seats`` (docs/verify.md):
    the record's replay, the reveal, and what those seats were shown after every step."""
    replay = record_replay(room)
    assert replay is not None and room.status == "finished"
    file = {"format": FORMAT, "game": room.game, "mode": room.mode, "options": room.options,
            "cpu_level": room.cpu_level or None, "players": len(room.seats),
            **{key: replay[key] for key in RECORD_KEYS}, "fairness": public(room)}
    file["shown"] = replay_views(file, seats)
    return file
