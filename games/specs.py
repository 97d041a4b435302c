"""One :class:`GameSpec` per game: everything the site says about a game outside its rules.

A game is its engine module, its CPU module and its spec; every other place that names the games
(rooms, menus, pages, the client's JSON, statistics, model choices, simulators, the bot) reads
them from here, so adding a game touches no other file: docs/architecture.md ("Packages") and
docs/engines.md ("Adding a game"). ``register(spec)`` adds a game; the settings' ``EXTRA_GAMES``
names more specs (dotted paths) registered at start-up, as the tests' toy game is.
tests/e2e/test_it_agrees_with_the_game_specs.py checks that every place agrees.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from types import ModuleType
from typing import Any, TypeAlias

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

MODES = ("cpu", "local", "solo", "friends")
Label: TypeAlias = "str | Promise"  # a string marked for translation


@dataclass(frozen=True)
class Choice:
    value: Any
    label: Label
    # This choice cannot be picked while another option has one of these values (key, value).
    off_when: tuple[tuple[str, Any], ...] = ()


@dataclass(frozen=True)
class Option:
    """One menu option, the engine's key, with its default and the values the engine accepts.

    ``kind``: "select" (one of ``choices``), "checkbox" (true or false) or "number" (a whole
    number from ``minimum`` to ``maximum``). ``implied``: values the engine sets by itself but
    the menu never offers (Memory's "identical" match with two decks); statistics accept them.
    ``off_when``: (key, value) pairs of other options; while one holds, the menu disables this
    option and does not send it (the engine then implies its value)."""

    key: str
    label: Label
    kind: str
    default: Any
    choices: tuple[Choice, ...] = ()
    minimum: int = 0
    maximum: int = 0
    step: int = 1
    help: Label = ""
    implied: tuple[Any, ...] = ()
    off_when: tuple[tuple[str, Any], ...] = ()

    @property
    def type(self) -> str:
        """What the page script sends: "int" (52), "str" ("rank") or "bool"."""
        if self.kind == "checkbox":
            return "bool"
        return "int" if isinstance(self.default, int) else "str"

    @property
    def values(self) -> tuple[Any, ...]:
        """Every value the engine's canonical options may hold for this key (not for "number")."""
        if self.kind == "checkbox":
            return (True, False)
        return tuple(c.value for c in self.choices) + self.implied


def select(key, label, choices, default, help_text="", implied=(), off_when=()) -> Option:
    return Option(key, label, "select", default, tuple(choices), help=help_text, implied=tuple(implied),
                  off_when=tuple(off_when))


def checkbox(key, label, default=False, help_text="", off_when=()) -> Option:
    return Option(key, label, "checkbox", default, help=help_text, off_when=tuple(off_when))


def number(key, label, default, minimum, maximum, step=1, help_text="") -> Option:
    return Option(key, label, "number", default, minimum=minimum, maximum=maximum, step=step,
                  help=help_text)


@dataclass(frozen=True)
class Players:
    minimum: int
    maximum: int
    default: int


@dataclass(frozen=True)
class Paces:
    """A game's seconds per turn at each pace with a clock (games/rooms/pace.py; a ``relaxed``
    room has none), before ``PACE_SCALE``, and how many actions make one whole turn: what the
    CPU plays for a seat whose time ran out (Gin: the upcard decision or the draw, then the
    discard; Memory: both flips; Bozu: the flip)."""

    normal: float = 30.0
    quick: float = 10.0
    actions_per_turn: int = 1

    def seconds(self, pace: str) -> float:
        return self.quick if pace == "quick" else self.normal


@dataclass(frozen=True)
class Delays:
    """A game's waits in seconds, before the settings' ``GAME_DELAYS`` (overrides from the
    environment, config/settings.py) and as games/rooms/registry.py reads them: ``cpu``, a CPU
    seat's before each of its actions; ``steps``, before each of the engine's automatic steps by
    name, ``None`` for a step that never happens by itself (a seat sends it as an action: Gin's
    next hand). A step not named waits ``DEFAULT_STEP``."""

    cpu: float = 1.0
    steps: tuple[tuple[str, float | None], ...] = ()

    DEFAULT_STEP = 1.0

    def step(self, name: str) -> float | None:
        return dict(self.steps).get(name, self.DEFAULT_STEP)


@dataclass(frozen=True)
class Session:
    """What a room of the game keeps over "Play again" (games/rooms/sessions.py), summed from
    each finished game's ``session_tally()`` (the engine contract's optional hook,
    games/engines/base.py): games won, and per seat a running total of points, ranked highest
    first, a tie broken by the points each tied seat won against the others of the tie. ``total``
    names that running total where the session is stored and sent (Memory: "pairs")."""

    total: str


@dataclass(frozen=True)
class GameSpec:
    name: str  # the slug: URLs, room rows, statistics
    title: Label
    tagline: Label
    description: Label
    engine: str  # the engine module's dotted path
    cpu: str  # the CPU module's dotted path
    players: Players  # in a room with others; the solo mode plays alone
    options: tuple[Option, ...]
    cpu_levels: tuple[Choice, ...]
    cpu_default: str
    modes: tuple[str, ...]
    delays: Delays = Delays()
    rules_page: bool = True  # templates/games/rules/<name>.html exists
    # What a room keeps over "Play again", or None: no session.
    session: Session | None = None
    paces: Paces = Paces()

    def __post_init__(self):
        assert set(self.modes) <= set(MODES), self.modes
        assert self.cpu_default in self.level_names, self.cpu_default
        keys = [o.key for o in self.options]
        assert len(set(keys)) == len(keys) and "players" not in keys, keys
        for option in self.options:
            for key, _value in option.off_when + tuple(w for c in option.choices for w in c.off_when):
                assert key in keys, f"{option.key} is ruled out by an unknown option {key!r}"

    @property
    def level_names(self) -> tuple[str, ...]:
        return tuple(level.value for level in self.cpu_levels)

    @property
    def fewest_players(self) -> int:
        """The fewest seats a room of this game may have, the solo mode's one included."""
        return 1 if "solo" in self.modes else self.players.minimum

    def engine_module(self) -> ModuleType:
        return importlib.import_module(self.engine)

    def cpu_module(self) -> ModuleType:
        return importlib.import_module(self.cpu)


_GAMES: dict[str, GameSpec] = {}


def register(spec: GameSpec) -> GameSpec:
    """Adds a game (or replaces the one of the same name) and returns its GameSpec."""
    _GAMES[spec.name] = spec
    return spec


def unregister(name: str) -> None:
    _GAMES.pop(name, None)


def all_specs() -> tuple[GameSpec, ...]:
    return tuple(_GAMES.values())


def names() -> tuple[str, ...]:
    return tuple(_GAMES)


def get(name: str) -> GameSpec | None:
    return _GAMES.get(name)


def modes() -> tuple[str, ...]:
    """The modes at least one game offers, in the order of MODES."""
    return tuple(m for m in MODES if any(m in spec.modes for spec in _GAMES.values()))


def load_extra_games(paths) -> None:
    """Registers each GameSpec named by its dotted path (settings.EXTRA_GAMES)."""
    for path in paths:
        module_name, _dot, attribute = path.rpartition(".")
        register(getattr(importlib.import_module(module_name), attribute))


def choices() -> list[tuple[str, Label]]:
    """Django field choices: a callable, so that adding a game needs no migration."""
    return [(spec.name, spec.title) for spec in _GAMES.values()]


def level_labels() -> dict[str, Label]:
    """Every CPU level of every game, with its label, easiest first (by the place each level
    has in its game's list, so Gin's "normal" comes between "medium" and "hard")."""
    places: dict[str, tuple[int, Label]] = {}
    for spec in _GAMES.values():
        for place, level in enumerate(spec.cpu_levels):
            places.setdefault(level.value, (place, level.label))
    return {value: label for value, (_place, label) in sorted(places.items(), key=lambda item: item[1][0])}


def client_data() -> dict:
    """What the menu and room scripts know of each game (strings in the request's language)."""
    def option(o: Option) -> dict:
        data = {"key": o.key, "kind": o.kind, "type": o.type, "default": o.default,
                "off_when": [list(w) for w in o.off_when]}
        if o.kind == "select":
            data["choices"] = [{"value": c.value, "off_when": [list(w) for w in c.off_when]}
                               for c in o.choices]
        if o.kind == "number":
            data.update(min=o.minimum, max=o.maximum)
        return data

    return {spec.name: {"title": str(spec.title),
                        "players": {"min": spec.players.minimum, "max": spec.players.maximum,
                                    "default": spec.players.default},
                        "options": [option(o) for o in spec.options],
                        "cpu_levels": list(spec.level_names), "cpu_default": spec.cpu_default,
                        "modes": list(spec.modes)}
            for spec in _GAMES.values()}


EASY_MEDIUM_HARD = (Choice("easy", _("Easy")), Choice("medium", _("Medium")), Choice("hard", _("Hard")))

register(GameSpec(
    name="memory",
    title=_("Memory"),
    tagline=_("Concentration: turn two cards, find the pairs, remember every flip."),
    description=_("Known as Concentration, Pelmanism and shinkei-suijaku. Turn two cards; "
                  "a pair is yours and you go again. Watch every flip, yours and theirs."),
    engine="games.engines.memory",
    cpu="games.cpu.memory",
    players=Players(2, 6, 2),
    # Two decks and pictures are played with the "identical" rule, which the engine implies (the
    # match condition is left out); pictures have no jokers and no 104-card deck; the long
    # table holds 52 cards without jokers.
    options=(
        select("deck", _("Deck"), [Choice("playing_cards", _("Playing cards")),
                                   Choice("pictures", _("Pictures"))], "playing_cards",
               _("Pictures: pairs of the same picture, 24, 40 or 52 cards, no jokers.")),
        select("cards", _("Cards"), [Choice(52, _("52 cards (A–K)")),
                                     Choice(40, _("40 cards (A–10)")),
                                     Choice(24, _("24 cards (A–6)")),
                                     Choice(104, _("Two decks: 104 cards"), off_when=(("deck", "pictures"),))],
               52, _("With two decks only identical cards (same rank and suit) match.")),
        checkbox("long_table", _("Long table: 4 rows of 13"), False,
                 _("52 cards without jokers in 4 long rows instead of 6 rows of 9."),
                 off_when=[("cards", 40), ("cards", 24), ("cards", 104), ("jokers", True)]),
        checkbox("jokers", _("Add 2 jokers"), False,
                 _("The jokers match only each other and count as two pairs."),
                 off_when=[("deck", "pictures")]),
        select("match", _("Match condition"), [
            Choice("rank", _("Same rank")),
            Choice("colour", _("Same rank and colour")),
            Choice("zebra", _("Zebra: same rank, opposite colour")),
        ], "rank", implied=("identical",), off_when=[("cards", 104), ("deck", "pictures")]),
        checkbox("one_flip", _("One flip per turn"), False, _("A match gives no extra turn.")),
        checkbox("tie_break", _("Tie-break round"), False,
                 _("A tie for first is played off on 8 cards from the tied players' piles.")),
    ),
    cpu_levels=EASY_MEDIUM_HARD,
    cpu_default="medium",
    modes=("cpu", "local", "solo", "friends"),
    # A mismatch stays face up 1.5 s before the server turns it back.
    delays=Delays(cpu=1.0, steps=(("conceal", 1.5),)),
    session=Session(total="pairs"),
    paces=Paces(normal=30, quick=10, actions_per_turn=2),
))

register(GameSpec(
    name="bozu",
    title=_("Bozu Mekuri"),
    tagline=_("The monk-flip game with Hyakunin Isshu cards: nobles, ladies and monks."),
    description=_("Flip the top card of the Hyakunin Isshu deck: a noble joins your pile, "
                  "a monk sends your pile to the centre, a lady takes the centre home."),
    engine="games.engines.bozu",
    cpu="games.cpu.bozu",
    players=Players(2, 4, 4),
    options=(
        select("semimaru", _("When Semimaru is flipped"), [
            Choice("monk", _("He is a monk")),
            Choice("noble", _("He is a noble")),
            Choice("skip", _("Keep him and miss your next turn")),
            Choice("others_to_centre", _("Keep him; every other pile goes to the centre")),
        ], "monk"),
        select("emperor", _("When an emperor is flipped"), [
            Choice("noble", _("He is a noble")),
            Choice("again", _("Keep him and flip another card")),
        ], "noble"),
        checkbox("lady_empty_again", _("A lady on an empty centre: flip another card"), False),
    ),
    cpu_levels=EASY_MEDIUM_HARD,
    cpu_default="medium",
    modes=("cpu", "local", "friends"),
    delays=Delays(cpu=1.0),
    paces=Paces(normal=15, quick=5, actions_per_turn=1),
))

register(GameSpec(
    name="gin",
    title=_("Gin Rummy"),
    tagline=_("Meld runs and sets, knock with ten or less, race to 100."),
    description=_("Two players, ten cards each. Draw, discard, build runs and sets, and "
                  "knock when your deadwood is ten or less. First to 100 wins."),
    engine="games.engines.gin",
    cpu="games.cpu.gin",
    players=Players(2, 2, 2),
    options=(
        number("target", _("Points to win"), 100, 1, 1000, 1,
               _("The game is a race to this many points.")),
    ),
    # The middle level is "normal" on the wire (rooms, records, the bot) and "Medium" to people,
    # as in the other games.
    cpu_levels=(Choice("easy", _("Easy")), Choice("normal", _("Medium")), Choice("hard", _("Hard"))),
    cpu_default="normal",
    modes=("cpu", "friends"),
    # A hand's result stays until a player sends next_hand (the CPU waits for its opponent).
    delays=Delays(cpu=0.45, steps=(("next_hand", None),)),
    paces=Paces(normal=60, quick=20, actions_per_turn=2),
))
