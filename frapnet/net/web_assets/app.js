// frapnet's web page: a thin client of the table protocol (docs/protocol.md, docs/web.md).
// One msgpack message per binary WebSocket message. Everything about the game — its actions and
// their labels, phases, log lines — comes from the host's views and events; this file knows only
// the protocol and its own words (the page's chrome, in English and Russian). Text from the
// network is only ever put in the page as text (textContent), never as HTML.
"use strict";

(function () {
  const PROTOCOL = "1.0";
  const MP = window.MessagePack;
  const FATAL = new Set(["version", "password", "bad_name", "no_table", "table_full", "seat_taken", "bad_token",
    "timeout", "busy", "malformed", "too_large", "bad_message"]);
  const LOG_MAX = 400, SHEET_MAX = 200;  // the score sheet lists at most the latest 200 deals
  // player names (docs/protocol.md, hello): the host seats a name of at most NAME_MAX characters
  // once cleaned (frapnet.net.protocol.clean_name); the name field takes what the host reads
  const NAME_MAX = 32;
  const KEY = "frapnet@" + location.host; // one table per web port

  // the page's own words (words.js)
  const WORDS = window.FrapnetWords.WORDS, ERRORS_RU = window.FrapnetWords.ERRORS_RU;
  let lang = pickLang();
  function pickLang() {
    const saved = localStorage.getItem("frapnet.lang");
    if (saved === "en" || saved === "ru") return saved;
    const langs = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || "en"];
    return String(langs[0] || "en").toLowerCase().startsWith("ru") ? "ru" : "en";
  }
  function t(s, args) {
    let out = (WORDS[lang] && WORDS[lang][s]) || s;
    for (const k in args || {}) out = out.split("{" + k + "}").join(String(args[k]));
    return out;
  }

  // --- msgpack: integers of any size (protocol.md "Encoding": extension type 1) ------------------
  const codec = new MP.ExtensionCodec();
  const I64_MIN = -(2n ** 63n), U64_MAX = 2n ** 64n - 1n;
  codec.register({
    type: 1,
    encode: (x) => (typeof x === "bigint" && (x < I64_MIN || x > U64_MAX)) ? new TextEncoder().encode(x.toString()) : null,
    decode: (data) => {
      const s = new TextDecoder().decode(data);
      if (!/^-?[0-9]{1,1000}$/.test(s)) throw new Error("bad big integer");
      return BigInt(s);
    },
  });
  const decodeOpts = { extensionCodec: codec, useBigInt64: true, maxStrLength: 65536, maxBinLength: 65536,
    maxArrayLength: 4096, maxMapLength: 1024, maxExtLength: 1024 };
  const encodeOpts = { extensionCodec: codec, useBigInt64: true };
  const isInt = (x) => typeof x === "bigint" || (typeof x === "number" && Number.isInteger(x));
  function amount(x, signed) {
    if (!isInt(x)) return "";
    const s = BigInt(x).toString();
    if (!signed) return s.replace("-", "−");
    return s.startsWith("-") ? "−" + s.slice(1) : (s === "0" ? "0" : "+" + s);
  }

  // --- state -------------------------------------------------------------------------------------
  const S = {
    ws: null, gen: 0, status: "connecting", welcome: null, view: null, log: [], sheet: [], selected: [],
    actionsSig: "", want: null, closed: null, retry: 0, retryTimer: null, since: 0, joinedOnce: false,
    message: "", rematch: null, table: null,
  };
  window.frapnet = S; // for people and tests poking at the page: what it was told, nothing more
  // the page's drawing (tableview.js): DOM helpers, the cards and the table's parts, from the latest view
  const D = window.FrapnetDraw({ S: S, t: t, lang: () => lang, plain: plain, cleanName: cleanName, isInt: isInt,
    amount: amount, act: act, answerRematch: answerRematch, render: render });
  const { el, ui, timeLeft, renderTurn, renderLog, renderMe } = D;
  function store() {
    try { return JSON.parse(localStorage.getItem(KEY) || "{}") || {}; } catch (e) { return {}; }
  }
  function save(patch) {
    const cur = store();
    Object.assign(cur, patch);
    localStorage.setItem(KEY, JSON.stringify(cur, (k, v) => typeof v === "bigint" ? { $big: v.toString() } : v));
  }
  function loadSheet() {
    const rows = store().sheet;
    if (!Array.isArray(rows)) return [];
    const big = (v) => (v && typeof v === "object" && typeof v.$big === "string") ? BigInt(v.$big) : v;
    return rows.map((r) => ({ deal: r.deal, balances: (r.balances || []).map(big), pot: big(r.pot), ledger: r.ledger }));
  }

  // --- the connection -------------------------------------------------------------------------------
  function connect(want) {
    S.want = want;
    if (want.password) sessionStorage.setItem(KEY + ".password", want.password);
    const gen = ++S.gen;
    const old = S.ws;
    const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws");
    ws.binaryType = "arraybuffer";
    S.ws = ws;
    S.live = false;  // until this connection's welcome
    setStatus(S.joinedOnce ? "reconnecting" : "connecting");
    ws.onopen = () => {
      if (gen !== S.gen) return;
      // rematch: this page shows the host's rematch offer and answers it (protocol.md "Rematch")
      const hello = { type: "hello", protocol: PROTOCOL, name: want.name, lang: lang, rematch: true };
      const pw = want.password || sessionStorage.getItem(KEY + ".password");
      if (pw) hello.password = pw;
      if (want.spectate) hello.spectate = true;
      else if (store().token) hello.token = store().token;
      send(hello);
      S.hostLang = lang;  // the language the host writes this connection's texts in
      if (old && old !== ws) try { old.close(1000); } catch (e) { /* gone */ }
    };
    ws.onmessage = (ev) => {
      if (gen !== S.gen) return;
      let msg;
      try { msg = MP.decode(new Uint8Array(ev.data), decodeOpts); } catch (e) { addLog("error", "bad message from the host: " + e.message); return; }
      if (msg && typeof msg === "object" && typeof msg.type === "string") handle(msg);
    };
    ws.onclose = () => {
      if (gen !== S.gen) return;
      S.ws = null;
      if (S.leaving && !S.closed) { S.closed = { reason: "", result: null, left: true }; render(); }  // no closing came
      if ((S.closed && !waitsForHost()) || !S.want) { setStatus("closed"); return; }  // !S.want: refused at the door (onError)
      setStatus(S.joinedOnce ? "reconnecting" : "connecting");
      if (S.view) render();  // no moves while the connection is down (tableview.js renderMe)
      scheduleRetry();
    };
  }
  // the host stopped and resumes this match (closing with resumable, issue #9): the page keeps
  // trying, as after a lost connection, and takes its seat back by itself once the host is back
  function waitsForHost() { return !!(S.closed && S.closed.resumable === true && !S.closed.lost); }
  function scheduleRetry() {
    if (!S.want || (S.closed && !waitsForHost())) return;
    if (!S.since) S.since = Date.now();
    if (Date.now() - S.since > 600000) {  // ten minutes, as the terminal client: given up, nothing more to play here
      S.closed = { reason: "", result: null, lost: true };
      setStatus("closed");
      render();
      return;
    }
    const delay = Math.min(5000, 250 * Math.pow(2, S.retry++));
    clearTimeout(S.retryTimer);
    S.retryTimer = setTimeout(() => connect(S.want), delay);
  }
  function send(msg) {
    if (S.ws && S.ws.readyState === WebSocket.OPEN) S.ws.send(MP.encode(msg, encodeOpts));
  }
  function act(action) {
    if (!S.view || S.closed) return;
    S.selected = [];
    S.message = "";
    send({ type: "act", action: action, version: S.view.version });
    render();
  }

  // --- messages ---------------------------------------------------------------------------------------
  function handle(msg) {
    switch (msg.type) {
      case "welcome":
        S.welcome = msg;
        S.retry = 0;
        S.since = 0;
        S.closed = null;
        if (typeof msg.token === "string") {
          if (store().token !== msg.token) { S.sheet = []; save({ sheet: [] }); } // a new seat: a new sheet
          save({ token: msg.token, name: S.want.name });
        } else if (!S.joinedOnce || S.want.spectate) { S.sheet = []; }
        S.joinedOnce = S.live = true;
        S.message = "";  // "The connection is lost…" said while it was down: no longer true
        setStatus("connected");
        show("game");
        tellLang();  // switched while the hello was on its way
        break;
      case "view":
        if (msg.view && typeof msg.view === "object") setView(msg.view);
        break;
      case "event": {
        const e = msg.event || {};
        if (typeof e.text === "string" && e.text) addLog("event", e.text);
        if (e.type === "deal_end" && e.report && typeof e.report === "object") addSheetRow(e.report, S.view && S.view.deal_no);
        break;
      }
      case "chat":
        addLog("chat", (cleanName(msg.name) || "?") + ": " + String(msg.text || ""));
        break;
      case "error":
        onError(msg);
        break;
      case "shuffle_commit":  // fair deals (fairness.js, docs/fairness.md)
      case "shuffle_hashes":
      case "shuffle_reveal":
        fair(msg);
        break;
      case "rematch_offer": {  // the match is over: play again with the same seats? (protocol.md "Rematch")
        const seat = S.welcome && isInt(S.welcome.seat) ? Number(S.welcome.seat) : null;
        const asked = seat !== null && Array.isArray(msg.waiting) && msg.waiting.map(Number).includes(seat);
        const seconds = Math.round(Number(msg.seconds)) || 0;
        S.rematch = { seconds: seconds, until: Date.now() + seconds * 1000, asked: asked, answer: null };  // counted down
        render();
        break;
      }
      case "rematch_start": {  // a new match at the same seats: its deals count from 1 again
        const board = S.view ? D.standings(S.view) : "";  // the match just played, kept in the log
        if (board) addLog("status", board);
        S.rematch = null;
        S.sheet = [];
        save({ sheet: [] });
        addLog("status", t("Match {n} begins with the same seats.", { n: isInt(msg.match) ? String(msg.match) : "?" }));
        render();
        break;
      }
      case "closing":
        S.rematch = null;
        S.message = "";
        S.closed = msg;
        if (closingCode(msg) === "replaced") {
          // another window or device sat down with this seat's token: it plays on (the token stays
          // saved); do not fight it for the seat, and a deal not revealed here was not failed
          const said = t("This seat was taken over by another connection with its token (another window or device, perhaps); the game goes on there.");
          S.closed = { reason: said, result: null, replaced: true };
          addLog("status", said);
        } else if (closingCode(msg) === "left") {  // the answer to our leave: the table plays on without us
          S.closed = { reason: "", result: null, left: true };
          if (!S.leaving) addLog("status", t("You left the table."));  // said once: at the click, else here
        } else if (msg.resumable === true) {  // (issue #9) the host stopped and resumes this match: keep the seat token
          addLog("status", t(D.HOST_STOPPED));  // and keep trying (ws.onclose, scheduleRetry)
          setStatus("reconnecting");
          render();
          break;
        } else {
          if (msg.result && typeof msg.result === "object") save({ token: null });
          addLog("status", t("The table is closed") + ": " + D.closedWhy(msg.reason) + ".");
        }
        setStatus("closed");
        render();
        break;
    }
  }
  // closing's code (docs/protocol.md "closing"): "replaced" (another connection took this seat with its
  // token), "left" (the answer to leave); from a host older than the field, the code of its exact reason
  function closingCode(msg) {
    if (typeof msg.code === "string") return msg.code;
    return { "replaced by a new connection with this seat's token": "replaced", "you left the table": "left" }[msg.reason] || null;
  }
  function fair(msg) {
    if (!window.FrapnetFair) return;
    if (!S.fair) S.fair = new window.FrapnetFair.Checker();
    const seat = S.welcome && isInt(S.welcome.seat) ? Number(S.welcome.seat) : null;
    if (msg.type === "shuffle_reveal") {
      const r = S.fair.reveal(msg, seat);
      // the page has no rules engine: it checks the commitment and its own nonce, not the cards — said
      // as the terminal client says a check that leaves the cards out (frapnet/tui/model.py add_fairness)
      if (r) addLog(r.ok ? "ok" : "error", r.ok ? t("✓ deal {n}: the host shuffled as it promised before the deal, with your random number mixed in; cards not checked here").replace("{n}", r.deal)
        : t("⚠⚠ DEAL {n} FAILED THE FAIRNESS CHECK").replace("{n}", r.deal) + ": " + t(r.problem));
      return;
    }
    const reply = msg.type === "shuffle_commit" ? S.fair.commit(msg, seat) : S.fair.hashes(msg, seat);
    if (reply) send(reply);
  }
  function onError(msg) {
    const own = lang === "ru" && Object.prototype.hasOwnProperty.call(ERRORS_RU, msg.code) ? ERRORS_RU[msg.code] : null;
    const text = (own || String(msg.message || msg.code || "error")) + (msg.rule ? " (" + msg.rule + ")" : "");
    if (!S.welcome && FATAL.has(msg.code)) {
      // refused at the door: back to the form, never a retry loop
      S.want = null;
      clearTimeout(S.retryTimer);
      if (msg.code === "bad_token" || msg.code === "seat_taken") save({ token: null });
      if (msg.code === "password") {
        sessionStorage.removeItem(KEY + ".password");
        el("join-password-row").hidden = false;
      }
      el("join-error").textContent = plain(text);
      setStatus("closed");
      show("join");
      return;
    }
    if (msg.code === "stale") return; // a newer view is on its way
    // late: only ever the answer to our own nonce_hash/nonce (protocol.md), expected after a
    // reconnect when that shuffle is over — nothing for the player (issue #9)
    if (msg.code === "late") { console.debug("late nonce answer:", text); return; }
    S.message = text;
    addLog("error", text);
    render();
  }
  function setView(v) {
    S.view = v;
    S.viewAt = Date.now();  // the turn clock's countdown runs from the view's arrival (protocol.md "deadlines")
    const sig = JSON.stringify((v.actions || []).map((a) => a && a.action), (k, x) => typeof x === "bigint" ? x.toString() : x);
    if (sig !== S.actionsSig) { S.actionsSig = sig; S.selected = []; }
    if (Array.isArray(v.sheet)) {  // the host's score sheet: its latest deals (protocol.md "view")
      const rows = v.sheet.filter((r) => r && isInt(r.deal) && Array.isArray(r.after)).map((r) => ({
        deal: Number(r.deal), balances: r.after, pot: isInt(r.pot) ? r.pot : null, ledger: v.ledger || "chips" }));
      // from the match's first deal (no sheet_base): the whole sheet; else the older deals this page saw stay
      const cut = Array.isArray(v.sheet_base) && rows.length, first = cut ? rows[0].deal : 0;
      const prev = cut && S.sheet.find((r) => r.deal === first - 1);  // kept only if it leads to the host's rows
      const leads = prev && String(prev.balances) === String(v.sheet_base);  // (not a former match's)
      S.sheet = leads ? S.sheet.filter((r) => r.deal < first).concat(rows).slice(-SHEET_MAX) : rows;
      S.sheetBase = cut ? { deal: first, balances: v.sheet_base } : null;
    } else if (v.last_report && isInt(v.deal_no) && !S.sheet.some((r) => r.deal === Number(v.deal_no))
        && !(v.to_act && v.to_act.length)) addSheetRow(v.last_report, v.deal_no);
    render();
  }
  function reportBalances(r) {
    for (const k of ["balances", "points_after", "points"]) if (Array.isArray(r[k]) && r[k].every(isInt)) return r[k];
    return null;
  }
  function addSheetRow(report, dealNo) {
    const deal = isInt(dealNo) ? Number(dealNo) : S.sheet.length + 1;
    let bal = reportBalances(report);
    if (!bal && S.view && Array.isArray(S.view.balances)) bal = S.view.balances;
    if (!bal || S.sheet.some((r) => r.deal === deal)) return;
    S.sheet.push({ deal: deal, balances: bal, pot: isInt(report.pot_after) ? report.pot_after : null,
      ledger: (S.view && S.view.ledger) || "chips" });
    S.sheet.sort((a, b) => a.deal - b.deal);
    if (S.sheet.length > SHEET_MAX) S.sheet.splice(0, S.sheet.length - SHEET_MAX);
    save({ sheet: S.sheet });
  }
  function addLog(kind, text) {
    S.log.push({ kind: kind, text: plain(text) });
    if (S.log.length > LOG_MAX) S.log.splice(0, S.log.length - LOG_MAX);
    renderLog();
  }

  // --- text from the network -------------------------------------------------------------------------------
  // Shown as text (textContent), never as HTML; and on one line with no control or format
  // character (a bidi override, a zero-width joiner, a line break), as the host's rule for names
  // leaves them (frapnet.net.protocol.clean_name) — in case a host did not clean them.
  const INVISIBLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}]/gu;
  function plain(x) {
    return String(x === null || x === undefined ? "" : x).replace(/[\t\n\r\v\f\u0085\u2028\u2029]/g, " ").replace(INVISIBLE, "");
  }
  function cleanName(x) { return Array.from(plain(x).split(/\s+/).join(" ").trim()).slice(0, NAME_MAX).join("").trim(); }

  function show(which) {
    el("join").hidden = which !== "join";
    el("game").hidden = which !== "game";
    if (which === "join") {
      el("join-name").value = el("join-name").value || store().name || "";
      el("join-name").focus();
      loadTable();
    }
  }
  // the table this page joins, named before sitting down: GET /table.json (docs/web.md; issue #10)
  function loadTable() {
    fetch("/table.json?lang=" + lang, { cache: "no-store" })
      .then((r) => (r.ok ? r.json() : null))
      .then((info) => {
        const ts = info && Array.isArray(info.tables) ? info.tables : [];
        S.table = ts.length === 1 && ts[0] && typeof ts[0] === "object" ? ts[0] : null;
        D.renderJoinTable();
      })
      .catch(() => { /* an older host, or none: the form without the table's line */ });
  }
  function setStatus(s) {
    S.status = s;
    const words = { idle: "", connecting: "connecting…", connected: "connected", reconnecting: "connection lost — reconnecting…",
      closed: !S.closed || S.closed.lost ? "disconnected" : S.closed.replaced ? "seat taken over" : S.closed.left ? "left the table" : "table closed" };
    el("status").dataset.status = s === "closed" && S.closed && S.closed.left ? "left" : s;  // left: no alarm colour
    el("status").textContent = s in words ? t(words[s]) : s;
  }
  function applyWords() {
    document.documentElement.lang = lang;
    for (const n of document.querySelectorAll("[data-t]")) n.textContent = t(n.dataset.t);
    for (const n of document.querySelectorAll("[data-tp]")) n.placeholder = t(n.dataset.tp);
    el("lang-switch").textContent = lang === "ru" ? "EN" : "RU";
    el("lang-switch").title = lang === "ru" ? "English" : "Русский";
    setStatus(S.status);
  }

  function render() {
    const v = S.view;
    const w = S.welcome || {};
    el("table-name").textContent = plain((v && v.table) || w.table || "");
    const title = (ui(v) && typeof ui(v).title === "string" && ui(v).title) || (v && v.title) || w.title || "";
    document.title = "frapnet · " + title + " · " + ((v && v.table) || w.table || "");
    D.renderFacts(v || {});
    if (v) {
      D.renderSeats(v);
      renderMe(v);
      D.renderSheet(v);
    }
    D.renderRules(v || {});
    el("chat-form").hidden = !!(S.closed || S.leaving || D.offline());  // nobody to talk to from here (now)
    if (S.closed) D.renderClosed();
  }
  setInterval(() => {  // once a second, only the line that shows whose turn it is
    const v = S.view;
    if (v && ((v.to_act || []).some((s) => timeLeft(s) !== null) || (S.rematch && S.rematch.answer === null)) && !S.closed) renderTurn(v);
  }, 1000);
  function answerRematch(accept) {
    if (!S.rematch) return;
    S.rematch.answer = accept;
    send({ type: "rematch", accept: accept });
    if (!accept) leave();  // no: leave the table (the host closes it for everyone: no rematch with these seats)
    render();
  }
  // --- the page's controls ----------------------------------------------------------------------------
  // both buttons submit; Enter presses the first, the main one (Watch when no seat is free: tableview.js)
  el("join-form").addEventListener("submit", (e) => { e.preventDefault(); join(e.submitter ? e.submitter.id === "join-watch" : !el("join-full").hidden); });
  function join(spectate) {
    // a spectator needs a name too (protocol.md hello): one left empty watches as "Spectator", not saved
    const typed = cleanName(el("join-name").value) ? el("join-name").value.trim() : "";
    const nm = typed || (spectate ? t("Spectator") : "");
    const clean = plain(nm).split(/\s+/).join(" ").trim();
    if (!clean) { el("join-error").textContent = t("Enter a name."); return; }
    if (Array.from(clean).length > NAME_MAX) { // the host would cut it: say so, as frapnet join --name does
      el("join-error").textContent = t("A name has at most {n} characters.", { n: NAME_MAX });
      return;
    }
    el("join-error").textContent = "";
    if (typed) save({ name: nm });
    S.closed = null;
    connect({ name: nm, spectate: spectate, password: el("join-password").value || null });
  }
  el("chat-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const text = el("chat-input").value.trim();
    if (text) send({ type: "chat", text: text });
    el("chat-input").value = "";
  });
  el("leave").addEventListener("click", () => {
    if (S.view && (S.view.to_act || []).length && !confirm(t("Leave the table? A computer player takes your seat."))) return;
    leave();
  });
  function leave() {  // the host answers closing "left" (protocol.md "leave"); no reconnecting after it
    S.leaving = true;
    send({ type: "leave" });
    save({ token: null });
    addLog("status", t("You left the table."));
    render();  // no Leave button and no chat from now on
  }
  el("lang-switch").addEventListener("click", () => {
    lang = lang === "ru" ? "en" : "ru";
    localStorage.setItem("frapnet.lang", lang);
    applyWords();
    render();
    if (!el("join").hidden) loadTable(); // the game's name in the new language
    // joined: the host's words in the new language over this connection (protocol.md "lang": a
    // view answers; no reconnect); before that, and after a drop, the next hello carries it
    clearTimeout(S.langTimer);
    S.langTimer = setTimeout(tellLang, 250);  // a quick double click sends nothing
  });
  function tellLang() {
    if (S.live && !S.closed && S.hostLang !== lang && S.ws && S.ws.readyState === WebSocket.OPEN) {
      send({ type: "lang", lang: lang });
      S.hostLang = lang;
    }
  }

  // --- start ---------------------------------------------------------------------------------------------
  applyWords();
  S.sheet = loadSheet();
  const params = new URLSearchParams(location.search);
  if (params.get("lang") === "ru" || params.get("lang") === "en") { lang = params.get("lang"); applyWords(); }
  const saved = store();
  if (saved.token && saved.name) connect({ name: saved.name, spectate: false }); // a reload: back to the seat
  else if (params.has("watch") && saved.name) connect({ name: saved.name, spectate: true });
  else { setStatus("idle"); show("join"); }  // no connection yet: no badge (app.css #status:empty)
})();
