"""The one definition of what an anonymous statistics event may hold.

Every field has a type and its allowed values (or bucket edges). The browser buckets raw
measurements with the same edges (they are handed to the page by the ``telemetry_config``
template tag), so the server only ever sees bucket labels (``move_count`` from pages older than
its bucketing still arrives as a number: the server buckets it the same way and stores only the
label). Validation is strict: an unknown
field, a field that is never sent, a wrong type or a value outside its set rejects the whole
request. docs/telemetry.md describes the same schema for people;
tests/telemetry/test_telemetry_schema.py checks every value.
"""
from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _

from games import specs
from games.ranges import GAME_RANGES, Buckets

MAX_EVENTS = 50


class SchemaError(ValueError):
    """A request that does not match the schema; the message says why, for the HTTP 400."""


BUCKETS = {
    # navigator.deviceMemory (GiB; Chrome reports 0.25 … 8 in powers of two).
    "memory": Buckets("GiB", (1, 2, 4, 8), ("<1", "1-2", "2-4", "4-8", "8+")),
    # navigator.hardwareConcurrency.
    "cores": Buckets("cores", (2, 3, 5, 9, 17), ("1", "2", "3-4", "5-8", "9-16", "17+")),
    # A finished game's moves and duration: the ranges the operators' copy keeps too.
    "move_count": GAME_RANGES["move_count"],
    "duration": GAME_RANGES["duration"],
    # Page open (navigationStart) to the first 3D frame, or to leaving before it.
    "ttff": Buckets("ms", (500, 1000, 2000, 4000, 8000, 15000),
                    ("<0.5s", "0.5-1s", "1-2s", "2-4s", "4-8s", "8-15s", "15s+")),
    # Frames per second of the 3D table, measured over a few seconds of animation.
    "fps": Buckets("fps", (15, 30, 45, 55), ("<15", "15-30", "30-45", "45-55", "55+")),
}


@dataclass(frozen=True)
class Field:
    name: str
    kind: str  # "enum" | "bucket" | "int" | "uuid" | "settings" | "counted"
    values: Sequence = ()  # a tuple, or the games named by the specs (_FromSpecs)
    minimum: int = 0
    maximum: int = 0
    doc: str = ""

    def clean(self, value, where: str):
        """The value to store: ``value`` checked, and a "counted" number turned into its label."""
        if self.kind == "counted":
            if isinstance(value, int) and not isinstance(value, bool):
                Field(self.name, "int", minimum=self.minimum, maximum=self.maximum).check(value, where)
                return BUCKETS[self.name].label(value)
            if not isinstance(value, str):
                raise SchemaError(f"{where}{self.name} must be a bucket label or a whole number, "
                                  f"got {_json_type(value)}.")
            Field(self.name, "bucket", self.values).check(value, where)
            return value
        self.check(value, where)
        return value

    def check(self, value, where: str):
        if self.kind in ("enum", "bucket"):
            if not isinstance(value, str):
                raise SchemaError(f"{where}{self.name} must be a string, got {_json_type(value)}.")
            if value not in self.values:
                raise SchemaError(f"{where}{self.name} must be one of {', '.join(self.values)}; "
                                  f"got {_short(value)}.")
        elif self.kind == "int":
            if isinstance(value, bool) or not isinstance(value, int):
                raise SchemaError(f"{where}{self.name} must be a whole number, got {_json_type(value)}.")
            if not self.minimum <= value <= self.maximum:
                raise SchemaError(f"{where}{self.name} must be from {self.minimum} to {self.maximum}; "
                                  f"got {value}.")
        elif self.kind == "uuid":
            if not isinstance(value, str) or not UUID4.fullmatch(value):
                raise SchemaError(f"{where}{self.name} must be a lowercase UUID version 4 "
                                  "(crypto.randomUUID()).")
        else:  # pragma: no cover - the table below only uses the kinds above
            raise AssertionError(self.kind)


def enum(name, values, doc=""):
    return Field(name, "enum", values if isinstance(values, _FromSpecs) else tuple(values), doc=doc)


def bucket(name, doc=""):
    return Field(name, "bucket", BUCKETS[name].values, doc=doc)


def counted(name, minimum, maximum, doc=""):
    """A bucket whose raw count (minimum..maximum) is also accepted and bucketed here."""
    return Field(name, "counted", BUCKETS[name].values, minimum, maximum, doc=doc)


UUID4 = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}")



