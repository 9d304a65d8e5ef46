"""Napoleon (Клад Наполеона) for frapnet: the game plugin lives in :mod:`frapnet_napoleon.plugin`.

Installed with ``pip install ./variants/napoleon``; frapnet finds it through the entry point
``napoleon`` in the group ``frapnet``. Rule book: docs/rules/napoleon.md (N1–N9).
"""
__version__ = "0.1.0"
