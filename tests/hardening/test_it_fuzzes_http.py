"""Hostile HTTP input (issue 10): the rooms API, the account pages and the statistics endpoint
fuzzed with hypothesis through Django's test client, against the suite's backend.

Every answer must be below 500 (the client also re-raises any exception a view lets escape, so
a crash fails with its traceback); where docs/protocol.md and docs/telemetry.md name the
refusal codes, the answer is one of them; and a refused request stores nothing (no Room, no
telemetry Event, no user, no changed password or profile). Runs are derandomized and bounded so
the file is repeatable and quick; the strategies are built from the real field names and values
(the engines' options, telemetry/schema.py) so that the generated requests get past the first
checks and reach the deep ones, mixed with junk of every JSON type.
"""
from __future__ import annotations

import json
import string
from urllib.parse import quote, urlencode, urlsplit

import pytest
from django.contrib.auth.models import User
from django.test import Client
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from accounts.models import Profile
from games.models import Room
from telemetry import schema
from telemetry.buffer import pending
from telemetry.ingest import limiter
from tests.accounts.accounts_testlib import unique_address

pytestmark = pytest.mark.django_db(transaction=True)  # the rooms API writes from its own threads


FUZZ = settings(max_examples=50, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
FEW = settings(FUZZ, max_examples=20)

PASSWORD = "correct horse battery"

# ------------------------------------------------------------------------------- strategies

# Text with the characters that break things: NUL, surrogates are impossible in JSON over UTF-8
# but lone control characters, right-to-left marks and astral planes are not.
nasty_text = st.text(st.characters(codec="utf-8"), max_size=24) | st.sampled_from(
    ["", "\x00", "null", "0", "-1", "1e309", "../../etc/passwd", "%00", "' OR 1=1 --",
     "<script>", "\u202e", "🂡" * 3, " " * 40])
scalars = (st.none() | st.booleans() | st.integers(min_value=-(2 ** 70), max_value=2 ** 70)
           | st.floats(allow_nan=True, allow_infinity=True) | nasty_text)
json_junk = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4)
                         | st.dictionaries(nasty_text, inner, max_size=4), max_leaves=10)


def sometimes(real_values, junk=json_junk):
    """Mostly a real value (so the request reaches the next check), sometimes junk."""
    return st.one_of(st.sampled_from(real_values), st.sampled_from(real_values), junk)


# ------------------------------------------------------------------------------- the rooms API

ROOM_ERRORS = {"invalid_options", "invalid_game", "invalid_mode", "invalid_cpu_level",
               "malformed_json"}
OPTION_VALUES = {
    "players": [0, 1, 2, 3, 4, 6, 7, True, "2"],
    "cards": [24, 40, 52, 104, 53, "52", 52.0],
    "jokers": [True, False, 1, "true"],
    "match": ["rank", "colour", "zebra", "identical", "RANK"],
    "one_flip": [True, False, None],
    "deck": ["playing_cards", "pictures", "Pictures", None],
    "long_table": [True, False, "yes"],
    "semimaru": ["monk", "noble", "skip", "others_to_centre", "ninja"],
    "emperor": ["noble", "again", ""],
    "lady_empty_again": [True, False, 0],
    "target": [1, 100, 1000, 0, 1001, -5, 10 ** 30, 99.5],
}
room_options = st.one_of(
    st.dictionaries(st.sampled_from(sorted(OPTION_VALUES)) | nasty_text, json_junk, max_size=5),
    st.fixed_dictionaries({}, optional={name: sometimes(values) for name, values in OPTION_VALUES.items()}),
    json_junk)
room_bodies = st.fixed_dictionaries({}, optional={
    "game": sometimes(["memory", "bozu", "gin", "Memory", ""]),
    "mode": sometimes(["cpu", "local", "solo", "friends", "online"]),
    "options": room_options,
    "cpu_level": sometimes(["easy", "medium", "normal", "hard", "", "impossible"]),
    "origin": sometimes(["menu", "result", "new_link", "", "elsewhere"]),
}) | st.dictionaries(nasty_text, json_junk, max_size=4) | json_junk
content_types = st.sampled_from(["application/json", "text/plain", "application/x-www-form-urlencoded",
                                 "multipart/form-data; boundary=xyz", "application/octet-stream",
                                 "application/json; charset=latin-1", ""])