class _FromSpecs(Sequence):
    """A tuple of names read from the game specs (games/specs.py) each time it is used, so that
    a game registered later is a valid value too."""

    def __init__(self, read):
        self._read = read

    def __getitem__(self, index):
        return self._read()[index]

    def __len__(self) -> int:
        return len(self._read())

    def __add__(self, other: tuple) -> tuple:
        return tuple(self) + other

    def __radd__(self, other: tuple) -> tuple:
        return other + tuple(self)


GAMES = _FromSpecs(specs.names)
MODES = _FromSpecs(specs.modes)
CPU_LEVELS = _FromSpecs(lambda: tuple(specs.level_labels()))
# Browser and OS family: derived by the server from the User-Agent header (useragent.py),
# which is then discarded. A client may not send them.
BROWSERS = ("chrome", "edge", "firefox", "safari", "opera", "samsung", "other")
OSES = ("windows", "macos", "ios", "android", "linux", "chromeos", "other")

# Fields every event may carry: the page-open id and what the page knows about the device.
# The page id is checked and then dropped: it is never stored (NOT_STORED).
CONTEXT = {f.name: f for f in (
    Field("page", "uuid", doc=_("made by crypto.randomUUID() at every page open, kept in memory only")),
    enum("device", ("mobile", "desktop", "unknown"), _("navigator.userAgentData.mobile, or a coarse pointer")),
    bucket("memory", "navigator.deviceMemory"),
    bucket("cores", "navigator.hardwareConcurrency"),
    enum("net", ("slow-2g", "2g", "3g", "4g", "unknown"), "navigator.connection.effectiveType"),
    enum("cache", ("all", "part", "none", "unknown"),
         _("how many of the page's scripts and styles came from the browser cache (resource timing)")),
)}

GAME = enum("game", GAMES)
MODE = enum("mode", MODES)
CPU_LEVEL = enum("cpu_level", CPU_LEVELS, _("the level of the CPU seats, when there are any"))
SETTINGS_FIELD = Field("settings", "settings", doc=_("the game's options, see SETTINGS"))

# Every event type with its own fields: (required, optional).
EVENT_TYPES: dict[str, tuple[tuple[Field, ...], tuple[Field, ...]]] = {
    "page_view": ((), ()),
    "game_start": ((GAME, MODE, SETTINGS_FIELD), (CPU_LEVEL,)),
    "game_end": ((GAME, MODE, SETTINGS_FIELD,
                  enum("result", ("win", "loss", "draw", "none"),
                       _("from this page's seat; none for this-device games and spectators")),
                  counted("move_count", 0, 100_000,
                          _("how many moves the game had (a range, never the moves)")),
                  bucket("duration")),
                 (CPU_LEVEL,)),
    "room_created": ((GAME, enum("origin", ("menu", "result", "new_link"),
                                 _("the screen that created the room")),
                      enum("outcome", ("ok", "failed"))), ()),
    "room_step": ((GAME, enum("step", ("connect", "spectate", "join", "take_seat")),
                   enum("outcome", ("ok", "failed"))), ()),
    "room_session": ((GAME, Field("reconnections", "int", minimum=0, maximum=1000,
                                  doc=_("reconnections during this page's stay in the room"))), ()),
    "view3d_failed": ((enum("reason", ("unsupported", "error", "timeout")),), (GAME,)),
    "view3d_first_frame": ((bucket("ttff"),), (GAME,)),
    "view3d_left_early": ((bucket("ttff"), enum("how", ("hidden", "closed"),
                                                 _("tab hidden, or page closed, before the first frame"))),
                          (GAME,)),
    "view3d_speed": ((bucket("fps"),), (GAME,)),
    "load_failure": ((enum("failure", ("script", "style", "api", "websocket", "error")),), (GAME,)),
}



def _settings_fields(spec: specs.GameSpec) -> dict[str, Field]:
    """A game's statistics settings: its players and each option, with the values of its
    spec, the values the engine implies included (the engines' canonical names)."""
    fields = [Field("players", "int", minimum=spec.fewest_players, maximum=spec.players.maximum)]
    for option in spec.options:
        if option.kind == "number":
            fields.append(Field(option.key, "int", minimum=option.minimum, maximum=option.maximum))
        else:
            fields.append(Field(option.key, "enum", option.values))
    return {f.name: f for f in fields}


