"""server/autobahn_debug.py: once the server's application is loaded, autobahn's debug helpers
on the frame path make their text only when a line is written, and it is the same text."""
import autobahn.twisted.websocket
import autobahn.util
import autobahn.websocket.protocol
import pytest

import config.asgi  # noqa: F401  (what every start of the server imports)
from server.autobahn_debug import defer_debug_formatting


class Protocol:
    def sendData(self):
        pass


@pytest.mark.parametrize("module", [autobahn.websocket.protocol, autobahn.twisted.websocket])
def test_it_formats_the_same_text_when_a_line_is_written(module):
    method = Protocol().sendData
    assert module.hltype is not autobahn.util.hltype
    assert str(module.hltype(method)) == autobahn.util.hltype(method)
    assert "{} {:>6}".format(module.hlval(3517), module.hlval("peer", color="green")) == \
        "{} {:>6}".format(autobahn.util.hlval(3517), autobahn.util.hlval("peer", color="green"))


def test_it_makes_no_text_for_a_line_never_written(monkeypatch):
    calls = []
    monkeypatch.setattr(autobahn.websocket.protocol, "hltype", lambda obj: calls.append(obj) or "text")
    defer_debug_formatting()
    autobahn.websocket.protocol.hltype(Protocol().sendData)
    assert calls == []


def test_it_wraps_each_helper_once():
    before = autobahn.websocket.protocol.hltype
    defer_debug_formatting()
    assert autobahn.websocket.protocol.hltype is before
