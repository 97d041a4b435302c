"""server/write_through.py: a connection Daphne accepted sends a frame at once when nothing is
waiting, and otherwise leaves the frame to Twisted's buffer, in order, as before. Real sockets
(a connected pair); the reactor is Twisted's own stand-in, which records which sockets wait
to write."""
import socket

import pytest
from twisted.internet import main, tcp
from twisted.internet.protocol import Protocol
from twisted.internet.testing import MemoryReactorClock

import config.asgi  # noqa: F401  (what every start of the server imports)
from server.write_through import write


class Producer:
    def __init__(self):
        self.resumed = self.paused = 0

    def resumeProducing(self):
        self.resumed += 1

    def pauseProducing(self):
        self.paused += 1

    def stopProducing(self):
        pass


@pytest.fixture
def pair():
    ours, theirs = socket.socketpair()
    reactor = MemoryReactorClock()  # records the readers and writers it is given
    connection = tcp.Server(ours, Protocol(), ("127.0.0.1", 40000), None, 1, reactor)
    theirs.setblocking(False)
    yield connection, theirs, reactor
    ours.close()
    theirs.close()


def received(sock) -> bytes:
    try:
        return sock.recv(1 << 20)
    except BlockingIOError:
        return b""


def test_it_is_what_every_start_of_the_server_installs():
    assert tcp.Server.write is write


def test_it_sends_a_frame_at_once_without_waiting_for_the_loop(pair):
    connection, theirs, reactor = pair
    connection.write(b"\x81\x05hello")
    assert received(theirs) == b"\x81\x05hello"
    assert reactor.writers == set()


def test_it_sends_at_once_under_the_streaming_producer_an_upgraded_websocket_keeps(pair):
    connection, theirs, reactor = pair
    producer = Producer()
    connection.registerProducer(producer, True)
    connection.write(b"frame")
    assert received(theirs) == b"frame" and reactor.writers == set()
    assert producer.paused == producer.resumed == 0


def test_it_buffers_what_the_kernel_does_not_take_and_keeps_the_order(pair):
    connection, theirs, reactor = pair
    big = bytes(range(256)) * 16384  # 4 MiB: far more than a socket's buffer
    connection.write(big)
    assert reactor.writers == {connection}  # the rest waits for the loop, as in Twisted
    connection.write(b"tail")
    got = received(theirs)
    while reactor.writers:
        connection.doWrite()
        got += received(theirs)
    got += received(theirs)
    assert got == big + b"tail"


@pytest.mark.parametrize("streaming", [False, True])
def test_it_leaves_a_pull_or_a_paused_producer_to_twisted(pair, streaming):
    connection, theirs, reactor = pair
    producer = Producer()
    connection.registerProducer(producer, streaming)  # a pull producer is asked for data at once
    if streaming:  # as Twisted pauses it when the buffer fills
        producer.pauseProducing()
        connection.producerPaused = True
    asked = producer.resumed
    connection.write(b"frame")
    assert received(theirs) == b"" and reactor.writers == {connection}
    connection.doWrite()
    assert received(theirs) == b"frame"
    assert producer.resumed == asked + 1  # asked for more once the buffer is empty


def test_it_sends_nothing_itself_once_a_close_is_under_way(pair):
    connection, theirs, reactor = pair
    connection.loseConnection()
    connection.write(b"late")
    assert received(theirs) == b""


def test_it_sends_nothing_after_an_abort(pair):
    connection, theirs, reactor = pair
    connection.abortConnection()
    connection.write(b"dropped")
    assert received(theirs) == b""


def test_it_leaves_a_failed_send_to_the_reactor_which_closes_the_connection(pair):
    connection, theirs, reactor = pair
    connection.socket.shutdown(socket.SHUT_WR)  # every send now fails (EPIPE)
    connection.write(b"frame")
    assert reactor.writers == {connection}
    assert connection.doWrite() is main.CONNECTION_LOST


def test_it_leaves_a_connection_with_tls_started_to_twisteds_tls_layer(pair):
    connection, theirs, reactor = pair
    plain = []

    class TLSLayer:  # what startTLS puts between the protocol and the socket
        def write(self, data):
            plain.append(data)

    connection.TLS, connection.protocol = True, TLSLayer()
    connection.write(b"frame")
    assert plain == [b"frame"] and received(theirs) == b""
