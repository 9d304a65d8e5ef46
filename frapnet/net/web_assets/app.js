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
  const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
  const LOG_MAX = 400;
  // player names (docs/protocol.md, hello): the host seats a name of at most NAME_MAX characters
  // once cleaned (frapnet.net.protocol.clean_name); the name field takes what the host reads
  const NAME_MAX = 32;
  const KEY = "frapnet@" + location.host; // one table per web port

  // --- the page's own words ---------------------------------------------------------------------
  const WORDS = {
    ru: {
      "Join the table": "За стол", "Your name": "Ваше имя", "Password": "Пароль", "Sit down": "Сесть за стол",
      "Watch": "Смотреть", "Score sheet": "Запись счёта", "Log and chat": "Ход игры и чат", "Send": "Отправить",
      "Say something…": "Сообщение…", "Leave the table": "Выйти из-за стола", "player": "игрок", "bid": "заявка",
      "tricks": "взятки", "balance": "счёт", "points": "очки", "connected": "на связи",
      "reconnecting": "нет связи…", "computer": "компьютер", "empty seat": "свободно", "you": "вы",
      "dealer": "сдаёт", "deal": "сдача", "pot": "кон", "treasure": "клад", "trump": "козырь", "turn-up": "вскрышка",
      "taken": "взята", "dead": "вне игры", "talon": "талон", "trick": "взятка", "last trick": "прошлая взятка",
      "Your turn": "Ваш ход", "Waiting for {who}": "Ждём: {who}", "Watching.": "Вы смотрите.",
      "{n} s left": "осталось {n} с",
      "Watching. To act: {who}": "Вы смотрите. Ходит: {who}",
      "Waiting for players: {k} of {n} seats taken": "Ждём игроков: занято {k} из {n} мест",
      "The next deal starts in a moment.": "Скоро следующая сдача.", "The match is over.": "Партия окончена.",
      "connecting…": "подключение…", "connection lost — reconnecting…": "связь потеряна — переподключение…",
      "disconnected": "отключено", "table closed": "стол закрыт", "Choose cards": "Выберите карты",
      "The table has a password.": "У стола есть пароль.", "after deal": "после сдачи", "now": "сейчас",
      "The table is closed": "Стол закрыт", "Result": "Итог", "You left the table.": "Вы вышли из-за стола.",
      "Leave the table? A computer player takes your seat.": "Выйти? Ваше место займёт компьютер.",
      "Tap a card, then the action.": "Нажмите карту, затем действие.", "face down": "рубашкой вверх",
      "{k} of {n} seats free": "свободно мест: {k} из {n}",
      // the host's closing reasons (docs/protocol.md "closing"; issue #10)
      "match over": "партия окончена", "host stopping": "хост останавливается", "you left the table": "вы вышли из-за стола",
      // the amounts' limit (frapnet/net/amounts.py NEAR, PAST; F6)
      "the amounts passed 990 digits, near the 1,000 digits the protocol carries: the match ends after this deal (F6)":
        "в счёте или коне больше 990 цифр — почти 1000 цифр, которые передаёт протокол: партия кончается после этой сдачи (F6)",
      "the next move would take the amounts past the 1,000 digits the protocol carries: the match ends before it (F6)":
        "следующий ход сделал бы счёт или кон длиннее 1000 цифр, которые передаёт протокол: партия кончается перед ним (F6)",
      "Enter a name.": "Введите имя.", "A name has at most {n} characters.": "В имени не больше {n} символов.", "The game": "Игра", "Last deal": "Прошлая сдача",
      "House rules": "Домашние правила",
      "This seat is now played in another window or device.": "За этим местом теперь играют в другом окне или на другом устройстве.",
      "✓ deal {n}: the host's commitment opened": "✓ сдача {n}: обязательство хоста раскрыто",
      "⚠⚠ DEAL {n} FAILED THE FAIRNESS CHECK": "⚠⚠ СДАЧА {n} НЕ ПРОШЛА ПРОВЕРКУ ЧЕСТНОСТИ",
      // why a deal failed the check (fairness.js; the terminal client's words, frapnet/tui/fairtext.py)
      "the reveal holds no seed and salt": "в раскрытии нет зерна и соли",
      "the seed or salt differs from the one committed": "зерно или соль не те, что были обещаны",
      "your own nonce is missing or changed in the reveal": "вашего случайного числа нет в раскрытии или оно изменено",
      "The host stopped; the match is not over. Once the host is back, reload this page to take your seat back.":
        "Хост остановлен; партия не окончена. Когда хост снова заработает, обновите эту страницу — и вы вернётесь на своё место.",
      "The match is over. Play again with the same seats? Answer within {n} s.": "Партия окончена. Сыграть ещё раз тем же составом? Ответ в течение {n} с.",
      "Play again": "Сыграть ещё", "No, leave the table": "Нет, выйти из-за стола",
      "You will play again; waiting for the others to answer.": "Вы играете ещё раз; ждём ответа остальных.",
      "The match is over; the players are asked whether they play again.": "Партия окончена; игроков спрашивают, сыграют ли они ещё раз.",
      "Match {n} begins with the same seats.": "Партия {n} начинается тем же составом.",
    },
  };
  // the host writes its error messages in English (docs/protocol.md "error"): a Russian page says
  // the error code's sentence instead, as the terminal client does (frapnet/tui/text.py; issue #10)
  const ERRORS_RU = {
    malformed: "Хост не смог прочитать сообщение этого клиента.", too_large: "Сообщение слишком велико для хоста.",
    bad_message: "Хост отклонил неправильно составленное сообщение.",
    unknown_kind: "Хосту неизвестно сообщение, которое отправил этот клиент.",
    version: "Версия протокола этого клиента не совпадает с версией хоста.",
    password: "Неверный пароль или пароль не указан.", bad_name: "Без управляющих символов имя оказывается пустым.",
    no_table: "На этом хосте нет такого стола.", table_full: "Все места заняты; можно присоединиться зрителем.",
    no_rematch: "Новую партию сейчас не предлагают.", seat_taken: "Это место занято.",
    bad_token: "Жетон места недействителен за этим столом.", not_joined: "Хост ждал сначала приветствия.",
    already_joined: "Это подключение уже за столом.", not_seated: "Зрители не делают ходов.",
    wrong_seat: "Нельзя ходить за другое место.", stale: "Поздно: за столом уже всё изменилось; выберите снова.",
    illegal: "Хост отклонил ход: он нарушает правило.", flood: "Слишком много сообщений в секунду; часть отброшена.",
    timeout: "Хост слишком долго ждал приветствия этого клиента.",
    busy: "Хост занят (слишком много подключений); попробуйте позже.",
    internal: "Хост не смог обработать сообщение (ошибка хоста; она записана в его журнал).",
    late: "Ответ для тасовки сейчас не ожидался.",
    bad_nonce: "Случайное число для тасовки не совпало со своим хешем; это место не участвует в тасовке.",
  };
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
      // a language switch opens the new connection first; the host then closes the old one
      if (old && old !== ws) setTimeout(() => { try { old.close(1000); } catch (e) { /* gone */ } }, 3000);
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
      if (S.closed) { setStatus("closed"); return; }
      setStatus(S.joinedOnce ? "reconnecting" : "connecting");
      scheduleRetry();
    };
  }
  function scheduleRetry() {
    if (!S.want || S.closed) return;
    if (!S.since) S.since = Date.now();
    if (Date.now() - S.since > 600000) { setStatus("closed"); return; } // ten minutes, as the terminal client
    const delay = Math.min(5000, 250 * Math.pow(2, S.retry++));
    clearTimeout(S.retryTimer);
    S.retryTimer = setTimeout(() => connect(S.want), delay);
  }
  function send(msg) {
    if (S.ws && S.ws.readyState === WebSocket.OPEN) S.ws.send(MP.encode(msg, encodeOpts));
  }
  function act(action) {
    if (!S.view) return;
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
        S.joinedOnce = true;
        setStatus("connected");
        show("game");
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
        S.rematch = { seconds: Math.round(Number(msg.seconds)) || 0, asked: asked, answer: null };
        render();
        break;
      }
      case "rematch_start":  // a new match at the same seats: its deals count from 1 again
        S.rematch = null;
        S.sheet = [];
        save({ sheet: [] });
        addLog("status", t("Match {n} begins with the same seats.", { n: isInt(msg.match) ? String(msg.match) : "?" }));
        render();
        break;
      case "closing":
        S.rematch = null;
        S.closed = msg;
        // resumable (issue #9): the host stopped and resumes this match; keep the seat token
        if (msg.resumable === true) addLog("status", t("The host stopped; the match is not over. Once the host is back, reload this page to take your seat back."));
        else if (msg.result && typeof msg.result === "object") save({ token: null });
        if (String(msg.reason || "").startsWith("replaced")) {
          // another window or device sat down with this seat's token: do not fight it for the seat
          S.closed = { reason: t("This seat is now played in another window or device."), result: null };
        }
        setStatus("closed");
        addLog("status", t(String(msg.reason || "")));
        render();
        break;
    }
  }
  function fair(msg) {
    if (!window.FrapnetFair) return;
    if (!S.fair) S.fair = new window.FrapnetFair.Checker();
    const seat = S.welcome && isInt(S.welcome.seat) ? Number(S.welcome.seat) : null;
    if (msg.type === "shuffle_reveal") {
      const r = S.fair.reveal(msg, seat);
      if (r) addLog(r.ok ? "status" : "error", r.ok ? t("✓ deal {n}: the host's commitment opened").replace("{n}", r.deal)
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
    if (Array.isArray(v.sheet)) {  // the host's score sheet: every deal of the match (protocol.md "view")
      S.sheet = v.sheet.filter((r) => r && isInt(r.deal) && Array.isArray(r.after)).map((r) => ({
        deal: Number(r.deal), balances: r.after, pot: isInt(r.pot) ? r.pot : null, ledger: v.ledger || "chips" }));
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
    save({ sheet: S.sheet.slice(-200) });
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
        showTable();
      })
      .catch(() => { /* an older host, or none: the form without the table's line */ });
  }
  function showTable() {
    const ti = S.table;
    el("join-table").hidden = !ti;
    if (!ti) return;
    el("join-table-name").textContent = plain(ti.name);
    el("join-game").textContent = plain(ti.title || ti.game);
    el("join-seats").textContent = isInt(ti.seats_free) && isInt(ti.players)
      ? t("{k} of {n} seats free", { k: amount(ti.seats_free), n: amount(ti.players) }) : "";
    if (ti.password === true) el("join-password-row").hidden = false;
  }
  function setStatus(s) {
    S.status = s;
    const words = { connecting: "connecting…", connected: "connected", reconnecting: "connection lost — reconnecting…",
      closed: S.closed ? "table closed" : "disconnected" };
    el("status").dataset.status = s;
    el("status").textContent = t(words[s] || s);
  }
  function isCard(x) {
    return typeof x === "string" && (x === "RJ" || x === "BJ" || (/^(10|[2-9JQKA])[SHDC]$/).test(x));
  }
  const RANKS_RU = { J: "В", Q: "Д", K: "К", A: "Т" }; // as the host names cards in Russian
  function cardFace(c) {
    if (c === "RJ" || c === "BJ") return lang === "ru" ? "Дж" : "Jk";
    if (!isCard(c)) return String(c);
    const r = c.slice(0, -1);
    return ((lang === "ru" && RANKS_RU[r]) || r) + SUITS[c.slice(-1)];
  }
  function cardRed(c) { return c === "RJ" || (isCard(c) && "HD".includes(c.slice(-1))); }
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
    renderFacts(v || {});
    if (v) {
      renderSeats(v);
      renderMe(v);
      renderSheet(v);
    }
    renderRules(v || {});
    if (S.closed) renderClosed();
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
    if (typeof v.phase_label === "string" && v.phase_label) f.append(h("span", { class: "phase", id: "phase" }, v.phase_label));
  }
  function seatWord(info) {
    // the host's words when it sends them (…_label); else the value as sent
    if (!info || typeof info !== "object") return "";
    if (typeof info.declaration_label === "string") return info.declaration_label;
    if (typeof info.bid_label === "string") return info.bid_label;
    const d = info.declaration !== undefined && info.declaration !== null ? info.declaration : info.bid;
    return (d === null || d === undefined || typeof d === "boolean") ? "" : String(d).replace(/_/g, " ");
  }
  function renderSeats(v) {
    const n = isInt(v.players) ? Number(v.players) : (Array.isArray(v.names) ? v.names.length : 0);
    const toAct = new Set((v.to_act || []).map(Number));
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
      h("th", null, t(showLast ? "last trick" : "trick"))));
    const body = el("seats").tBodies[0];
    body.replaceChildren();
    const connWord = { connected: "connected", reconnecting: "reconnecting", bot: "computer", empty: "empty seat" };
    for (let i = 0; i < n; i++) {
      const info = seats.find((s) => s && Number(s.seat) === i) || seats[i] || {};
      const me = isInt(v.seat) && Number(v.seat) === i;
      const conn = typeof conns[i] === "string" ? conns[i] : "";
      const nameCell = h("td", { class: "name" }, name(i) + (marks[i] ? " " + marks[i] : "") + (me ? " (" + t("you") + ")" : ""));
      if (isInt(v.dealer) && Number(v.dealer) === i) nameCell.append(h("span", { class: "dealer", title: t("dealer") }, "D"));
      if (conn && conn !== "connected") nameCell.append(h("div", { class: "dim conn-" + conn }, t(connWord[conn] || conn)));
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
    tr.replaceChildren(...trick.filter((p) => Array.isArray(p) && isCard(p[1])).map((p) =>
      h("span", { class: "trick-play" }, name(Number(p[0])) + " ", cardEl(p[1], true), " ")));
    el("trick-title").textContent = trick.length ? t(showLast ? "last trick" : "trick") + ":" : "";
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
  // the turn clock (--turn-time): seconds left per seat, counted down from the view's arrival
  function timeLeft(seat) {
    const d = S.view && Array.isArray(S.view.deadlines) ? S.view.deadlines[Number(seat)] : null;
    if (typeof d !== "number" || !isFinite(d)) return null;
    return Math.max(0, Math.ceil(Math.min(d, 86400) - (Date.now() - (S.viewAt || 0)) / 1000));
  }
  function clockText(seat) {
    const left = timeLeft(seat);
    return left === null ? "" : " · " + t("{n} s left", { n: left });
  }
  function timedNames(seats) { return seats.map((s) => name(s) + clockText(s)).join(", "); }
  setInterval(() => {  // once a second, only the line that shows whose turn it is
    const v = S.view;
    if (v && (v.to_act || []).some((s) => timeLeft(s) !== null) && !S.closed) renderTurn(v);
  }, 1000);
  function sameSet(a, b) { return a.length === b.length && a.every((x, i) => x === b[i]); }
  function renderTurn(v) {  // the line that says whose turn it is (and the turn clock's seconds)
    const me = isInt(v.seat);
    const turn = el("turn");
    const toAct = (v.to_act || []).map(Number);
    const who = toAct.map(name).join(", ");
    turn.className = "";
    if (!me) turn.textContent = who ? t("Watching. To act: {who}", { who: timedNames(toAct) }) : t("Watching.");
    else if (toAct.includes(Number(v.seat))) { turn.textContent = t("Your turn") + clockText(v.seat); turn.className = "mine"; }
    else if (toAct.length) turn.textContent = t("Waiting for {who}", { who: timedNames(toAct) });
    else if (S.rematch && !S.closed) {
      const r = S.rematch;
      turn.textContent = !r.asked ? t("The match is over; the players are asked whether they play again.")
        : r.answer ? t("You will play again; waiting for the others to answer.")
        : t("The match is over. Play again with the same seats? Answer within {n} s.", { n: r.seconds });
      if (r.asked && r.answer === null) turn.className = "mine";
    } else if (v.match_over || S.closed) turn.textContent = t("The match is over.");
    else if (!isInt(v.deal_no) || Number(v.deal_no) === 0) {
      const taken = (v.connection || []).filter((c) => c && c !== "empty").length;
      turn.textContent = t("Waiting for players: {k} of {n} seats taken", { k: taken, n: amount(v.players) });
    } else turn.textContent = t("The next deal starts in a moment.");
  }
  function renderMe(v) {
    const me = isInt(v.seat);
    el("me").hidden = false;
    el("leave-row").hidden = !me || !!S.closed;
    renderTurn(v);
    const hand = el("hand"), acts = el("actions");
    hand.replaceChildren();
    acts.replaceChildren();
    el("message").textContent = S.message;
    if (!me) { hand.hidden = true; acts.hidden = true; return; }
    hand.hidden = false;
    acts.hidden = false;
    const g = groups(v);
    const toggling = g.cards.length > 0;
    const choosable = new Set([...g.card.map((x) => x.card), ...g.cards.flatMap((x) => x.set)]);
    const cards = Array.isArray(v.hand) ? v.hand.filter((c) => typeof c === "string") : null;
    if (cards === null) {
      const k = isInt(v.hand_count) ? Math.min(64, Number(v.hand_count)) : 0;
      for (let i = 0; i < k; i++) hand.append(h("span", { class: "card back", title: t("face down") }, "?"));
    } else {
      const extra = [...choosable].filter((c) => !cards.includes(c));
      const row = cards.map((c) => ({ c, extra: false })).concat(extra.map((c) => ({ c, extra: true })));
      row.forEach((x, i) => {
        const ok = choosable.has(x.c);
        const sel = S.selected.includes(x.c);
        const cm = ui(v) && ui(v).card_marks && typeof ui(v).card_marks[x.c] === "string" ? ui(v).card_marks[x.c] : "";
        hand.append(h("button", {
          type: "button", class: "card" + (cardRed(x.c) ? " red" : "") + (ok ? " choosable" : " off") + (sel ? " selected" : "") + (x.extra && (i === cards.length) ? " extra" : ""),
          "data-card": x.c, "aria-pressed": sel ? "true" : "false", "aria-disabled": ok ? null : "true",
          onclick: () => ok ? tapCard(x.c, g, toggling) : refuse(x.c),
        }, cardFace(x.c), cm ? h("sup", null, cm) : null));
      });
    }
    // what the selection allows, in the host's words
    const sel = S.selected.slice().sort();
    for (const x of g.cards) {
      if (sameSet(x.set, sel)) acts.append(actionButton(x, "go"));
    }
    if (g.cards.length && !g.cards.some((x) => sameSet(x.set, sel))) acts.append(h("button", { type: "button", disabled: "disabled", class: "hint" }, t("Choose cards")));
    if (S.selected.length === 1) for (const x of g.card) if (x.card === S.selected[0]) acts.append(actionButton(x, "go"));
    if (g.card.length && !S.selected.length && !toggling) acts.append(h("span", { class: "dim hint" }, t("Tap a card, then the action.")));
    for (const x of g.simple) acts.append(actionButton(x, ""));
    if (S.rematch && S.rematch.asked && S.rematch.answer === null && !S.closed) {
      acts.append(h("button", { type: "button", id: "rematch-yes", class: "act go", onclick: () => answerRematch(true) }, t("Play again")));
      acts.append(h("button", { type: "button", id: "rematch-no", class: "act", onclick: () => answerRematch(false) }, t("No, leave the table")));
    }
  }
  function answerRematch(accept) {
    if (!S.rematch) return;
    S.rematch.answer = accept;
    send({ type: "rematch", accept: accept });
    if (!accept) {  // no: leave the table (the host closes it for everyone: no rematch with these seats)
      send({ type: "leave" });
      save({ token: null });
      addLog("status", t("You left the table."));
    }
    render();
  }
  function actionButton(x, cls) {
    return h("button", { type: "button", class: "act " + cls, "data-action": JSON.stringify(x.action, (k, y) => typeof y === "bigint" ? y.toString() : y),
      onclick: () => act(x.action) }, x.label);
  }
  function refuse(c) {
    // why this card cannot be chosen now, in the host's words (the view's ui.refusals)
    const r = ui(S.view) && ui(S.view).refusals && typeof ui(S.view).refusals[c] === "string" ? ui(S.view).refusals[c] : "";
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
      if (mine.length === 1) { act(mine[0].action); return; } // a second tap plays it
    } else S.selected = [c];
    render();
  }
  function renderSheet(v) {
    const n = isInt(v.players) ? Number(v.players) : 0;
    const head = el("sheet").tHead, body = el("sheet").tBodies[0];
    const cols = [];
    for (let i = 0; i < n; i++) cols.push(h("th", null, name(i)));
    head.replaceChildren(h("tr", null, h("th", null, t("deal")), ...cols, h("th", null, t("pot"))));
    body.replaceChildren();
    let prev = null;
    for (const r of S.sheet) {
      const cells = [];
      for (let i = 0; i < n; i++) {
        const b = r.balances[i];
        const net = prev && isInt(prev.balances[i]) && isInt(b) ? BigInt(b) - BigInt(prev.balances[i]) : null;
        cells.push(h("td", { title: net !== null ? amount(net, true) : "" }, amount(b, true)));
      }
      body.append(h("tr", { "data-deal": r.deal }, h("td", null, t("after deal") + " " + r.deal), ...cells, h("td", null, r.pot === null ? "" : amount(r.pot))));
      prev = r;
    }
    if (Array.isArray(v.balances) && (v.to_act || []).length) {
      body.append(h("tr", { class: "now" }, h("td", null, t("now")), ...v.balances.slice(0, n).map((b) => h("td", null, amount(b, true))), h("td", null, amount(v.pot))));
    }
  }
  function renderLog() {
    const list = el("log");
    const atBottom = list.scrollTop + list.clientHeight >= list.scrollHeight - 8;
    list.replaceChildren(...S.log.map((x) => h("li", { class: x.kind }, x.text)));
    if (atBottom) list.scrollTop = list.scrollHeight;
  }
  function renderClosed() {
    const c = S.closed || {};
    el("turn").textContent = t("The table is closed") + (c.reason ? ": " + plain(t(String(c.reason))) : "");
    el("hand").hidden = true;
    el("actions").replaceChildren();
    if (c.result && Array.isArray(c.result.balances)) {
      const n = c.result.balances.length;
      const parts = [];
      for (let i = 0; i < n; i++) parts.push(name(i) + " " + amount(c.result.balances[i], true));
      el("actions").append(h("p", { id: "result" }, t("Result") + ": " + parts.join(", ")));
    }
  }

  // --- the page's controls ----------------------------------------------------------------------------
  el("join-form").addEventListener("submit", (e) => { e.preventDefault(); join(false); });
  el("join-watch").addEventListener("click", () => join(true));
  function join(spectate) {
    const nm = el("join-name").value.trim();
    const clean = plain(nm).split(/\s+/).join(" ").trim();
    if (!clean) { el("join-error").textContent = t("Enter a name."); return; }
    if (Array.from(clean).length > NAME_MAX) { // the host would cut it: say so, as frapnet join --name does
      el("join-error").textContent = t("A name has at most {n} characters.", { n: NAME_MAX });
      return;
    }
    el("join-error").textContent = "";
    save({ name: nm });
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
    send({ type: "leave" });
    save({ token: null });
    addLog("status", t("You left the table."));
  });
  el("lang-switch").addEventListener("click", () => {
    lang = lang === "ru" ? "en" : "ru";
    localStorage.setItem("frapnet.lang", lang);
    applyWords();
    render();
    if (!el("join").hidden) loadTable(); // the game's name in the new language
    // the host's words come in the hello's language: sit down again with the seat token
    if (S.want && S.welcome && !S.closed) connect(S.want);
  });

  // --- start ---------------------------------------------------------------------------------------------
  applyWords();
  S.sheet = loadSheet();
  const params = new URLSearchParams(location.search);
  if (params.get("lang") === "ru" || params.get("lang") === "en") { lang = params.get("lang"); applyWords(); }
  const saved = store();
  if (saved.token && saved.name) connect({ name: saved.name, spectate: false }); // a reload: back to the seat
  else if (params.has("watch") && saved.name) connect({ name: saved.name, spectate: true });
  else { setStatus("connecting"); show("join"); el("status").textContent = ""; }
})();
