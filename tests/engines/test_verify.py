"""``python -m games.verify`` (docs/verify.md): a batch of games simulated in process, as the
rooms play them (CPU seats seeded from the committed seed, every log entry, the reveal), all
verify; one changed card, action or salt, or a CPU move its views could not have produced,
does not."""
from __future__ import annotations

import copy
import json
import random
import subprocess
import sys

import pytest

from games import fairness
from games.replay import apply_entry, cpu_module, engine, new_state, replay_views
from games.verify import FORMAT, check
from tests.live import PROJECT

LEVELS = {"memory": ("easy", "medium", "hard", "perfect"), "bozu": ("easy",),
          "gin": ("simple", "easy", "normal", "hard")}
OPTIONS = {
    "memory": [{"players": 2, "cards": 24}, {"players": 2, "cards": 24, "tie_break": True},
               {"players": 3, "cards": 24, "match": "colour", "tie_break": True}],
    "bozu": [{"players": 2}, {"players": 3}, {"players": 4, "emperor": "again"}],
    "gin": [{"target": 25}],
}


def simulate(game: str, number: int, planted_at: int | None = None) -> dict:
    """Game ``number`` of ``game``, seat 0 a person (played here by an easy CPU of its own) and
    the other seats the rooms' CPUs, as the replay file of seat 0. ``planted_at``: the CPU's
    move at that step (or the first CPU move after it) is replaced by another legal one."""
    rng = random.Random(f"{game}/{number}")
    options = engine(game).parse_options(rng.choice(OPTIONS[game])).to_json()
    level = rng.choice(LEVELS[game])
    seed = rng.getrandbits(63)
    salt = f"{rng.getrandbits(128):032x}"
    cpu = cpu_module(game)
    state = new_state(game, options, seed)
    person = cpu.make_cpu(LEVELS[game][0], 0, rng.getrandbits(63), options)
    cpus = {seat: cpu.make_cpu(level, seat, fairness.cpu_seed(seed, seat), options)
            for seat in range(1, state.players)}
    for seat, player in cpus.items():
        player.observe(state.view(seat))
    actions = []
    while not state.is_over:
        step = state.pending_automatic()
        seat = state.current_player
        if step:
            entry = [None, {"type": step}, "auto"]
        elif seat in cpus:
            action = cpus[seat].choose(state.view(seat))
            if planted_at is not None and len(actions) >= planted_at:
                action = next(a for a in state.legal_actions(seat) if a != action)
                planted_at = None
            entry = [seat, action, "cpu"]
        else:
            person.observe(state.view(seat))
            entry = [seat, person.choose(state.view(seat)), "human"]
        apply_entry(state, entry)
        actions.append(entry)
        for cpu_seat, player in cpus.items():
            player.observe(state.view(cpu_seat))
    reveal = fairness.reveal(game, options, seed, salt, state)
    file = {"format": FORMAT, "game": game, "mode": "cpu", "options": options, "cpu_level": level,
            "players": state.players, "seed": seed, "salt": salt, "actions": actions,
            "cpus": [[seat, 0] for seat in cpus], "result": {**state.result(), "resigned": None},
            "fairness": {"commitment": fairness.hash_of(reveal), "reveal": reveal}}
    file["shown"] = replay_views(file, [0])
    return file


def test_every_untouched_game_of_a_batch_verifies():
    games = [(game, number) for number in range(100) for game in ("memory", "bozu", "gin")]
    checked = {"memory": 0, "bozu": 0, "gin": 0}
    several_deals = {"memory": 0, "bozu": 0, "gin": 0}
    cpu_moves = 0
    for game, number in games:
        file = simulate(game, number)
        report = check(file)
        assert report.problems == [], (game, number)
        checked[game] += 1
        several_deals[game] += len(file["fairness"]["reveal"]["decks"]) > 1
        cpu_moves += report.cpu_moves
    assert checked == {"memory": 100, "bozu": 100, "gin": 100}
    assert cpu_moves > 300 * 10  # the CPUs' moves were checked, not skipped
    # Memory's tie-break rounds and Gin's later hands were dealt and checked too.
    assert several_deals["memory"] > 0 and several_deals["gin"] > 0 and several_deals["bozu"] == 0