class _Settings(Mapping):
    """The options of each game (SETTINGS[game] → its fields), from the game specs."""

    def __getitem__(self, game: str) -> dict[str, Field]:
        spec = specs.get(game)
        if spec is None:
            raise KeyError(game)
        return _settings_fields(spec)

    def __iter__(self) -> Iterator[str]:
        return iter(specs.names())

    def __len__(self) -> int:
        return len(specs.names())


SETTINGS: Mapping[str, dict[str, Field]] = _Settings()

# Never sent, never stored (docs/telemetry.md, "What is never sent or stored"). Matched on the
# name with case and punctuation removed, anywhere in an event (settings included), so "roomId",
# "room-id" and "ROOM_ID" all count.
FORBIDDEN = {
    "room": "the room id", "roomid": "the room id", "invite": "the room id",
    "inviteurl": "the room id",
    "seattoken": "seat tokens", "token": "seat tokens", "seat": "seat tokens",
    "moves": "moves", "movelist": "moves", "actions": "moves", "history": "moves",
    "board": "board positions", "positions": "board positions", "cards": "board positions",
    "hand": "board positions", "layout": "board positions",
    "gpu": "the GPU model", "gpumodel": "the GPU model", "renderer": "the GPU model",
    "glrenderer": "the GPU model", "vendor": "the GPU model",
    "url": "the page URL", "pageurl": "the page URL", "href": "the page URL",
    "location": "the page URL", "path": "the page URL", "referrer": "the page URL",
    "referer": "the page URL",
    "ip": "the IP address", "ipaddress": "the IP address", "remoteaddr": "the IP address",
    "clientip": "the IP address", "xforwardedfor": "the IP address",
    "useragent": "the User-Agent (the server derives browser and OS family itself)",
}
# Memory's "cards" setting (deck size) is allowed inside settings; nowhere else.
SETTINGS_ALLOWED = {"cards"}
SERVER_FIELDS = {"browser": BROWSERS, "os": OSES}
# Accepted from the client, then dropped before anything is written: the page-open id. Older
# pages still send it (required, so they keep working); it is never stored (docs/telemetry.md,
# "Unlinkable").
NOT_STORED = {"page"}

# Fields an event may carry (the columns of telemetry.models.Event but NOT_STORED), all of
# them optional but "type".
ALL_FIELDS: dict[str, Field] = dict(CONTEXT)
for _required, _optional in EVENT_TYPES.values():
    for _f in _required + _optional:
        ALL_FIELDS[_f.name] = _f


def _normal(name: str) -> str:
    return re.sub(r"[^a-z0-9]", "", name.lower())


def _json_type(value) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    return "an object"


def _short(value) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "...'"


def _refuse_forbidden(name, where: str, in_settings: bool = False):
    key = _normal(str(name))
    if in_settings and key in SETTINGS_ALLOWED:
        return
    if key in FORBIDDEN:
        raise SchemaError(f"{where}{_short(name)} is never accepted: {FORBIDDEN[key]} is never sent "
                          "(privacy page).")


def _check_settings(game: str, value, where: str) -> dict:
    if not isinstance(value, dict):
        raise SchemaError(f"{where}settings must be an object, got {_json_type(value)}.")
    fields = SETTINGS[game]
    for name, item in value.items():
        _refuse_forbidden(name, where + "settings.", in_settings=True)
        if name not in fields:
            raise SchemaError(f"{where}settings.{_short(name)} is not a {game} setting "
                              f"(allowed: {', '.join(fields)}).")
        spec = fields[name]
        if spec.kind == "enum" and spec.values and not isinstance(spec.values[0], str):
            # Numbers and booleans: compare type too, so true is not 1 and "52" is not 52.
            if not any(type(item) is type(v) and item == v for v in spec.values):
                allowed = ", ".join(str(v).lower() if isinstance(v, bool) else str(v) for v in spec.values)
                raise SchemaError(f"{where}settings.{name} must be one of {allowed}; got {_short(item)}.")
        else:
            spec.check(item, where + "settings.")
    return dict(value)


