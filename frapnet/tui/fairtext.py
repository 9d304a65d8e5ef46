"""A failed fairness check's detail in the client's language (docs/fairness.md).

:class:`frapnet.net.dealcheck.DealChecker` says in English what the host did not deal as it
committed to (``Verdict.problem``, and the problems of :func:`frapnet.fairness.check_proof` it
passes on). The terminal client shows that detail after "DEAL n FAILED THE FAIRNESS CHECK";
:func:`problem_text` says it in the client's language: :data:`PROBLEMS` are the templates the
detail is made from (gettext msgids, translated in frapnet/locale), its cards named as the rule
books name them (:func:`frapnet.cards.card_text`: ``Д♠``). tests/test_tui_fairtext.py checks that
every problem written in those two modules is one of them.
"""
from __future__ import annotations

from typing import Callable

from frapnet.cards import card_text
from frapnet.tui.phrases import Phrases
from frapnet.tui.text import safe_text

PROBLEMS = Phrases((
    # frapnet/net/dealcheck.py
    "the host sent two different commitments for this deal",
    "the reveal holds no proof",
    "the reveal's commitment is not the one sent before the deal",
    "the nonce hashes revealed are not the ones sent before the deal",
    "your own nonce is missing or changed in the reveal",
    "your hand held {cards}, which the committed shuffle does not deal you (it deals you {dealt})",
    "the turn-up was {card}; the committed shuffle turns up {other}",
    "{card} was shown as a turn-up, but the committed shuffle deals it to a hand",
    "you held {card}, which the committed shuffle deals to another seat",
    "seat {seat} played {card}, which the committed shuffle deals to another seat",
    "the host never revealed its seed for this deal",
    # frapnet/fairness.py (check_proof, from_hex, proof_nonces)
    "no shuffle proof (commitment, seed, salt, nonces) in the record",
    "unknown shuffle scheme {scheme} (this program checks {known})",
    "the commitment is not SHA-256(seed ‖ salt): the seed or salt differs from the one committed",
    "seat {seat}'s nonce was never committed (no hash for it)",
    "seat {seat}'s nonce does not match the hash it committed",
    "nonces must be a list of {n} entries (hex or null), not {value}",
    "nonce_hashes must be a list of {n} entries (hex or null)",
    "{what} must be {digits} hex digits ({size} bytes), not {value}",
    "{what} must be {size} bytes",
    "between 1 and {most} seats, not {n}",
))
"""The templates of a fairness problem, as :mod:`frapnet.net.dealcheck` and :mod:`frapnet.fairness` write them."""

VALUES = Phrases(("commitment", "seed", "salt", "nonce", "seat {seat}'s nonce hash", "seat {seat}'s nonce"))
"""What a malformed proof value is (``{what}`` above)."""

_CARD_FIELDS = ("card", "other")
_CARDS_FIELDS = ("cards", "dealt")


def problem_text(problem, gettext: Callable[[str], str], lang: str) -> str:
    """A fairness problem (``Verdict.problem``) as one safe line in ``lang``: in English as written;
    in another language its template translated by ``gettext``, cards in that language's letters;
    a problem made from none of :data:`PROBLEMS` is shown as written."""
    text = safe_text(problem or "", 300)

    def field(name: str, value: str) -> str:
        if name in _CARD_FIELDS:
            return card_text(value, lang)
        if name in _CARDS_FIELDS:
            if value == "other cards":
                return gettext("other cards")
            return " ".join(card_text(c, lang) for c in value.split(" "))
        if name == "what":
            return VALUES.say(value, gettext, lang) or value
        return value

    return PROBLEMS.say(text, gettext, lang, field) or text
