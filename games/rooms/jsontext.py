"""The rooms' JSON texts (views, state messages, the room row's JSON columns), encoded by orjson.

Encoding the views of a 52-card Memory room key by key (as snapshots.py does) took the
standard library's encoder twice the CPU it takes here, and a whole view 20 times orjson's;
encoding was a large part of each action's CPU in bench/ws_load.py. The text is the
standard library's compact text byte for byte: ``json.dumps(value, separators=(",", ":"))``
(tests/rooms/test_it_encodes_views_as_before.py compares them on every game's views). Where
the two would differ, the standard library's text is used: orjson writes non-ASCII characters
as UTF-8 where ``json`` escapes them (``\\u00e9``), refuses integers beyond 64 bits, and writes
some floats otherwise (``0.00001`` for ``1e-05``, ``1e16`` for ``1e+16``). So a text with a
float in it (a digit followed by ``.`` or ``e``; a string that looks so costs the same, nothing
more) is encoded again by ``json``: views hold none, the engines count in integers. That search
maps every byte to one of three classes and looks for a digit before ``.``/``e`` in the result:
four times faster than a regular expression on a 5 KB view, where the expression had cost more
than orjson's encoding.
"""
from __future__ import annotations

import json
from typing import Any

import orjson

_standard = json.JSONEncoder(separators=(",", ":")).encode
# Digits -> "0", ".eE" -> ".", every other byte -> " ": a float's text holds "0." afterwards.
_CLASSES = bytes(ord("0") if chr(i) in "0123456789" else ord(".") if chr(i) in ".eE" else ord(" ")
                 for i in range(256))


def dumps(value: Any) -> str:
    try:
        data = orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS)
    except TypeError:  # orjson.JSONEncodeError: e.g. an integer beyond 64 bits
        return _standard(value)
    if data.isascii() and b"0." not in data.translate(_CLASSES):
        return data.decode()
    return _standard(value)


loads = orjson.loads
