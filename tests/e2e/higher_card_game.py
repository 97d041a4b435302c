"""The toy game's GameSpec, registered by tests/e2e/test_it_adds_a_game.py in its own process
and, through the EXTRA_GAMES setting, in its live servers. This module, the engine
(higher_card.py) and the CPU (higher_card_cpu.py) are all it takes to add a game."""
from games.specs import Choice, GameSpec, Players, Session, select

HIGHER_CARD = GameSpec(
    name="higher_card",
    title="Higher card",
    tagline="One card each: the higher one wins.",
    description="Both players are dealt a card face down and show it in turn.",
    engine="tests.e2e.higher_card",
    cpu="tests.e2e.higher_card_cpu",
    players=Players(2, 2, 2),
    options=(select("highest", "Highest card", [Choice(10, "Ten"), Choice(5, "Five")], 10),),
    cpu_levels=(Choice("only", "The only level"),),
    cpu_default="only",
    modes=("cpu", "friends"),
    rules_page=False,
    session=Session(total="points"),
)
