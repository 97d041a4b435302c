"""``python -m games.verify FILE``: checks a replay file (docs/verify.md) from its own contents.

1. The reveal hashes to the commitment (the seed and salt were fixed before the first move).
2. The decks follow from the seed: the engine deals them again.
3. Every view shown matches the game dealt from the seed, at the step it was shown.
4. The actions, replayed, are legal and give the recorded result.
5. Each CPU seat, run again from its own views only (seeded from the committed seed),
   chooses every move the log says it made.

Exit status 0 with a line starting "verified", else 1 with what failed (2: not a replay file).
"""
from __future__ import annotations

import json
import sys
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from games import fairness
from games.engines.base import GameError
from games.replay import FORMAT, apply_entry, cpu_module, new_state

REQUIRED = ("game", "options", "seed", "salt", "actions", "cpus", "result", "fairness")


class NotAReplay(ValueError):
    pass


@dataclass
class Report:
    problems: list[str]
    cpu_moves: int  # CPU moves confirmed (or found wrong)


def check(file: dict[str, Any]) -> Report:
    """What fails to check in a replay file (no problems: verified)."""
    if not isinstance(file, dict) or file.get("format") != FORMAT:
        raise NotAReplay(f'not a replay file: "format" must be "{FORMAT}"')
    missing = [key for key in REQUIRED if key not in file]
    if missing:
        raise NotAReplay(f"not a replay file: missing {', '.join(missing)}")
    replayed = _replay_problems(file)
    return Report(_commitment_problems(file) + replayed.problems, replayed.cpu_moves)


def _commitment_problems(file: dict[str, Any]) -> list[str]:
    shown = file["fairness"] or {}
    reveal = shown.get("reveal")
    if not isinstance(reveal, dict):
        return ["no reveal: the game is not over, or the file lost it"]
    found = []
    expected = fairness.committed(file["game"], file["options"], file["seed"], file["salt"])
    for key, value in expected.items():
        if reveal.get(key) != value:
            found.append(f"the reveal's {key} is not the game's")
    if fairness.hash_of(reveal) != shown.get("commitment"):
        found.append("the reveal does not hash to the commitment")
    return found


def _replay_problems(file: dict[str, Any]) -> Report:
    game, options, seed = file["game"], file["options"], file["seed"]
    actions = file["actions"]
    found: list[str] = []
    shown: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for entry in file.get("shown") or []:
        shown[entry["step"]].append(entry)
    started: dict[int, list[int]] = defaultdict(list)
    for seat, step in file["cpus"]:
        started[step].append(seat)
    cpu = cpu_module(game)
    players: dict[int, Any] = {}
    cpu_moves = 0
    try:
        state = new_state(game, options, seed)
    except GameError as exc:
        return Report([f"the game cannot be dealt: {exc.message}"], 0)
    for k in range(len(actions) + 1):
        for entry in shown.pop(k, []):
            if entry["view"] != state.view(entry["seat"]):
                found.append(f"step {k}: seat {entry['seat']} was shown a view that is not the "
                             "game dealt from the seed")
        for seat, player in players.items():
            player.observe(state.view(seat))
        for seat in started.get(k, []):
            try:
                players[seat] = cpu.make_cpu(file.get("cpu_level"), seat, fairness.cpu_seed(seed, seat), options)
            except GameError as exc:
                return Report(found + [f"step {k}: no CPU for seat {seat}: {exc.message}"], cpu_moves)
            players[seat].observe(state.view(seat))
        if k == len(actions):
            break
        entry = actions[k]
        if isinstance(entry, list) and len(entry) == 3 and entry[2] == "cpu":
            cpu_moves += 1
            found += _cpu_problem(k + 1, players.get(entry[0]), state, entry[0], entry[1])
        try:
            apply_entry(state, entry)
        except GameError as exc:
            return Report(found + [f"step {k + 1}: {entry!r} is refused: {exc.message}"], cpu_moves)
    found += [f"step {k}: views shown after the end of the game" for k in shown]
    found += _result_problems(file, state)
    decks = fairness.decks(game, options, seed, state)
    reveal = (file["fairness"] or {}).get("reveal") or {}
    if reveal.get("decks") != decks:
        found.append("the revealed decks are not those dealt from the seed")
    return Report(found, cpu_moves)


def _cpu_problem(step: int, player: Any, state: Any, seat: int, action: Any) -> list[str]:
    if player is None:
        return [f"step {step}: a CPU move for seat {seat}, where no CPU was playing"]
    view = state.view(seat)
    try:
        chosen = player.choose(view)
    except GameError:  # the rooms' fallback for a CPU that cannot decide: the first legal action
        chosen = next(iter(state.legal_actions(seat)), None)
    if chosen != action:
        return [f"step {step}: the CPU of seat {seat} would have played {json.dumps(chosen)} "
                f"from its views, not {json.dumps(action)}"]
    return []


def _result_problems(file: dict[str, Any], state: Any) -> list[str]:
    result = file["result"] or {}
    if result.get("resigned") is not None:
        if state.is_over:
            return ["the game was over before the recorded resignation"]
        if result.get("scores") is not None and result["scores"] != state.scores():
            return ["the scores at the resignation are not the replay's"]
        return []
    if not state.is_over:
        return ["the actions do not finish the game"]
    replayed = state.result()
    if any(result.get(key) != value for key, value in replayed.items()):
        return ["the recorded result is not the replay's"]
    return []


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m games.verify FILE", file=sys.stderr)
        return 2
    try:
        with open(argv[0], encoding="utf-8") as handle:
            file = json.load(handle)
        report = check(file)
    except (OSError, ValueError, KeyError, TypeError) as exc:
        print(f"cannot check {argv[0]}: {exc}", file=sys.stderr)
        return 2
    if report.problems:
        print(f"NOT verified: {len(report.problems)} problem(s)")
        for problem in report.problems:
            print(f"  - {problem}")
        return 1
    print(f"verified: {file['game']} game, {len(file['actions'])} steps, commitment "
          f"{file['fairness']['commitment']}, {report.cpu_moves} CPU move(s) confirmed")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
