"""The frapnet rules engine: pure, deterministic functions over plain state.

    state = new_match("frap", 4, {"ante": 100})
    state, events = start_deal(state, deck, dealer=0)
    legal_actions(state, seat) -> [("frap",), ("pass",), ...]
    state, events = apply(state, seat, ("play", "10H"))
    view(state, seat) -> dict     # seat None: a spectator
    pub = public_view(state); seat_view(state, seat, pub)   # the same views, public part built once

No I/O, no clock, no shuffling, no Twisted or prompt_toolkit. Games are plugins
(frapnet.hookspecs); Frap is the built-in one (frapnet.games.frap). ``new_match`` without a
``registry`` uses the installed plugins once :mod:`frapnet.plugins` is imported (records, bots
and the commands do); a table's hook callers are :class:`frapnet.engine.rules.Rules`.
"""
from frapnet.engine.core import (action_to_wire, apply, check_options, deal_report, deal_stats, describe_event, legal_actions,
                                 match_report, new_match, next_dealer, normalize_action, pack, public_view, record,
                                 seat_part, seat_parts, seat_view, start_deal, view)
from frapnet.engine.state import BETWEEN, DEAL, OVER, State
from frapnet.errors import RuleError

__all__ = ["new_match", "start_deal", "legal_actions", "apply", "view", "record", "pack",
           "next_dealer", "deal_report", "match_report", "check_options", "normalize_action",
           "action_to_wire", "describe_event", "public_view", "seat_view", "seat_part", "seat_parts", "State", "RuleError", "DEAL", "BETWEEN", "OVER"]
