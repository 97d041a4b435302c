"""The Memory CPU plays a tie-break round (games/cpu/memory.py): a new 2×4 table from its views.

Ties are common with 24 cards and three players, so a few seeds give rounds for every level.
"""
from games.cpu import memory as memory_cpu
from games.engines import memory


def test_it_plays_tie_break_rounds_to_the_end_at_every_level():
    rounds = 0
    for level in memory_cpu.LEVELS:
        for seed in range(40):
            options = {"players": 3, "cards": 24, "tie_break": True}
            state = memory.new_game(options, seed)
            cpus = [memory_cpu.make_cpu(level, s, seed * 7 + s, options) for s in range(3)]
            for _ in range(3000):
                if state.is_over:
                    break
                for seat, cpu in enumerate(cpus):
                    cpu.observe(state.view(seat))
                if state.pending_automatic():
                    state.apply_automatic()
                    continue
                seat = state.current_player
                # Through JSON, as a room keeps it: the round it is on survives.
                cpus[seat] = memory_cpu.cpu_from_json(cpus[seat].to_json())
                if state.in_tie_break:
                    assert cpus[seat].grid.rows == 2 and cpus[seat].round == state.tie_break.round
                state.apply(seat, cpus[seat].choose(state.view(seat)))
            assert state.is_over, (level, seed)
            rounds += "tie_break" in state.result()
    assert rounds >= 4  # the test saw rounds played, not only games without a tie
