"""English sentences with fields, said again in the client's language (gettext, frapnet/locale).

Some English the client shows is written elsewhere, filled in: a failed fairness check's detail
(:mod:`frapnet.net.dealcheck`, :mod:`frapnet.fairness`), a command line's mistake. A
:class:`Phrases` knows the templates those sentences are made from (``"seat {seat} played
{card}, …"``); given a filled-in sentence it finds its template — the gettext msgid — and its
fields, and says the translation with the same fields (each may be put in the language first).
"""
from __future__ import annotations

import re
from typing import Callable, Iterable


class Phrases:
    """A set of English sentence templates with ``{field}`` places (each field once per template).

    :meth:`match` finds the template a sentence was made from; :meth:`say` says the sentence in
    another language. Templates are tried in order: put the more specific first."""

    def __init__(self, templates: Iterable[str]) -> None:
        self.templates = tuple(templates)
        self._rx = [(re.compile(_pattern(t), re.S), t) for t in self.templates]

    def match(self, text: str) -> tuple[str, dict[str, str]] | None:
        """``(template, fields)`` of the first template ``text`` is made from, else None."""
        if not isinstance(text, str):
            return None
        for rx, template in self._rx:
            m = rx.fullmatch(text)
            if m:
                return template, m.groupdict()
        return None

    def say(self, text: str, gettext: Callable[[str], str], lang: str,
            field: Callable[[str, str], str] | None = None) -> str | None:
        """``text`` in ``lang``: unchanged in English; else its template translated by ``gettext``
        with its fields (``field(name, value)`` puts each in the language first, if given); None
        if ``text`` is made from none of the templates."""
        if lang == "en":
            return text
        hit = self.match(text)
        if hit is None:
            return None
        template, fields = hit
        if field is not None:
            fields = {k: field(k, v) for k, v in fields.items()}
        return gettext(template).format(**fields)


def _pattern(template: str) -> str:
    """The regular expression of ``template``: its text literally, each ``{field}`` a named group."""
    parts = re.split(r"\{(\w+)\}", template)
    return "".join(re.escape(p) if i % 2 == 0 else f"(?P<{p}>.+?)" for i, p in enumerate(parts))
