"""The plugin API's pluggy markers, project ``"frapnet"``: :data:`hookspec` marks a hook
specification (:mod:`frapnet.hookspecs.rules`, ``.views``, ``.bots``), :data:`hookimpl` a plugin's
implementation. Both are exposed by :mod:`frapnet.hookspecs` (``from frapnet.hookspecs import
hookimpl``)."""
from __future__ import annotations

import pluggy

hookspec = pluggy.HookspecMarker("frapnet")
hookimpl = pluggy.HookimplMarker("frapnet")
