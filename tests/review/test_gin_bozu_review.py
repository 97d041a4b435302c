"""The Gin Rummy and Bozu Mekuri reviews of games played in process by seeded CPUs hold the
fields docs/review.md documents, with figures checked here from the log itself."""
from __future__ import annotations

import pytest

from games import fairness
from games.cpu.gin import GinCpu
from games.engines.bozu_cards import MONK
from games.engines.gin_melds import deadwood_mask, mask_of
from games.replay import apply_entry, new_state, states
from games.review import review


def play_gin(seed: int, levels: tuple[str, str], target: int = 60) -> list:
    state = new_state("gin", {"target": target}, seed)
    cpus = [GinCpu(level, seat, fairness.cpu_seed(seed, seat)) for seat, level in enumerate(levels)]
    actions = []
    while not state.is_over:
        step = state.pending_automatic()
        if step:
            entry = [None, {"type": step}, "auto"]
        else:
            seat = state.current_player
            entry = [seat, cpus[seat].choose(state.view(seat)), "human" if seat == 0 else "cpu"]
        apply_entry(state, entry)
        actions.append(entry)
    return actions


@pytest.mark.parametrize("seed", [2, 9])
def test_a_gin_review_rates_every_draw_discard_and_knock(seed):
    options = {"target": 60}
    actions = play_gin(seed, ("easy", "hard"), 60)
    result = review("gin", options, {"seed": seed, "actions": actions}, 0)
    decisions = result["decisions"]
    own = [e for e in actions if e[0] == 0 and e[2] != "auto"]
    assert [d["action"] for d in decisions] == [e[1] for e in own]
    hands = {k: [list(h) for h in s.hands] for k, s in states("gin", options, seed, actions)}
    for d in decisions:
        assert {"step", "hand_number", "kind", "hard_cpu", "agrees", "notes"} <= set(d)
        if d["kind"] in ("discard", "knock"):
            hand = hands[d["step"] - 1][0]
            kept = deadwood_mask(mask_of([c for c in hand if c != d["action"]["card"]]))
            assert d["deadwood_kept"] == kept
            assert d["extra_deadwood"] == kept - d["least_deadwood"] >= 0
            assert d["least_deadwood"] == min(
                deadwood_mask(mask_of([c for c in hand if c != card])) for card in d["best_discards"])
            assert 0 <= d["feed_chance"] <= 1
            if d["agrees"]:
                assert d["hard_cpu_score"] == d["hard_cpu_choice_score"]
        else:
            assert {"deadwood_before", "deadwood_if_taken", "expected_from_stock"} <= set(d)
    # The discards the opponent picked up, read from the log: its next draw was from the pile.
    picked = sum(1 for k, e in enumerate(actions[:-1])
                 if e[0] == 0 and e[1]["type"] == "discard"
                 and actions[k + 1][1] == {"type": "draw", "source": "discard"})
    summary = result["summary"]
    assert summary["discards_picked_up"] == picked
    assert summary["decisions"] == len(decisions)
    assert summary["agreed_with_hard_cpu"] < len(decisions)  # easy plays otherwise, now and then
    assert summary["extra_deadwood"] == sum(d.get("extra_deadwood", 0) for d in decisions)
    assert summary["text"].startswith(f"{summary['agreed_with_hard_cpu']} of your {len(decisions)} decisions")
    knocks = [d for d in decisions if d["kind"] == "knock"]
    assert summary["knocks"] == len(knocks)
    for d in knocks:
        assert set(d["knock"]) == {"deadwood", "stock", "opponent_picked_up", "hard_cpu_would_knock", "outcome"}
        assert d["knock"]["outcome"] in ("knock", "gin", "undercut")


def test_the_hard_cpus_own_play_agrees_with_the_review_every_time():
    knocks = 0
    for seed in range(1, 6):
        actions = play_gin(seed, ("hard", "easy"), 40)
        result = review("gin", {"target": 40}, {"seed": seed, "actions": actions}, 0)
        assert result["summary"]["decisions"] > 10
        assert result["summary"]["agreed_with_hard_cpu"] == result["summary"]["decisions"]
        for d in result["decisions"]:
            if d["kind"] == "knock":
                assert d["knock"]["hard_cpu_would_knock"]
                knocks += 1
    assert knocks


def test_a_bozu_review_tells_the_story_as_pure_luck():
    seed, options = 12, {"players": 3}
    state = new_state("bozu", options, seed)
    actions = []
    while not state.is_over:
        entry = [state.current_player, {"type": "flip"}, "human"]
        apply_entry(state, entry)
        actions.append(entry)
    result = review("bozu", options, {"seed": seed, "actions": actions}, 1)
    assert [s["pile"] for s in result["seats"]] == state.scores()
    assert result["centre"] == len(state.centre)
    # The whole deck is flipped: every monk, and Semimaru (a monk by default), empties a pile.
    monks = [e for e in result["events"] if e["effect"] == "pile_to_centre"]
    assert sorted(e["card"]["type"] for e in monks) == sorted([MONK] * 12 + ["semimaru"])
    assert sum(s["lost_to_centre"] for s in result["seats"]) == sum(e["moved"] for e in monks)
    for event in result["events"]:
        poem = actions[event["step"] - 1]  # the event's own step of the log
        assert poem[0] == event["seat"]
        if event["card"]["type"] != "semimaru":
            assert event["card"]["poet"] in event["text"]
    assert sum(s["taken_by_ladies"] for s in result["seats"]) == sum(
        e["moved"] for e in result["events"] if e["effect"] == "takes_centre")
    assert result["seats"][1]["name"] == "You"
    assert "pure luck" in result["summary"]["text"]
