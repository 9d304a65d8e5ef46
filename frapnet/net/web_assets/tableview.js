// The web page's drawing (docs/web.md): DOM helpers, the cards (a hand in the terminal client's
// order), the join form's line about the table (from /table.json), and the table's parts drawn from
// the latest view — the facts line, the seats, the rules and the last deal's report, whose turn it
// is (with the turn clock), your hand and your moves, the score sheet, the log, the closed table. Text from the network is
// only ever put in the page as text (textContent), never as HTML. app.js makes one drawer with
// window.FrapnetDraw(page): page.S (the page's state: view, welcome, sheet, log, rematch, closed,
// table), page.t (its words), page.lang() (its language), its helpers plain, cleanName, isInt,
// amount, and what a tap does: page.act(action), page.answerRematch(accept), page.render().
"use strict";

window.FrapnetDraw = function (page) {
  const S = page.S, t = page.t, plain = page.plain, cleanName = page.cleanName, isInt = page.isInt, amount = page.amount;
  const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };

  // --- drawing ------------------------------------------------------------------------------------------
  function el(id) { return document.getElementById(id); }
  function h(tag, attrs, ...kids) {
    const n = document.createElement(tag);
    for (const k in attrs || {}) {
      if (k === "class") n.className = attrs[k];
      else if (k.startsWith("on")) n.addEventListener(k.slice(2), attrs[k]);
      else if (attrs[k] !== null && attrs[k] !== undefined && attrs[k] !== false) n.setAttribute(k, attrs[k]);
    }
    for (const kid of kids) if (kid !== null && kid !== undefined) n.append(kid instanceof Node ? kid : String(kid));
    return n;
  }

  function isCard(x) {
    return typeof x === "string" && (x === "RJ" || x === "BJ" || (/^(10|[2-9JQKA])[SHDC]$/).test(x));
  }
  const RANKS_RU = { J: "В", Q: "Д", K: "К", A: "Т" }; // as the host names cards in Russian
  function cardFace(c) {
    if (c === "RJ" || c === "BJ") return page.lang() === "ru" ? "Дж" : "Jk";
    if (!isCard(c)) return String(c);
    const r = c.slice(0, -1);
    return ((page.lang() === "ru" && RANKS_RU[r]) || r) + SUITS[c.slice(-1)];
  }
  function cardRed(c) { return c === "RJ" || (isCard(c) && "HD".includes(c.slice(-1))); }
  // the order a hand is shown in, as the terminal client's (frapnet/tui/faces.py hand_order): by
  // suit — the view's trump first, then ♠♥♦♣ — high rank first, jokers last; no game rules
  const RANK_VALUE = { J: 11, Q: 12, K: 13, A: 14 };
  function handOrder(cards, trump) {
    const suits = ["S", "H", "D", "C"].filter((x) => x !== trump);
    if (SUITS[trump]) suits.unshift(trump);
    const key = (c) => {
      const s = isCard(c) && c !== "RJ" && c !== "BJ" ? c.slice(-1) : null;
      return [s ? suits.indexOf(s) : 9, s ? -(RANK_VALUE[c.slice(0, -1)] || Number(c.slice(0, -1))) : 0, c];
    };
    const cmp = (a, b) => { for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1; return 0; };
    return cards.filter((c) => typeof c === "string").sort((a, b) => cmp(key(a), key(b)));
  }
  function cardEl(c, small) {
    return h("span", { class: "card" + (small ? " small" : "") + (cardRed(c) ? " red" : ""), "data-card": c }, cardFace(c));
  }
  // the view's ui map (docs/protocol.md): the game's own words for the screen, when the host sends it
  function ui(v) { return (v && v.ui && typeof v.ui === "object") ? v.ui : null; }
  function uiList(x) { return Array.isArray(x) ? x.filter((y) => typeof y === "string") : []; }
  function name(i) {
    const v = S.view || {};
    const n = Array.isArray(v.names) ? v.names[i] : "";
    return (typeof n === "string" && cleanName(n)) || "#" + (i + 1);
  }

  // the join form's line about the table (GET /table.json, docs/web.md; issue #10): with no seat
  // free, "Watch" is the main button — the first, which Enter presses — and the page says why
  function renderJoinTable() {
    const ti = S.table, full = !!ti && isInt(ti.seats_free) && Number(ti.seats_free) === 0;
    el("join-full").hidden = !full;
    el("join-play").className = full ? "" : "go";
    el("join-watch").className = full ? "go" : "";
    el("join-watch").parentNode.prepend(el(full ? "join-watch" : "join-play"));
    el("join-table").hidden = !ti;
    if (!ti) return;
    el("join-table-name").textContent = plain(ti.name);
    el("join-game").textContent = plain(ti.title || ti.game);
    el("join-seats").textContent = isInt(ti.seats_free) && isInt(ti.players)
      ? t("{k} of {n} seats free", { k: amount(ti.seats_free), n: amount(ti.players) }) : "";
    if (ti.password === true) el("join-password-row").hidden = false;
  }

  function renderRules(v) {
    // the game's goal, special cards, options and marks in the host's words (ui), and the
    // last settled deal's columns (ui.report)
    const u = ui(v) || {};
    const box = el("rules");
    const kids = [];
    if (typeof u.goal === "string" && u.goal) kids.push(h("p", { id: "goal" }, u.goal));
    for (const line of uiList(u.special_cards)) kids.push(h("p", null, line));
    const opts = Array.isArray(u.options) ? u.options.filter((p) => Array.isArray(p) && p.length === 2) : [];
    if (opts.length) kids.push(h("ul", { id: "options" }, ...opts.map((p) => h("li", null, String(p[0]) + ": " + String(p[1])))));
    const hr = S.welcome && Array.isArray(S.welcome.house_rules) ? S.welcome.house_rules.filter((x) => typeof x === "string") : [];
    if (hr.length) kids.push(h("p", null, t("House rules") + ": " + hr.join(", ")));
    for (const line of uiList(u.legend)) kids.push(h("p", { class: "dim" }, line));
    box.replaceChildren(...kids);
    el("rules-box").hidden = !kids.length;
    const rep = el("report");
    rep.replaceChildren();
    const r = u.report && typeof u.report === "object" ? u.report : null;
    const n = isInt(v.players) ? Number(v.players) : 0;
    if (r && Array.isArray(r.columns) && r.columns.length && n) {
      const cols = r.columns.filter((c) => c && typeof c.title === "string" && Array.isArray(c.cells));
      const rows = [];
      for (let i = 0; i < n; i++) rows.push(h("tr", null, h("td", null, name(i)), ...cols.map((c) => h("td", null, typeof c.cells[i] === "string" ? c.cells[i] : ""))));
      rep.append(h("h3", null, t("Last deal")), h("table", { id: "report-table" },
        h("thead", null, h("tr", null, h("th", null, t("player")), ...cols.map((c) => h("th", null, c.title)))), h("tbody", null, ...rows)));
      for (const note of uiList(r.notes)) rep.append(h("p", { class: "note" }, note));
    }
  }
  function fact(label, value) { return h("span", { class: "fact" }, label + " ", value); }
  function renderFacts(v) {
    const f = el("facts");
    f.replaceChildren();
    if (isInt(v.deal_no) && Number(v.deal_no) > 0) f.append(fact(t("deal"), h("b", null, amount(v.deal_no))));
    const u = ui(v);
    if (u && "pot" in u) {
      if (typeof u.pot === "string" && isInt(v.pot)) f.append(fact(u.pot, h("b", null, amount(v.pot))));
    } else if (isInt(v.pot) && (v.ledger !== "points" || BigInt(v.pot) !== 0n)) f.append(fact(t("treasure" in v ? "treasure" : "pot"), h("b", null, amount(v.pot))));
    if (typeof v.trump === "string" && SUITS[v.trump]) f.append(fact(t("trump"), h("b", { class: "HD".includes(v.trump) ? "red-suit" : "" }, SUITS[v.trump])));
    if (isCard(v.turn_up)) f.append(fact(t("turn-up"), cardEl(v.turn_up, true)));
    if (Array.isArray(v.dead_turn_ups) && v.dead_turn_ups.length) f.append(fact(t("dead"), h("span", null, ...v.dead_turn_ups.filter(isCard).map((c) => cardEl(c, true)))));
    if (isInt(v.talon) && (Number(v.talon) > 0 || v.trump)) f.append(fact(t("talon"), h("b", null, amount(v.talon))));
    // the deal's phase while it is played here; once the table has closed it would say "bidding" for good
    if (!ended() && typeof v.phase_label === "string" && v.phase_label) f.append(h("span", { class: "phase", id: "phase" }, v.phase_label));
  }
  function seatWord(info) {
    // the host's words when it sends them (…_label); else the value as sent
    if (!info || typeof info !== "object") return "";
    if (typeof info.declaration_label === "string") return info.declaration_label;
    if (typeof info.bid_label === "string") return info.bid_label;
    const d = info.declaration !== undefined && info.declaration !== null ? info.declaration : info.bid;
    return (d === null || d === undefined || typeof d === "boolean") ? "" : String(d).replace(/_/g, " ");
  }
  // the connection is over (closing, or given up): the view is only the table as it was — no
  // turn, no turn clock, no moves (app.js sets S.closed)
  function ended() { return !!S.closed; }
  function renderSeats(v) {
    const n = isInt(v.players) ? Number(v.players) : (Array.isArray(v.names) ? v.names.length : 0);
    const toAct = new Set(ended() ? [] : (v.to_act || []).map(Number));
    const seats = Array.isArray(v.seats) ? v.seats : [];
    const trickNow = Array.isArray(v.trick) ? v.trick : [];
    const showLast = !trickNow.length && Array.isArray(v.last_trick) && v.last_trick.length;
    const trick = showLast ? v.last_trick : trickNow;
    const byseat = {};
    for (const p of trick) if (Array.isArray(p) && p.length === 2 && isCard(p[1])) byseat[Number(p[0])] = p[1];
    const conns = Array.isArray(v.connection) ? v.connection : [];
    const bal = Array.isArray(v.balances) ? v.balances : [];
    const head = el("seats").tHead;
    const u = ui(v);
    const cols = u && Array.isArray(u.columns) ? uiList(u.columns) : [t("bid")];
    const led = u && u.ledger && typeof u.ledger === "object" ? u.ledger : {};
    const ledTitle = typeof led.title === "string" ? led.title : t(v.ledger === "points" ? "points" : "balance");
    const signed = typeof led.signed === "boolean" ? led.signed : v.ledger !== "points";
    const marks = u ? uiList(u.marks) : [];
    const tmarks = u ? uiList(showLast ? u.last_trick_marks : u.trick_marks) : [];
    head.replaceChildren(h("tr", null, h("th", null, ""), h("th", null, t("player")), ...cols.map((c) => h("th", { class: "col" }, c)),
      h("th", null, t("tricks")), h("th", { class: "amount" }, ledTitle),
      h("th", { class: "trick-card" }, t(showLast ? "last trick" : "trick"))));
    const body = el("seats").tBodies[0];
    body.replaceChildren();
    const connWord = { connected: "connected", reconnecting: "reconnecting", bot: "computer", empty: "empty seat",
      "taken over": "taken over", disconnected: "disconnected", left: "left the table" };
    for (let i = 0; i < n; i++) {
      const info = seats.find((s) => s && Number(s.seat) === i) || seats[i] || {};
      const me = isInt(v.seat) && Number(v.seat) === i;
      let conn = typeof conns[i] === "string" ? conns[i] : "";
      if (me && ended()) conn = S.closed.replaced ? "taken over" : S.closed.left ? "left" : "disconnected"; // no longer played here
      const nameCell = h("td", { class: "name" }, name(i) + (marks[i] ? " " + marks[i] : "") + (me ? " (" + t("you") + ")" : ""));
      if (isInt(v.dealer) && Number(v.dealer) === i) nameCell.append(h("span", { class: "dealer", title: t("dealer") }, "D"));
      if (conn && conn !== "connected") nameCell.append(h("div", { class: "dim conn-" + conn.replace(" ", "-") }, t(connWord[conn] || conn)));
      const card = byseat[i];
      const ti = trick.findIndex((p) => Array.isArray(p) && Number(p[0]) === i);
      const cardCell = h("td", { class: "trick-card" }, card ? cardEl(card, true) : "", card && tmarks[ti] ? tmarks[ti] : "");
      const cells = u && Array.isArray(u.cells) && Array.isArray(u.cells[i]) ? u.cells[i] : (u ? [] : [seatWord(info)]);
      if (card && showLast && isInt(v.last_winner) && Number(v.last_winner) === i) cardCell.append(h("span", { class: "winner" }, "★"));
      body.append(h("tr", { class: (toAct.has(i) ? "turn " : "") + (me ? "me" : ""), "data-seat": i },
        h("td", { class: "mark" }), nameCell, ...cols.map((c, k) => h("td", { class: "col" }, typeof cells[k] === "string" ? cells[k] : "")),
        h("td", { class: "tricks" }, isInt(info.tricks) ? amount(info.tricks) : ""),
        h("td", { class: "amount" }, bal[i] !== undefined ? amount(bal[i], signed) : ""), cardCell));
    }
    const tr = el("trick");
    // the same trick on one line (on a phone, app.css, the table's trick column gives way to it)
    tr.replaceChildren(...trickPlays(trick, showLast ? v.last_winner : null));
    el("trick-title").textContent = trick.length ? t(showLast ? "last trick" : "trick") + ":" : "";
    // a trick taken is gone at once when its winner leads again (computer players do at once): the
    // one before stays readable on its own line while the next is played
    const before = !showLast && trickNow.length && Array.isArray(v.last_trick) ? v.last_trick : [];
    el("last-trick-row").replaceChildren(...(before.length ? [h("span", null, t("last trick") + ": "),
      ...trickPlays(before, v.last_winner)] : []));
  }
  // a trick's plays on one line, each "Name card" kept together, ★ after the seat ``winner`` (if any)
  function trickPlays(trick, winner) {
    return trick.filter((p) => Array.isArray(p) && isCard(p[1])).map((p) => h("span", { class: "trick-play" },
      name(Number(p[0])) + " ", cardEl(p[1], true),
      isInt(winner) && Number(winner) === Number(p[0]) ? h("span", { class: "winner" }, "★") : null, " "));
  }


  // the legal actions, grouped: simple buttons; a card argument (tap the card, then its action);
  // a list of cards (toggle cards; the action whose set matches is offered) — as the terminal client
  function groups(v) {
    const simple = [], card = [], cards = [];
    for (const item of v.actions || []) {
      if (!item || !Array.isArray(item.action) || typeof item.action[0] !== "string") continue;
      const a = item.action, label = typeof item.label === "string" && item.label ? item.label : a.join(" ");
      if (a.length === 2 && isCard(a[1])) card.push({ action: a, label: label, card: a[1] });
      else if (a.length === 2 && Array.isArray(a[1]) && a[1].every(isCard) && Array.isArray(v.hand)) cards.push({ action: a, label: label, set: a[1].slice().sort() });
      else simple.push({ action: a, label: label });
    }
    return { simple, card, cards };
  }
  // your hand and your moves: tap a card, then its action (or tap it again); the host's labels
  function sameSet(a, b) { return a.length === b.length && a.every((x, i) => x === b[i]); }
  function renderMe(v) {
    const me = isInt(v.seat);
    el("me").hidden = false;
    el("leave-row").hidden = !me || !!S.closed || !!S.leaving || offline();  // (a leave could not reach the host)
    renderTurn(v);
    el("message").textContent = S.message;
    if (S.closed) return;  // renderTurn drew the closed table (renderClosed): no hand to play, no moves
    const hand = el("hand"), acts = el("actions");
    hand.replaceChildren();
    acts.replaceChildren();
    if (!me) { hand.hidden = true; acts.hidden = true; return; }
    hand.hidden = false;
    acts.hidden = false;
    if (offline()) S.selected = [];
    const g = offline() ? { simple: [], card: [], cards: [] } : groups(v);  // nothing can be sent now
    const toggling = g.cards.length > 0;
    const choosable = new Set([...g.card.map((x) => x.card), ...g.cards.flatMap((x) => x.set)]);
    const cards = Array.isArray(v.hand) ? handOrder(v.hand, v.trump) : null;  // the terminal's order
    if (cards === null) {
      const k = isInt(v.hand_count) ? Math.min(64, Number(v.hand_count)) : 0;
      for (let i = 0; i < k; i++) hand.append(h("span", { class: "card back", title: t("face down") }, "?"));
    } else {
      const extra = [...choosable].filter((c) => !cards.includes(c));
      const row = cards.map((c) => ({ c, extra: false })).concat(extra.map((c) => ({ c, extra: true })));
      row.forEach((x, i) => {
        // a card an action names that is not in the hand: Frap's turn-up (F16, F17), said as such
        if (x.extra && i === cards.length && x.c === v.turn_up) hand.append(h("span", { class: "dim extra" }, t("turn-up") + ":"));
        const ok = choosable.has(x.c);
        const sel = S.selected.includes(x.c);
        const cm = ui(v) && ui(v).card_marks && typeof ui(v).card_marks[x.c] === "string" ? ui(v).card_marks[x.c] : "";
        hand.append(h("button", {
          type: "button", class: "card" + (cardRed(x.c) ? " red" : "") + (ok ? " choosable" : " off") + (sel ? " selected" : "") + (x.extra && i === cards.length && x.c !== v.turn_up ? " extra" : ""),
          "data-card": x.c, "aria-pressed": sel ? "true" : "false", "aria-disabled": ok ? null : "true",
          onclick: () => ok ? tapCard(x.c, g, toggling) : refuse(x.c),
        }, cardFace(x.c), cm ? h("sup", null, cm) : null));
      });
      if (!row.length) hand.hidden = true;  // no cards (the match is over): no empty row above the moves
    }
    // what the selection allows, in the host's words
    const sel = S.selected.slice().sort();
    for (const x of g.cards) {
      if (sameSet(x.set, sel)) acts.append(actionButton(x, "go"));
    }
    const oneCard = S.selected.length === 1 && g.card.some((x) => x.card === S.selected[0]);  // e.g. F16's take_trump
    if (g.cards.length && !g.cards.some((x) => sameSet(x.set, sel)) && !oneCard) acts.append(h("button", { type: "button", disabled: "disabled", class: "hint" }, t("Choose cards")));
    if (S.selected.length === 1) for (const x of g.card) if (x.card === S.selected[0]) acts.append(actionButton(x, "go"));
    if (g.card.length && !S.selected.length && !toggling) acts.append(h("span", { class: "dim hint" }, t("Tap a card, then the action.")));
    if (toggling && !S.selected.length) acts.append(h("span", { class: "dim hint" }, t("Tap the cards you choose, then the action that appears.")));
    for (const x of g.simple) acts.append(actionButton(x, ""));
    if (S.rematch && S.rematch.asked && S.rematch.answer === null && !S.closed) {
      acts.append(h("button", { type: "button", id: "rematch-yes", class: "act go", onclick: () => page.answerRematch(true) }, t("Play again")));
      acts.append(h("button", { type: "button", id: "rematch-no", class: "act", onclick: () => page.answerRematch(false) }, t("No, leave the table")));
    }
  }
  function actionButton(x, cls) {
    return h("button", { type: "button", class: "act " + cls, "data-action": JSON.stringify(x.action, (k, y) => typeof y === "bigint" ? y.toString() : y),
      onclick: () => page.act(x.action) }, x.label);
  }
  function refuse(c) {
    // why this card cannot be chosen now, in the host's words (the view's ui.refusals)
    const r = offline() ? t(OFFLINE) : ui(S.view) && ui(S.view).refusals && typeof ui(S.view).refusals[c] === "string" ? ui(S.view).refusals[c] : "";
    S.message = r;
    el("message").textContent = r;
  }
  function tapCard(c, g, toggling) {
    S.message = "";
    if (toggling) {
      const i = S.selected.indexOf(c);
      if (i >= 0) S.selected.splice(i, 1); else S.selected.push(c);
    } else if (S.selected.length === 1 && S.selected[0] === c) {
      const mine = g.card.filter((x) => x.card === c);
      if (mine.length === 1) { page.act(mine[0].action); return; } // a second tap plays it
    } else S.selected = [c];
    page.render();
  }
  // the turn clock (--turn-time): seconds left per seat, counted down from the view's arrival

  function timeLeft(seat) {
    const d = S.view && Array.isArray(S.view.deadlines) ? S.view.deadlines[Number(seat)] : null;
    if (typeof d !== "number" || !isFinite(d)) return null;
    return Math.max(0, Math.ceil(Math.min(d, 86400) - (Date.now() - (S.viewAt || 0)) / 1000));
  }
  function clockText(seat) {
    const left = timeLeft(seat);
    return left === null ? "" : " · " + t("turn clock {n} s", { n: left });
  }
  function timedNames(seats) { return seats.map((s) => name(s) + clockText(s)).join(", "); }

  function renderTurn(v) {  // the line that says whose turn it is (and the turn clock's seconds)
    if (ended()) { renderClosed(); return; }
    const me = isInt(v.seat);
    const turn = el("turn");
    const toAct = (v.to_act || []).map(Number);
    const who = toAct.map(name).join(", ");
    turn.className = "";
    if (offline()) turn.textContent = t(OFFLINE);
    else if (!me) turn.textContent = who ? t("Watching. To act: {who}", { who: timedNames(toAct) }) : t("Watching.");
    else if (toAct.includes(Number(v.seat))) { turn.textContent = t("Your turn") + clockText(v.seat); turn.className = "mine"; }
    else if (toAct.length) turn.textContent = t("Waiting for {who}", { who: timedNames(toAct) });
    else if (S.rematch && !S.closed) {
      const r = S.rematch;
      const left = isFinite(r.until) ? Math.max(0, Math.ceil((r.until - Date.now()) / 1000)) : r.seconds;
      turn.textContent = !r.asked ? t("The match is over; the players are asked whether they play again.")
        : r.answer ? t("You will play again; waiting for the others to answer.")
        : t("The match is over. Play again with the same seats? Answer within {n} s.", { n: left });
      if (r.asked && r.answer === null) turn.className = "mine";
    } else if (v.match_over || S.closed) turn.textContent = t("The match is over.");
    else if (!isInt(v.deal_no) || Number(v.deal_no) === 0) {
      const taken = (v.connection || []).filter((c) => c && c !== "empty").length;
      turn.textContent = t("Waiting for players: {k} of {n} seats taken", { k: taken, n: amount(v.players) });
    } else turn.textContent = t("The next deal starts in a moment.");
    const board = me && !offline() && !toAct.length && ((S.rematch && !S.closed) || v.match_over) ? standings(v) : "";
    if (board) turn.append(h("br"), h("span", { class: "standings" }, board));  // the match's end: who won
  }

  // the match's final standings, best first ("1. Olga +300, 2. Ivan −100, …"; ui.ledger.best "low":
  // penalty points), equal totals sharing a place — as the terminal client says them; "" if none
  function standings(v) {
    const tot = S.sheet.length ? S.sheet[S.sheet.length - 1].balances : v.balances;
    if (!Array.isArray(tot) || !tot.length || !tot.every(isInt)) return "";
    const led = ui(v) && ui(v).ledger && typeof ui(v).ledger === "object" ? ui(v).ledger : {};
    const low = led.best === "low", signed = typeof led.signed === "boolean" ? led.signed : v.ledger !== "points";
    const order = tot.map((_x, i) => i).sort((a, b) => {
      const x = BigInt(tot[a]), y = BigInt(tot[b]);
      return x === y ? a - b : ((low ? x < y : x > y) ? -1 : 1);
    });
    let place = 0;
    const parts = order.map((s, i) => {
      if (i === 0 || BigInt(tot[s]) !== BigInt(tot[order[i - 1]])) place = i + 1;
      return place + ". " + name(s) + " " + amount(tot[s], signed);
    });
    return t("Final standings:") + " " + parts.join(", ");
  }
  function renderSheet(v) {
    const n = isInt(v.players) ? Number(v.players) : 0;
    const head = el("sheet").tHead, body = el("sheet").tBodies[0];
    const wrap = el("sheet-wrap"), atEnd = following(wrap);
    const cols = [];
    for (let i = 0; i < n; i++) cols.push(h("th", null, name(i)));
    head.replaceChildren(h("tr", null, h("th", null, t("deal")), ...cols, h("th", null, t("pot"))));
    body.replaceChildren();
    let prev = null;
    for (const r of S.sheet) {
      if (S.sheetBase && S.sheetBase.deal === r.deal) prev = S.sheetBase;  // what the host's first listed deal began from
      const cells = [];
      for (let i = 0; i < n; i++) {
        const b = r.balances[i];
        const net = prev && isInt(prev.balances[i]) && isInt(b) ? BigInt(b) - BigInt(prev.balances[i]) : null;
        cells.push(h("td", { title: net !== null ? amount(net, true) : "" }, amount(b, true)));
      }
      body.append(h("tr", { "data-deal": r.deal }, h("td", null, t("after deal") + " " + r.deal), ...cells, h("td", null, r.pot === null ? "" : amount(r.pot))));
      prev = r;
    }
    const fin = finalBalances();  // the table closed: the host's result, as the terminal's "final" row
    if (Array.isArray(v.balances) && (v.to_act || []).length && !fin) {  // a deal in play (or as last seen here)
      const when = !ended() ? "now" : S.closed.left ? "when you left" : "last seen";
      body.append(h("tr", { class: "now" }, h("td", null, t(when)), ...v.balances.slice(0, n).map((b) => h("td", null, amount(b, true))), h("td", null, amount(v.pot))));
    }
    if (fin) body.append(h("tr", { class: "final" }, h("td", null, t("final")),
      ...fin.slice(0, n).map((b) => h("td", null, amount(b, true))), h("td", null, amount(S.closed.result.pot))));
    if (wrap && atEnd) toEnd(wrap);  // the latest deal stays in view, unless scrolled back
  }
  // the balances (or points) of the host's closing result, once the table closed; else null
  function finalBalances() {
    if (S.closed && S.closed.resumable === true && !S.closed.lost) return null;  // the host resumes the match: no final
    const r = ended() && S.closed.result && typeof S.closed.result === "object" ? S.closed.result : null;
    const b = r && (Array.isArray(r.balances) ? r.balances : r.points);
    return Array.isArray(b) && b.length && b.every(isInt) ? b : null;
  }

  function renderLog() {
    const list = el("log");
    const atBottom = following(list);
    list.replaceChildren(...S.log.map((x) => h("li", { class: x.kind }, x.text)));
    if (atBottom) toEnd(list);
  }
  // does a scrolled list (the log, the score sheet) follow its newest lines? Yes until the player
  // scrolls back by hand, and again once they scroll to the end — decided by their scrolling, not
  // by where the list stands now (a resize or a language switch moves it without the player)
  function following(box) {
    if (!box) return false;
    if (!box.dataset.follow) {
      box.dataset.follow = "yes";
      box.addEventListener("scroll", () => {  // the player's scrolling (ours is marked in toEnd)
        if (box.dataset.moving) { delete box.dataset.moving; return; }
        if (!box.clientHeight) return;  // hidden (a closed panel): says nothing
        box.dataset.follow = box.scrollTop + box.clientHeight >= box.scrollHeight - 8 ? "yes" : "no";
      }, { passive: true });
    }
    return box.dataset.follow === "yes";
  }
  function toEnd(box) {
    const to = box.scrollHeight - box.clientHeight;
    if (Math.abs(box.scrollTop - to) < 1) return;
    box.dataset.moving = "1";
    box.scrollTop = box.scrollHeight;
  }

  // the host's closing reason (docs/protocol.md "closing", "Rematch") in the page's words, as the
  // terminal client says it (frapnet/tui/rematch.py closing_reason); another one as sent
  const HOST_STOPPED = "The host stopped; the match is not over. This page takes your seat back by itself once the host is back.";
  // the connection is down (the host gone, the network cut): nothing can be sent, so no moves and no clock
  const OFFLINE = "The connection is lost — reconnecting…; you can play again once the table is back.";
  function offline() { return S.status === "reconnecting" && !S.closed; }
  function closedWhy(reason) {
    const r = plain(reason), known = { "host stopping": "the host stopped", "match over": "the match is over" };
    let m = /^seat (\d+) (declined|left before|cannot answer) the rematch$/.exec(r);
    const said = { "declined": "{name} declined the rematch", "left before": "{name} left before the rematch",
      "cannot answer": "{name} came back on a client that cannot answer the rematch" };
    if (m) return t(said[m[2]], { name: name(Number(m[1])) });
    m = /^no answer to the rematch in ([0-9.]+) s$/.exec(r);
    return m ? t("no answer to the rematch in {n} s", { n: m[1] }) : t(known[r] || r);
  }
  function renderClosed() {
    const c = S.closed || {};
    const turn = el("turn");
    turn.className = "closed";  // no longer "Your turn"
    turn.textContent = c.replaced ? plain(String(c.reason))  // the table goes on, at the other connection
      : c.lost ? t("The connection is closed. Reload this page to try again.")  // gave up reconnecting
        : c.left ? t("You left the table; the game goes on without you. To come back, reload this page.")
          : c.resumable === true ? t(HOST_STOPPED)  // the host resumes the match: the seat waits
            : t("The table is closed") + (c.reason ? ": " + closedWhy(c.reason) : "") + ".";
    if (c.resumable !== true || c.lost) turn.append(h("br"), h("span", { class: "dim" }, t("Nothing can be played here any more; the table is shown as it was.")));
    el("hand").hidden = true;
    el("actions").replaceChildren();
    const fin = finalBalances();
    if (fin) {
      const parts = fin.map((b, i) => name(i) + " " + amount(b, true));
      el("actions").append(h("p", { id: "result" }, t("Result") + ": " + parts.join(", ")));
      const more = unplayed(c.result);
      if (more) el("actions").append(h("p", { id: "result-pot" }, more));
    }
  }
  // what the host's result says beyond the balances (docs/rules/frap.md "What frapnet decided" 7): the
  // deal the table ended in the middle of (result.unfinished), and the chips left in the pot, unplayed
  // (balances + pot = 0, F6); "" if neither — the terminal client's words (frapnet/tui/scores.py)
  function unplayed(r) {
    const v = S.view || {}, u = v.ui || {};
    const word = "pot" in u ? (typeof u.pot === "string" ? u.pot : null) : (v.ledger === "points" ? null : t("pot"));
    const pot = word && isInt(r.pot) && BigInt(r.pot) !== 0n ? amount(r.pot) : null;
    if (r.unfinished === true && isInt(r.deals)) {
      return pot === null ? t("Deal {deal} was not finished.", { deal: amount(r.deals) })
        : t("Deal {deal} was not finished: {amount} stays in the {pot}, unplayed; what the players paid into the {pot} is already counted in the balances above.",
          { deal: amount(r.deals), amount: pot, pot: plain(word) });
    }
    return pot === null ? "" : t("{amount} is left in the {pot}, unplayed.", { amount: pot, pot: plain(word) });
  }

  return { el, h, isCard, cardFace, cardRed, handOrder, cardEl, ui, uiList, name, renderJoinTable, renderRules,
    renderFacts, renderSeats, groups, timeLeft, renderTurn, standings, offline, renderMe, renderSheet, renderLog, renderClosed, unplayed, closedWhy,
    HOST_STOPPED };
};
