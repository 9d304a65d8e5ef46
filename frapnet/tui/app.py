"""The full-screen terminal client: a prompt_toolkit Application on the Twisted (asyncio) reactor.

Entry points (used by ``frapnet join``, ``frapnet play`` and ``frapnet host --play``)::

    from frapnet.tui.app import install_reactor, react, run_client, run_local
    reactor = install_reactor()          # asyncio loop + asyncioreactor, before anything imports
                                         # twisted.internet.reactor (stack-notes.md)
    code = react(lambda r: run_client(r, "127.0.0.1", 7777, "Olga", "en"))

    # a host started in this process (frapnet.hosting.start_host):
    code = react(lambda r: run_local(r, handle, name="Olga", lang="ru"))

:func:`run_client` returns a Deferred that fires with the exit status (0) once the player quits;
a "before shutdown" trigger exits the application first, so SIGTERM or ``reactor.stop()`` also
leave the terminal clean (alternate screen off, cooked mode). Twisted's log goes to the log pane
(warnings and errors only), never to stdout.
"""
from __future__ import annotations

import asyncio
import sys
from typing import Any, Callable

from prompt_toolkit.application import Application
from prompt_toolkit.filters import Condition, has_focus
from prompt_toolkit.key_binding import KeyBindings
from prompt_toolkit.keys import Keys
from prompt_toolkit.layout import Float, FloatContainer, HSplit, Layout, Window
from prompt_toolkit.layout.containers import ConditionalContainer, DynamicContainer
from prompt_toolkit.layout.controls import FormattedTextControl
from prompt_toolkit.layout.dimension import Dimension
from prompt_toolkit.mouse_events import MouseEventType
from prompt_toolkit.styles import Style
from prompt_toolkit.widgets import Frame, TextArea

from frapnet.net.protocol import MAX_CHAT
from frapnet.tui import guard, render
from frapnet.tui.i18n import translation
from frapnet.tui.model import Screen
from frapnet.tui.text import fit_lines, join_problem

GAME_KEYS = (list("abcdefghijklmnopqrstuvwxyz0123456789?./=!")
             + ["left", "right", "up", "down", "home", "end", "enter", "space", "escape", "f1", "f2", "f3", "tab",
                "pageup", "pagedown", "c-c", "c-d"])
_PTK_KEY = {"space": " ", "enter": "enter", "tab": "tab"}


def install_reactor():
    """Create an asyncio event loop, install Twisted's asyncio reactor on it and return the reactor.

    Must run before anything imports ``twisted.internet.reactor``; if an asyncio reactor is
    already installed it is returned, any other reactor raises RuntimeError."""
    if "twisted.internet.reactor" in sys.modules:
        from twisted.internet import reactor
        from twisted.internet.asyncioreactor import AsyncioSelectorReactor
        if not isinstance(reactor, AsyncioSelectorReactor):
            raise RuntimeError(f"another Twisted reactor ({type(reactor).__name__}) is already installed; "
                               "the terminal client needs the asyncio reactor")
        return reactor
    if sys.platform == "win32":
        loop = asyncio.SelectorEventLoop()
    else:
        loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    from twisted.internet import asyncioreactor
    asyncioreactor.install(loop)
    from twisted.internet import reactor
    return reactor


def react(main: Callable[[Any], Any]) -> int:
    """Run ``main(reactor)`` (returning a Deferred, a coroutine or a value) on the installed reactor
    until it finishes; stop the reactor and return its result as the exit status (1 on failure,
    after printing the error once the terminal is restored)."""
    from twisted.internet import defer, reactor
    from twisted.logger import globalLogBeginner

    globalLogBeginner.beginLoggingTo([], redirectStandardIO=False, discardBuffer=True)
    out: dict = {}

    def start():
        d = defer.maybeDeferred(main, reactor)
        d.addCallback(lambda r: defer.ensureDeferred(r) if asyncio.iscoroutine(r) else r)

        def ok(code):
            out["code"] = code if isinstance(code, int) else 0

        def bad(f):
            out["code"] = 1
            out["error"] = f

        d.addCallbacks(ok, bad)
        d.addBoth(lambda _: reactor.stop() if reactor.running else None)

    reactor.callWhenRunning(start)
    reactor.run()
    if "error" in out:
        f = out["error"]
        print(f"frapnet: {f.getErrorMessage() or f.type.__name__}", file=sys.stderr)
    return out.get("code", 1)


