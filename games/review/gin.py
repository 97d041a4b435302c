"""The review of a Gin Rummy game: each draw, discard and knock of the player set against the
least deadwood (``best_discard``'s rule: ``games/engines/gin_melds.py``) and against what the
hard CPU would have done from the same view, with the numbers it weighs (games/cpu/gin.py):
the deadwood a face-up card brings against what a stock card is expected to, the deadwood kept
against the least possible, and at a knock its plan's verdict on the undercut risk (the stock
left and the cards the opponent has visibly picked up). Also: which discards the opponent
picked up (docs/review.md).
"""
from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from games import fairness
from games.cpu.gin import GinCpu, read_table
from games.engines.gin import State
from games.engines.gin_melds import CARD_INDEX, deadwood_mask, indices_of
from games.replay import apply_entry, new_state
from games.review.words import card_label, number

DRAWS = ("take_upcard", "pass", "draw")
DISCARDS = ("discard", "knock")


def review(options: dict[str, Any], seed: int, actions: list[Any], seat: int) -> dict[str, Any]:
    state = new_state("gin", options, seed)
    assert isinstance(state, State)
    hard = GinCpu("hard", seat, fairness.cpu_seed(seed, seat))
    decisions: list[dict[str, Any]] = []
    waiting: dict[str, dict[str, Any]] = {}  # the seat's last discard, until the opponent draws
    for step, entry in enumerate(actions, 1):
        mover, action, by = entry
        if by != "auto" and mover == seat and action["type"] in DRAWS + DISCARDS:
            view = state.view(seat)
            rated = (_draw(hard, view, action) if action["type"] in DRAWS
                     else _discard(hard, view, action))
            rated.update({"step": step, "hand_number": state.hand_number, "action": action, "by": by})
            decisions.append(rated)
        apply_entry(state, entry)
        if by == "auto":
            waiting.clear()
            continue
        if mover != seat and action["type"] == "draw" and waiting:
            card, = waiting
            waiting[card]["picked_up"] = action["source"] == "discard"
            if action["source"] == "discard":
                waiting[card]["notes"].append(_("Your opponent picked up your %(card)s.")
                                              % {"card": card_label(card)})
            waiting.clear()
        elif mover == seat and action["type"] in DISCARDS:
            decision = decisions[-1]
            if action["type"] == "knock":
                decision["knock"]["outcome"] = state.last_hand["outcome"] if state.last_hand else None
                if decision["knock"]["outcome"] == "undercut":
                    decision["notes"].append(_("You were undercut."))
            else:
                decision["picked_up"] = False
                waiting = {action["card"]: decision}
    return {"game": "gin", "seat": seat, "decisions": decisions, "summary": _summary(decisions),
            "explanation": _("Each draw, discard and knock is set against the hard CPU from the "
                             "same view: the deadwood a face-up card brings against what a stock "
                             "card is expected to bring, the deadwood kept against the least "
                             "possible, and at a knock whether its plan would knock with that "
                             "deadwood and that much stock left, when an undercut grows likelier.")}


def _draw(hard: GinCpu, view: dict[str, Any], action: dict[str, Any]) -> dict[str, Any]:
    table = read_table(view)
    choice = hard.choose(view)
    taking = action["type"] == "take_upcard" or action.get("source") == "discard"
    top = table.top
    after_take = None
    if top is not None:
        with_top = table.hand | 1 << top
        after_take = min(deadwood_mask(with_top & ~(1 << i)) for i in indices_of(table.hand))
    expected = hard._expected_after_stock(table)
    notes = []
    agrees = choice == action
    if not agrees and top is not None and after_take is not None:
        words = {"card": card_label(view["discard_pile"][-1]), "taken": after_take,
                 "stock": number(expected)}
        notes.append(_("The hard CPU would have taken the %(card)s: it leaves %(taken)s deadwood, "
                       "against %(stock)s expected from the stock.") % words if not taking else
                     _("The hard CPU would have left the %(card)s: it leaves %(taken)s deadwood, "
                       "against %(stock)s expected from the stock.") % words)
    return {"kind": "draw", "hard_cpu": choice, "agrees": agrees,
            "deadwood_before": deadwood_mask(table.hand), "deadwood_if_taken": after_take,
            "expected_from_stock": round(expected, 6), "notes": notes}


def _discard(hard: GinCpu, view: dict[str, Any], action: dict[str, Any]) -> dict[str, Any]:
    table = read_table(view)
    choice = hard.choose(view)
    card = action["card"]
    legal = [c for c in view["hand"]["cards"] if c != view["cannot_discard"]]
    left = {c: deadwood_mask(table.hand & ~(1 << CARD_INDEX[c])) for c in legal}
    least = min(left.values())
    best = sorted(c for c in legal if left[c] == least)
    kept = left[card]
    notes = []
    if kept > least:
        notes.append(_("Discarding the %(card)s kept %(kept)s deadwood; the %(best)s would have "
                       "kept %(least)s.") % {"card": card_label(card), "kept": kept,
                                               "best": card_label(best[0]), "least": least})
    unseen = indices_of(table.unseen)

    def score(thrown: str) -> float:
        return round(hard.discard_score(table, CARD_INDEX[thrown], left[thrown], unseen), 6)

    decision: dict[str, Any] = {
        "kind": action["type"], "hard_cpu": choice, "agrees": choice == action,
        "deadwood_kept": kept, "least_deadwood": least, "extra_deadwood": kept - least,
        "best_discards": best, "feed_chance": round(hard._feeds(table, CARD_INDEX[card]), 6),
        "hard_cpu_score": score(card), "hard_cpu_choice_score": score(choice["card"]),
        "notes": notes, "knock": None}
    if action["type"] == "knock":
        would = kept == 0 or hard._knocks(table, kept, table.stock)
        picked = bin(table.opponent_known).count("1")
        decision["knock"] = {"deadwood": kept, "stock": table.stock, "opponent_picked_up": picked,
                             "hard_cpu_would_knock": would, "outcome": None}
        words = {"deadwood": kept, "stock": table.stock, "picked": picked}
        notes.append(_("You knocked with %(deadwood)s deadwood and %(stock)s cards left in the "
                       "stock; the hard CPU would have knocked too.") % words if would else
                     _("You knocked with %(deadwood)s deadwood and %(stock)s cards left in the "
                       "stock, your opponent holding %(picked)s cards picked up: the hard CPU "
                       "would have played on, the undercut risk being too high.") % words)
    return decision


def _summary(decisions: list[dict[str, Any]]) -> dict[str, Any]:
    agreed = sum(1 for d in decisions if d["agrees"])
    extra = sum(d.get("extra_deadwood", 0) for d in decisions)
    discards = [d for d in decisions if d["kind"] == "discard"]
    picked = sum(1 for d in discards if d.get("picked_up"))
    knocks = [d["knock"] for d in decisions if d.get("knock")]
    undercut = sum(1 for k in knocks if k["outcome"] == "undercut")
    text = _("%(agreed)s of your %(decisions)s decisions were the hard CPU's; your discards kept "
             "%(extra)s deadwood more in all than the least possible; your opponent picked up "
             "%(picked)s of your %(discards)s discards.") % {
        "agreed": agreed, "decisions": len(decisions), "extra": extra, "picked": picked,
        "discards": len(discards)}
    return {"decisions": len(decisions), "agreed_with_hard_cpu": agreed, "extra_deadwood": extra,
            "discards": len(discards), "discards_picked_up": picked, "knocks": len(knocks),
            "undercut": undercut, "text": text}
