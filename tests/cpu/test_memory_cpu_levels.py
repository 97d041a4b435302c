"""The Memory CPU levels as the rules page words them (docs/memory.md, "CPU players"), measured
from behaviour: easy forgets at once and often turns the card next to the one it remembers,
hard almost never forgets. The games are seeded, so every figure here is the same on every run.
"""
import pytest

from games.cpu import memory as memory_cpu
from games.engines import memory
from games.sim import memory as memory_sim
from games.sim.common import game_seeds, play_one


class FreshPairs:
    """A ``play_one`` watch: at the start of each turn, the pairs that became known within the
    last two flips (both cards shown face up before, both face down now), and whether the
    player to move then turns up one of them as a pair during that turn."""

    def __init__(self) -> None:
        self.chances = self.taken = 0
        self.flipped: dict[int, int] = {}  # position -> the flip (1, 2, …) that first showed it
        self.open: tuple[int, set[frozenset[int]]] | None = None  # (turn, fresh pairs)

    def new_game(self) -> None:
        self.flipped = {}
        self.open = None

    def __call__(self, state: memory.State, cpu: memory_cpu.MemoryCpu, action: dict) -> None:
        index = state.grid.index(action["pos"])
        if self.open and self.open[0] != state.turn_number:
            self.open = None  # the turn passed without taking it
        if not state.face_up and self.open is None:
            fresh = self.fresh_pairs(state)
            if fresh:
                self.chances += 1
                self.open = (state.turn_number, fresh)
        elif state.face_up and self.open and frozenset((state.face_up[0], index)) in self.open[1]:
            self.taken += 1
            self.open = None
        self.flipped.setdefault(index, state.moves + 1)

    def fresh_pairs(self, state: memory.State) -> set[frozenset[int]]:
        known = [i for i in state.face_down() if i in self.flipped]
        match = state.options.match
        return {frozenset((a, b)) for a in known for b in known
                if a < b and max(self.flipped[a], self.flipped[b]) >= state.moves - 1
                and memory.cards_match(state.cards[a], state.cards[b], match)}


def fresh_pair_share(level: str, games: int, seed: int) -> tuple[int, float]:
    """Through make_cpu / observe / choose (the room's way in), both seats at ``level``."""
    opts = memory.parse_options({})
    watch = FreshPairs()
    for game_seed in game_seeds(seed, games):
        watch.new_game()
        _, finished = play_one(memory, memory_cpu, opts, game_seed, [level], watch=watch)
        assert finished
    return watch.chances, watch.taken / watch.chances


def test_easy_takes_a_pair_it_just_saw_at_most_half_the_time_and_hard_nearly_always():
    chances, easy = fresh_pair_share("easy", 40, seed=41)
    assert chances >= 500 and easy <= 0.5
    chances, hard = fresh_pair_share("hard", 150, seed=41)
    assert chances >= 300 and hard >= 0.85
    chances, medium = fresh_pair_share("medium", 60, seed=41)
    assert chances >= 300 and easy < medium <= hard


def test_easy_forgets_at_once_and_often_slips_to_a_neighbour():
    easy = memory_sim.measure_level("easy", games=30, seed=41)
    assert easy["retention"][1] <= 0.6 and easy["retention"][3] <= 0.25
    assert easy["aims"] >= 1000 and easy["slip"] >= 0.3


@pytest.mark.parametrize("level, at_least", [("medium", {1: 0.95, 5: 0.75, 10: 0.6, 20: 0.4}),
                                             ("hard", {1: 0.99, 5: 0.97, 10: 0.95, 20: 0.9})])
def test_medium_remembers_for_a_while_and_hard_almost_never_forgets(level, at_least):
    measured = memory_sim.measure_level(level, games=30, seed=41)
    assert measured["slip"] == 0.0
    for turns, share in at_least.items():
        assert measured["retention"][turns] >= share, (turns, measured["retention"])
    assert measured["retention"][20] < 1.0  # it does forget, now and then