def _create_room(client, body: bytes, content_type: str):
    before = Room.objects.count()
    response = client.generic("POST", "/api/rooms", body, content_type=content_type)
    assert response.status_code < 500, response.content
    if response.status_code == 201:
        answer = response.json()
        assert Room.objects.count() == before + 1
        summary = client.get(f"/api/rooms/{answer['room_id']}")
        assert summary.status_code == 200 and "seat_token" not in summary.content.decode()
        return answer
    # A refusal is one of the documented codes and creates nothing; only a JSON body is read.
    assert response.status_code in (400, 413, 415), response.content
    # (The test client sends no Content-Type with an empty body.)
    assert (response.status_code == 415) == (not body or content_type.split(";")[0] != "application/json")
    error = response.json()["error"]
    assert error["code"] in {400: ROOM_ERRORS, 413: {"too_large"},
                             415: {"unsupported_media_type"}}[response.status_code], error
    assert Room.objects.count() == before
    return None


@FUZZ
@given(body=room_bodies, content_type=content_types)
@example(body={"game": "memory", "mode": "cpu", "options": {"players": 2, "cards": 24}},
         content_type="application/json")
@example(body={"game": "gin", "mode": "friends", "options": {"target": 10 ** 30}}, content_type="text/plain")
@example(body={"game": "bozu", "mode": "local", "options": {"players": [2]}}, content_type="application/json")
@example(body={"game": ["memory"], "mode": {"cpu": 1}, "cpu_level": [], "origin": {}}, content_type="application/json")
def test_room_creation_refuses_bad_json_without_a_crash(client, body, content_type):
    _create_room(client, json.dumps(body).encode(), content_type)


@FEW
@given(body=st.binary(max_size=300)
       | st.builds(lambda n, b: b * n, st.integers(4000, 9000), st.sampled_from([b" ", b"{", b"\x00", b"\xff"])),
       content_type=content_types)
@example(body=b"", content_type="application/json")
@example(body=b"\xef\xbb\xbf{}", content_type="application/json")  # a BOM
@example(body=b'{"game": "memory"' + b" " * 5000 + b"}", content_type="application/json")
@example(body=b"[" * 3000 + b"]" * 3000, content_type="application/json")  # deep nesting, 6 KB
@example(body=b"[" * 2000 + b"]" * 2000, content_type="application/json")  # deep nesting, 4 KB
@example(body=b'{"game": "memory", "game": "gin", "mode": "cpu"}', content_type="application/json")
@example(body=b'{"options": {"players": NaN}, "game": "memory", "mode": "cpu"}', content_type="text/plain")
@example(body=b'{"game": "memory", "mode": "cpu", "options": {"players": 1e999}}', content_type="text/plain")
def test_room_creation_refuses_raw_bytes_without_a_crash(client, body, content_type):
    _create_room(client, body, content_type)


def test_room_creation_answers_other_methods_405_and_huge_bodies_413(client):
    before = Room.objects.count()
    for method in ("GET", "PUT", "DELETE", "PATCH"):
        assert client.generic(method, "/api/rooms").status_code == 405
    huge = b'{"game": "memory", "mode": "cpu", "pad": "' + b"x" * 3_000_000 + b'"}'
    response = client.generic("POST", "/api/rooms", huge, content_type="application/json")
    assert response.status_code in (400, 413)  # 400: past Django's own 2.5 MB request limit
    assert Room.objects.count() == before


room_ids = (st.text(st.characters(codec="utf-8", exclude_characters="/"), min_size=1, max_size=80)
            | st.text(string.ascii_letters + string.digits + "-_", min_size=16, max_size=64))


@FUZZ
@given(room_id=room_ids)
@example(room_id="\x00")
@example(room_id="a" * 22 + "\x00")
@example(room_id="x" * 5000)
@example(room_id="..")
def test_room_summary_of_any_id_is_404(client, room_id):
    response = client.get("/api/rooms/" + quote(room_id, safe=""))
    assert response.status_code == 404, response.content
    assert response.json()["error"]["code"] == "room_not_found"


# ------------------------------------------------------------------------------- pages

segments = st.text(st.characters(codec="utf-8"), min_size=1, max_size=40) | st.sampled_from(
    ["\x00", "memory", "bozu", "gin", "..", ".", "%2F", "a" * 300, "admin"])


