"""The review of a Bozu Mekuri game: its story, told honestly as pure luck (docs/review.md).

Every turn is one flip of the top card, and the shuffle alone decides which card it is: no
choice was made, so nothing is rated. The story is who drew which monk (and lost a pile to the
centre), which lady took the centre for whom, and what the emperors, Semimaru and the others
did, with each seat's totals.
"""
from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.engines import bozu
from games.engines.bozu import State
from games.replay import apply_entry, new_state
from games.review.words import poet_name, seat_name

# The effects worth telling (a noble onto a pile is every other turn).
TOLD = (bozu.PILE_TO_CENTRE, bozu.TAKES_CENTRE, bozu.FLIP_AGAIN, bozu.MISS_NEXT_TURN,
        bozu.OTHERS_TO_CENTRE)


def review(options: dict[str, Any], seed: int, actions: list[Any], seat: int) -> dict[str, Any]:
    state = new_state("bozu", options, seed)
    assert isinstance(state, State)
    players = state.players
    lost = [0] * players     # cards of each seat's pile sent to the centre (monks, Semimaru)
    gained = [0] * players   # cards each seat's ladies took from the centre
    again = [0] * players    # extra flips from emperors (and ladies on an empty centre)
    events = []
    for step, entry in enumerate(actions, 1):
        piles_before = state.scores()
        apply_entry(state, entry)
        last = state.last
        if entry[2] == "auto" or not last or last["effect"] not in TOLD:
            continue
        flipper, effect, moved = last["seat"], last["effect"], last["moved"]
        for other, (was, now) in enumerate(zip(piles_before, state.scores(), strict=True)):
            lost[other] += max(0, was - now)
        if effect == bozu.TAKES_CENTRE:
            gained[flipper] += moved
        if last["again"]:
            again[flipper] += 1
        events.append({"step": step, "seat": flipper, "card": last["card"], "effect": effect,
                       "moved": moved, "again": last["again"],
                       "text": _event_text(flipper, seat, last)})
    scores = state.scores()
    return {
        "game": "bozu", "seat": seat, "players": players,
        "events": events,
        "seats": [{"seat": s, "name": seat_name(s, seat), "pile": scores[s], "lost_to_centre": lost[s],
                   "taken_by_ladies": gained[s], "extra_flips": again[s]} for s in range(players)],
        "centre": len(state.centre),
        "summary": {"text": _("Bozu Mekuri is a game of pure luck: the shuffle decided every card, "
                              "and no choice of anyone's changed the result.") + " " + ngettext(
            "You ended with %(pile)s card.", "You ended with %(pile)s cards.", scores[seat])
            % {"pile": scores[seat]}},
        "explanation": _("The story of the game: every monk that sent a pile to the centre, every "
                         "lady that took the centre, and what the emperors and Semimaru did. "
                         "Nothing here is rated: there was nothing to choose."),
    }


def _event_text(flipper: int, me: int, last: dict[str, Any]) -> str:
    words = {"seat": seat_name(flipper, me), "poet": poet_name(last["card"]), "moved": last["moved"]}
    effect = last["effect"]
    if effect == bozu.PILE_TO_CENTRE:
        return ngettext("%(seat)s drew the monk %(poet)s: %(moved)s card of the pile went to the "
                        "centre.", "%(seat)s drew the monk %(poet)s: %(moved)s cards of the pile "
                        "went to the centre.", last["moved"]) % words
    if effect == bozu.TAKES_CENTRE:
        return ngettext("%(seat)s drew the lady %(poet)s and took %(moved)s card from the centre.",
                        "%(seat)s drew the lady %(poet)s and took %(moved)s cards from the centre.",
                        last["moved"]) % words
    if effect == bozu.OTHERS_TO_CENTRE:
        return ngettext("%(seat)s drew Semimaru: the other piles, %(moved)s card, went to the centre.",
                        "%(seat)s drew Semimaru: the other piles, %(moved)s cards, went to the "
                        "centre.", last["moved"]) % words
    if effect == bozu.MISS_NEXT_TURN:
        return _("%(seat)s drew Semimaru: a turn to miss.") % words
    return _("%(seat)s drew the emperor %(poet)s and flipped again.") % words
