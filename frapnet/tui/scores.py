"""The settlement of each deal, the score sheet of the match and the final standings.

A mixin of :class:`frapnet.tui.model.Screen`. Nothing here knows a game: the settlement's own
columns come from the view's ``ui.report`` (the game plugin's words for the last deal report,
so they hold after a reconnect too: F23's trick money is read from the deal's result, never
summed from events), then the change over the deal and the balance or points after it.
"""
from __future__ import annotations

from frapnet.tui.text import SEAT_TAKEN_OVER, fmt_amount, safe_name
from frapnet.tui.viewdata import in_deal, report_balances


def amount_text(n, signed: bool = True) -> str:
    """An amount as the ledger shows it: ``+200``/``−100`` (chips), or ``3`` (penalty points)."""
    if signed or not isinstance(n, int) or isinstance(n, bool):
        return fmt_amount(n)
    return str(n) if n >= 0 else fmt_amount(n)


class ScoresMixin:
    """Settlements (``self.settlement``), the score sheet (``self.scores``) and the standings."""

    def take_sheet(self, view: dict) -> None:
        """The host's score sheet (the view's ``sheet``: the latest settled deals' totals, so a
        player who joins or reconnects mid-match sees them; ``sheet_base``: the balances before
        the first of them when it does not start at the match's first deal): the score sheet and
        the balances before each deal (for the settlement's change column) are taken from it.
        Deals older than the host lists (a long match: docs/protocol.md "view") stay as this
        client saw them."""
        rows = view.get("sheet")
        if not rows:
            return
        base = view.get("sheet_base")
        first = rows[0]["deal"]
        seen = (first, rows[-1]["deal"], len(rows), rows[-1]["after"])
        if seen == self._sheet_seen and self.scores:  # the same sheet as the last view's (most views)
            return
        self._sheet_seen = seen
        prev = list(base) if base is not None else [0] * len(rows[0]["after"])
        # a sheet from the match's first deal is the whole match: exactly the host's; else the
        # deals before its first row are kept from what this client saw — if they lead to it (the
        # deal just before ends at sheet_base), so never a former match's (a rematch missed)
        before = self.scores.get(first - 1)
        kept = base is not None and before is not None and before["after"] == list(base)
        scores = {d: x for d, x in self.scores.items() if d < first} if kept else {}
        for r in rows:
            self._bases[r["deal"]] = prev
            scores[r["deal"]] = {"net": [a - b for a, b in zip(r["after"], prev)], "after": list(r["after"])}
            prev = r["after"]
        self._bases.setdefault(rows[-1]["deal"] + 1, prev)
        self.scores = scores

    def show_settlement(self, report: dict, deal_no: int, view: dict) -> None:
        """Build the settlement of deal ``deal_no`` from ``report`` and the ``view`` that carries
        it (``ui.report``: the game's columns), remember the deal on the score sheet, log it and
        open it over the table until dismissed."""
        self._settled.add(deal_no)
        n = self.players
        u = view.get("ui") or {}
        after = report_balances(report)
        if after is None and not in_deal(view) and isinstance(view.get("balances"), list):
            after = view["balances"]
        base = self._bases.get(deal_no)
        rep = u.get("report") or {"columns": [], "notes": []}
        rows = []
        for s in range(n):
            b = after[s] if isinstance(after, list) and s < len(after) and isinstance(after[s], int) else None
            rows.append({"seat": s, "name": self.name(s),
                         "cells": [c["cells"][s] if s < len(c["cells"]) else "" for c in rep["columns"]],
                         "net": (b - base[s]) if b is not None and base and s < len(base) else None,
                         "balance": b})
        pot_after = report.get("pot_after") if isinstance(report.get("pot_after"), int) else None
        self.settlement = {"deal_no": deal_no, "rows": rows, "heads": [c["title"] for c in rep["columns"]],
                           "notes": list(rep["notes"]), "pot_after": pot_after,
                           "ledger": dict(u.get("ledger") or {}), "pot": self.pot_word()}
        self._score(deal_no, rows)
        self.add_log("settle", self.settlement_line())
        if self.overlay in (None, "settlement"):
            self.overlay = "settlement"

    def _score(self, deal_no: int, rows) -> None:
        self.scores[deal_no] = {"net": [r["net"] for r in rows], "after": [r["balance"] for r in rows]}

    def _fill_settlement(self, view: dict) -> None:
        """A view between deals brings the balances a report without them lacks."""
        st = self.settlement
        bal = view.get("balances")
        if not st or in_deal(view) or not isinstance(bal, list) or view.get("deal_no") != st["deal_no"]:
            return
        base = self._bases.get(st["deal_no"])
        for r in st["rows"]:
            s = r["seat"]
            if r["balance"] is None and s < len(bal) and isinstance(bal[s], int):
                r["balance"] = bal[s]
                if base and s < len(base):
                    r["net"] = bal[s] - base[s]
        self._score(st["deal_no"], st["rows"])

    @property
    def final_deal(self) -> bool:
        """No deal follows the deal settled last (the open settlement's, else the view's): the
        match is over (view or the host's closing message) with no later deal dealt, or that deal
        is the host's deal limit (welcome ``deals``). A settlement seen after the next deal began
        (the view is of deal 2 of 2 while deal 1's box is open) does not say "match over"."""
        v = self.view or {}
        dn = v.get("deal_no")
        settled = (self.settlement or {}).get("deal_no")
        if isinstance(settled, int) and isinstance(dn, int) and settled < dn:
            dn = settled  # a later deal is under way: deal `settled` was not the last
        elif v.get("match_over") or self.closed is not None:
            return True
        limit = (self.welcome or {}).get("deals")
        return isinstance(limit, int) and isinstance(dn, int) and limit > 0 and dn >= limit

    def pot_word(self):
        """The pot's name in the game's words (``ui.pot``: "pot", Napoleon's "treasure"); None in
        a game without a pot. A view without ``ui`` (an older host): "pot" unless points."""
        v = self.view or {}
        u = v.get("ui") or {}
        if u.get("pot") or u.get("pot_given"):
            return u.get("pot")
        return None if v.get("ledger") == "points" else self._("pot")

    def pot_sentence(self) -> str:
        """What happens to the pot after the settled deal, never promising a deal that will not come."""
        _ = self._
        st = self.settlement or {}
        pot = st.get("pot_after")
        word = st.get("pot")
        if word is None:  # a game without a pot (points)
            return _("The match is over.") if self.final_deal else ""
        if self.final_deal:
            return _("The match is over; {n} is left in the {pot}.").format(n=pot, pot=word) if pot else \
                _("The match is over.")
        if pot:
            return _("{pot} {n} carried to the next deal.").format(pot=word[:1].upper() + word[1:], n=pot)
        if pot == 0:
            return _("The {pot} is empty.").format(pot=word)
        return ""

    def settlement_line(self) -> str:
        """One line: ``Deal 1 settled: Olga +100, Ivan −300, …; pot 400 carried over``."""
        _ = self._
        st = self.settlement
        if not st:
            return ""
        signed = st["ledger"].get("signed", True)
        parts = []
        for r in st["rows"]:
            amt = r["net"] if r["net"] is not None else r["balance"]
            parts.append(r["name"] + (" " + amount_text(amt, signed) if amt is not None else ""))
        pot = st["pot_after"]
        tail = ""
        if self.final_deal:
            tail = _("match over")
        elif pot and st.get("pot"):
            tail = _("{pot} {n} carried over").format(pot=st["pot"], n=pot)
        line = _("Deal {n} settled:").format(n=st["deal_no"]) + " " + ", ".join(parts)
        return line + ("; " + tail if tail else "")

    # --- the score sheet and the standings --------------------------------------------------------

    def score_rows(self) -> list[tuple[int, list, list]]:
        """The score sheet: per deal, ``(deal_no, change per seat, total per seat)``, oldest first
        (from the host's ``sheet``: every deal of the match; None where unknown — an older host
        that sends no sheet, for deals before this client arrived)."""
        return [(dn, x["net"], x["after"]) for dn, x in sorted(self.scores.items())]

    def sheet_total(self) -> list | None:
        """The score sheet's total row: the balances or points after the last deal it lists (each
        row's running total), so it adds up what the sheet lists; None without a settled deal."""
        rows = self.score_rows()
        after = rows[-1][2] if rows else None
        if after and all(isinstance(x, int) and not isinstance(x, bool) for x in after):
            return list(after)
        return None

    def unfinished_deal(self) -> int | None:
        """The deal under way — or cut short when the table closed — that the score sheet does not
        list yet: its number (the host's closing result says it: ``unfinished``, ``deals``; else the
        last view), else None."""
        res = getattr(self, "final_report", None) or {}
        dn = res.get("deals")
        if res.get("unfinished") is True and isinstance(dn, int) and not isinstance(dn, bool) and dn > 0:
            return dn
        v = self.view or {}
        dn = v.get("deal_no")
        if isinstance(dn, int) and dn > 0 and in_deal(v) and dn not in self.scores:
            return dn
        return None

    def totals(self) -> list | None:
        """The latest balances or points per seat: the host's closing result, else the view's."""
        if isinstance(self.final_result, list):
            return self.final_result
        bal = (self.view or {}).get("balances")
        return bal if isinstance(bal, list) and bal else None

    def standings(self) -> list[tuple[int, str, int]]:
        """``(place, name, total)`` best first (``ui.ledger.best``: "low" for penalty points),
        equal totals sharing a place."""
        tot = self.totals()
        if not tot:
            return []
        low = ((self.view or {}).get("ui") or {}).get("ledger", {}).get("best") == "low"
        order = sorted(range(len(tot)), key=lambda s: (tot[s] if low else -tot[s], s))
        out, place = [], 0
        for i, s in enumerate(order):
            if i == 0 or tot[s] != tot[order[i - 1]]:
                place = i + 1
            out.append((place, self.name(s), tot[s]))
        return out

    def unplayed_sentence(self) -> str:
        """What the host's closing result says beyond the balances (docs/rules/frap.md "What
        frapnet decided" 7): the deal it ended in the middle of (``unfinished``), and the chips
        left in the pot, unplayed (balances + pot = 0, F6); "" if neither."""
        _ = self._
        res = getattr(self, "final_report", None) or {}
        pot, deal, word = res.get("pot"), res.get("deals"), self.pot_word()
        pot = pot if isinstance(pot, int) and not isinstance(pot, bool) and pot and word else None
        if res.get("unfinished") is True and isinstance(deal, int) and not isinstance(deal, bool):
            if pot is None:
                return _("Deal {deal} was not finished.").format(deal=deal)
            return _("Deal {deal} was not finished: {amount} stays in the {pot}, unplayed; what the players paid "
                     "into the {pot} is already counted in the balances above.").format(deal=deal, amount=pot, pot=word)
        return _("{amount} is left in the {pot}, unplayed.").format(amount=pot, pot=word) if pot is not None else ""

    def standings_text(self) -> str:
        """The final standings for the terminal after the client has exited ("" if no deal was
        settled): a heading — how many deals were played to the end, when the last was not — and
        one line per player, then :meth:`unplayed_sentence` if the host's result has one (the deal
        it ended in, the pot left), else, left in the middle of a deal, which deal was not finished
        (and that the figures count what was paid into it). Once another connection took the seat
        with its token (``replaced``), no standings — the match goes on there — but that sentence."""
        _ = self._
        if getattr(self, "replaced", False):
            return _(SEAT_TAKEN_OVER)
        rows = self.standings()
        if not rows or not (self.scores or self.final_result):
            return ""
        u = (self.view or {}).get("ui") or {}
        led = u.get("ledger") or {}
        title = u.get("title") or safe_name((self.view or {}).get("title") or "", 20)
        deals = max(self.scores) if self.scores else 0  # the deals played to the end
        started = (getattr(self, "final_report", None) or {}).get("deals")  # the host's result: deals started
        cut_short = self.unfinished_deal()
        if cut_short is not None:
            deals = max(deals, cut_short - 1)
        elif isinstance(started, int) and not isinstance(started, bool) and started > deals:
            deals = started  # every deal the host started was played to the end
        if cut_short is None:
            heading = _("Final standings — {game}, {n} deal ({what}):") if deals == 1 else \
                _("Final standings — {game}, {n} deals ({what}):")
        elif not deals:
            heading = _("Final standings — {game}, no deal played to the end ({what}):")
        else:
            heading = _("Final standings — {game}, {n} deal played to the end ({what}):") if deals == 1 else \
                _("Final standings — {game}, {n} deals played to the end ({what}):")
        lines = [heading.format(game=title, n=deals, what=led.get("title") or _("balance"))]
        w = max(len(r[1]) for r in rows)
        for place, name, total in rows:
            lines.append(f"  {place:>2}. {name.ljust(w)}  {amount_text(total, led.get('signed', True))}")
        pot = self.unplayed_sentence()  # the host's words for the deal it ended in and the pot left
        said = (getattr(self, "final_report", None) or {}).get("unfinished") is True
        if cut_short is not None and not said:  # the host does not say it (a table that goes on without you): we do
            base = self.sheet_total() or (None if self.scores else [0] * len(self.totals() or ()))
            pot = _("Deal {deal} was not finished.").format(deal=cut_short)
            if base is not None and list(self.totals() or ()) != base:
                pot = _("Deal {deal} was not finished: these figures count what was already paid into it.").format(
                    deal=cut_short)
        return "\n".join(lines + ([" " + pot] if pot else []))
