"""The rooms' JSON texts (views, state messages, the room row's JSON columns on PostgreSQL),
encoded and the columns decoded by orjson.

``dumps`` writes orjson's text, which decodes to the values the standard library's text of the
same value decodes to, not byte for byte the same: orjson writes non-ASCII characters as UTF-8
where ``json`` escapes them (``\\u00e9``), and its shortest float that reads back as the same
float (``1e16`` for ``1e+16``). The standard library's encoder writes only what orjson refuses:
an integer beyond 64 bits, a string with a lone surrogate (a client's ``id`` may hold one).
One difference in meaning: orjson writes NaN and the infinities as ``null``, where ``json``
writes ``NaN``, which is not JSON (a browser's ``JSON.parse`` and PostgreSQL's jsonb refuse
it); the engines count in integers. tests/rooms/test_state_messages.py decodes
every view of whole games, and the values where the encoders differ, both ways.

Encoding views key by key with the standard library was a large part of each action's CPU
(figures: bench/results/2026-12-01-orjson-views.md). Before this, ``dumps`` kept the standard
library's bytes by searching every text orjson wrote for a non-ASCII byte or a digit followed
by ``.`` or ``e`` and encoding it again with ``json`` where it found one: that search cost more
than orjson's encoding itself, and a seat's token digest in hex (``...3e...``), a time in ISO text
(``...38.123``) and many room ids looked like floats to it, so the seats, the room's members and
most columns went through ``json`` anyway. PostgreSQL keeps a jsonb column's value, not its
text, and the SQLite backend writes its columns through Django's own encoder
(games/rooms/storage.py), so nothing needed those bytes.

Decoding the row's JSON columns (each change of a room starts from its kept row's texts, and a
process reads another's change as text) took the standard library's decoder several times
orjson's CPU (figures: bench/results/2026-12-01-orjson-views.md). orjson gives the
same values but for one case: an integer beyond 64 bits, which it turns into a float without a
word. So a text with 19 digits in a row (such an integer needs at least 19, and so may a string)
is decoded by ``json``, as is a text orjson refuses (a lone surrogate's escape, ``NaN``).
"""
from __future__ import annotations

import json
from typing import Any

import orjson

_standard = json.JSONEncoder(separators=(",", ":")).encode


def dumps(value: Any) -> str:
    try:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:  # orjson.JSONEncodeError: an integer beyond 64 bits, a lone surrogate
        return _standard(value)


# Digits -> "0", every other byte -> " ": an integer orjson might not keep exact holds "0" * 19.
_DIGITS = bytes(ord("0") if chr(i) in "0123456789" else ord(" ") for i in range(256))
_LONG_NUMBER = b"0" * 19


def loads(text: str | bytes) -> Any:
    data = text.encode() if isinstance(text, str) else text
    if _LONG_NUMBER not in data.translate(_DIGITS):
        try:
            return orjson.loads(data)
        except orjson.JSONDecodeError:
            pass  # what only the standard library reads: a lone surrogate's escape, NaN
    return json.loads(data)
