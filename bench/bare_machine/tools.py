"""Helpers of bench/bare_machine/run.sh: the standard library only, since they run before the
wheels are installed (or instead of pip, where the bare machine's Python has none).

    install WHEEL_DIR TARGET        unpack wheels into TARGET (only when `python3 -m pip` is missing)
    as-user USER CMD...             run CMD as USER (PostgreSQL refuses to run as root)
    ensure-user USER                create USER without useradd if needed (/etc/passwd line)
    untar ARCHIVE TARGET            unpack a tar archive (the bare machine may have no xz)
    wait-tcp PORT SECONDS           wait until 127.0.0.1:PORT accepts a connection
    redis-ping PORT                 PING the Redis server
    stamp FILE                      copy stdin to stdout, and to FILE with a time stamp per line
    sample FILE [INTERVAL]          CPU of the machine and of daphne/clients/postgres/redis/haproxy
    summary RUNS_DIR TSV            the table of every run
"""
from __future__ import annotations

import os
import re
import shutil
import socket
import statistics
import sys
import tarfile
import time
import zipfile
from pathlib import Path


def install(wheel_dir: str, target: str) -> None:
    """What `pip install --no-deps --target` does for these wheels: unpack, move *.data/."""
    root = Path(target)
    root.mkdir(parents=True, exist_ok=True)
    for wheel in sorted(Path(wheel_dir).glob("*.whl")):
        with zipfile.ZipFile(wheel) as z:
            for info in z.infolist():
                name = info.filename
                parts = name.split("/")
                if parts[0].endswith(".data") and len(parts) > 2:
                    kind, rest = parts[1], parts[2:]
                    dest = root / ("bin" if kind == "scripts" else "") / "/".join(rest)
                else:
                    dest = root / name
                if name.endswith("/"):
                    dest.mkdir(parents=True, exist_ok=True)
                    continue
                dest.parent.mkdir(parents=True, exist_ok=True)
                with z.open(info) as src, open(dest, "wb") as out:
                    shutil.copyfileobj(src, out)
                mode = (info.external_attr >> 16) & 0o777
                os.chmod(dest, 0o755 if mode & 0o111 else 0o644)
        print(f"  unpacked {wheel.name}", flush=True)


def ensure_user(name: str) -> None:
    """For a machine without useradd (a minimal image): the passwd and group lines it writes."""
    import pwd
    try:
        pwd.getpwnam(name)
        return
    except KeyError:
        pass
    used = {p.pw_uid for p in pwd.getpwall()}
    uid = next(u for u in range(54321, 60000) if u not in used)
    with open("/etc/group", "a") as f:
        f.write(f"{name}:x:{uid}:\n")
    with open("/etc/passwd", "a") as f:
        f.write(f"{name}:x:{uid}:{uid}:scale bench:/tmp:/bin/sh\n")
    print(f"  added user {name} ({uid}) to /etc/passwd", flush=True)


def as_user(name: str, command: list[str]) -> None:
    """exec COMMAND as NAME: PostgreSQL refuses to start as root, and there may be no su/sudo."""
    import pwd
    p = pwd.getpwnam(name)
    os.chdir("/")
    os.setgroups([])
    os.setgid(p.pw_gid)
    os.setuid(p.pw_uid)
    os.environ.update(HOME=p.pw_dir or "/tmp", USER=name, LOGNAME=name)
    os.execv(command[0], command)


def untar(archive: str, target: str) -> None:
    with tarfile.open(archive) as tar:
        tar.extractall(target, filter="tar")  # modes kept (executables), nothing outside TARGET