@FUZZ
@given(segment=segments, page=st.none() | nasty_text)
@example(segment="\x00", page=None)
@example(segment="A" * 22 + "\x00", page=None)
@example(segment="alice", page="\x00")
@example(segment="alice", page="99999999999999999999999")
def test_pages_with_any_path_segment_answer_without_a_crash(client, segment, page):
    quoted = quote(segment, safe="")
    query = {"page": page} if page is not None else {}
    # A top-level segment may name another app's page (admin/ redirects to its sign-in).
    anywhere = {200, 301, 302, 404, 405}
    for path, allowed in ((f"/r/{quoted}", {200, 404}), (f"/{quoted}/rules/", anywhere),
                          (f"/{quoted}/", anywhere), (f"/u/{quoted}/", {200, 404}),
                          (f"/accounts/password/reset/{quoted}/{quoted}/", {200, 302, 404})):
        response = client.get(path, query)
        assert response.status_code in allowed, (path, response.status_code)


def test_a_public_page_takes_any_page_number(client):
    user = User.objects.create_user("fuzzpublic", password=PASSWORD)
    profile = Profile.of(user)
    profile.public_profile = True
    profile.save()
    for page in ("", "0", "-1", "x", "1.5", "9" * 40, "\x00", "nan"):
        assert client.get("/u/fuzzpublic/", {"page": page}).status_code == 200


# ------------------------------------------------------------------------------- accounts

form_values = st.lists(nasty_text, min_size=1, max_size=2) | nasty_text


def form_data(fields, real=()):
    """Form data: the form's own field names (sometimes with a real value), plus junk names."""
    names = st.sampled_from(list(fields) + ["next", "csrfmiddlewaretoken"]) | nasty_text
    values = st.one_of(form_values, st.sampled_from(list(real) or [""]))
    return st.dictionaries(names, values, max_size=len(fields) + 2)


def _signed_in(username: str, password: str = PASSWORD) -> tuple[Client, User]:
    user = User.objects.create_user(username, password=password, email=f"{username}@example.com")
    # From an address of its own: wrong passwords are counted per address as sign-ins are, and
    # the earlier examples' would lock the later ones out.
    client = Client(REMOTE_ADDR=unique_address())
    client.force_login(user)
    return client, user


def _unbound_form(response) -> bool:
    """A POST without any field (``request.POST or None``) shows the empty form, as a GET does."""
    return response.status_code == 200 and not response.context["form"].is_bound


def _redirect_stays_here(response):
    target = urlsplit(response["Location"])
    assert target.netloc in ("", "testserver"), response["Location"]
    assert not response["Location"].startswith(("//", "/\\")), response["Location"]


@FUZZ
@given(data=form_data(["username", "email", "password1", "password2"],
                      ["fuzzer", "fuzzer@example.com", PASSWORD, "//evil.example/", "https://evil.example/"]))
@example(data={"username": "fuzzer", "password1": PASSWORD, "password2": PASSWORD,
               "next": "//evil.example/"})
@example(data={"username": "fuzz\x00er", "password1": PASSWORD, "password2": PASSWORD})
@example(data={"username": "fuzzer", "email": "a@\x00.com", "password1": PASSWORD, "password2": PASSWORD})
def test_sign_up_with_any_form_data(data):
    before = User.objects.count()
    response = Client().post("/accounts/signup/", data)
    assert response.status_code in (302, 400) or _unbound_form(response), response.status_code
    if response.status_code == 302:
        _redirect_stays_here(response)
        assert User.objects.count() == before + 1
        User.objects.all().delete()  # the next example signs up afresh
    else:
        assert User.objects.count() == before


@FUZZ
@given(data=form_data(["username", "password"], ["fuzzlogin", PASSWORD, "https://evil.example/"]))
@example(data={"username": "fuzzlogin", "password": PASSWORD, "next": "https://evil.example/"})
@example(data={"username": "fuzzlogin\x00", "password": PASSWORD})
def test_sign_in_with_any_form_data(data):
    if not User.objects.filter(username="fuzzlogin").exists():
        User.objects.create_user("fuzzlogin", password=PASSWORD)
    # An address of its own: the failures here lock it (accounts/signin_throttle.py), and the
    # counts outlive the test in the shared cache, so other tests must not sign in from it.
    response = Client(REMOTE_ADDR="192.0.2.1").post("/accounts/login/", data)
    # 429: repeated failures lock the username at this address, then the address.
    assert response.status_code in (302, 400, 429), response.status_code
    if response.status_code == 302:
        _redirect_stays_here(response)


