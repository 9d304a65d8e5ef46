"""What `frapnet host`, `frapnet play` and `frapnet join` read from their command lines the same
way: table options (``--option KEY=VALUE``) and the default player name. Cheap to import."""
from __future__ import annotations

import getpass
import json


def parse_options(items: list[str]) -> dict:
    """``["ante=200", "cut_in=false"]`` → ``{"ante": 200, "cut_in": False}`` (JSON if possible).
    Raises ValueError for an item without ``=`` or a key, or a JSON value nested too deeply
    for the parser."""
    out = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise ValueError(f"--option {item!r}: expected KEY=VALUE")
        try:
            out[key.strip()] = json.loads(value)
        except ValueError:
            out[key.strip()] = value
        except RecursionError:
            raise ValueError(f"--option {key.strip()}: the value is nested too deeply") from None
    return out


def default_name() -> str:
    """The login name, else "Player"."""
    try:
        return getpass.getuser() or "Player"
    except Exception:  # noqa: BLE001 - no login name in some containers
        return "Player"


def print_web_address(handle, bind: str, interfaces=None, qr: bool = True) -> str | None:
    """If the host ``handle`` serves the web page (``handle.web_port``), print ``frapnet: web page
    at URL`` and the URL as a QR code (for a phone's camera) on stdout; return the URL (None if
    there is no web page). The address is the one players reach: ``bind`` if it names one
    interface, else the first of ``interfaces``, else this machine's first LAN address."""
    port = getattr(handle, "web_port", None)
    if port is None:
        return None
    from frapnet.net.web import lan_address, qr_text, web_url

    url = web_url(lan_address(bind, interfaces), port)
    print(f"frapnet: web page at {url}", flush=True)
    if qr:
        code = qr_text(url)
        try:
            if code:
                print(code, end="", flush=True)
        except UnicodeEncodeError:  # a terminal without UTF-8: the address above is enough
            pass
    return url
