"""The games the site offers, as the pages list them: names, menus (options with their defaults,
CPU levels, modes). The menu posts exactly these option keys to ``POST /api/rooms``; the engines
validate them again, so a wrong entry here is a visible error, never a silent change of rules.
"""
from django.utils.translation import gettext_lazy as _


def choice(value, label):
    return {"value": value, "label": label}


def select(key, label, choices, default, help_text=""):
    # The value type tells the page script whether to send 52 or "52".
    return {"key": key, "label": label, "kind": "select", "choices": choices, "default": default,
            "type": "int" if isinstance(default, int) else "str", "help": help_text}


def checkbox(key, label, default=False, help_text=""):
    return {"key": key, "label": label, "kind": "checkbox", "default": default, "type": "bool",
            "help": help_text}


def number(key, label, default, minimum, maximum, step=1, help_text=""):
    return {"key": key, "label": label, "kind": "number", "default": default, "type": "int",
            "min": minimum, "max": maximum, "step": step, "help": help_text}


MODE_LABELS = {
    "cpu": _("Play vs CPU"),
    "local": _("This device"),
    "solo": _("Solo"),
    "friends": _("With friends"),
}
MODE_HELP = {
    "cpu": _("You are Red; the CPU plays every other seat."),
    "local": _("Everybody takes turns on this screen."),
    "solo": _("One player: as few failed flips as you can."),
    "friends": _("Get a link to send; friends who open it take the free seats."),
}

GAMES = [
    {
        "slug": "memory",
        "name": _("Memory"),
        "tagline": _("Concentration: turn two cards, find the pairs, remember every flip."),
        "description": _("Known as Concentration, Pelmanism and shinkei-suijaku. Turn two cards; "
                         "a pair is yours and you go again. Watch every flip, yours and theirs."),
        "players": {"min": 2, "max": 6, "default": 2},  # solo is its own mode
        "options": [
            select("deck", _("Deck"), [choice("playing_cards", _("Playing cards")),
                                       choice("pictures", _("Pictures"))], "playing_cards",
                   _("Pictures: pairs of the same picture, 24, 40 or 52 cards, no jokers.")),
            select("cards", _("Cards"), [choice(52, _("52 cards (A–K)")),
                                          choice(40, _("40 cards (A–10)")),
                                          choice(24, _("24 cards (A–6)")),
                                          choice(104, _("Two decks: 104 cards"))], 52,
                   _("With two decks only identical cards (same rank and suit) match.")),
            checkbox("long_table", _("Long table: 4 rows of 13"), False,
                     _("52 cards without jokers in 4 long rows instead of 6 rows of 9.")),
            checkbox("jokers", _("Add 2 jokers"), False,
                     _("The jokers match only each other and count as two pairs.")),
            select("match", _("Match condition"), [
                choice("rank", _("Same rank")),
                choice("colour", _("Same rank and colour")),
                choice("zebra", _("Zebra: same rank, opposite colour")),
            ], "rank"),
            checkbox("one_flip", _("One flip per turn"), False,
                     _("A match gives no extra turn.")),
        ],
        "cpu_levels": [choice("easy", _("Easy")), choice("medium", _("Medium")),
                       choice("hard", _("Hard"))],
        "cpu_default": "medium",
        "modes": ["cpu", "local", "solo", "friends"],
    },
    {
        "slug": "bozu",
        "name": _("Bozu Mekuri"),
        "tagline": _("The monk-flip game with Hyakunin Isshu cards: nobles, ladies and monks."),
        "description": _("Flip the top card of the Hyakunin Isshu deck: a noble joins your pile, "
                         "a monk sends your pile to the centre, a lady takes the centre home."),
        "players": {"min": 2, "max": 4, "default": 4},
        "options": [
            select("semimaru", _("When Semimaru is flipped"), [
                choice("monk", _("He is a monk")),
                choice("noble", _("He is a noble")),
                choice("skip", _("Keep him and miss your next turn")),
                choice("others_to_centre", _("Keep him; every other pile goes to the centre")),
            ], "monk"),
            select("emperor", _("When an emperor is flipped"), [
                choice("noble", _("He is a noble")),
                choice("again", _("Keep him and flip another card")),
            ], "noble"),
            checkbox("lady_empty_again", _("A lady on an empty centre: flip another card"), False),
        ],
        "cpu_levels": [choice("easy", _("Easy")), choice("medium", _("Medium")),
                       choice("hard", _("Hard"))],
        "cpu_default": "medium",
        "modes": ["cpu", "local", "friends"],
    },
    {
        "slug": "gin",
        "name": _("Gin Rummy"),
        "tagline": _("Meld runs and sets, knock with ten or less, race to 100."),
        "description": _("Two players, ten cards each. Draw, discard, build runs and sets, and "
                         "knock when your deadwood is ten or less. First to 100 wins."),
        "players": {"min": 2, "max": 2, "default": 2},
        "options": [
            number("target", _("Points to win"), 100, 1, 1000, 1,
                   _("The game is a race to this many points.")),
        ],
        "cpu_levels": [choice("easy", _("Easy")), choice("normal", _("Normal")),
                       choice("hard", _("Hard"))],
        "cpu_default": "normal",
        "modes": ["cpu", "friends"],
    },
]

GAMES_BY_SLUG = {game["slug"]: game for game in GAMES}

