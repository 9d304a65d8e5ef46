// The web page's own scripts (frapnet/net/web_assets: msgpack.min.js, words.js, tableview.js,
// app.js, unchanged) run under Node.js on a small stand-in for the browser: a document of plain
// elements, localStorage, a WebSocket the test feeds, and a clock it moves — so a test can pass
// the ten minutes the page tries to reconnect for in no time. Used by tests/test_web_page_node.py.
//
// Input (JSON on stdin): {"assets": DIR, "saved": {...} (localStorage for this page: a seat token
// and name, so the page sits down by itself), "steps": [...]}; each step is one of
//   {"msg": {...}}           a message from the host (msgpack-encoded, as the WebSocket delivers it)
//   {"wait": SECONDS}        the clock moves on and the page's once-a-second timer runs
//   {"close": true}          the WebSocket closes (the host went away)
//   {"open": true}           the page's latest WebSocket opens (a retry reaches the host)
//   {"click": "actions"}     every button in #actions is clicked
//   {"press": ID}            the page's own control ID is clicked ("leave", "lang-switch")
//   {"giveUp": true}         the clock jumps past the ten minutes the page tries to reconnect for,
//                            then the socket of the retry closes too
//   {"snap": NAME}           what the page shows now is recorded under NAME
// Output (JSON on stdout): {NAME: {turn, turnClass, hand, handHidden, actions, message, status,
// statusKind (the badge's data-status), seats: [{cls, text}], sheet: [{cls, cells}], log: [{kind,
// text}], chatHidden, leaveHidden, sockets (how many the page opened), sent: [types of the messages
// sent], sentMsgs: [the messages sent], trick and lastTrick (the lines under the seat table)}}.
"use strict";

const fs = require("fs");
const path = require("path");

class Node {
  constructor(tag) {
    this.tagName = tag; this.children = []; this.attrs = {}; this.className = ""; this.hidden = false;
    this.dataset = {}; this.listeners = {}; this.value = ""; this.scrollTop = 0; this.clientHeight = 0;
    this.scrollHeight = 0; this._text = null;
  }
  get textContent() { return this._text !== null ? this._text : this.children.map((c) => c.textContent).join(""); }
  set textContent(s) { this.children = []; this._text = String(s); }
  get innerText() { return this.textContent; }
  append(...kids) {
    if (this._text !== null) { const t = new Node("#text"); t._text = this._text; this._text = null; this.children.push(t); }
    for (const k of kids) {
      if (k instanceof Node) this.children.push(k);
      else { const t = new Node("#text"); t._text = String(k); this.children.push(t); }
    }
  }
  replaceChildren(...kids) { this.children = []; this._text = null; this.append(...kids); }
  setAttribute(k, v) { this.attrs[k] = String(v); }
  getAttribute(k) { return k in this.attrs ? this.attrs[k] : null; }
  addEventListener(type, fn) { (this.listeners[type] = this.listeners[type] || []).push(fn); }
  click() { for (const fn of this.listeners.click || []) fn({ preventDefault() {} }); }
  focus() {}
  all(pred, out = []) { for (const c of this.children) { if (pred(c)) out.push(c); c.all(pred, out); } return out; }
}

const byId = {};
function element(id) {
  if (!byId[id]) {
    const n = new Node("div");
    n.id = id;
    if (id === "seats" || id === "sheet") {
      n.tHead = new Node("thead"); n.tBodies = [new Node("tbody")];
    }
    byId[id] = n;
  }
  return byId[id];
}
function store() {
  const m = new Map();
  return { getItem: (k) => (m.has(k) ? m.get(k) : null), setItem: (k, v) => m.set(k, String(v)), removeItem: (k) => m.delete(k) };
}

