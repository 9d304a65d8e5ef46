"""Computer players: ordinary network clients that play any game from the view alone.

- :mod:`frapnet.bots.strategy` — pure decisions (``random``, ``basic``) from a seat's view.
- :mod:`frapnet.bots.client` — a bot: a TableClient that answers its views; ``start_bots`` for
  a host's ``--bots K``.
"""