class ClientApp:
    """The Application and its wiring to a :class:`Screen` (and optionally a TableClient).

    ``send(action)``, ``chat(text)``, ``leave()``, ``rematch(accept)`` are how it talks to the table; tests pass
    plain callables. ``input``/``output``: prompt_toolkit input/output (pipe + DummyOutput in tests).
    """

    def __init__(self, screen: Screen, *, send: Callable[[list], Any] = lambda a: None,
                 chat: Callable[[str], Any] = lambda t: None, leave: Callable[[], Any] = lambda: None,
                 rematch: Callable[[bool], Any] = lambda accept: None,
                 input=None, output=None, mouse: bool = True) -> None:
        self.screen, self.send, self.answer_rematch, self.chat, self.leave = screen, send, rematch, chat, leave
        self.quitting = False
        s = screen

        self.top = Window(FormattedTextControl(self._top, focusable=True, show_cursor=False),
                          height=self._top_height, wrap_lines=False)
        self.log = Window(FormattedTextControl(lambda: render.log_window(s, self._width(), self._log_height()),
                                               show_cursor=False), wrap_lines=False)
        self.chat_line = TextArea(multiline=False, prompt=s._("say> "), height=1,
                                  accept_handler=self._send_chat, style="class:chat")
        status = Window(FormattedTextControl(lambda: render.status_bar(s, self._width())), height=1)
        rule = Window(height=1, char="─", style="class:frame.border")

        def overlay(name, fn):  # a box over the table; edge to edge when it nearly is (no slivers)
            return Float(ConditionalContainer(
                Frame(Window(FormattedTextControl(fn), wrap_lines=True, dont_extend_height=True),
                      style="class:dialog"),
                filter=Condition(lambda: s.overlay == name)), width=lambda: render.box_width(fn(), self._width()))

        small = Window(FormattedTextControl(lambda: render.too_small(s, self._width(), self._rows())),
                       wrap_lines=True)
        body = DynamicContainer(lambda: small if self.too_small() else main)
        main = HSplit([self.top, rule, self.log, self.chat_line, status])
        self.root = FloatContainer(body, floats=[
            overlay("settlement", lambda: render.settlement(s, self._width())),
            overlay("scores", lambda: render.score_sheet(s, self._width(), self._rows())),
            overlay("help", lambda: render.help_screen(s, self._rows(), self._width())),
            overlay("quit", lambda: render.quit_dialog(s)),
        ])
        self.app = Application(layout=Layout(self.root, focused_element=self.top), key_bindings=self._keys(),
                               style=Style.from_dict(render.STYLE), full_screen=True, mouse_support=mouse,
                               input=input, output=output, refresh_interval=1.0)  # the turn clock's countdown

    # --- drawing -------------------------------------------------------------------------------
    MIN_COLUMNS, MIN_ROWS = 80, 24

    def too_small(self) -> bool:
        """The terminal is smaller than 80×24: the table is replaced by a request to enlarge it."""
        return self._width() < self.MIN_COLUMNS or self._rows() < self.MIN_ROWS

    def _width(self) -> int:
        try:
            return self.app.output.get_size().columns
        except Exception:  # noqa: BLE001 - no output yet
            return 80

    def _rows(self) -> int:
        try:
            return self.app.output.get_size().rows
        except Exception:  # noqa: BLE001
            return 24

    def _top(self) -> list:
        s = self.screen
        w = self._width()
        compact = s.two_column_seats(self._rows())
        frags = (render.header(s, w) + [("class:frame.border", "─" * w + "\n")]
                 + render.seats(s, w, compact=compact) + [("class:frame.border", "─" * w + "\n")]
                 + render.hand(s, w, self._click) + render.actions(s, w, self._click))
        if frags and frags[-1][1].endswith("\n"):
            last = frags[-1]
            frags[-1] = (last[0], last[1][:-1]) + tuple(last[2:])
        return frags

    def _top_height(self) -> Dimension:
        frags = self._top()
        lines = sum(f[1].count("\n") for f in frags) + 1
        return Dimension.exact(min(lines, max(1, self._rows() - 4)))

    def _log_height(self) -> int:
        """Rows left for the log pane: the terminal less the table, the rule, chat and status lines."""
        top = self._top_height().preferred
        return max(1, self._rows() - top - 3)

    def _click(self, key: str):
        def handler(ev):
            if ev.event_type == MouseEventType.MOUSE_UP:
                self.press(key)
                return None
            return NotImplemented
        return handler

    # --- input ---------------------------------------------------------------------------------
    def _keys(self) -> KeyBindings:
        kb = KeyBindings()
        chatting = has_focus(self.chat_line)
        kb.add(Keys.Vt100MouseEvent)(guard.mouse_event)  # a pasted colour code is not a mouse click

        for name in GAME_KEYS:
            ptk = _PTK_KEY.get(name, name)

            @kb.add(ptk, filter=~chatting)
            def _(event, name=name):
                self.press(name)

        @kb.add("escape", filter=chatting)
        @kb.add("tab", filter=chatting)
        def _(event):
            event.app.layout.focus(self.top)

        @kb.add("c-c", filter=chatting)
        def _(event):
            self.chat_line.text = ""
            event.app.layout.focus(self.top)

        return kb

    def press(self, key: str) -> None:
        """A key (or a click) for the screen model; carry out what it asks."""
        if self.too_small():  # only q works there, as the screen says (no box could be seen)
            return self.quit() if key in ("q", "c-c", "c-d") else None
        for intent in self.screen.press(key):
            kind = intent[0]
            if kind == "act":
                self.send(intent[1])
            elif kind == "chat":
                self.app.layout.focus(self.chat_line)
            elif kind == "rematch":  # the answer to the host's rematch offer (r / n)
                self.answer_rematch(intent[1])
            elif kind == "quit":
                self.quit()
        self.app.invalidate()

    def ring_if_due(self) -> None:
        """The terminal bell, when the screen says it is due (your turn, bell on)."""
        if self.screen.ring:
            self.screen.ring = False
            try:
                self.app.output.bell()
                self.app.output.flush()
            except Exception:  # noqa: BLE001 - a terminal without a bell
                pass

    def _send_chat(self, buff) -> bool:
        text = buff.text.strip()[:MAX_CHAT]  # the host keeps no more (docs/protocol.md chat)
        if text:
            self.chat(text)
        self.app.layout.focus(self.top)
        return False

    def quit(self) -> None:
        """Leave the table and end the application."""
        if self.quitting:
            return
        self.quitting = True
        try:
            self.leave()
        finally:
            if self.app.is_running and not self.app.future.done():
                self.app.exit(result=0)

    def refresh(self) -> None:
        self.ring_if_due()
        self.app.invalidate()



