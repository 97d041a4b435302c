"""Lighthouse (npm lighthouse@12.2.3, mobile preset: a mid-range phone on a slow 4G line,
simulated) on the home page, a game menu and a room page in play, with the site as in production
(DEBUG off, static files collected and served by WhiteNoise) on a temporary SQLite database.

Prints each page's four category scores, its main timings, the five audits that cost it most and
the two that say whether a returning phone loads the page from its cache (text compression,
cache lifetimes of static resources), then whether the targets are met: performance at least 95,
accessibility, best practices and SEO 100. Last, whether Chromium would install the site (the web
manifest and its icons): Lighthouse 12 dropped that audit, so it asks Chromium itself
(Page.getInstallabilityErrors, the check Lighthouse's installable-manifest audit ran).
Lighthouse is installed on first use into bench/.lighthouse (ignored by git) with npm; Chromium
is Debian's (/usr/bin/chromium).

The room page is a Memory game against the CPU seen by its player: the seat token the rooms API
answers is put in the browser's storage beforehand (as the menu does), on a blank page of the
site's origin so that nothing of the site is cached before Lighthouse loads it.

Run: .venv/bin/python bench/lighthouse.py [--runs N] [--reports DIR]
(N runs a page, the median reported; DIR keeps Lighthouse's JSON reports)
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT))

from bench.page_weight import production_env  # noqa: E402
from tests.live import free_port, start_daphne  # noqa: E402

LIGHTHOUSE_VERSION = "12.2.3"
INSTALL = PROJECT / "bench" / ".lighthouse"
LIGHTHOUSE = INSTALL / "node_modules" / ".bin" / "lighthouse"
CHROMIUM = "/usr/bin/chromium"
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
TARGETS = {"performance": 95, "accessibility": 100, "best-practices": 100, "seo": 100}
METRICS = ("first-contentful-paint", "largest-contentful-paint", "total-blocking-time",
           "cumulative-layout-shift", "speed-index")
CACHING = ("uses-text-compression", "uses-long-cache-ttl")


def install() -> None:
    if LIGHTHOUSE.exists():
        return
    print(f"Installing lighthouse@{LIGHTHOUSE_VERSION} into {INSTALL.relative_to(PROJECT)} …", flush=True)
    subprocess.run(["npm", "install", "--prefix", str(INSTALL), "--no-audit", "--no-fund",
                    f"lighthouse@{LIGHTHOUSE_VERSION}"], check=True)


def start_chromium(profile: Path) -> tuple[subprocess.Popen, int]:
    """A headless Chromium that Lighthouse drives through its debugging port."""
    port = free_port()
    process = subprocess.Popen([CHROMIUM, "--headless=new", "--no-sandbox", "--disable-gpu",
                                f"--remote-debugging-port={port}", f"--user-data-dir={profile}",
                                "--no-first-run", "--disable-background-networking", "about:blank"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while True:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/json/version", timeout=1).read()
            return process, port
        except OSError:
            if time.monotonic() > deadline:
                process.kill()
                raise RuntimeError("Chromium did not open its debugging port") from None
            time.sleep(0.2)


def give_seat(port: int, origin: str, room_id: str, token: str) -> None:
    """Stores the seat token in the browser's localStorage for the site's origin, from a blank
    page of that origin (the site's own pages would fill the cache)."""
    from playwright.sync_api import sync_playwright
    with sync_playwright() as playwright:
        browser = playwright.chromium.connect_over_cdp(f"http://127.0.0.1:{port}")
        page = browser.contexts[0].new_page()
        url = f"{origin}/blank-page-of-the-lighthouse-bench"
        page.route(url, lambda route: route.fulfill(body="<!doctype html><title>blank</title>",
                                                    content_type="text/html"))
        page.goto(url)
        page.evaluate("([key, value]) => localStorage.setItem(key, value)",
                      [f"seat-token:{room_id}", token])
        page.close()
        browser.close()  # disconnects; the Chromium process stays up


def installability_errors(origin: str, tmp: Path) -> tuple[str, list[str]]:
    """The web manifest's URL and Chromium's reasons not to install the site from its home page
    (none: installable), in a browser profile of its own (an incognito one is never offered)."""
    from playwright.sync_api import sync_playwright
    chromium, port = start_chromium(tmp / "profile-install")
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.connect_over_cdp(f"http://127.0.0.1:{port}")
            page = browser.contexts[0].new_page()
            page.goto(origin + "/", wait_until="networkidle")
            cdp = page.context.new_cdp_session(page)
            manifest = cdp.send("Page.getAppManifest")
            errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
            browser.close()
    finally:
        chromium.kill()
        chromium.wait()
    reasons = [error["errorId"] + "".join(f" {a['name']}={a['value']}" for a in error.get("errorArguments", []))
               for error in errors]
    reasons += [f"manifest: {error['message']}" for error in manifest.get("errors", [])]
    return manifest.get("url", ""), reasons


def lighthouse(url: str, port: int, out: Path, keep_storage: bool) -> dict:
    command = [str(LIGHTHOUSE), url, f"--port={port}", "--output=json", f"--output-path={out}",
               "--quiet", f"--only-categories={','.join(CATEGORIES)}"]
    if keep_storage:
        command.append("--disable-storage-reset")
    subprocess.run(command, check=True, env={**os.environ, "CHROME_PATH": CHROMIUM})
    return json.loads(out.read_text())


def create_room(origin: str) -> dict:
    request = urllib.request.Request(
        origin + "/api/rooms", method="POST", headers={"Content-Type": "application/json"},
        data=json.dumps({"game": "memory", "mode": "cpu"}).encode())
    with urllib.request.urlopen(request) as response:
        return json.loads(response.read())


def measure_page(name: str, origin: str, path: str | None, runs: int, tmp: Path, reports: Path,
                 room: bool) -> dict:
    """Runs Lighthouse `runs` times on fresh browser profiles; answers the median run's report."""
    done = []
    for run in range(runs):
        profile = tmp / f"profile-{name}-{run}"
        url = origin + (path or "")
        if room:
            created = create_room(origin)  # a new game each run: the first view, not a later one
            url = origin + created["invite_url"]
        chromium, port = start_chromium(profile)
        try:
            if room:
                give_seat(port, origin, created["room_id"], created["seat_token"])
            done.append(lighthouse(url, port, reports / f"{name}-{run}.json", keep_storage=room))
        finally:
            chromium.kill()
            chromium.wait()
    done.sort(key=lambda r: r["categories"]["performance"]["score"])
    return done[len(done) // 2]


def score(report: dict, category: str) -> int:
    return round(report["categories"][category]["score"] * 100)


def show(name: str, report: dict) -> bool:
    audits = report["audits"]
    print(f"\n{name}  ({report['finalDisplayedUrl'].split('//', 1)[1].split('/', 1)[1] or '/'})")
    print("  " + "  ".join(f"{c} {score(report, c)}" for c in CATEGORIES))
    print("  " + " · ".join(f"{audits[m]['title']} {audits[m]['displayValue']}" for m in METRICS))
    # The audits that cost most: the lowest scores first, then the largest estimated saving.
    weak = [a for a in audits.values() if a.get("score") is not None and a["score"] < 1
            and a.get("scoreDisplayMode") in ("numeric", "binary", "metricSavings")]
    weak.sort(key=lambda a: (a["score"], -(a.get("numericValue") or 0)))
    print("  slowest audits:" if weak else "  every scored audit passes")
    for audit in weak[:5]:
        print(f"    {round(audit['score'] * 100):>3}  {audit['title']}"
              f"{'  (' + audit['displayValue'] + ')' if audit.get('displayValue') else ''}")
    for audit in (audits[name] for name in CACHING):
        late = [item["url"] for item in audit.get("details", {}).get("items", [])]
        print(f"  {audit['title']}: {'passes' if audit['score'] == 1 else 'LOSES'}"
              f"{'' if not late else ' on ' + ', '.join(late)}")
    met = all(score(report, c) >= TARGETS[c] for c in CATEGORIES)
    return met


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=1, help="runs a page (median reported); default 1")
    parser.add_argument("--reports", type=Path, help="a folder to keep Lighthouse's JSON reports in")
    args = parser.parse_args()
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    install()
    with tempfile.TemporaryDirectory() as tmp_dir:
        tmp = Path(tmp_dir)
        reports = args.reports or tmp
        reports.mkdir(parents=True, exist_ok=True)
        # The CPU waits as in production, so the room page shows a game at the player's turn.
        env = production_env(tmp)
        for command in (["migrate", "--noinput", "-v", "0"], ["collectstatic", "--noinput", "-v", "0"]):
            subprocess.run([sys.executable, "manage.py", *command], cwd=PROJECT, env=env, check=True)
        server = start_daphne(tmp, env)
        try:
            server.wait_ready()
            pages = [("Home page", "/", False), ("Memory menu", "/memory/", False),
                     ("Room page (Memory vs CPU, the player's own view)", None, True)]
            results = {name: show(name, measure_page(f"page{i}", server.url, path, args.runs, tmp, reports, room))
                       for i, (name, path, room) in enumerate(pages)}
            manifest, reasons = installability_errors(server.url, tmp)
        finally:
            server.stop()
    print("\nTargets (performance ≥ 95; accessibility, best practices, SEO 100):")
    for name, met in results.items():
        print(f"  {'met    ' if met else 'NOT met'}  {name}")
    print(f"\nInstallable (Chromium, web manifest {manifest or 'none'}): "
          + ("yes" if not reasons else "NO: " + "; ".join(reasons)))


if __name__ == "__main__":
    main()