def validate_event(raw, index: int = 0) -> dict:
    """One event → a clean dict of column values, or SchemaError naming the event and field."""
    where = f"events[{index}]."
    if not isinstance(raw, dict):
        raise SchemaError(f"events[{index}] must be an object, got {_json_type(raw)}.")
    for name in raw:
        _refuse_forbidden(name, where)
        if name in SERVER_FIELDS:
            raise SchemaError(f"{where}{name} is set by the server from the User-Agent; do not send it.")
    kind = raw.get("type")
    if not isinstance(kind, str) or kind not in EVENT_TYPES:
        raise SchemaError(f"{where}type must be one of {', '.join(EVENT_TYPES)}; got {_short(kind)}.")
    required, optional = EVENT_TYPES[kind]
    allowed = {f.name: f for f in required + optional}
    allowed.update(CONTEXT)
    if "page" not in raw:
        raise SchemaError(f"{where}page (the page-open id) is required.")
    for spec in required:
        if spec.name not in raw:
            raise SchemaError(f"{where}{spec.name} is required in a {kind} event.")
    clean: dict = {"type": kind}
    # settings last: checking it needs the game, which must have passed its own check first.
    for name, value in sorted(raw.items(), key=lambda item: item[0] == "settings"):
        if name == "type":
            continue
        if name not in allowed:
            known = name in ALL_FIELDS
            raise SchemaError(f"{where}{_short(name)} is "
                              + (f"not part of a {kind} event." if known else "not a known field."))
        spec = allowed[name]
        if spec.kind == "settings":
            clean[name] = _check_settings(raw["game"], value, where)
        elif name in NOT_STORED:
            spec.check(value, where)
        else:
            clean[name] = spec.clean(value, where)
    return clean


def validate_batch(payload) -> tuple[list[dict], bool]:
    """The request body → (clean events, opt_in). opt_in is true when the visitor turned the
    switch on themselves, which overrides Sec-GPC (docs/telemetry.md, "The switch")."""
    if not isinstance(payload, dict):
        raise SchemaError("The body must be a JSON object {\"events\": [...]}.")
    unknown = set(payload) - {"events", "opt_in"}
    if unknown:
        raise SchemaError(f"Unknown top-level field(s): {', '.join(sorted(map(_short, unknown)))}.")
    opt_in = payload.get("opt_in", False)
    if not isinstance(opt_in, bool):
        raise SchemaError("opt_in must be true or false.")
    events = payload.get("events")
    if not isinstance(events, list):
        raise SchemaError("events must be a list.")
    if not 1 <= len(events) <= MAX_EVENTS:
        raise SchemaError(f"events must hold 1 to {MAX_EVENTS} events; got {len(events)}.")
    return [validate_event(raw, i) for i, raw in enumerate(events)], opt_in


def client_config() -> dict:
    """What the browser collector needs to bucket exactly as the server expects."""
    return {
        "buckets": {name: {"edges": list(b.edges), "labels": list(b.labels)} for name, b in BUCKETS.items()},
        "max_events": MAX_EVENTS,
    }


def describe() -> list[dict]:
    """Every column of a stored event (telemetry.models.Event), for people: the privacy page
    lists exactly this, and tests/telemetry/test_telemetry_privacy_page.py checks it against
    the model. The page id is accepted but not stored, so it is not here."""
    rows = [{"field": "type", "events": _("every event"), "values": ", ".join(EVENT_TYPES),
             "doc": _("what happened")}]
    for name, spec in CONTEXT.items():
        if name in NOT_STORED:
            continue
        rows.append({"field": name, "events": _("every event"), "values": _values_text(spec), "doc": spec.doc})
    seen = set(CONTEXT)
    for required, optional in EVENT_TYPES.values():
        for spec in required + optional:
            if spec.name in seen:
                continue
            seen.add(spec.name)
            users = [k for k, (r, o) in EVENT_TYPES.items() if spec.name in {f.name for f in r + o}]
            rows.append({"field": spec.name, "events": ", ".join(users), "values": _values_text(spec),
                         "doc": spec.doc})
    for name, values in SERVER_FIELDS.items():
        rows.append({"field": name, "events": _("every event (set by the server)"),
                     "values": ", ".join(values),
                     "doc": _("reduced from the User-Agent, which is then discarded")})
    rows.append({"field": "received_at", "events": _("every event (set by the server)"),
                 "values": _("an hour, such as 2026-05-04 13:00 (UTC)"),
                 "doc": _("the hour the event was stored; never the minute or the second")})
    rows.append({"field": "id", "events": _("every event (set by the server)"),
                 "values": _("random UUID v4"),
                 "doc": _("a random key: it does not follow the order in which events came")})
    return rows


def _values_text(spec: Field) -> str:
    if spec.kind == "int":
        return _("whole number %(minimum)s–%(maximum)s") % {"minimum": spec.minimum, "maximum": spec.maximum}
    if spec.kind == "settings":
        return "; ".join(f"{game}: {', '.join(fields)}" for game, fields in SETTINGS.items())
    return ", ".join(map(str, spec.values))
