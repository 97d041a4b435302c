"""Bytes transferred for the first load of the home page and of a room page (target: under
150 KB compressed each), measured in Debian's Chromium with an empty cache.

The site runs as in production (DEBUG off, static files collected, compressed and served by
WhiteNoise) on a temporary SQLite database. Prints, for each page, every response with its
transferred size (what went over the wire, headers included) and its body's gzip size, then the
totals. Run: .venv/bin/python bench/page_weight.py
"""
from __future__ import annotations

import gzip
import json
import secrets
import subprocess
import sys
import tempfile
import urllib.request
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT))

from tests.live import chromium, embedded_env, start_daphne  # noqa: E402

TARGET = 150 * 1024


def production_env(tmp: Path) -> dict:
    return embedded_env(tmp, DEBUG="0", SECRET_KEY=secrets.token_urlsafe(48),
                        ALLOWED_HOSTS="127.0.0.1", SECURE_SSL_REDIRECT="0",
                        CPU_DELAY_BOZU_FLIP="5")


def measure(browser, url: str, settle_ms: int = 1500) -> list[dict]:
    context = browser.new_context()
    page = context.new_page()
    client = context.new_cdp_session(page)
    client.send("Network.enable")
    client.send("Network.setCacheDisabled", {"cacheDisabled": True})
    responses: dict[str, dict] = {}
    client.on("Network.responseReceived", lambda e: responses.setdefault(e["requestId"], {
        "url": e["response"]["url"], "status": e["response"]["status"],
        "encoding": {k.lower(): v for k, v in e["response"]["headers"].items()}.get("content-encoding", "")}))
    client.on("Network.loadingFinished", lambda e: responses.get(e["requestId"], {}).update(
        transferred=e["encodedDataLength"]))
    bodies = {}
    page.on("response", lambda r: bodies.__setitem__(r.url, r))
    page.goto(url, wait_until="networkidle")
    page.wait_for_timeout(settle_ms)
    rows = []
    for item in responses.values():
        if "transferred" not in item or item["url"].startswith("data:"):
            continue
        response = bodies.get(item["url"])
        try:
            body = response.body() if response else b""
        except Exception:  # a redirect or a streamed body has none to show
            body = b""
        rows.append({**item, "raw": len(body), "gzip": len(gzip.compress(body, 9)) if body else 0})
    context.close()
    return rows


def report(name: str, rows: list[dict]) -> int:
    print(f"\n{name}")
    print(f"  {'transferred':>11} {'body':>8} {'gzip -9':>8} {'enc':>4} {'st':>3}  url")
    for row in sorted(rows, key=lambda r: -r["transferred"]):
        short = row["url"].split("//", 1)[-1].split("/", 1)[-1]
        print(f"  {row['transferred']:>11,} {row['raw']:>8,} {row['gzip']:>8,} {row['encoding'][:4]:>4} "
              f"{row['status']:>3}  /{short}")
    transferred = sum(r["transferred"] for r in rows)
    compressed = sum(r["gzip"] for r in rows)
    print(f"  total transferred {transferred:,} bytes; bodies gzip-compressed {compressed:,} bytes "
          f"({'under' if max(transferred, compressed) < TARGET else 'OVER'} the 150 KB target)")
    return transferred


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp_dir:
        tmp = Path(tmp_dir)
        env = production_env(tmp)
        for command in (["migrate", "--noinput", "-v", "0"], ["collectstatic", "--noinput", "-v", "0"]):
            subprocess.run([sys.executable, "manage.py", *command], cwd=PROJECT, env=env, check=True)
        server = start_daphne(tmp, env)
        try:
            server.wait_ready()
            request = urllib.request.Request(
                server.url + "/api/rooms", method="POST", headers={"Content-Type": "application/json"},
                data=json.dumps({"game": "bozu", "mode": "cpu", "options": {"players": 4}}).encode())
            with urllib.request.urlopen(request) as response:
                room = json.loads(response.read())
            with chromium() as browser:
                report("Home page (/)", measure(browser, server.url + "/"))
                report(f"Room page ({room['invite_url'][:6]}…, Bozu Mekuri vs CPU, as a spectator)",
                       measure(browser, server.url + room["invite_url"]))
        finally:
            server.stop()


if __name__ == "__main__":
    main()
