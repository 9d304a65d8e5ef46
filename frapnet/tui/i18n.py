"""Languages of the terminal client's own chrome (gettext catalogues in frapnet/locale).

The game's own words (action labels, log lines, phase names) come from the host in the
seat's language (the hello carries ``lang``); this module translates only what the client
itself writes: headings, key hints, help, dialogs, connection states.

- :func:`default_lang` — ``"ru"`` or ``"en"`` from the environment (LANGUAGE, LC_ALL,
  LC_MESSAGES, LANG, in gettext's order).
- :func:`translation` — a :class:`gettext.NullTranslations` for ``"en"`` or ``"ru"``.
- :func:`compile_po` — a tiny msgfmt: the text of a .po file → the bytes of a .mo file.
  ``python -m frapnet.tui.i18n`` recompiles every catalogue in frapnet/locale (a dev step;
  at run time only the standard library's gettext is needed).
"""
from __future__ import annotations

import ast
import gettext
import os
import struct
from pathlib import Path

DOMAIN = "frapnet"
LANGS = ("en", "ru")
LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"


def default_lang(environ=None) -> str:
    """``"ru"`` if the first set of LANGUAGE, LC_ALL, LC_MESSAGES, LANG names Russian, else ``"en"``."""
    env = os.environ if environ is None else environ
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        val = env.get(var)
        if val:
            first = val.split(":")[0].strip().lower()
            return "ru" if first.startswith("ru") else "en"
    return "en"


def check_lang(lang: str) -> str:
    """Return ``lang`` if it is one the client speaks; raise ValueError naming the choices."""
    if lang not in LANGS:
        raise ValueError(f"unknown language {lang!r} (choose one of: {', '.join(LANGS)})")
    return lang


def translation(lang: str) -> gettext.NullTranslations:
    """The chrome's catalogue for ``lang`` (English is the source language: no catalogue)."""
    if lang == "en":
        return gettext.NullTranslations()
    return gettext.translation(DOMAIN, localedir=str(LOCALE_DIR), languages=[lang], fallback=True)


# --- a tiny msgfmt (dev tool) -----------------------------------------------------------------

def parse_po(text: str) -> dict[str, str]:
    """Parse a .po file's text into ``{msgid: msgstr}`` (msgctxt joined with ``\\x04``, as gettext
    does). Supports the subset frapnet's catalogues use: msgctxt, msgid, msgstr, continued string
    lines, comments. Fuzzy and empty translations are skipped (except the header). Raises
    ValueError naming the line of a malformed entry."""
    out: dict[str, str] = {}
    entry: dict[str, str] = {}
    key = None
    fuzzy = False

    def flush():
        nonlocal entry, fuzzy
        if "msgid" in entry:
            mid = entry["msgid"]
            if "msgctxt" in entry:
                mid = entry["msgctxt"] + "\x04" + mid
            s = entry.get("msgstr", "")
            if (s and not fuzzy) or mid == "":
                out[mid] = s
        entry = {}
        fuzzy = False

    for no, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#"):
            if line.startswith("#,") and "fuzzy" in line:
                flush()
                fuzzy = True
            continue
        for kw in ("msgctxt", "msgid", "msgstr"):
            if line.startswith(kw + " "):
                if kw in ("msgctxt", "msgid") and "msgstr" in entry:
                    keep = fuzzy
                    flush()
                    fuzzy = keep
                key = kw
                line = line[len(kw):].strip()
                entry[key] = ""
                break
        else:
            if not line.startswith('"') or key is None:
                raise ValueError(f"line {no}: cannot parse {raw!r}")
        try:
            entry[key] += ast.literal_eval(line)
        except (SyntaxError, ValueError):
            raise ValueError(f"line {no}: bad string {line!r}") from None
    flush()
    return out


def compile_po(text: str) -> bytes:
    """The GNU .mo bytes (little-endian, no hash table) for a .po file's text."""
    cat = parse_po(text)
    keys = sorted(cat)
    ids = b""
    strs = b""
    offsets = []
    for k in keys:
        kb, vb = k.encode("utf-8"), cat[k].encode("utf-8")
        offsets.append((len(ids), len(kb), len(strs), len(vb)))
        ids += kb + b"\0"
        strs += vb + b"\0"
    n = len(keys)
    key_start = 7 * 4 + 16 * n
    val_start = key_start + len(ids)
    ko, vo = [], []
    for o1, l1, o2, l2 in offsets:
        ko += [l1, o1 + key_start]
        vo += [l2, o2 + val_start]
    header = struct.pack("<Iiiiiii", 0x950412DE, 0, n, 7 * 4, 7 * 4 + n * 8, 0, 0)
    return header + struct.pack(f"<{2 * n}i", *ko) + struct.pack(f"<{2 * n}i", *vo) + ids + strs


def build_all(locale_dir: Path = LOCALE_DIR) -> list[Path]:
    """Compile every ``*/LC_MESSAGES/frapnet.po`` under ``locale_dir``; return the .mo paths."""
    done = []
    for po in sorted(locale_dir.glob(f"*/LC_MESSAGES/{DOMAIN}.po")):
        mo = po.with_suffix(".mo")
        mo.write_bytes(compile_po(po.read_text(encoding="utf-8")))
        done.append(mo)
    return done


if __name__ == "__main__":  # python -m frapnet.tui.i18n
    for p in build_all():
        print(p)
