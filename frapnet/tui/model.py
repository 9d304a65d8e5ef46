"""The terminal client's screen model: what is shown and what each key does, without a terminal.

:class:`Screen` holds the last view the host sent (engine ``view`` + ``names``, ``connection``,
``table``), the log, the chat and the connection status, and the player's selection (cursor,
toggled cards, which card action the hand is choosing for). Its jobs are split by module:

- :mod:`frapnet.tui.faces` — cards on the screen; :mod:`frapnet.tui.actions` — the legal
  actions grouped, and their keys; :mod:`frapnet.tui.viewdata` — the view checked;
- :mod:`frapnet.tui.keys` — what each key does (:meth:`Screen.press`);
- :mod:`frapnet.tui.scores` — settlements, the score sheet, the final standings;
- :mod:`frapnet.tui.rematch` — the rematch question at the match's end.

The client keeps no game words or rules: labels, keys, the game's seat columns, why a card is
refused, where the cursor starts and the settlement's columns all come from the view's ``ui``
map (docs/protocol.md), written by the game plugin in the player's language.
"""
from __future__ import annotations

import math
import time
from collections import Counter, deque
from typing import Any, Callable

from frapnet.tui.actions import Group, assign_keys, group_actions, within
from frapnet.tui.faces import SUIT_SYMBOLS, card_face, hand_order  # noqa: F401 - re-exported
from frapnet.tui.fairtext import problem_text
from frapnet.tui.keys import KeysMixin
from frapnet.tui.rematch import RematchMixin
from frapnet.tui.scores import ScoresMixin
from frapnet.tui.text import DEAL_INTERRUPTED, NAME_CELLS, error_text, safe_name, safe_text, width
from frapnet.tui.viewdata import clean_view, in_deal, report_balances, table_rules_lines

LOG_LINES = 500


