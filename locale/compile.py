"""Compiles every locale/<lang>/LC_MESSAGES/*.po into its .mo, in pure Python (polib), so that
neither a fresh machine nor `make messages` needs msgfmt for this step. Fuzzy and untranslated
entries are left out, as msgfmt does; tests/i18n/test_catalogues.py checks every .mo against
its .po with the same reading."""
from __future__ import annotations

import sys
from pathlib import Path

import polib

LOCALE = Path(__file__).resolve().parent


def catalogues() -> list[Path]:
    return sorted(LOCALE.glob("*/LC_MESSAGES/*.po"))


def main() -> int:
    for po_path in catalogues():
        polib.pofile(str(po_path)).save_as_mofile(str(po_path.with_suffix(".mo")))
        print(f"compiled {po_path.relative_to(LOCALE.parent)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
