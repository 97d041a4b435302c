"""The Bozu Mekuri rules page's own parts: the 100 poets by type, and what a large simulation of
the game says (games/data/bozu_simulation.json, the stored output of the command it names)."""
import json
from functools import cache
from pathlib import Path

from django.utils.formats import number_format
from django.utils.translation import gettext_lazy as _

from games.engines.base import SEAT_COLOURS
from games.engines.bozu_cards import CARDS, EMPEROR, LADY, MONK, NOBLE, SEMIMARU

SIMULATION_FILE = Path(__file__).resolve().parent / "data" / "bozu_simulation.json"
# bench/bozu_options.py's output: what the rule options do to the seats' chances (the tips).
OPTIONS_FILE = Path(__file__).resolve().parent / "data" / "bozu_options.json"

# Page order; emperors are nobles unless an option says otherwise, so they stand with the nobles.
GROUPS = (
    ("nobles", _("Nobles"), (NOBLE, EMPEROR)),
    ("ladies", _("Ladies"), (LADY,)),
    ("monks", _("Monks"), (MONK,)),
    ("semimaru", _("Semimaru"), (SEMIMARU,)),
)

SEAT_NAMES = {"red": _("Red"), "green": _("Green"), "yellow": _("Yellow"), "blue": _("Blue"),
              "purple": _("Purple"), "orange": _("Orange")}


def poet_groups() -> list[dict]:
    groups = []
    for key, label, types in GROUPS:
        poets = [{"poem": card.poem, "romaji": card.poet, "ja": card.poet_ja,
                  "emperor": card.type == EMPEROR}
                 for card in CARDS if card is not None and card.type in types]  # CARDS[0]: no card
        groups.append({"key": key, "label": label, "poets": poets})
    return groups


@cache
def stored_simulation() -> dict:
    """The stored run: {"command": ..., "output": the command's JSON line}."""
    data = json.loads(SIMULATION_FILE.read_text(encoding="utf-8"))
    output = data["output"]
    if output["game"] != "bozu" or len(output["wins"]) != output["players"]:
        raise ValueError(f"{SIMULATION_FILE} does not hold a Bozu Mekuri simulation summary.")
    return data


def simulation() -> dict:
    data = stored_simulation()
    output = data["output"]
    games = output["games"]
    seats = [{"number": seat + 1, "colour": SEAT_NAMES[SEAT_COLOURS[seat]], "wins": wins,
              "share": 100 * wins / games, "mean_pile": mean}
             for seat, (wins, mean) in enumerate(zip(output["wins"], output["mean_score"], strict=True))]
    shares = [seat["share"] for seat in seats]
    return {"command": data["command"], "games": games, "players": output["players"],
            # Grouped the page's way (200,000 / 200.000 / 200 000) whatever the settings say.
            "games_text": number_format(games, force_grouping=True),
            "seats": seats, "share_min": min(shares), "share_max": max(shares), "draws": output["draws"],
            "draw_share": 100 * output["draws"] / games,
            "mean_winner_pile": output["mean_winner_score"], "mean_centre": output["mean_centre"]}


@cache
def stored_option_effects() -> dict:
    """The stored run of bench/bozu_options.py: {"command": ..., "output": [one entry per rules]}."""
    return json.loads(OPTIONS_FILE.read_text(encoding="utf-8"))


def options_tip() -> dict:
    """The figures the options tip quotes: the seats' range of shares with each option, and the
    Semimaru flipper's share when he is a monk and when he sends the other piles away."""
    runs = stored_option_effects()["output"]

    def run(options: dict) -> dict:
        return next(entry for entry in runs if entry["options"] == options)

    emperor, lady = run({"emperor": "again"})["shares"], run({"lady_empty_again": True})["shares"]
    return {"games_text": number_format(runs[0]["games"], force_grouping=True),
            "emperor_low": min(emperor), "emperor_high": max(emperor),
            "lady_low": min(lady), "lady_high": max(lady),
            "monk_flipper": run({})["semimaru_flipper_share"],
            "others_flipper": run({"semimaru": "others_to_centre"})["semimaru_flipper_share"]}
