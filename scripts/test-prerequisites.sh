#!/usr/bin/env bash
# What `make test` needs beyond the virtualenv, set up on a fresh machine before the suite runs:
# Debian's chromium (browser tests), haproxy (rooms behind the balancer, deploy/haproxy.cfg),
# a Japanese font (screenshots of the Japanese site) and Node.js with npm (eslint). Installed
# with apt-get when this user can; otherwise the script stops at once and prints the one command
# that installs them.
# PostgreSQL and Redis are optional (the suite falls back to the embedded default without them);
# where this machine has them installed but stopped, they are started again.
set -euo pipefail

packages=()
command -v chromium >/dev/null 2>&1 || packages+=(chromium)
command -v haproxy >/dev/null 2>&1 || packages+=(haproxy)
# Not `grep -q`: under pipefail its early exit would make fc-list fail with SIGPIPE.
fc-list 2>/dev/null | grep -i ipagothic >/dev/null || packages+=(fonts-ipafont-gothic)
# Node.js and npm: `make lint` installs eslint with npm (tools/eslint).
command -v npm >/dev/null 2>&1 || packages+=(nodejs npm)

if ((${#packages[@]})); then
  command="apt-get update && apt-get install -y ${packages[*]}"
  if [[ $(id -u) == 0 ]] && command -v apt-get >/dev/null 2>&1; then
    echo "== installing Debian's ${packages[*]} for the test suite"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${packages[@]}" >/dev/null
  elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null && command -v apt-get >/dev/null 2>&1; then
    echo "== installing Debian's ${packages[*]} for the test suite (sudo)"
    sudo apt-get update -qq
    sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${packages[@]}" >/dev/null
  else
    echo "make test needs ${packages[*]}; install them with:" >&2
    echo "  sudo sh -c '$command'" >&2
    exit 1
  fi
fi

# Services the machine normally starts; started again here if installed but down.
if command -v pg_isready >/dev/null 2>&1 && ! pg_isready -q -h 127.0.0.1 -p 5432 \
    && command -v pg_ctlcluster >/dev/null 2>&1 && [[ -d /etc/postgresql ]]; then
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql)" main start || true
fi
if command -v redis-server >/dev/null 2>&1 && ! redis-cli -h 127.0.0.1 ping >/dev/null 2>&1; then
  redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no \
    --dir /tmp --logfile /tmp/redis-test.log || true
fi