@FEW
@given(data=form_data(["old_password", "new_password1", "new_password2"], [PASSWORD, "another long secret 9"]))
@example(data={"old_password": PASSWORD, "new_password1": "x\x00" * 8, "new_password2": "x\x00" * 8})
def test_password_change_with_any_form_data(data):
    client, user = _signed_in("fuzzchange")
    try:
        response = client.post("/accounts/password/change/", data)
        assert response.status_code in (200, 302), response.status_code
        user.refresh_from_db()
        if response.status_code == 302:
            assert response["Location"] == "/accounts/password/change/done/"
            assert user.check_password(data["new_password1"])
        else:
            assert user.check_password(PASSWORD)
        # Signed out: sent to sign in, nothing changed.
        response = Client().post("/accounts/password/change/", data)
        assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    finally:
        User.objects.filter(pk=user.pk).delete()


@FEW
@given(data=form_data(["email"], ["fuzzreset@example.com", "nobody@example.com"]))
@example(data={"email": "fuzzreset@example.com\x00"})
@example(data={"email": ["a@example.com", "b@example.com"]})
def test_password_reset_with_any_form_data(data, mailoutbox):
    response = Client().post("/accounts/password/reset/", data)
    assert response.status_code in (200, 302), response.status_code
    if response.status_code == 200:
        assert not mailoutbox  # a refused form sends nothing


@FEW
@given(data=form_data(["new_password1", "new_password2"], [PASSWORD]), uid=nasty_text, token=nasty_text)
def test_password_reset_confirm_with_any_link_and_form(data, uid, token):
    path = f"/accounts/password/reset/{quote(uid or 'x', safe='')}/{quote(token or 'x', safe='')}/"
    response = Client().post(path, data)
    assert response.status_code in (200, 302, 404), response.status_code  # 404: a "/" in the link


@FUZZ
@given(data=form_data(["telemetry_enabled", "public_profile"], ["on", "off", "false", "0", "true"]),
       method=st.sampled_from(["POST", "GET", "PUT"]))
def test_privacy_toggles_with_any_form_data(data, method):
    client, user = _signed_in("fuzzprivacy")
    try:
        response = client.generic(method, "/accounts/me/privacy/",
                                  urlencode(data, doseq=True),
                                  content_type="application/x-www-form-urlencoded")
        assert response.status_code == (302 if method == "POST" else 405)
        profile = Profile.objects.get(user=user)
        assert isinstance(profile.telemetry_enabled, bool) and isinstance(profile.public_profile, bool)
        if method != "POST":
            assert (profile.telemetry_enabled, profile.public_profile) == (True, False)  # the defaults
    finally:
        User.objects.filter(pk=user.pk).delete()


@FEW
@given(query=st.dictionaries(st.sampled_from(["page", "format", "next"]) | nasty_text, nasty_text, max_size=3))
def test_me_and_export_with_any_query(query):
    client, user = _signed_in("fuzzexport")
    try:
        assert client.get("/accounts/me/", query).status_code == 200
        response = client.get("/accounts/me/export/", query)
        assert response.status_code == 200
        assert response.json()["account"]["username"] == "fuzzexport"
        for path in ("/accounts/me/", "/accounts/me/export/", "/accounts/me/delete/"):
            assert Client().get(path, query).status_code == 302  # signed out: to the sign-in page
    finally:
        User.objects.filter(pk=user.pk).delete()


@FUZZ
@given(data=form_data(["password"], [PASSWORD, PASSWORD.upper()]))
@example(data={"password": PASSWORD + "\x00"})
@example(data={"password": [PASSWORD, "wrong"]})
def test_account_deletion_with_any_form_data(data):
    client, user = _signed_in("fuzzdelete")
    try:
        response = client.post("/accounts/me/delete/", data)
        assert response.status_code in (302, 400) or _unbound_form(response), response.status_code
        exists = User.objects.filter(pk=user.pk).exists()
        if response.status_code == 302:
            assert response["Location"] == "/accounts/deleted/" and not exists
        else:
            assert exists
    finally:
        User.objects.filter(username="fuzzdelete").delete()