def run_client(reactor, host: str, port: int, name: str, lang: str = "en", *, password: str | None = None,
               spectate: bool = False, token: str | None = None, table: str | None = None,
               input=None, output=None, on_app: Callable[[ClientApp], Any] | None = None, local: bool = False,
               remember: bool = False, tokens_file=None, nonces: Callable[[int, int], bytes] | None = None):
    """Open the terminal client on ``host``:``port`` as ``name`` (chrome and game texts in ``lang``).
    ``nonces``: ``(deal, seat) -> 32 bytes``, this client's shuffle nonces (``frapnet play --seed``'s,
    from the seed: the same cards every time); None (the default): random.

    Returns a Deferred firing with 0 when the player quits (or the table closes and the player
    quits), 2 if the table refused us or could not be reached (the reason is printed on stderr
    once the terminal is restored). Connection trouble is shown and retried by the TableClient
    (seat token, backoff). ``on_app`` is called with the :class:`ClientApp` once built (tests,
    benchmarks); ``local``: the host runs in this process and stops when the player leaves.
    ``remember``: keep the seat token on disk (:mod:`frapnet.tui.tokens`, ``tokens_file`` or the
    default path) so a later run gets the seat back; it is forgotten when the player leaves or
    the table closes (kept when the host says the match resumes, ``resumable``: issue #9), and a saved ``token`` the host no longer knows (``bad_token``) is dropped
    and a new seat is taken.
    """
    from twisted.internet import defer

    return defer.ensureDeferred(_run_client(reactor, host, port, name, lang, password=password, spectate=spectate,
                                            token=token, table=table, input=input, output=output, on_app=on_app,
                                            local=local, remember=remember, tokens_file=tokens_file, nonces=nonces))


