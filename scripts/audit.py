"""`make audit`: known vulnerabilities in the locked dependencies, or a plain statement that none
could be looked up.

- Python: pip-audit reads requirements/test.txt (a superset of production.txt) without installing
  anything and asks its advisory service (`AUDIT_SERVICE`: `pypi`, the default, or `osv`) about
  each pinned release. pip-audit alone reports a package it could not look up as skipped and
  still exits 0, so this script counts the skipped ones: if any, the audit did not happen.
- npm: `npm audit` on tools/eslint's lock file (eslint and its plugins, used by `make lint` only;
  nothing from npm reaches the site).

Exit status: 0 when both audits ran and found nothing, 1 when either found a vulnerability,
2 when either could not reach its advisory service (the output says which).
"""
import json
import os
import subprocess
import sys
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent
TOOLS_BIN = PROJECT / ".cache" / "tools" / "bin"
FOUND, UNREACHABLE = 1, 2


def audit_python() -> int:
    service = os.environ.get("AUDIT_SERVICE", "pypi")
    run = subprocess.run(
        [str(TOOLS_BIN / "pip-audit"), "--requirement", str(PROJECT / "requirements" / "test.txt"),
         "--require-hashes", "--disable-pip", "--vulnerability-service", service,
         "--format", "json", "--progress-spinner", "off"],
        capture_output=True, text=True)
    try:
        report = json.loads(run.stdout)
    except json.JSONDecodeError:
        last_line = (run.stderr.strip().splitlines() or ["no output"])[-1]
        print(f"python: NOT AUDITED: pip-audit could not ask the '{service}' advisory service ({last_line})")
        return UNREACHABLE
    dependencies = report["dependencies"]
    skipped = [d["name"] for d in dependencies if "skip_reason" in d]
    if skipped:
        print(f"python: NOT AUDITED: the '{service}' advisory service answered for "
              f"{len(dependencies) - len(skipped)} of {len(dependencies)} locked packages "
              f"(none for {', '.join(skipped[:5])}{', ...' if len(skipped) > 5 else ''}); "
              "run `make audit` where it is reachable, or try AUDIT_SERVICE=osv")
        return UNREACHABLE
    vulnerable = [d for d in dependencies if d["vulns"]]
    for dependency in vulnerable:
        for vuln in dependency["vulns"]:
            fixed = ", ".join(vuln["fix_versions"]) or "no fixed release yet"
            print(f"python: {dependency['name']} {dependency['version']}: {vuln['id']} (fixed in {fixed})")
    print(f"python: {len(dependencies)} locked packages audited, {len(vulnerable)} with known vulnerabilities")
    return FOUND if vulnerable else 0


def audit_npm() -> int:
    run = subprocess.run(["npm", "audit", "--json"], cwd=PROJECT / "tools" / "eslint",
                         capture_output=True, text=True)
    try:
        report = json.loads(run.stdout)
    except json.JSONDecodeError:
        report = {"message": run.stderr.strip() or "no answer"}
    if "metadata" not in report:
        reason = report.get("message") or report.get("error", {}).get("summary") or "no answer"
        print(f"npm: NOT AUDITED: the registry's audit service did not answer ({reason})")
        return UNREACHABLE
    counts = report["metadata"]["vulnerabilities"]
    total = counts["total"]
    print(f"npm: tools/eslint audited, {total} known vulnerabilities "
          f"({', '.join(f'{n} {level}' for level, n in counts.items() if n and level != 'total') or 'none'})")
    return FOUND if total else 0


def main() -> int:
    results = [audit_python(), audit_npm()]
    return max(results)


if __name__ == "__main__":
    sys.exit(main())