@FEW
@given(data=form_data(["language", "next"], ["es", "de", "ja", "en", "xx", "https://evil.example/"]))
def test_language_switch_with_any_form_data(data):
    client, user = _signed_in("fuzzlanguage")
    try:
        response = client.post("/i18n/setlang/", data)
        assert response.status_code in (200, 204, 302), response.status_code
        if response.status_code == 302:
            _redirect_stays_here(response)
        assert Profile.objects.get(user=user).language in ("", "en", "es", "de", "ja")
    finally:
        User.objects.filter(pk=user.pk).delete()


@FEW
@given(data=st.sampled_from([
    ("/accounts/signup/", {"username": "csrfuser", "password1": PASSWORD, "password2": PASSWORD}),
    ("/accounts/login/", {"username": "csrfvictim", "password": PASSWORD}),
    ("/accounts/password/change/", {"old_password": PASSWORD, "new_password1": "changed by csrf 1",
                                    "new_password2": "changed by csrf 1"}),
    ("/accounts/me/privacy/", {"public_profile": "on"}),
    ("/accounts/me/delete/", {"password": PASSWORD}),
    ("/i18n/setlang/", {"language": "ja"}),
]), extra=st.dictionaries(nasty_text, nasty_text, max_size=2))
def test_account_posts_without_a_csrf_token_are_refused_and_change_nothing(data, extra):
    path, form = data
    user = User.objects.create_user("csrfvictim", password=PASSWORD)
    try:
        client = Client(enforce_csrf_checks=True)
        client.force_login(user)
        response = client.post(path, {**extra, **form})
        assert response.status_code == 403
        user.refresh_from_db()
        assert user.check_password(PASSWORD)
        profile = Profile.of(user)
        assert (profile.public_profile, profile.language) == (False, "")
        assert not User.objects.filter(username="csrfuser").exists()
    finally:
        User.objects.filter(username__in=["csrfvictim", "csrfuser"]).delete()


# ------------------------------------------------------------------------------- telemetry

def _field_values(spec: schema.Field) -> st.SearchStrategy:
    if spec.kind in ("enum", "bucket"):
        return st.sampled_from(spec.values)
    if spec.kind == "int":
        return st.integers(spec.minimum, spec.maximum)
    if spec.kind == "counted":  # a bucket label, or the raw count older pages send
        return st.sampled_from(spec.values) | st.integers(spec.minimum, spec.maximum)
    if spec.kind == "uuid":
        return st.uuids(version=4).map(str)
    return st.just({})  # settings: filled in by _event once the game is known


@st.composite
def _event(draw):
    """A valid event of a random type, then (often) spoiled: a value replaced by junk, a field
    dropped, a forbidden, server-side or unknown field added, or the keys reordered."""
    kind = draw(st.sampled_from(sorted(schema.EVENT_TYPES)))
    required, optional = schema.EVENT_TYPES[kind]
    event = {"type": kind, "page": draw(_field_values(schema.CONTEXT["page"]))}
    for spec in list(schema.CONTEXT.values())[1:] + list(optional):
        if draw(st.booleans()):
            event[spec.name] = draw(_field_values(spec))
    for spec in required:
        event[spec.name] = draw(_field_values(spec))
    if "settings" in event:
        fields = schema.SETTINGS[event["game"]]
        event["settings"] = draw(st.fixed_dictionaries({}, optional={
            name: _field_values(spec) if spec.kind != "enum" or isinstance(spec.values[0], str)
            else st.sampled_from(spec.values) for name, spec in fields.items()}))
    names = sorted(set(schema.ALL_FIELDS) | set(schema.FORBIDDEN) | set(schema.SERVER_FIELDS)
                   | {"type", "settings", "roomId", "Room-ID"})
    for _ in range(draw(st.integers(0, 3))):
        spoil = draw(st.sampled_from(["junk_value", "drop", "add", "settings", "nothing"]))
        if spoil == "junk_value":
            event[draw(st.sampled_from(sorted(event)))] = draw(json_junk)
        elif spoil == "drop" and len(event) > 1:
            event.pop(draw(st.sampled_from(sorted(event))))
        elif spoil == "add":
            event[draw(st.sampled_from(names) | nasty_text)] = draw(
                json_junk | st.sampled_from(["memory", "cpu", "ok", "<1m"]))
        elif spoil == "settings" and isinstance(event.get("settings"), dict):
            event["settings"][draw(st.sampled_from(names) | nasty_text)] = draw(json_junk)
    if draw(st.booleans()):  # JSON objects have no order; the server must not depend on one
        keys = draw(st.permutations(sorted(event, key=str)))
        event = {key: event[key] for key in keys}
    return event