@pytest.mark.parametrize("game", ["memory", "bozu", "gin"])
def test_one_changed_card_fails(game):
    file = simulate(game, 1)
    assert check(file).problems == []
    shown = copy.deepcopy(file)
    # Gin: the first hand as dealt; the others: the end, where every taken card lies face up.
    at = 1 if game == "gin" else len(file["actions"])
    view = next(e["view"] for e in shown["shown"] if e["step"] == at)
    _change_a_card(game, view)
    assert "step" in " ".join(check(shown).problems)
    dealt = copy.deepcopy(file)
    deck = dealt["fairness"]["reveal"]["decks"][0]
    if isinstance(deck, dict):
        first, second = sorted(deck)[:2]
        deck[first], deck[second] = deck[second], deck[first]
    else:
        deck[0], deck[1] = deck[1], deck[0]
    assert check(dealt).problems == ["the revealed decks are not those dealt from the seed"]


def _change_a_card(game: str, view: dict) -> None:
    if game == "memory":
        taken = next(cell for cell in view["layout"] if "card" in cell)
        taken["card"] = "JK" if taken["card"] != "JK" else "AS"
    elif game == "bozu":
        pile = next(p for p in view["piles"] if p["top"])
        pile["top"]["poem"] = pile["top"]["poem"] % 100 + 1
    else:
        cards = view["hand"]["cards"]
        cards[0] = "AS" if cards[0] != "AS" else "2S"


@pytest.mark.parametrize("game", ["memory", "gin"])
def test_one_changed_action_fails(game):
    file = simulate(game, 2)
    k = next(k for k, (seat, action, by) in enumerate(file["actions"]) if by == "human"
             and len(_legal_at(file, k)) > 1)
    other = next(a for a in _legal_at(file, k) if a != file["actions"][k][1])
    file["actions"][k][1] = other
    assert check(file).problems


def test_a_changed_action_in_bozu_is_refused():
    file = simulate("bozu", 2)
    file["actions"][0][1] = {"type": "flip", "card": 1}
    assert any("refused" in p for p in check(file).problems)


def _legal_at(file: dict, k: int) -> list:
    state = new_state(file["game"], file["options"], file["seed"])
    for entry in file["actions"][:k]:
        apply_entry(state, entry)
    return state.legal_actions(file["actions"][k][0])


@pytest.mark.parametrize("game", ["memory", "bozu", "gin"])
def test_a_changed_salt_fails(game):
    file = simulate(game, 3)
    salt = "0" * 32
    file["salt"] = file["fairness"]["reveal"]["salt"] = salt
    assert check(file).problems == ["the reveal does not hash to the commitment"]


@pytest.mark.parametrize("game", ["memory", "gin"])
def test_a_planted_cpu_move_fails_and_nothing_else(game):
    """A consistent game (commitment, decks, views and result all agree) in which one CPU
    move is not what that CPU chooses from its own views: a cheater is caught."""
    file = simulate(game, 4, planted_at=5)
    problems = check(file).problems
    assert len(problems) == 1 and "the CPU of seat" in problems[0], problems


def test_the_command_line_says_verified_or_what_failed(tmp_path):
    file = simulate("memory", 5)
    path = tmp_path / "replay.json"
    path.write_text(json.dumps(file), encoding="utf-8")
    ran = subprocess.run([sys.executable, "-m", "games.verify", str(path)], cwd=PROJECT,
                         capture_output=True, text=True, timeout=120)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert ran.stdout.startswith("verified: memory game")
    file["salt"] = file["fairness"]["reveal"]["salt"] = "f" * 32
    path.write_text(json.dumps(file), encoding="utf-8")
    ran = subprocess.run([sys.executable, "-m", "games.verify", str(path)], cwd=PROJECT,
                         capture_output=True, text=True, timeout=120)
    assert ran.returncode == 1
    assert "NOT verified" in ran.stdout and "does not hash to the commitment" in ran.stdout
    path.write_text("{}", encoding="utf-8")
    ran = subprocess.run([sys.executable, "-m", "games.verify", str(path)], cwd=PROJECT,
                         capture_output=True, text=True, timeout=120)
    assert ran.returncode == 2 and "not a replay file" in ran.stderr


def test_the_protocol_pages_example_of_a_reveal_hashes_to_its_commitment():
    page = (PROJECT / "docs" / "protocol.md").read_text(encoding="utf-8")
    section = page[page.index("## Fairness"):page.index("## A bot")]
    example = json.loads(section[section.index("```json") + 7:section.index("```\n", section.index("```json") + 7)])
    assert fairness.hash_of(example["reveal"]) == example["commitment"]
