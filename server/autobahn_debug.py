"""Autobahn (the WebSocket layer under Daphne) builds the arguments of a debug line for every
frame it sends or receives: the method's qualified name and the peer's address, coloured
through click, before its logger, off below the debug level, drops them: as much CPU as
encoding every view (figures: bench/results/2026-12-01-orjson-views.md).
``defer_debug_formatting`` gives the two modules on that path stand-ins for those helpers
that format only when a line is written, to the same text.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import autobahn.twisted.websocket
import autobahn.websocket.protocol

_MODULES = (autobahn.websocket.protocol, autobahn.twisted.websocket)
_HELPERS = ("hltype", "hlval")


class _WhenFormatted:
    """A log argument whose text is made when the log line is."""

    __slots__ = ("_helper", "_args", "_kwargs")

    def __init__(self, helper: Callable[..., str], args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        self._helper, self._args, self._kwargs = helper, args, kwargs

    def __str__(self) -> str:
        return self._helper(*self._args, **self._kwargs)

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)


def _deferred(helper: Callable[..., str]) -> Callable[..., _WhenFormatted]:
    def deferred(*args: Any, **kwargs: Any) -> _WhenFormatted:
        return _WhenFormatted(helper, args, kwargs)

    deferred.formats_later = True  # type: ignore[attr-defined]
    return deferred


def defer_debug_formatting() -> None:
    """Idempotent: each start of the server calls it (config/asgi.py)."""
    for module in _MODULES:
        for name in _HELPERS:
            helper = getattr(module, name)
            if not getattr(helper, "formats_later", False):
                setattr(module, name, _deferred(helper))