async def _run_client(reactor, host, port, name, lang, *, password, spectate, token, table, input, output, on_app,
                      local, remember=False, tokens_file=None, nonces=None):
    from twisted.internet import defer
    from twisted.logger import LogLevel, formatEvent, globalLogPublisher

    from frapnet.net.client import JoinError, TableClient
    from frapnet.tui import tokens

    _ = translation(lang).gettext
    screen = Screen(_, lang)
    screen.local = local
    box: dict = {}
    ui = ClientApp(screen, send=lambda a: box["c"].act(a), chat=lambda t: box["c"].chat(t),
                   leave=lambda: box["c"].leave(), rematch=lambda yes: box["c"].rematch(yes),
                   input=input, output=output)

    def hook(fn):
        def call(arg):
            fn(arg)
            ui.refresh()
        return call

    def closing(msg=None):
        msg = msg if isinstance(msg, dict) else getattr(box.get("c"), "closing", None)
        if msg and screen.closed is None:
            screen.set_closing(msg)
            if remember and not tokens.keeps_seat(msg):
                _forget()
            ui.refresh()

    def status(st):
        screen.set_status(st)
        closing()
        ui.refresh()

    def _forget():
        try:
            tokens.forget_token(host, port, table, tokens_file, player=name)
        except OSError:
            pass

    def welcome(msg):
        screen.set_welcome(msg)
        c = box["c"]
        if remember and c.token and isinstance(msg, dict) and msg.get("seat") is not None:
            try:
                tokens.save_token(host, port, c.token, table, name=str(msg.get("table") or ""),
                                  seat=msg.get("seat"), path=tokens_file, player=name)
            except OSError as exc:
                screen.add_log("system", _("Could not save the seat token: {why}").format(why=exc))
        ui.refresh()

    nonce_source = None if nonces is None else (lambda deal: nonces(deal, box["c"].seat or 0))

    def new_client(tok):
        client = TableClient(host, port, name=name, password=password, token=tok, spectate=spectate, lang=lang,
                             reconnect=True, reactor=reactor, table=table, nonce_source=nonce_source)
        client.on_welcome = welcome
        client.on_view = hook(screen.set_view)
        client.on_event = hook(screen.add_event)
        client.on_chat = hook(screen.add_chat)
        client.on_error = hook(screen.add_error)
        client.on_status = status
        client.on_closing = closing  # the host's closing message: match over, final balances
        client.on_fairness = hook(screen.add_fairness)  # each deal checked after its reveal (fairness.md)
        client.on_rematch = hook(screen.set_rematch)  # the rematch offer and its start (r / n)
        box["c"] = client
        return client

    new_client(token)

    def observe(event):
        level = event.get("log_level")
        if level is not None and level >= LogLevel.warn:
            text = formatEvent(event)
            f = event.get("log_failure")
            if f is not None:
                text += f": {f.getErrorMessage()}"
            screen.add_log("system", text)
            ui.refresh()

    globalLogPublisher.addObserver(observe)
    screen.add_log("system", _("Joining {host}:{port} as {name}…").format(host=host, port=port, name=name))
    if token and remember:
        screen.add_log("system", _("Taking back your seat with its saved token…"))
    app_d = defer.Deferred.fromFuture(asyncio.ensure_future(ui.app.run_async(set_exception_handler=False)))

    def before_shutdown():
        if ui.app.is_running and not ui.app.future.done():
            ui.app.exit(result=0)
        return app_d

    trigger = reactor.addSystemEventTrigger("before", "shutdown", before_shutdown)
    if on_app is not None:
        on_app(ui)

    failure = {}

    def join_failed(f):
        if remember and box["c"].token and f.check(JoinError) and f.value.code == "bad_token" \
                and not failure.get("retried"):
            # the host no longer knows the saved seat (a new table, or the seat was given up)
            failure["retried"] = True
            _forget()
            screen.add_log("status", _("The saved seat is no longer valid; taking a new seat."))
            new_client(None).connect().addErrback(join_failed)
            return
        # refused (wrong password, table full…) or nobody listening: leave the full screen and say
        # why on the restored terminal (exit status 2)
        why = join_problem(f, _, lang)
        if f.check(JoinError) and f.value.code == "password" and not password:  # none given: say how
            why += " " + _("(this table has a password: give it with --password - to be asked for it, "
                           "or --password TEXT)")
        failure["message"] = _("Could not join the table at {host}:{port}: {why}").format(host=host, port=port, why=why)
        screen.add_log("error", failure["message"])
        if ui.app.is_running and not ui.app.future.done():
            ui.app.exit(result=2)

    box["c"].connect().addErrback(join_failed)
    try:
        code = await app_d
    finally:
        globalLogPublisher.removeObserver(observe)
        try:
            reactor.removeSystemEventTrigger(trigger)
        except (ValueError, KeyError):
            pass
        client = box["c"]
        if not ui.quitting:
            client.close()
        else:
            if remember and not (screen.resumable or screen.replaced):
                # leaving gives the seat up: its token is no use any more — unless the host closed
                # the table saying it resumes the match (closing's resumable, issue #9), or another
                # connection took the seat with it (closing's code "replaced": this player's other terminal)
                _forget()
            # let the leave message go out before the connection closes
            await _sleep(reactor, 0.05)
            client.close()
    if failure.get("message"):
        print(f"frapnet{'' if local else ' join'}: {failure['message']}", file=sys.stderr)  # local: play or host --play
        return 2
    standings = screen.exit_standings()  # each match's, after a rematch
    if standings:  # on the restored terminal, after the full screen is gone
        print("\n\n".join(map(fit_lines, standings)), flush=True)
    return code if isinstance(code, int) else 0


