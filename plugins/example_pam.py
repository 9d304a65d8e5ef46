"""Pam — the jack of clubs always wins the trick. An example house rule for Frap.

This is the example that docs/plugins.md ("Writing a house rule") walks through, line by line.
"Pam" is the old name, from Loo (Frap's English cousin), for the jack of clubs when it is the
best card in the pack. With this house rule a trick containing J♣ is won by whoever played it,
whatever the trump and whatever was led. Nothing else changes: J♣ is still a club for following
suit (F20), and every other trick is won as Frap's F21 says.

The whole plugin is three things: the API version it was written for, a description of the
house rule, and ONE hook (trick-winning). Everything it does not implement is Frap's.

Try it from a checkout (this folder is loaded by default; elsewhere add --plugins-dir plugins):

    frapnet games                                  # lists "pam — for frap"
    frapnet host --game frap --house-rule pam …     # a table playing with Pam
"""
from __future__ import annotations

# The only frapnet imports a house rule needs: the marker that makes a function a hook
# implementation, and the description it registers.
from frapnet.engine.spec import HouseRuleSpec
from frapnet.hookspecs import hookimpl

# Shown by `frapnet plugins`; the loader uses PLUGIN_NAME (else the file name) as the plugin's name.
PLUGIN_NAME = "example_pam"
__version__ = "1.0"

# The plugin API major version this file was written for (frapnet.hookspecs.API_VERSION "1.x").
# A frapnet with another major refuses to load it, with a message saying so, instead of
# failing in the middle of a deal.
FRAPNET_API = 1

PAM = "JC"  # cards are canonical strings: rank then suit letter (J of clubs)


@hookimpl
def frapnet_register_house_rules(register):
    """Tell frapnet this plugin offers a house rule named "pam", for Frap tables only.

    Its other hooks run only at tables whose host switched "pam" on (and every player who
    joins such a table is shown it: F27).
    """
    register(HouseRuleSpec(
        name="pam", games=("frap",), rule="F21",
        summary="Pam: the jack of clubs wins any trick it is played to (it still follows as a club).",
    ))


@hookimpl
def frapnet_trick_winner(state, trick):
    """Trick-winning (replaces F21 only when J♣ is in the trick).

    ``trick`` is a list of ``(seat, card)`` in playing order, the lead first; return the seat
    that wins. This hook is ``firstresult``: the house rule is registered after Frap, so it is
    asked first, and returning None hands the question to Frap's own F21.
    """
    for seat, card in trick:
        if card == PAM:
            return seat
    return None  # no Pam in this trick: defer to Frap (F21)
