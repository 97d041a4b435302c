"""docs/protocol.md is what a stranger writes a client from, so it must not drift from the code:
every `json` block on it parses, every action example is one the engine of its game section
accepts in a real game, and every key of a view example is a key that game's views have."""
import importlib
import json
import random
import re

from tests.live import PROJECT

PAGE = (PROJECT / "docs" / "protocol.md").read_text(encoding="utf-8")
GAME_HEADING = re.compile(r"^### .*\(`(memory|bozu|gin)`\)$", re.MULTILINE)
JSON_BLOCK = re.compile(r"^ *```json\n(.*?)^ *```$", re.MULTILINE | re.DOTALL)
# Games the examples are looked for in: played by the site's own CPUs, from fixed seeds, so a
# knock or a flip at a given place comes up the same way every run.
GAMES_TO_SEARCH = 40


def json_blocks(text: str) -> list:
    return [json.loads(block) for block in JSON_BLOCK.findall(text)]


def game_sections() -> dict[str, list]:
    """game -> the JSON examples of its section (up to the next heading of its level or above)."""
    sections = {}
    for match in GAME_HEADING.finditer(PAGE):
        rest = PAGE[match.end():]
        end = re.search(r"^##? |^### ", rest, re.MULTILINE)
        sections[match.group(1)] = json_blocks(rest[:end.start()] if end else rest)
    return sections


def states_of_played_games(game: str):
    """Every state of GAMES_TO_SEARCH games of ``game`` at its default options, played by CPUs."""
    engine = importlib.import_module(f"games.engines.{game}")
    cpu = importlib.import_module(f"games.cpu.{game}")
    options = engine.parse_options({}).to_json()
    level = "normal" if game == "gin" else "medium"
    for seed in range(GAMES_TO_SEARCH):
        state = engine.new_game(engine.parse_options(options), seed)
        players = [cpu.make_cpu(level, seat, seed, options) for seat in range(state.players)]
        while not state.is_over:
            yield state
            if state.pending_automatic():
                state.apply_automatic()
                continue
            seat = state.current_player
            for player_seat, player in enumerate(players):
                player.observe(state.view(player_seat))
            state.apply(seat, players[seat].choose(state.view(seat)))


def test_it_has_only_valid_json_blocks():
    blocks = JSON_BLOCK.findall(PAGE)
    assert len(blocks) >= 15  # the page has its examples (the pattern finds them)
    for block in blocks:
        json.loads(block)  # raises, naming the place, on "…" or a cut-short object


def test_it_has_a_section_with_actions_and_a_view_for_every_game():
    sections = game_sections()
    assert set(sections) == {"memory", "bozu", "gin"}
    for game, examples in sections.items():
        assert any(e.get("type") == "action" for e in examples), game
        assert any(e.get("game") == game for e in examples), game


def test_it_shows_only_actions_the_engine_accepts():
    for game, examples in game_sections().items():
        wanted = [e["action"] for e in examples if e.get("type") == "action"]
        engine = importlib.import_module(f"games.engines.{game}")
        missing = list(wanted)
        for state in states_of_played_games(game):
            for seat in range(state.players):
                for action in [a for a in missing if a in state.legal_actions(seat)]:
                    # Legal is not enough: applying it must work too (on a copy).
                    engine.State.from_json(state.to_json()).apply(seat, action)
                    missing.remove(action)
            if not missing:
                break
        assert not missing, f"{game}: no state of {GAMES_TO_SEARCH} games accepts {missing}"


def test_it_names_only_keys_the_views_have():
    for game, examples in game_sections().items():
        engine = importlib.import_module(f"games.engines.{game}")
        state = engine.new_game(engine.parse_options({}), random.Random(game).getrandbits(32))
        keys = set(state.view(0)) | set(state.view(None))
        for view in [e for e in examples if e.get("game") == game]:
            assert set(view) <= keys, f"{game}: {sorted(set(view) - keys)} are in no view"