def _sleep(reactor, seconds: float):
    from twisted.internet import defer
    d = defer.Deferred()
    reactor.callLater(seconds, d.callback, None)
    return d


def run_local(reactor, handle, name: str = "", lang: str = "en", *, host: str = "127.0.0.1", **kw):
    """The client for a host running in this process (``handle`` from start_host, reached at
    ``host``, a loopback address); stops the host when the player quits. Returns a Deferred
    firing with the exit status."""
    from twisted.internet import defer

    their_on_app = kw.pop("on_app", None)

    def on_app(ui):
        leave = ui.leave

        def end_table_then_leave():
            # the host is quitting: end the table first (the record keeps the unfinished deal, so
            # --resume continues it), so no computer player plays the deal out and makes everyone
            # pay in the moment before the host stops (issue #10 item 7)
            # (at the match's end, with the rematch declined or unanswered, the match is simply over)
            handle.table.finish("match over" if handle.table.rematch is not None else "host stopping")
            leave()
        ui.leave = end_table_then_leave
        if their_on_app is not None:
            their_on_app(ui)

    async def go():
        try:
            code = await run_client(reactor, host, handle.port, name, lang, local=True, on_app=on_app, **kw)
        finally:
            await handle.stop()
        return code
    return defer.ensureDeferred(go())