def wait_tcp(port: int, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            if time.monotonic() > deadline:
                sys.exit(f"nothing listens on 127.0.0.1:{port} after {seconds} s")
            time.sleep(0.2)


def redis_ping(port: int) -> None:
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        s.sendall(b"PING\r\n")
        answer = s.recv(64)
    if not answer.startswith(b"+PONG"):
        sys.exit(f"redis answered {answer!r}")
    print("  redis: PONG", flush=True)


def stamp(path: str) -> None:
    with open(path, "a", buffering=1) as out:
        for line in sys.stdin:
            sys.stdout.write(line)
            sys.stdout.flush()
            out.write(f"{time.time():.3f}\t{line}")


# --- CPU sampling ---------------------------------------------------------------------------

TICKS = os.sysconf("SC_CLK_TCK")
GROUPS = ("daphne", "clients", "postgres", "redis", "haproxy")


def _group(pid: str, comm: str, cache: dict) -> str | None:
    if pid in cache:
        return cache[pid]
    group = None
    if comm.startswith("postgres") or comm.startswith("postmaster"):
        group = "postgres"
    elif comm.startswith("redis-server"):
        group = "redis"
    elif comm.startswith("haproxy") or comm.startswith("ld-linux"):
        # the carried haproxy runs under its own loader, which is then the process's name
        group = "haproxy"
    else:
        try:
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ")
        except OSError:
            cmd = b""
        if b"daphne" in cmd:
            group = "daphne"
        elif b"ws_load" in cmd or b"multiprocessing" in cmd:  # the bench and its spawned clients
            group = "clients"
    cache[pid] = group
    return group


def _snapshot(cache: dict) -> tuple[list[int], dict]:
    cpu = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    per = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            raw = Path(f"/proc/{entry.name}/stat").read_text()
        except OSError:
            continue
        comm = raw[raw.index("(") + 1:raw.rindex(")")]
        fields = raw[raw.rindex(")") + 2:].split()
        group = _group(entry.name, comm, cache)
        if group:
            per[entry.name] = (group, int(fields[11]) + int(fields[12]))
    return cpu, per


def sample(path: str, interval: float = 2.0) -> None:
    cores = os.cpu_count() or 1
    cache: dict = {}
    cpu0, per0 = _snapshot(cache)
    t0 = time.time()
    with open(path, "a", buffering=1) as out:
        out.write("time\tbusy_cores\t" + "\t".join(f"{g}_pct" for g in GROUPS) + "\n")
        while True:
            time.sleep(interval)
            cpu1, per1 = _snapshot(cache)
            t1 = time.time()
            total = sum(cpu1) - sum(cpu0)
            idle = (cpu1[3] + cpu1[4]) - (cpu0[3] + cpu0[4])
            busy = (total - idle) / total * cores if total else 0.0
            used = dict.fromkeys(GROUPS, 0)
            for pid, (group, ticks) in per1.items():
                used[group] += ticks - per0.get(pid, (group, 0))[1]
            wall = t1 - t0
            out.write(f"{t1:.3f}\t{busy:.2f}\t" + "\t".join(
                f"{used[g] / TICKS / wall * 100:.0f}" for g in GROUPS) + "\n")
            cpu0, per0, t0 = cpu1, per1, t1


# --- the summary ----------------------------------------------------------------------------

# The lines of bench/ws_load.py's report that the table is made of.
ROOMS = re.compile(r"^rooms: ([\d.]+)/s over ([\d.]+) s; latency ms p50 (\S+) p95 (\S+) p99 (\S+) "
                   r"max (\S+); errors (\d+).*client processes \d+, CPU (\d+)%")
PER_ACTION = re.compile(r"^\s+CPU per action: server processes ([\d.]+) ms; (.*)")
ECHO = re.compile(r"^echo baseline: ([\d.]+)/s over .*?p50 (\S+) p95 (\S+) p99 (\S+)")
SERVER = re.compile(r"^\s+server process (\d+): CPU (\d+)% of one core")
SEATED = re.compile(r"\d+ connected and seated in [\d.]+ s(?:, (\d+) failed)?")


def _read_run(run: Path) -> dict:
    meta = dict(line.split("=", 1) for line in (run / "meta").read_text().split() if "=" in line)
    row = {"run": run.name, **meta}
    stamped = []
    if (run / "out.tsv").exists():
        for line in (run / "out.tsv").read_text(errors="replace").splitlines():
            t, _, text = line.partition("\t")
            stamped.append((float(t), text))
    section = None
    seated_at = None
    for t, text in stamped:
        if seated_at is None and (m := SEATED.search(text)):
            # ws_load's window starts its warm-up after this line (the echo baseline reseats
            # silently)
            seated_at = t
            row["conn_fail"] = int(m.group(1) or 0)
        if m := ROOMS.match(text):
            section = "rooms"
            row.update(actions=float(m.group(1)), p50=m.group(3), p95=m.group(4), p99=m.group(5),
                       max=m.group(6), errors=int(m.group(7)), client_cpu=int(m.group(8)))
            row["server_cpu"] = []
        elif m := ECHO.match(text):
            section = "echo"
            row.update(echo_p50=m.group(2), echo_p99=m.group(4))
        elif (m := PER_ACTION.match(text)) and section == "rooms":
            row["server_ms"] = float(m.group(1))
            if pg := re.search(r"PostgreSQL \d+% \(([\d.]+) ms\)", m.group(2)):
                row["pg_ms"] = float(pg.group(1))
        elif (m := SERVER.match(text)) and section == "rooms":
            row["server_cpu"].append(int(m.group(2)))
    if seated_at is not None and (run / "cpu.tsv").exists():
        start = seated_at + float(meta["warmup"])
        end = start + float(meta["seconds"])
        rows = []
        for line in (run / "cpu.tsv").read_text().splitlines()[1:]:
            fields = line.split("\t")
            # a sample covers the interval before its time stamp
            if len(fields) == 2 + len(GROUPS) and start + 1 < float(fields[0]) <= end + 1:
                rows.append([float(x) for x in fields[1:]])
        if rows:
            means = [statistics.fmean(col) for col in zip(*rows, strict=True)]
            row["busy_cores"] = means[0]
            for g, v in zip(GROUPS, means[1:], strict=True):
                row[f"{g}_pct"] = v
    return row


def summary(runs_dir: str, tsv: str) -> None:
    rows = [_read_run(r) for r in sorted(Path(runs_dir).iterdir()) if (r / "meta").exists()]
    rows.sort(key=lambda r: (int(r.get("procs", 0)), int(r.get("clients", 0)), r.get("flags", "")))
    columns = [
        ("procs", "procs", "{}"), ("clients", "clients", "{}"), ("flags", "flags", "{}"),
        ("db_thr", "db_threads", "{}"), ("actions/s", "actions", "{:.1f}"),
        ("act/s/cl", None, None), ("p50", "p50", "{}"), ("p95", "p95", "{}"),
        ("p99", "p99", "{}"), ("max", "max", "{}"), ("err", "errors", "{}"),
        ("connfail", "conn_fail", "{}"), ("daphne%each", None, None),
        ("client%max", "client_cpu", "{}"), ("srv_ms/act", "server_ms", "{:.2f}"),
        ("pg_ms/act", "pg_ms", "{:.2f}"), ("haproxy%", "haproxy_pct", "{:.0f}"), ("pg%", "postgres_pct", "{:.0f}"),
        ("redis%", "redis_pct", "{:.0f}"), ("busy_cores", "busy_cores", "{:.1f}"),
        ("echo_p50", "echo_p50", "{}"), ("echo_p99", "echo_p99", "{}"), ("rc", "rc", "{}"),
        ("wall_s", "wall", "{}"),
    ]
    table = [[c[0] for c in columns]]
    for row in rows:
        cells = []
        for title, key, fmt in columns:
            if title == "act/s/cl":
                cells.append(f"{row['actions'] / int(row['clients']):.3f}"
                             if "actions" in row else "-")
            elif title == "daphne%each":
                cells.append("/".join(map(str, row.get("server_cpu", []))) or "-")
            else:
                cells.append(fmt.format(row[key]) if key in row and row[key] != "" else "-")
        table.append(cells)
    widths = [max(len(r[i]) for r in table) for i in range(len(columns))]
    print("latency in ms; CPU in % of one core, averaged over the measured window;"
          " act/s/cl: actions per second per client (offered ~0.25-0.3 at think 1 s)")
    for r in table:
        print("  ".join(cell.rjust(w) for cell, w in zip(r, widths, strict=True)))
    with open(tsv, "w") as f:
        for r in table:
            f.write("\t".join(r) + "\n")
    cores = os.cpu_count() or 1
    for row in rows:
        name = f"{row.get('procs')} process(es), {row.get('clients')} clients"
        if row.get("rc") not in ("0", None):
            print(f"note: {name}: exit {row.get('rc')}")
        if row.get("client_cpu", 0) >= 80:
            print(f"note: {name}: a client process used {row['client_cpu']}% of a core: the load "
                  f"generator may have set the latency")
        if row.get("busy_cores", 0) >= 0.9 * cores:
            print(f"note: {name}: the machine was saturated ({row['busy_cores']:.1f} of {cores} cores busy)")
        if row.get("errors") or row.get("conn_fail"):
            print(f"note: {name}: {row.get('errors', 0)} errors, {row.get('conn_fail', 0)} failed connections")


def main() -> None:
    command, args = sys.argv[1], sys.argv[2:]
    if command == "install":
        install(*args)
    elif command == "ensure-user":
        ensure_user(args[0])
    elif command == "as-user":
        as_user(args[0], args[1:])
    elif command == "untar":
        untar(*args)
    elif command == "wait-tcp":
        wait_tcp(int(args[0]), float(args[1]))
    elif command == "redis-ping":
        redis_ping(int(args[0]))
    elif command == "stamp":
        stamp(args[0])
    elif command == "sample":
        sample(args[0], float(args[1]) if len(args) > 1 else 2.0)
    elif command == "summary":
        summary(args[0], args[1])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
