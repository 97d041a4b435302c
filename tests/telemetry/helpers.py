"""Valid events of every type, for the telemetry tests."""
import uuid

PAGE = "0b6c5a4e-8f1d-4c3b-9a2e-7d6f5e4c3b2a"

SETTINGS = {
    "memory": {"players": 2, "cards": 52, "jokers": False, "match": "rank"},
    "bozu": {"players": 4, "semimaru": "monk", "emperor": "noble", "lady_empty_again": False},
    "gin": {"players": 2, "target": 100},
}

EXAMPLES = {
    "page_view": {},
    "game_start": {"game": "memory", "mode": "cpu", "cpu_level": "hard", "settings": SETTINGS["memory"]},
    "game_end": {"game": "memory", "mode": "cpu", "cpu_level": "hard", "settings": SETTINGS["memory"],
                 "result": "win", "move_count": 57, "duration": "3-10m"},
    "room_created": {"game": "bozu", "origin": "menu", "outcome": "ok"},
    "room_step": {"game": "bozu", "step": "connect", "outcome": "ok"},
    "room_session": {"game": "bozu", "reconnections": 2},
    "view3d_failed": {"reason": "unsupported"},
    "view3d_first_frame": {"ttff": "1-2s", "game": "memory"},
    "view3d_left_early": {"ttff": "2-4s", "how": "hidden"},
    "view3d_speed": {"fps": "55+"},
    "load_failure": {"failure": "websocket"},
}

CONTEXT = {"device": "desktop", "memory": "8+", "cores": "3-4", "net": "4g", "cache": "part"}


def event(kind="game_end", page=PAGE, **fields):
    return {"type": kind, "page": page, **CONTEXT, **EXAMPLES[kind], **fields}


def new_page():
    return str(uuid.uuid4())
