"""The view's legal actions grouped for the screen, and the key of each.

An action whose argument is a card (Frap's ``play``, ``discard``, ``take_trump``) is chosen on
the hand with a digit or the arrows; one whose argument is a list of cards (``buy``) by toggling
cards; every other action is a button with a letter — the letter the game gives its verb in the
view's ``ui.keys``, else the first free letter of the verb's name, then of the alphabet. Nothing
here knows a game: verbs are only names.
"""
from __future__ import annotations

from collections import Counter

from frapnet.tui.faces import card_face, is_card
from frapnet.tui.text import safe_text

RESERVED_KEYS = frozenset("q")  # the chrome's letter (quit), never given to an action
DIGIT_KEYS = "1234567890"
# cards 11, 12, … of a long hand (Frak You deals 13): these letters, skipping any an action uses
EXTRA_CARD_KEYS = "zxvnmjkhgsdae"


def as_int(x):
    """``x`` if it is a whole number (not a bool), else None."""
    return x if isinstance(x, int) and not isinstance(x, bool) else None


class Group:
    """The legal actions of one verb. ``kind``: ``"simple"`` (each action a button), ``"card"``
    (argument is one card: chosen on the hand), ``"cards"`` (argument a list of cards: toggled).
    ``actions`` is a list of ``(wire_action, label)``; ``key`` the letter switching the hand to
    this group (card kinds) or None; ``lang`` the language the labels name cards in."""

    def __init__(self, verb: str, kind: str, lang: str = "en"):
        self.verb = verb
        self.kind = kind
        self.lang = lang
        self.actions: list[tuple[list, str]] = []
        self.key: str | None = None

    @property
    def title(self) -> str:
        """A label for the whole group: what its actions' labels share once the cards they name
        are taken out (``"Play 8♠"`` → ``"Play"``, ``"Buy: discard 9♥ J♦"`` → ``"Buy: discard"``)."""
        labels = []
        for a, lab in self.actions:
            if len(a) < 2 or not a[1]:
                continue
            cards = a[1] if isinstance(a[1], list) else [a[1]]
            for c in cards:
                lab = lab.replace(card_face(c, self.lang), "")
            labels.append(" ".join(lab.split()))
        if not labels:
            labels = [lab for a, lab in self.actions]
        if not labels:
            return self.verb.replace("_", " ")
        pre = labels[0]
        for lab in labels[1:]:
            while not lab.startswith(pre):
                pre = pre[:-1]
        pre = pre.rstrip(" :,;-")
        # never leave a bracket open ("Lead 7♥ (trump ♥)", "Lead 8♣ (trump ♣)" → "Lead")
        depth, cut_at = 0, None
        for i, ch in enumerate(pre):
            if ch == "(":
                if depth == 0:
                    cut_at = i
                depth += 1
            elif ch == ")" and depth:
                depth -= 1
                if depth == 0:
                    cut_at = None
        if cut_at is not None:
            pre = pre[:cut_at].rstrip(" :,;-")
        return pre or self.verb.replace("_", " ")

    def candidates(self) -> list:
        """Card kind: the cards that may be chosen, in the order listed."""
        return [a[1] for a, _ in self.actions]

    def sets(self) -> list[tuple[Counter, list, str]]:
        """Cards kind: each legal choice as ``(multiset of cards, action, label)`` (a double pack,
        La Krap L2, can hold the same card twice)."""
        return [(Counter(a[1]), a, lab) for a, lab in self.actions]


def within(small: Counter, big: Counter) -> bool:
    """Every card of ``small`` is in ``big`` at least as often."""
    return all(big[k] >= v for k, v in small.items())


def _label(item) -> str:
    return safe_text(item.get("label"), 60) if isinstance(item, dict) else ""


def group_actions(actions, hand_known: bool, lang: str = "en") -> list[Group]:
    """Group ``view["actions"]`` by verb, in the order first listed (see :class:`Group`). Items that
    are not ``{"action": [verb, arg?], "label": str}`` are ignored."""
    groups: dict[str, Group] = {}
    for item in actions or ():
        if not isinstance(item, dict):
            continue
        act = item.get("action")
        if not isinstance(act, (list, tuple)) or not act or not isinstance(act[0], str):
            continue
        act = list(act)
        verb = act[0]
        if len(act) == 1:
            kind = "simple"
        elif is_card(act[1]):
            kind = "card"
        elif isinstance(act[1], (list, tuple)) and all(is_card(c) for c in act[1]):
            kind = "cards" if hand_known else "simple"
            act = [verb, list(act[1])]
        else:
            kind = "simple"
        g = groups.get(verb)
        if g is None or (g.kind != kind and "simple" in (g.kind, kind)):
            key = verb if g is None else f"{verb}\x00{kind}"
            g = groups.get(key)
            if g is None:
                g = groups[key] = Group(verb, kind, lang)
        g.actions.append((act, _label(item) or " ".join(str(x) for x in act)))
    return list(groups.values())


def assign_keys(groups: list[Group], verb_keys: dict | None = None) -> dict:
    """Letters for simple actions (one each) and for card groups when there is more than one
    (to switch the hand between them). ``verb_keys``: the game's letter for each verb (the
    view's ``ui.keys``). Returns ``{letter: (action, label) or Group}``."""
    verb_keys = verb_keys or {}
    taken = set(RESERVED_KEYS)
    out: dict = {}
    hand_groups = [g for g in groups if g.kind != "simple"]
    wanted = []
    digits = iter(DIGIT_KEYS)
    for g in groups:
        int_args = all(len(a[0]) == 2 and as_int(a[0][1]) is not None for a in g.actions)
        if g.kind == "simple" and (len(g.actions) > 1 or int_args) and not hand_groups:
            # several actions of one verb (Napoleon's "Bid 1"…"Bid 5") and no card to choose:
            # the digits are free. When each argument is a number 0…9 the key is that number
            # (key 3 bids 3, whatever was bid before); otherwise they are numbered 1, 2, …
            args = [a[0][1] if len(a[0]) == 2 else None for a in g.actions]
            if all(as_int(x) is not None and 0 <= x <= 9 for x in args) and len(set(args)) == len(args) \
                    and not any(str(x) in out for x in args):
                for x, a in zip(args, g.actions):
                    out[str(x)] = a
                continue
            for a in g.actions:
                d = next(digits, None)
                if d is None:
                    wanted.append((g.verb, a))
                else:
                    out[d] = a
        elif g.kind == "simple":
            wanted.extend((g.verb, a) for a in g.actions)
        elif len(hand_groups) > 1:
            wanted.append((g.verb, g))
    # first pass: the game's letters; second pass: letters of the verb; then any letter
    pending = []
    for verb, item in wanted:
        k = verb_keys.get(verb)
        ok = isinstance(k, str) and len(k) == 1 and "a" <= k <= "z"
        if ok and k not in taken and not (isinstance(item, tuple) and sum(1 for v, _ in wanted if v == verb) > 1):
            taken.add(k)
            out[k] = item
        else:
            pending.append((verb, item))
    for verb, item in pending:
        k = next((c for c in verb.lower() if "a" <= c <= "z" and c not in taken), None)
        if k is None:
            k = next((c for c in "abcdefghijklmnoprstuvwxyz" if c not in taken), None)
        if k is None:
            continue
        taken.add(k)
        out[k] = item
    for k, item in out.items():
        if isinstance(item, Group):
            item.key = k
    return out
