"""House rules that ship with frapnet (``pip install frapnet``), loaded like the built-in Frap.

Each module is a house-rule plugin exactly as a one-file plugin in a plugins dir would be
(docs/plugins.md): :mod:`frapnet.house_rules.five_card_frap` (F26). A house rule is active only
at a table that names it (``--house-rule five_card_frap``). Like the games, these modules import
no Twisted, prompt_toolkit or I/O.
"""
