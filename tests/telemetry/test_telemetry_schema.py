"""Every field of the schema (docs/telemetry.md) with each allowed value; everything else refused
(telemetry/schema.py)."""
import copy

import pytest

from telemetry import schema
from telemetry.schema import SchemaError, validate_batch, validate_event
from tests.telemetry.helpers import EXAMPLES, PAGE, SETTINGS, event


def test_it_accepts_an_example_of_every_event_type():
    assert set(EXAMPLES) == set(schema.EVENT_TYPES)
    for kind in EXAMPLES:
        clean = validate_event(event(kind))
        assert clean["type"] == kind and "page" not in clean  # checked, never stored


def _fields_with_events():
    """(event type, field) for every field an event may carry, context included."""
    for kind, (required, optional) in schema.EVENT_TYPES.items():
        for spec in required + optional:
            yield kind, spec
    for spec in schema.CONTEXT.values():
        yield "page_view", spec


@pytest.mark.parametrize("kind,spec", list(_fields_with_events()), ids=lambda x: getattr(x, "name", x))
def test_it_accepts_each_allowed_value_and_refuses_others(kind, spec):
    if spec.kind in ("enum", "bucket"):
        for value in spec.values:
            extra = {"settings": SETTINGS[value]} if spec.name == "game" and kind.startswith("game_") else {}
            assert validate_event(event(kind, **{spec.name: value}, **extra))[spec.name] == value
        for bad in ("nope", spec.values[0].upper() + "x", 3, None, True, [spec.values[0]]):
            with pytest.raises(SchemaError, match=spec.name):
                validate_event(event(kind, **{spec.name: bad}))
    elif spec.kind == "int":
        for value in (spec.minimum, spec.maximum, (spec.minimum + spec.maximum) // 2):
            assert validate_event(event(kind, **{spec.name: value}))[spec.name] == value
        for bad in (spec.minimum - 1, spec.maximum + 1, 1.5, "3", True, None):
            with pytest.raises(SchemaError, match=spec.name):
                validate_event(event(kind, **{spec.name: bad}))
    elif spec.kind == "counted":
        for value in spec.values:
            assert validate_event(event(kind, **{spec.name: value}))[spec.name] == value
        buckets = schema.BUCKETS[spec.name]
        for value, label in [(spec.minimum, buckets.labels[0]), (spec.maximum, buckets.labels[-1])] + [
                (edge, label) for edge, label in zip(buckets.edges, buckets.labels[1:], strict=True)] + [
                (edge - 1, label) for edge, label in zip(buckets.edges, buckets.labels, strict=False)]:
            assert validate_event(event(kind, **{spec.name: value}))[spec.name] == label, value
        for bad in ("nope", spec.minimum - 1, spec.maximum + 1, 1.5, "3", True, None, [spec.values[0]]):
            with pytest.raises(SchemaError, match=spec.name):
                validate_event(event(kind, **{spec.name: bad}))
    elif spec.kind == "uuid":
        for bad in ("not-a-uuid", PAGE.upper(), "0b6c5a4e-8f1d-1c3b-9a2e-7d6f5e4c3b2a", 12, None):
            with pytest.raises(SchemaError, match="page"):
                validate_event(event(kind, page=bad))
    else:
        assert spec.kind == "settings"
        with pytest.raises(SchemaError, match="settings must be an object"):
            validate_event(event(kind, settings=[1]))


@pytest.mark.parametrize("game", list(schema.SETTINGS))
def test_it_accepts_every_setting_value_of_every_game(game):
    for name, spec in schema.SETTINGS[game].items():
        values = spec.values if spec.kind == "enum" else (spec.minimum, spec.maximum)
        for value in values:
            settings = {**SETTINGS[game], name: value}
            clean = validate_event(event("game_start", game=game, settings=settings))
            assert clean["settings"][name] == value
        bad_values = ["x", None, 1.5] + ([] if spec.kind == "int" else [7])
        if spec.kind == "int":
            bad_values += [spec.minimum - 1, spec.maximum + 1, True]
        elif isinstance(spec.values[0], bool):
            bad_values += [1, "true"]
        elif isinstance(spec.values[0], int):
            bad_values += [str(spec.values[0]), True]
        for bad in bad_values:
            with pytest.raises(SchemaError, match=f"settings.{name}"):
                validate_event(event("game_start", game=game, settings={**SETTINGS[game], name: bad}))


def test_it_refuses_settings_of_another_game_and_unknown_settings():
    with pytest.raises(SchemaError, match="not a gin setting"):
        validate_event(event("game_start", game="gin", settings=SETTINGS["memory"]))
    with pytest.raises(SchemaError, match="not a memory setting"):
        validate_event(event("game_start", settings={**SETTINGS["memory"], "speed": "fast"}))


FORBIDDEN_NAMES = ["room", "room_id", "roomId", "ROOM-ID", "seat_token", "seatToken", "token", "seat",
                   "moves", "board", "positions", "url", "page_url", "href", "referrer", "gpu",
                   "gpu_model", "renderer", "ip", "ip_address", "remote_addr", "user_agent"]


@pytest.mark.parametrize("name", FORBIDDEN_NAMES)
def test_it_refuses_every_field_of_spec_6_2_at_the_top_and_in_settings(name):
    with pytest.raises(SchemaError, match="never accepted"):
        validate_event(event(**{name: "x"}))
    settings = {**SETTINGS["memory"], name: "x"}
    with pytest.raises(SchemaError, match="never accepted"):
        validate_event(event(settings=settings))


def test_it_refuses_unknown_fields_fields_of_other_types_and_server_fields():
    with pytest.raises(SchemaError, match="not a known field"):
        validate_event(event(colour="red"))
    with pytest.raises(SchemaError, match="not part of a room_step event"):
        validate_event(event("room_step", origin="menu"))
    for name in ("browser", "os"):
        with pytest.raises(SchemaError, match="set by the server"):
            validate_event(event(**{name: "chrome"}))


def test_it_requires_type_page_and_each_required_field():
    with pytest.raises(SchemaError, match="type must be one of"):
        validate_event({"page": PAGE})
    with pytest.raises(SchemaError, match="type must be one of"):
        validate_event(event(type="game_over"))
    bare = event()
    del bare["page"]
    with pytest.raises(SchemaError, match="page"):
        validate_event(bare)
    for kind, (required, _) in schema.EVENT_TYPES.items():
        for spec in required:
            raw = event(kind)
            del raw[spec.name]
            with pytest.raises(SchemaError, match=f"{spec.name} is required"):
                validate_event(raw)


def test_it_checks_the_batch():
    assert validate_batch({"events": [event()] * 50})[1] is False
    assert validate_batch({"events": [event()], "opt_in": True})[1] is True
    for body, message in [([], "JSON object"), ({"events": []}, "1 to 50"),
                          ({"events": [event()] * 51}, "1 to 50"), ({"events": {}}, "must be a list"),
                          ({"events": [event()], "extra": 1}, "Unknown top-level"),
                          ({"events": [event()], "opt_in": "yes"}, "opt_in"),
                          ({"events": [event(), "x"]}, r"events\[1\] must be an object")]:
        with pytest.raises(SchemaError, match=message):
            validate_batch(body)


def test_buckets_label_values_at_their_edges():
    ttff = schema.BUCKETS["ttff"]
    assert [ttff.label(v) for v in (0, 499, 500, 999, 1000, 14999, 15000, 10**9)] == [
        "<0.5s", "<0.5s", "0.5-1s", "0.5-1s", "1-2s", "8-15s", "15s+", "15s+"]
    assert schema.BUCKETS["cores"].label(4) == "3-4"
    assert schema.BUCKETS["memory"].label(0.5) == "<1"
    config = schema.client_config()
    assert config["buckets"]["fps"] == {"edges": [15, 30, 45, 55], "labels": ["<15", "15-30", "30-45", "45-55", "55+"]}


def test_validation_does_not_change_its_input():
    raw = event()
    before = copy.deepcopy(raw)
    validate_event(raw)
    assert raw == before