class Screen(KeysMixin, ScoresMixin, RematchMixin):
    """Everything the client shows, and the player's selection. Pure: no terminal, no network.

    Feed it with :meth:`set_welcome`, :meth:`set_view`, :meth:`add_event`, :meth:`add_chat`,
    :meth:`add_error`, :meth:`set_status`, :meth:`set_closing`; read :attr:`view` and the derived
    properties; send it keys with :meth:`press`. ``_`` is the chrome's gettext function
    (i18n.translation(lang)); ``lang`` the language cards are named in.
    """

    clock: Callable[[], float] = time.monotonic
    """Seconds, for the turn clock's countdown (tests set a fake one)."""

    def __init__(self, gettext: Callable[[str], str] | None = None, lang: str = "en"):
        self._ = gettext or (lambda s: s)
        self.lang = lang
        self.view: dict | None = None
        self.view_at = 0.0                        # clock() when the view arrived (the turn clock counts from it)
        self.welcome: dict | None = None
        self.status = "connecting"
        self.log: deque[tuple[str, str]] = deque(maxlen=LOG_LINES)
        self.log_offset = 0                       # log lines scrolled back from the newest (PageUp)
        self.log_page = 6                         # lines one PageUp moves (the app sets the pane's height)
        self.log_rows_seen = 0                    # log rows when the pane was last drawn
        self.overlay: str | None = None           # "help", "quit", "settlement", "scores" or None
        self.pending_scores = False               # the score sheet opens when the settlement closes
        self.settlement: dict | None = None
        self.scores: dict[int, dict] = {}         # deal_no → {"net": [...], "after": [...]}
        self.sheet_from = 0                       # the score sheet's first player shown (a wide table)
        self.final_result = None                  # balances from the host's closing message
        self.bell = False                         # ring when it becomes your turn (off by default)
        self.ring = False                         # set when the bell should ring now; the app clears it
        self.show_last_trick = False
        self.cursor = 0
        self.selected: set = set()
        self.mode: str | None = None              # verb of the card group the hand chooses for
        self.message = ""                         # a one-line hint after a refused key
        self.groups: list[Group] = []
        self.keys: dict = {}
        self._actions_sig = None
        self._bases: dict[int, list] = {}         # deal_no → balances before that deal
        self._sheet_seen = None                   # the last score sheet taken from a view (its ends)
        self.clock_seen = False                   # a view showed a turn clock running (the help explains it)
        self._settled: set = set()                # deal numbers whose settlement was shown
        self.closed: str | None = None            # the host's reason, once the table has closed
        self.resumable = False                    # the host said the match resumes (closing's resumable, issue #9)
        self.replaced = False                     # another connection took this seat with its token (closing's code)
        self.local = False                        # the host runs in this process (frapnet play)
        self._turn_up_seen: set = set()           # deals that showed a turn-up card (F10)
        self._explained = False                   # the game's goal and the table rules are logged
        self.fair_deal: int | None = None         # the last deal whose shuffle checked (docs/fairness.md)
        self.unfair: list[int] = []               # deals that failed the fairness check

    # --- input from the connection -----------------------------------------------------------

    def set_welcome(self, info: dict) -> None:
        """The host's welcome: remember it (the table rules are logged with the first view)."""
        self.welcome = info if isinstance(info, dict) else {}

    def set_status(self, status: str) -> None:
        """``connecting``, ``connected``, ``reconnecting`` or ``closed`` (the TableClient's)."""
        _ = self._
        if status == self.status:
            return
        if status == "reconnecting":
            self.add_log("status", _("Connection lost — reconnecting…"))
        elif status == "connected" and self.status == "reconnecting":
            self.add_log("status", _("Reconnected; the table is back."))
        elif status == "closed":
            self.add_log("status", _("The connection is closed."))
        self.status = status
        if self.ended:
            self._drop_actions()

    def _explain(self, view: dict) -> None:
        """Once: the game's goal and special cards, and the table's rules (F27: every option and
        house rule is shown to every joining player), in the game's words, at the log's top."""
        self._explained = True
        u = view["ui"]
        lines = [self._("Goal: {goal}").format(goal=u["goal"])] if u["goal"] else []
        lines += list(u["special_cards"]) + table_rules_lines(view, self.welcome, self._)
        # at the top of the log, above the joining news, so a short log pane still shows the latest
        for line in reversed(lines):
            self.log.appendleft(("rules", safe_text(line)))

    def set_view(self, view: dict) -> None:
        """A new view from the host: recompute the offered actions, keep a still-valid selection;
        a newly settled deal opens its settlement."""
        if not isinstance(view, dict):
            return
        view = clean_view(view)
        prev = self.view
        was_my_turn = self.my_turn
        self.view, self.view_at = view, self.clock()
        if not self.clock_seen and isinstance(view.get("deadlines"), list):
            self.clock_seen = any(isinstance(d, (int, float)) and not isinstance(d, bool) for d in view["deadlines"])
        if not self._explained:
            self._explain(view)
        n = self.players
        dn = view.get("deal_no")
        lr = view.get("last_report")
        dealing = in_deal(view)
        old_dn = prev.get("deal_no") if isinstance(prev, dict) else None
        if isinstance(dn, int) and isinstance(old_dn, int) and dn < old_dn:
            self._new_match()  # a rematch: deals are counted afresh
        if dn != old_dn:
            self.show_last_trick = False  # a new deal has no last trick yet ("." says so)
        self.take_sheet(view)  # every deal of the match so far, from the host
        if isinstance(dn, int) and dn not in self._bases and dealing:
            if lr and report_balances(lr) is not None:
                self._bases[dn] = list(report_balances(lr))
            elif dn == 1:
                self._bases[dn] = [0] * n
        settled_no = (dn - 1 if dealing else dn) if isinstance(dn, int) else None
        if lr and settled_no:
            if prev is None:
                self._settled.add(settled_no)  # a report older than our arrival
            elif settled_no not in self._settled:
                self.show_settlement(lr, settled_no, view)
        if not dealing:
            self._fill_settlement(view)
        if view.get("match_over") and self.scores and self.overlay != "scores":
            self._open_scores()
        if isinstance(dn, int) and view.get("turn_up"):
            self._turn_up_seen.add(dn)
        if self.my_turn and not was_my_turn and self.bell:
            self.ring = True
        hand_known = isinstance(view.get("hand"), list)
        sig = (repr(view.get("actions")), hand_known, repr(view.get("hand")))
        if sig != self._actions_sig and not self.ended:
            self._actions_sig = sig
            self.groups = group_actions(view.get("actions"), hand_known, self.lang)
            self.keys = assign_keys(self.groups, view["ui"]["keys"])
            hg = [g.verb for g in self.groups if g.kind != "simple"]
            old_mode = self.mode
            if self.mode not in hg:
                self.mode = hg[0] if hg else None
            self.selected = set()  # positions on the hand row: a new hand or new choices start afresh
            old_hand = prev.get("hand") if isinstance(prev, dict) else None
            if old_hand != view.get("hand") or old_mode != self.mode:
                # a new hand (bought, discarded, cut in) or a new choice: the cursor starts where
                # the game says (ui.cursor), else on the first card that may be chosen that was
                # not just taken into the hand, so Enter never gives away a card by accident
                if old_hand:
                    fresh = Counter(view.get("hand") or ()) - Counter(old_hand)
                else:  # the hand was face down: the turn-up shown before is the card just taken
                    tu = prev.get("turn_up") if isinstance(prev, dict) else None
                    fresh = Counter([tu] if tu and tu in (view.get("hand") or ()) else [])
                self._reset_cursor(fresh)
            else:
                self._snap_cursor()
            self.message = ""

    def _new_match(self) -> None:
        """A new match at the same table (a rematch): a fresh score sheet and settlements."""
        self._bases, self._settled, self.scores, self._sheet_seen = {}, set(), {}, None
        self.settlement, self.final_result, self.final_report, self.pending_scores = None, None, None, False
        self._turn_up_seen = set()
        self.rematch = None
        if self.overlay in ("settlement", "scores"):
            self.overlay = None

    def _open_scores(self) -> None:
        """At match end the score sheet opens (after the settlement, if that is open)."""
        if self.overlay == "settlement":
            self.pending_scores = True
        elif self.overlay is None:
            self.overlay = "scores"

    def _short_names(self, text: str) -> str:
        """``text`` with every player's name longer than 16 columns cut as the seat table cuts it."""
        for raw in (self.view or {}).get("names") or ():
            full = " ".join(safe_text(raw).split())
            if width(full) > NAME_CELLS and full in text:
                text = text.replace(full, safe_name(raw))
        return text

    def add_event(self, event: dict) -> None:
        """A public event from the host (with ``text`` in plain words): log it."""
        if not isinstance(event, dict):
            return
        text = safe_text(event.get("text")) or safe_text(event.get("type", "?")).replace("_", " ")
        self.add_log("event", self._short_names(text))

    def add_chat(self, msg: dict) -> None:
        if not isinstance(msg, dict):
            return
        self.add_log("chat", f"<{safe_name(msg.get('name'))}> {safe_text(msg.get('text'), 500)}")

    def add_error(self, err: dict) -> None:
        if not isinstance(err, dict):
            return
        text = error_text(err, self._, self.lang)  # the host's words in English, the code's in Russian
        self.add_log("error", text)
        self.message = text

    def add_fairness(self, verdict) -> None:
        """A deal checked after the host revealed its seed (a
        :class:`frapnet.net.dealcheck.Verdict`; docs/fairness.md): ✓ in the log and the status
        bar; a failed check is a loud warning naming the deal — in the log, the message line and
        the status bar, where it stays for the rest of the match."""
        _ = self._
        deal, status = getattr(verdict, "deal", "?"), getattr(verdict, "status", "")
        problem = problem_text(getattr(verdict, "problem", None), _, self.lang)  # in the screen's language
        if status == "mismatch":
            text = _("⚠⚠ DEAL {n} FAILED THE FAIRNESS CHECK: {problem}").format(n=deal, problem=problem)
            self.unfair.append(deal)
            self.add_log("error", text)
            self.message = text
        elif status == "ok":
            self.fair_deal = deal
            self.add_log("status", _("✓ deal {n} is fair: every card you saw is where the shuffle put it").format(n=deal))
        elif status == "interrupted":  # the host stopped mid-deal and resumes the match (issue #9)
            self.add_log("status", _(DEAL_INTERRUPTED).format(n=deal))
        elif status == "partial":
            self.fair_deal = deal
            self.add_log("status", _("✓ deal {n}: commitment and nonces check; cards not checked here").format(n=deal))
        elif status != "departed":  # departed: the deal goes on without this connection (set_closing says why)
            self.add_log("status", _("Deal {n} was not checked (you did not see it from its start).").format(n=deal))

    def add_log(self, kind: str, text: str) -> None:
        """Append a line (``kind``: event, chat, status, error, system, rules, settle) to the log
        pane. A log scrolled back stays where it is (the new line is below)."""
        self.log.append((kind, safe_text(text)))

    def scroll_log(self, pages: int) -> None:
        """PageUp (``pages`` 1) or PageDown (−1): move the log by a page; 0 is the newest line.
        The app clamps the offset to the lines there are."""
        self.log_offset = max(0, self.log_offset + pages * max(1, self.log_page - 1))

    # --- derived facts -------------------------------------------------------------------------

    @property
    def ui(self) -> dict:
        """The view's checked ``ui`` map (empty before the first view)."""
        return (self.view or {}).get("ui") or {}

    def two_column_seats(self, rows: int | None) -> bool:
        """The seat table is drawn two seats a line (:func:`frapnet.tui.render.seats`'s
        ``compact``): more than six seats on a terminal of ``rows`` lines too short for one a line."""
        n = self.players
        return rows is not None and n > 6 and rows < 18 + n

    @property
    def players(self) -> int:
        v = self.view or {}
        n = v.get("players")
        if isinstance(n, int) and 0 < n <= 64:
            return n
        return len(v.get("names") or ()) or 0

    @property
    def seat(self):
        v = self.view or {}
        s = v.get("seat")
        return s if isinstance(s, int) else None

    def name(self, seat) -> str:
        """Seat ``seat``'s name, made safe and cut (:func:`safe_name`); an empty seat is
        ``Seat N``, counted from 0 as everywhere (records, replay, the host's log)."""
        names = (self.view or {}).get("names") or ()
        if isinstance(seat, int) and 0 <= seat < len(names) and names[seat]:
            return safe_name(names[seat])
        return self._("Seat {n}").format(n=seat) if isinstance(seat, int) else "?"

    def seat_info(self, seat: int) -> dict:
        seats = (self.view or {}).get("seats")
        if isinstance(seats, list) and 0 <= seat < len(seats) and isinstance(seats[seat], dict):
            return seats[seat]
        return {}

    def connection(self, seat: int) -> str:
        conn = (self.view or {}).get("connection")
        if isinstance(conn, list) and 0 <= seat < len(conn) and isinstance(conn[seat], str):
            return conn[seat]
        return ""

    @property
    def to_act(self) -> list:
        """The seats to act now; none once the connection is over (:attr:`ended`): the view is
        only the table as it was."""
        ta = (self.view or {}).get("to_act")
        if self.ended:
            return []
        return [s for s in ta if isinstance(s, int)] if isinstance(ta, list) else []

    @property
    def my_turn(self) -> bool:
        return self.seat is not None and self.seat in self.to_act

    def time_left(self, seat) -> int | None:
        """Whole seconds ``seat`` has left to act by the turn clock (issue #9: the view's
        ``deadlines``, counted down from the view's arrival; 0 once run out), or None where no
        clock runs (docs/protocol.md ``deadlines``)."""
        d = (self.view or {}).get("deadlines")
        if self.ended or self.status == "reconnecting":  # none runs for this screen (a dropped seat has its grace)
            return None
        if not isinstance(d, list) or not isinstance(seat, int) or not 0 <= seat < len(d):
            return None
        left = d[seat]
        if isinstance(left, bool) or not isinstance(left, (int, float)) or not math.isfinite(left):
            return None
        return max(0, math.ceil(min(left, 86400.0) - (self.clock() - self.view_at)))

    def clock_text(self, seat) -> str:
        """`` · turn clock 42 s`` — ``seat``'s turn clock for a heading — or ``""`` where none runs."""
        left = self.time_left(seat)
        return "" if left is None else " · " + self._("turn clock {n} s").format(n=left)

    @property
    def mid_deal(self) -> bool:
        """A deal is being played and this client holds a seat (quitting asks first)."""
        v = self.view or {}
        return self.seat is not None and bool(self.to_act) and not v.get("match_over") and self.closed is None

    @property
    def turn_up_taken(self) -> bool:
        """This deal showed a turn-up that is gone now (taken or discarded). A game that never
        shows a turn-up (Napoleon: trump from the first lead) never says "taken"."""
        v = self.view or {}
        return bool(self.trump) and not v.get("turn_up") and v.get("deal_no") in self._turn_up_seen

    @property
    def trump(self):
        t = (self.view or {}).get("trump")
        return t if t in SUIT_SYMBOLS else None

    @property
    def hand(self) -> list | None:
        """The seat's cards sorted for the eye, or None while face down (F9) or for a spectator."""
        h = (self.view or {}).get("hand")
        if not isinstance(h, list):
            return None
        return hand_order(h, self.trump)

    @property
    def hand_count(self) -> int:
        v = self.view or {}
        h = v.get("hand")
        if isinstance(h, list):
            return len(h)
        c = v.get("hand_count")
        return c if isinstance(c, int) and 0 <= c <= 60 else 0

    @property
    def active_group(self) -> Group | None:
        for g in self.groups:
            if g.kind != "simple" and g.verb == self.mode:
                return g
        return None

    def row(self) -> list:
        """The cards on the hand row: the hand, then any card the active group may choose that
        is not in the hand (Frap F16: the turn-up the blind frapper may discard)."""
        hand = self.hand or []
        g = self.active_group
        if g is not None and g.kind == "card":
            extra = [c for c in g.candidates() if c not in hand]
            return hand + [c for i, c in enumerate(extra) if c not in extra[:i]]
        return hand

    def choosable(self, i: int) -> bool:
        """May the card at row position ``i`` be chosen (card group) or toggled (cards group) now?
        A toggle is allowed only if the choice it makes is part of some legal action."""
        row = self.row()
        g = self.active_group
        if g is None or not 0 <= i < len(row):
            return False
        if g.kind == "card":
            return row[i] in g.candidates()
        new = Counter(row[j] for j in self.selected ^ {i} if j < len(row))
        return any(within(new, s) for s, _a, _l in g.sets())

    def selected_cards(self) -> list:
        """The cards toggled so far, in row order."""
        row = self.row()
        return [row[i] for i in sorted(self.selected) if i < len(row)]

    def chosen_action(self):
        """Cards group: the (action, label) the current selection makes, or None."""
        g = self.active_group
        if g is None or g.kind != "cards":
            return None
        cnt = Counter(self.selected_cards())
        for s, a, lab in g.sets():
            if s == cnt:
                return (a, lab)
        return None

    def counts(self) -> tuple[int, int] | None:
        """Cards group: the fewest and most cards a legal choice holds."""
        g = self.active_group
        if g is None or g.kind != "cards":
            return None
        sizes = [sum(s.values()) for s, _a, _l in g.sets()]
        return (min(sizes), max(sizes)) if sizes else None

    def buttons(self) -> list[tuple[str, str, Any]]:
        """The action row: ``(key, label, item)`` for each simple action (in the order the host
        listed them) and for each card group the hand is not choosing for now."""
        rev = {id(item): k for k, item in self.keys.items()}
        out = []
        for g in self.groups:
            if g.kind == "simple":
                for a in g.actions:
                    k = rev.get(id(a))
                    if k:
                        out.append((k, a[1], a))
            elif g.key and g.verb != self.mode:
                out.append((g.key, g.title + "…", g))
        return out

    def seat_cells(self, seat: int) -> list[str]:
        """The game's own columns for ``seat`` (``ui.cells``: Frap's bid, Napoleon's ``bid 3``)."""
        cells = self.ui.get("cells") or []
        ncol = len(self.ui.get("columns") or ())
        row = cells[seat] if 0 <= seat < len(cells) else []
        return (list(row) + [""] * ncol)[:ncol]

    def seat_mark(self, seat: int) -> str:
        """The game's mark after the seat's name (``ui.marks``: La Krap's team), or ""."""
        marks = self.ui.get("marks") or []
        return marks[seat] if 0 <= seat < len(marks) else ""

    def trick_cards(self, last: bool = False) -> dict[int, tuple[str, str]]:
        """The current (or last) trick as ``{seat: (card, mark)}`` (the mark from ``ui.trick_marks``:
        La Krap's × for a neutralised card)."""
        v = self.view or {}
        t = v.get("last_trick" if last else "trick")
        marks = self.ui.get("last_trick_marks" if last else "trick_marks") or []
        out = {}
        if isinstance(t, list):
            for i, item in enumerate(t):
                if isinstance(item, (list, tuple)) and len(item) == 2 and isinstance(item[0], int):
                    out[item[0]] = (item[1], marks[i] if i < len(marks) else "")
        return out


