"""Terminal input that must not raise: prompt_toolkit reads any ``ESC [ digits m`` (a colour code
typed or pasted into the terminal, e.g. ``printf '\\033[31m'``) as a mouse event, and its mouse
handler then fails to unpack it (``ValueError``), drawing a traceback over the table. Bound in
the application's own key bindings, which come after prompt_toolkit's, :func:`mouse_event`
passes a well-formed report on to prompt_toolkit's handler and drops anything else."""
from __future__ import annotations

from prompt_toolkit.key_binding.bindings.mouse import load_mouse_bindings
from prompt_toolkit.keys import Keys

_PTK_MOUSE = load_mouse_bindings().get_bindings_for_keys((Keys.Vt100MouseEvent,))[0].handler


def mouse_event(event):
    """prompt_toolkit's handling of a mouse report, or nothing for input that only looks like one
    (returns what its handler returns; never raises for malformed data)."""
    try:
        return _PTK_MOUSE(event)
    except (ValueError, KeyError, IndexError, TypeError):  # not a mouse report: a pasted escape code
        return None
