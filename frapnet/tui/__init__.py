"""The terminal client (prompt_toolkit on the Twisted asyncio reactor).

- :mod:`frapnet.tui.model` — the screen model and key handling (pure, testable).
- :mod:`frapnet.tui.render` — drawing the model as formatted text.
- :mod:`frapnet.tui.app` — the Application, the reactor set-up, ``run_client``/``run_local``.
- :mod:`frapnet.tui.text` — safe text (escape sequences and control characters neutralised).
- :mod:`frapnet.tui.i18n` — the chrome's gettext catalogues (English, Russian).
"""
