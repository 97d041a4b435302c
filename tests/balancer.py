"""HAProxy with deploy/haproxy.cfg in front of Daphne processes on this machine, configured as
docker-compose configures it.

Docker finds the `web` replicas by DNS (one address each, one port). Here the processes listen
on their own loopback addresses (127.0.0.1, 127.0.0.2, ...) at one port, and a small DNS server
answers every name with those addresses, so HAProxy reads the very file production reads.
Used by tests/e2e/test_it_routes_rooms_through_haproxy.py, bench/ws_load.py and bench/chaos.py.
"""
from __future__ import annotations

import csv
import os
import shutil
import socket
import struct
import subprocess
import tempfile
import threading
import time
from pathlib import Path

from tests.live import PROJECT, free_port

CONFIG = PROJECT / "deploy" / "haproxy.cfg"
TYPE_A, CLASS_IN = 1, 1


def loopback_hosts(n: int) -> list[str]:
    """The addresses of n server processes: 127.0.0.1 .. 127.0.0.n (all of 127/8 is loopback)."""
    if not 1 <= n <= 254:
        raise ValueError(f"1..254 processes, not {n}")
    return [f"127.0.0.{i}" for i in range(1, n + 1)]


def dns_answer(query: bytes, addresses: list[str]) -> bytes:
    """The answer to one DNS query: every A question gets ``addresses``, others none."""
    ident, flags = struct.unpack("!HH", query[:4])
    end = 12
    while query[end]:  # the question's name, label by label
        end += query[end] + 1
    qtype, _qclass = struct.unpack("!HH", query[end + 1:end + 5])
    question = query[12:end + 5]
    answers = [struct.pack("!HHHIH", 0xC00C, TYPE_A, CLASS_IN, 1, 4) + socket.inet_aton(a)
               for a in addresses] if qtype == TYPE_A else []
    header = struct.pack("!HHHHHH", ident, 0x8180 | (flags & 0x0100), 1, len(answers), 0, 0)
    return header + question + b"".join(answers)


class DnsServer:
    """Answers on 127.0.0.1:<port> (UDP) until ``close``; a daemon thread."""

    def __init__(self, addresses: list[str]):
        self.addresses = addresses
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.bind(("127.0.0.1", 0))
        self.address = f"127.0.0.1:{self.sock.getsockname()[1]}"
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self):
        while True:
            try:
                query, peer = self.sock.recvfrom(4096)
            except OSError:
                return  # closed
            try:
                self.sock.sendto(dns_answer(query, self.addresses), peer)
            except (IndexError, struct.error):
                continue  # not a query this server understands: no answer

    def close(self):
        self.sock.close()


def haproxy_binary() -> str:
    """Debian's haproxy; bench/ws_load.py installs it when missing, .ci/run does on CI."""
    found = shutil.which("haproxy") or next(
        (p for p in ("/usr/sbin/haproxy", "/usr/local/sbin/haproxy") if os.path.exists(p)), None)
    if found is None:
        raise RuntimeError("haproxy is not installed: apt-get install haproxy")
    return found


class Balancer:
    """HAProxy listening on 127.0.0.1:<free port>, its servers ``hosts`` at ``port``."""

    def __init__(self, hosts: list[str], port: int, log_dir: Path,
                 allowed_hosts: str = "127.0.0.1,localhost"):
        self.hosts, self.server_port = hosts, port
        self.dns = DnsServer(hosts)
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.metrics_url = f"http://127.0.0.1:{free_port()}/metrics"  # HAProxy's own exporter
        self.socket_path = Path(tempfile.mkdtemp(prefix="haproxy-")) / "admin.sock"
        env = {"PATH": os.environ.get("PATH", ""), "BALANCER_BIND": f"127.0.0.1:{self.port}",
               "WEB_SERVERS": f"web:{port}", "WEB_PROCESSES": str(len(hosts)),
               "DNS_SERVER": self.dns.address, "BALANCER_SOCKET": str(self.socket_path),
               "ALLOWED_HOSTS": allowed_hosts,
               "BALANCER_METRICS_BIND": self.metrics_url.split("/")[2]}
        self.log_path = log_dir / "haproxy.log"
        self._log = open(self.log_path, "wb")
        self.process = subprocess.Popen([haproxy_binary(), "-db", "-f", str(CONFIG)], env=env,
                                        stdout=self._log, stderr=subprocess.STDOUT,
                                        start_new_session=True)

    def command(self, line: str) -> str:
        """One command of HAProxy's runtime API (management.txt)."""
        with socket.socket(socket.AF_UNIX) as sock:
            sock.settimeout(5)
            sock.connect(str(self.socket_path))
            sock.sendall(line.encode() + b"\n")
            chunks = []
            while chunk := sock.recv(65536):
                chunks.append(chunk)
        return b"".join(chunks).decode()

    def servers(self, backend: str = "rooms") -> list[dict]:
        """``show stat`` of the backend's servers with an address: name, addr (host:port),
        status (UP/DOWN/...), scur (connections now)."""
        text = self.command("show stat").lstrip("# ")
        return [row for row in csv.DictReader(text.splitlines())
                if row["pxname"] == backend and row["svname"] not in ("FRONTEND", "BACKEND")
                and row.get("addr")]

    def connections(self, backend: str = "rooms") -> dict[str, int]:
        """Open connections per server host (the backend's servers that have an address)."""
        return {row["addr"].rsplit(":", 1)[0]: int(row["scur"]) for row in self.servers(backend)}

    def wait_up(self, hosts: list[str] | None = None, timeout: float = 30.0) -> None:
        """Until both backends route to every host in ``hosts`` (default: all)."""
        wanted = set(hosts or self.hosts)
        deadline = time.monotonic() + timeout
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"haproxy exited with {self.process.returncode}:\n{self.log()}")
            try:
                up = [{r["addr"].rsplit(":", 1)[0] for r in self.servers(b) if r["status"] == "UP"}
                      for b in ("rooms", "pages")]
                if all(wanted <= u for u in up):
                    return
            except OSError:
                pass  # the socket is not there yet
            if time.monotonic() > deadline:
                raise TimeoutError(f"not every server is up behind haproxy:\n{self.log()}")
            time.sleep(0.1)

    def log(self) -> str:
        self._log.flush()
        return self.log_path.read_text(errors="replace")

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
        self._log.close()
        self.dns.close()
        shutil.rmtree(self.socket_path.parent, ignore_errors=True)