telemetry_bodies = st.one_of(
    st.fixed_dictionaries({"events": st.lists(_event(), min_size=1, max_size=4)},
                          optional={"opt_in": st.booleans() | json_junk}),
    st.fixed_dictionaries({"events": st.lists(_event() | json_junk, max_size=3)},
                          optional={"opt_in": json_junk, "extra": json_junk}),
    st.builds(lambda n, e: {"events": [e] * n}, st.integers(51, 60), _event()),
    json_junk)
TELEMETRY_ERRORS = {"invalid_event", "malformed_json", "bad_length"}


def _post_events(client, body: bytes, content_type="text/plain", **headers):
    limiter().reset()  # the per-address limit (120 a minute) is tested in tests/telemetry
    before = len(pending.held())
    response = client.generic("POST", "/telemetry/events", body, content_type=content_type, headers=headers)
    assert response.status_code < 500, response.content
    if response.status_code == 202:
        answer = response.json()
        assert len(pending.held()) == before + answer["stored"]
        return answer
    assert response.status_code in (400, 403, 413), response.content
    if response.status_code == 400:
        assert response.json()["error"]["code"] in TELEMETRY_ERRORS
    assert len(pending.held()) == before, "a refused request stored events"
    return None


@FUZZ
@given(body=telemetry_bodies, content_type=content_types, gpc=st.sampled_from([None, "1", "0", "junk"]))
@example(body={"events": [{"type": "game_start", "page": "0b6c5a4e-8f1d-4c3b-9a2e-7d6f5e4c3b2a",
                           "settings": {"players": 2}, "game": "chess", "mode": "cpu"}]},
         content_type="text/plain", gpc=None)
@example(body={"events": [{"type": "game_start", "page": "0b6c5a4e-8f1d-4c3b-9a2e-7d6f5e4c3b2a",
                           "settings": {}, "game": ["memory"], "mode": "cpu"}]},
         content_type="text/plain", gpc=None)
@example(body={"events": [{"type": ["page_view"], "page": "0b6c5a4e-8f1d-4c3b-9a2e-7d6f5e4c3b2a"}]},
         content_type="text/plain", gpc=None)
@example(body={"events": [{"type": "page_view", "page": "0b6c5a4e-8f1d-4c3b-9a2e-7d6f5e4c3b2a"}],
               "opt_in": True}, content_type="text/plain", gpc="1")
def test_telemetry_events_with_any_structure(client, body, content_type, gpc):
    headers = {"Sec-GPC": gpc} if gpc else {}
    answer = _post_events(client, json.dumps(body).encode(), content_type, **headers)
    if answer and answer["stored"]:
        assert answer["stored"] == len(body["events"])


@FEW
@given(body=st.binary(max_size=300) | st.builds(lambda n: b"{" * n, st.integers(1000, 40000)),
       content_type=content_types)
@example(body=b"\xff\xfe{}", content_type="text/plain")
@example(body=b'{"events": [' + b'{"type": "page_view"},' * 2000 + b"{}]}", content_type="text/plain")
@example(body=b"[" * 20000 + b"]" * 20000, content_type="text/plain")  # 40 KB: 413
@example(body=b"[" * 15000 + b"]" * 15000, content_type="text/plain")  # 30 KB of nesting
@example(body=b'{"events": [{"type": "page_view", "page": "x"}], "opt_in": NaN}', content_type="text/plain")
def test_telemetry_events_as_raw_bytes(client, body, content_type):
    _post_events(client, body, content_type)


def test_telemetry_other_methods_cross_site_and_lying_lengths(client):
    event = {"type": "page_view", "page": "0b6c5a4e-8f1d-4c3b-9a2e-7d6f5e4c3b2a"}
    good = json.dumps({"events": [event]}).encode()
    before = len(pending.held())
    for method in ("GET", "PUT", "DELETE"):
        assert client.generic(method, "/telemetry/events").status_code == 405
    assert _post_events(client, good, **{"Sec-Fetch-Site": "cross-site"}) is None
    for length in ("junk", "-1", "9" * 30, "1e3"):
        response = client.generic("POST", "/telemetry/events", good, content_type="text/plain",
                                  CONTENT_LENGTH=length)
        assert response.status_code < 500
    assert len(pending.held()) == before
    assert _post_events(client, good) == {"stored": 1}  # and the same body is accepted as such
