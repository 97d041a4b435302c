"""A per-address request limit kept in this process's memory only (docs/telemetry.md, "Rate limit").

The address is never kept as such: it is reduced to a keyed BLAKE2b digest with a key made at
process start and never written anywhere, so even a memory dump does not list addresses, and
the digests mean nothing to another process or after a restart. Fixed windows; old windows are
swept as the table grows.

Several processes (Daphne workers behind a proxy) each keep their own table: a client can send
up to ``limit`` requests per window to every process it reaches, so the effective limit is at
most processes × limit. docs/telemetry.md says why that is acceptable here.
"""
from __future__ import annotations

import hashlib
import os
import threading
import time


class RateLimiter:
    def __init__(self, limit: int, window: float, clock=time.monotonic, max_entries: int = 100_000):
        self.limit = limit
        self.window = window
        self.clock = clock
        self.max_entries = max_entries
        self._key = os.urandom(32)
        self._lock = threading.Lock()
        self._counts: dict[bytes, tuple[float, int]] = {}

    def _digest(self, address: str) -> bytes:
        return hashlib.blake2b(address.encode(), key=self._key, digest_size=16).digest()

    def allow(self, address: str) -> bool:
        """Count one request from ``address``; False when it is over the limit."""
        now = self.clock()
        digest = self._digest(address)
        with self._lock:
            start, count = self._counts.get(digest, (now, 0))
            if now - start >= self.window:
                start, count = now, 0
            count += 1
            self._counts[digest] = (start, count)
            if len(self._counts) > self.max_entries:
                self._sweep(now)
            return count <= self.limit

    def seconds_left(self, address: str) -> float:
        """How long until ``address``'s window ends (0 when it has none): its Retry-After."""
        now = self.clock()
        with self._lock:
            start, _ = self._counts.get(self._digest(address), (now - self.window, 0))
        return max(0.0, start + self.window - now)

    def _sweep(self, now: float):
        expired = [d for d, (start, _) in self._counts.items() if now - start >= self.window]
        for digest in expired:
            del self._counts[digest]
        if len(self._counts) > self.max_entries:
            # Still full of live windows (a flood of distinct addresses): forget the oldest half
            # rather than grow without bound; those clients get a fresh window.
            for digest, _ in sorted(self._counts.items(), key=lambda kv: kv[1][0])[: len(self._counts) // 2]:
                del self._counts[digest]

    def reset(self):
        with self._lock:
            self._counts.clear()

    def __len__(self):
        return len(self._counts)