def help_lines(_: Callable[[str], str], compact: bool = False, clock: bool = True) -> list[tuple[str, str]]:
    """The help screen: (keys, what they do). ``compact``: the seat table is drawn in two
    columns, whose symbols ● ○ ⚙ · the help then explains too (the wide table says words).
    ``clock``: the table has a turn clock (else its line is left out)."""
    lines = [
        ("1…9, 0, z x v…", _("play or toggle the card with that key")),
        ("← →  Home End", _("move along your hand")),
        ("Enter", _("play the card at the cursor / confirm the cards chosen")),
        (_("Space"), _("play the card / toggle it when choosing several")),
        (_("letters"), _("the action in [brackets]")),
        (".", _("show or hide the last trick")),
        ("PgUp PgDn", _("scroll the log back and forth")),
        ("=  F2", _("the score sheet: every deal and the running totals")),
        ("!  F3", _("the bell when it becomes your turn (off at first)")),
        ("Tab  /", _("write in the chat line (Enter sends, Esc goes back)")),
        ("? F1", _("this help")),
        ("q  Ctrl-C  Ctrl-D", _("leave the table (asks first during a deal)")),
        (_("mouse"), _("click a card or an action")),
        ("▶ D ★", _("whose turn, the dealer, who took the last trick")),
        ("● ○ ⚙ ·", _("connected, reconnecting, computer, empty seat")),
        (_("turn clock"), _("seconds left to act; then a computer plays that one move")),
    ]
    return [x for x in lines if (compact or x[0] != "● ○ ⚙ ·") and (clock or x[0] != _("turn clock"))]