const input = JSON.parse(fs.readFileSync(0, "utf8"));
let now = 1_000_000;
Date.now = () => now;
const timers = [];  // [due, fn, every]
global.setTimeout = (fn, ms) => { timers.push([now + (ms || 0), fn, 0]); return timers.length; };
global.setInterval = (fn, ms) => { timers.push([now + ms, fn, ms]); return timers.length; };
global.clearTimeout = (id) => { if (timers[id - 1]) timers[id - 1][1] = null; };
function runTimers() {
  for (const t of timers) {
    while (t[1] && t[0] <= now) {
      const fn = t[1];
      if (t[2]) t[0] += t[2]; else t[1] = null;
      fn();
    }
  }
}

global.window = global;
global.Node = Node;
global.document = {
  getElementById: element, createElement: (tag) => new Node(tag), querySelectorAll: () => [],
  documentElement: {}, title: "",
};
global.location = { host: "127.0.0.1:8080", protocol: "http:", search: "" };
global.localStorage = store();
global.sessionStorage = store();
global.confirm = () => true;
global.fetch = () => Promise.reject(new Error("no fetch here"));
Object.defineProperty(global, "navigator", { value: { languages: ["en"], language: "en" }, configurable: true });

const sockets = [];
class WebSocket {
  constructor(url) { this.url = url; this.readyState = 0; this.sent = []; sockets.push(this); }
  send(data) { this.sent.push(global.MessagePack.decode(data)); }
  close() { this.readyState = 3; }
}
WebSocket.OPEN = 1;
global.WebSocket = WebSocket;

const A = input.assets;
global.MessagePack = require(path.join(A, "msgpack.min.js"));
for (const [k, v] of Object.entries(input.saved || {})) localStorage.setItem(k, JSON.stringify(v));
for (const f of ["fairness.js", "words.js", "tableview.js", "app.js"]) require(path.join(A, f));

function ws() { return sockets[sockets.length - 1]; }
function open() { const s = ws(); if (s && s.readyState === 0) { s.readyState = 1; s.onopen(); } }
function snap() {
  const seats = element("seats").tBodies[0].children.map((r) => ({ cls: r.className, text: r.textContent }));
  const text = (n) => n.textContent;
  return {
    turn: text(element("turn")), turnClass: element("turn").className,
    hand: text(element("hand")), handHidden: element("hand").hidden,
    actions: element("actions").all((n) => n.tagName === "button").map(text),
    actionsText: text(element("actions")), message: text(element("message")),
    status: text(element("status")), statusKind: element("status").dataset.status, seats: seats,
    sheet: element("sheet").tBodies[0].children.map((r) => ({ cls: r.className, cells: r.children.map(text) })),
    log: JSON.parse(JSON.stringify(global.frapnet.log)), chatHidden: element("chat-form").hidden,
    leaveHidden: element("leave-row").hidden, sockets: sockets.length, facts: text(element("facts")),
    trick: text(element("trick")), lastTrick: text(element("last-trick-row")),
    sent: sockets.flatMap((s) => s.sent).map((m) => m.type),
    sentMsgs: JSON.parse(JSON.stringify(sockets.flatMap((s) => s.sent), (k, v) => typeof v === "bigint" ? v.toString() : v)),
  };
}

const out = {};
open();
for (const step of input.steps) {
  if (step.msg) { open(); const bytes = global.MessagePack.encode(step.msg); ws().onmessage({ data: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) }); }
  else if (step.wait) { now += step.wait * 1000; runTimers(); }
  else if (step.close) { const s = ws(); s.readyState = 3; s.onclose(); }
  else if (step.giveUp) {
    for (let i = 0; i < 40; i++) {  // each retry opens a socket that closes at once, until the page gives up
      now += 30000; runTimers();
      const s = ws(); if (s.readyState === 0) { s.readyState = 3; s.onclose(); }
    }
  }
  else if (step.click) { for (const b of element(step.click).all((n) => n.tagName === "button")) b.click(); }
  else if (step.press) element(step.press).click();
  else if (step.open) open();
  else if (step.snap) out[step.snap] = snap();
}
process.stdout.write(JSON.stringify(out));
