"""Command-line mistakes get clear words and the right exit status (issue #10 item 10).

Exit 2 is a usage error (a bad option or value), 1 a failure at run time; with output piped,
`frapnet play` reports the argument's mistake, and "needs a terminal" only when the arguments
are fine; "record" names no rule, so nobody reads "rule record:"; `frapnet bot` prints plain
lines, never Twisted's own log lines.
"""
from __future__ import annotations

import os
import socket
import subprocess
import sys

import pytest

FRAPNET = [sys.executable, "-m", "frapnet"]
ENV = dict(os.environ, FRAPNET_PLUGINS_DIR="", LANGUAGE="en")  # mistakes are said in the client's language
TERMINAL = "frapnet play: needs a terminal (standard input and output must be a terminal, not a file or a pipe)\n"


def frapnet(*args, timeout=60):
    return subprocess.run([*FRAPNET, *map(str, args)], capture_output=True, text=True, stdin=subprocess.DEVNULL,
                          env=ENV, timeout=timeout)


@pytest.mark.parametrize("args, message", [
    (["--deals", "0"], "--deals must be at least 1, not 0"),
    (["--bot-delay", "-1"], "--bot-delay must be a finite number of seconds ≥ 0, not -1.0"),
    (["--pause", "inf"], "--pause must be a finite number of seconds ≥ 0, not inf"),
    (["--option", "ante=7"], "rule F5: option 'ante' = 7: a positive whole number of chips divisible by 4"),
    (["--players", "13"], "rule F1: Frap is for 2–12 players, not 13"),
    (["--option", "trumps=none"], "unknown option 'trumps' for frap (options: deck, ante, cut_in, graded_remise, revoke)"),
    (["--game", "whist"], "unknown game 'whist' (installed: "),
])
def test_play_mistakes_are_named_even_with_output_piped(args, message):
    p = frapnet("play", *args)
    assert p.returncode == 2, p.stderr
    assert p.stderr.startswith(f"frapnet play: {message}"), p.stderr
    assert "needs a terminal" not in p.stderr and "rule record" not in p.stderr


def test_play_refuses_a_record_file_in_a_missing_folder_before_the_table_starts(tmp_path):
    """It started and only logged "cannot write the record" after deal 1; like `frapnet host`, it is
    one line naming the path and why, exit 2, and nothing is written."""
    missing = tmp_path / "no-such-dir"
    p = frapnet("play", "--record", missing / "x.json", "--db", tmp_path / "j.sqlite3")
    assert p.returncode == 2 and p.stdout == ""
    assert p.stderr == f"frapnet play: --record {missing / 'x.json'}: no folder {missing}\n"
    assert os.listdir(tmp_path) == []
    ru = frapnet("play", "--lang", "ru", "--record", tmp_path, "--db", tmp_path / "j.sqlite3")
    assert ru.returncode == 2 and ru.stderr == f"frapnet play: --record {tmp_path}: это папка, а не файл\n"


def test_host_play_without_a_terminal_is_refused_before_the_table_starts(tmp_path):
    """It printed "Warning: Input is not a terminal (fd=0)." and "frapnet: EOFError" (exit 1) and left
    a match in the journal; now `frapnet play`'s words, exit 2, and no match stored."""
    db = tmp_path / "j.sqlite3"
    p = frapnet("host", "--play", "--no-announce", "--bind", "127.0.0.1", "--port", "0", "--bots", "3",
                "--deals", "1", "--db", db)
    assert p.returncode == 2 and p.stdout == ""
    assert p.stderr == TERMINAL.replace("frapnet play:", "frapnet host:")
    e = frapnet("export", "--list", "--db", db)
    assert e.returncode == 0 and e.stdout == ""


def test_play_says_needs_a_terminal_only_when_the_arguments_are_fine():
    p = frapnet("play", "--deals", "2", "--option", "ante=200")
    assert p.returncode == 2 and p.stderr == TERMINAL


@pytest.mark.parametrize("args, message", [
    (["--option", "trumps=none"], "frapnet host: unknown option 'trumps' for frap (options: "),
    (["--bot-delay", "-1"], "frapnet host: --bot-delay must be a finite number of seconds ≥ 0, not -1.0"),
    (["--deals", "0"], "frapnet host: --deals must be at least 1, not 0"),
    (["--option", "deck=33"], "frapnet host: rule F2: "),
    (["--option", "ante=100", "--option", "ante=200"],  # was: the last one, silently (issue #9 attack)
     "frapnet host: --option 'ante': given twice; give each option once\n"),
])
def test_host_usage_errors_exit_2_without_rule_record(args, message):
    p = frapnet("host", "--no-announce", "--bind", "127.0.0.1", "--port", "0", *args)
    assert p.returncode == 2 and p.stderr.startswith(message), p.stderr
    assert "rule record" not in p.stderr


def test_bot_that_cannot_reach_the_host_prints_one_plain_line():
    closed = socket.socket()  # bound, not listening: refused
    closed.bind(("127.0.0.1", 0))
    port = closed.getsockname()[1]
    try:
        p = frapnet("bot", f"127.0.0.1:{port}")
    finally:
        closed.close()
    assert p.returncode == 1
    assert p.stderr.splitlines() == [f"frapnet bot: cannot reach 127.0.0.1:{port}: Connection was refused by other "
                                     f"side: 111: Connection refused."]
    assert p.stdout == ""


def start_host(*extra):
    host = subprocess.Popen([*FRAPNET, "host", "--bind", "127.0.0.1", "--port", "0", "--no-announce", "--pause", "0",
                             "--seed", "3", *extra], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                            env=ENV)
    first = host.stdout.readline()
    assert " on 127.0.0.1:" in first, first
    return host, int(first.rsplit(":", 1)[1])


def test_bot_refused_and_bot_playing_print_only_plain_lines():
    host, port = start_host("--players", "2", "--bots", "1", "--deals", "1", "--password", "pw")
    try:
        p = frapnet("bot", f"127.0.0.1:{port}", "--password", "wrong", "--name", "Eve")
        assert p.returncode == 1
        lines = p.stderr.splitlines()
        assert len(lines) == 1 and lines[0].startswith("frapnet bot: the host refused: "), lines
        assert lines[0].endswith("(password)"), lines
        p = frapnet("bot", f"127.0.0.1:{port}", "--password", "pw", "--name", "Rob", timeout=120)
        assert p.returncode == 0, p.stderr
        assert p.stdout.startswith("frapnet bot: Rob at seat ")
        assert all(line.startswith("frapnet bot: ") for line in p.stderr.splitlines()), p.stderr
        assert "[twisted" not in p.stderr and "Main loop terminated" not in p.stderr
        host.wait(timeout=60)
    finally:
        if host.poll() is None:
            host.kill()
        host.stdout.close()


# --- in Russian: --lang ru, the config file's language, the environment -----------------------------

SUITE_CONFIG = ENV.get("FRAPNET_CONFIG")  # the suite's config file (tests/suite-config.toml): level

@pytest.mark.parametrize("args, message", [
    (["play", "--lang", "ru", "--deals", "0"], "frapnet play: --deals: нужно не меньше 1, а не 0\n"),
    (["play", "--lang", "ru", "--pause", "inf"], "frapnet play: --pause: нужно конечное число секунд ≥ 0, а не inf\n"),
    (["play", "--lang", "ru", "--name", "Я" * 33],
     f"frapnet play: --name '{'Я' * 33}': в имени игрока не больше 32 символов (в этом — 33)\n"),
    (["play", "--lang", "ru", "--web", "70000"],
     "frapnet play: --web: нужен HTTP-порт 0…65535 (0 — любой свободный), а не 70000\n"),
    (["play", "--lang", "ru", "--option", "ante"], "frapnet play: --option 'ante': нужно КЛЮЧ=ЗНАЧЕНИЕ (настройки из "
                                                  f"{SUITE_CONFIG}: level)\n"),
    (["play", "--lang", "ru", "--option", "ante=100", "--option", "ante=200"],
     "frapnet play: --option 'ante': указан дважды; каждый параметр указывается один раз (настройки из "
     f"{SUITE_CONFIG}: level)\n"),
    (["play", "--lang", "ru"], "frapnet play: нужен терминал (стандартные ввод и вывод должны быть терминалом, а не "
                               "файлом или каналом)\n"),
    (["join", "127.0.0.1:9", "--lang", "ru"], "frapnet join: нужен терминал (стандартные ввод и вывод должны быть "
                                              "терминалом, а не файлом или каналом)\n"),
    (["join", "127.0.0.1:9", "--lang", "ru", "--name", "\x07"],
     "frapnet join: --name '\\x07': в имени игрока должен быть хотя бы один печатный символ (управляющие символы "
     "удаляются)\n"),
])
def test_join_and_play_say_their_mistakes_in_russian_with_lang_ru(args, message):
    p = frapnet(*args)
    assert (p.returncode, p.stderr) == (2, message)


def test_the_config_files_language_or_the_environment_says_the_mistake_in_russian(tmp_path):
    """Without --lang: the config file's ``language = "ru"`` (its bad name said in Russian), or a
    Russian environment (a bad config file); --lang en keeps the English."""
    cfg = tmp_path / "c.toml"
    cfg.write_text('language = "ru"\nname = "' + "o" * 33 + '"\n')
    env = dict(ENV, FRAPNET_CONFIG=str(cfg))
    p = subprocess.run([*FRAPNET, "join", "127.0.0.1:9"], capture_output=True, text=True, stdin=subprocess.DEVNULL,
                       env=env, timeout=60)
    assert (p.returncode, p.stderr) == (2, f"frapnet join: неверный файл настроек {cfg}: имя (name): в имени игрока "
                                           "не больше 32 символов (в этом — 33)\n")
    cfg.write_text('colour = "red"\n')
    p = subprocess.run([*FRAPNET, "play"], capture_output=True, text=True, stdin=subprocess.DEVNULL,
                       env=dict(env, LANGUAGE="ru_RU"), timeout=60)
    assert p.returncode == 2 and p.stderr.startswith(f"frapnet play: неверный файл настроек {cfg}: colour: "
                                                     "неизвестный ключ (здесь известны: "), p.stderr
    p = subprocess.run([*FRAPNET, "play", "--lang", "en"], capture_output=True, text=True, stdin=subprocess.DEVNULL,
                       env=dict(env, LANGUAGE="ru_RU"), timeout=60)
    assert p.stderr.startswith(f"frapnet play: bad config file {cfg}: colour: unknown key (known here: "), p.stderr


def test_the_russian_sentence_of_each_join_mistake():
    """frapnet.commands._say: the mistakes `frapnet join` meets past its arguments (password,
    the LAN), in Russian; one of no template (the operating system's) as written."""
    import re

    from frapnet.commands._say import MISTAKES, say
    from frapnet.tui import i18n

    po = i18n.parse_po((i18n.LOCALE_DIR / "ru/LC_MESSAGES/frapnet.po").read_text(encoding="utf-8"))
    assert sorted(t for t in MISTAKES.templates if not re.search("[а-яА-Я]", po.get(t, ""))) == ["--name {name}: {why}"]
    assert say("no table called 'Kitchen' on the LAN (tables seen: none)", "ru") == \
        "в локальной сети нет стола 'Kitchen' (других столов не видно)"
    assert say("no table called 'K' on the LAN (tables seen: Bar, Den)", "ru") == \
        "в локальной сети нет стола 'K' (видны столы: Bar, Den)"
    assert say("several tables match 'k': Kitchen at 10.0.0.2:7070, Kiosk at 10.0.0.3:7070; join one by HOST:PORT",
               "ru") == ("имени 'k' отвечают несколько столов: Kitchen at 10.0.0.2:7070, Kiosk at 10.0.0.3:7070; "
                         "подключитесь к одному из них по HOST:PORT")
    assert say("port must be 1…65535, not 0 (in 'h:0')", "ru") == "порт должен быть от 1 до 65535, а не 0 (в 'h:0')"
    assert say("--password -: standard input ended before a password line", "ru") == \
        "--password -: стандартный ввод кончился раньше строки с паролем"
    assert say("no password given", "ru") == "пароль не указан"
    assert say("[Errno 101] Network is unreachable", "ru") == "[Errno 101] Network is unreachable"
    assert say("no password given", "en") == "no password given"


def _commands():
    import argparse

    from frapnet import cli
    sub = next(a for a in cli.build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    return sub.choices


def test_every_commands_help_names_only_options_it_has():
    """A newcomer's report: `frapnet host --help` said expert thinks "--think seconds a move", but
    only `frapnet bot` has --think. Every option a command's --help names is one of its own."""
    import re

    wrong = {}
    for name, parser in _commands().items():
        own = {o for a in parser._actions for o in a.option_strings}
        named = set(re.findall(r"(?<![\w-])--[a-z][a-z0-9-]*", parser.format_help()))
        if named - own:
            wrong[name] = sorted(named - own)
    assert wrong == {}
    assert {"play", "host", "bot", "arena"} <= set(_commands())


@pytest.mark.parametrize("command, think", [("host", False), ("play", False), ("bot", True)])
def test_level_help_names_expert_time_as_the_command_can_set_it(command, think):
    """`frapnet host --help` and `play --help` (no --think) give expert's default time a move;
    `frapnet bot --help` names its --think option, which it has."""
    p = frapnet(command, "--help")
    assert p.returncode == 0 and p.stderr == ""
    text = " ".join(p.stdout.split())
    budget = "--think seconds" if think else "0.4 s"
    assert f"expert: searches sampled deals to the end for the best mean result ({budget} a move) (default)" in text
    assert ("--think SECONDS expert: wall-time budget per decision (default 0.4)" in text) is think
    assert ("--think" in text) is think


# --- an address or port the host cannot use, an interface this machine has not -----------------

def test_host_says_a_bind_address_not_of_this_machine_and_a_port_in_use_in_words(tmp_path):
    """They printed the operating system's "[Errno -2] Name or service not known" and "[Errno 98]
    Address already in use" (exit 1); now the option and value in words — exit 2 for the bad
    --bind (a bad option), still 1 for the port in use (docs/hosting.md)."""
    p = frapnet("host", "--no-announce", "--bind", "999.1.1.1", "--db", tmp_path / "j.sqlite3")
    assert (p.returncode, p.stderr.splitlines()[-1:]) == (2, [
        "frapnet host: --bind 999.1.1.1: not an address of this machine (give one of its addresses, or 0.0.0.0 "
        "for every interface)"]), p.stderr
    busy = socket.socket()
    busy.bind(("127.0.0.1", 0))
    busy.listen()
    port = busy.getsockname()[1]
    try:
        p = frapnet("host", "--no-announce", "--bind", "127.0.0.1", "--port", port, "--db", tmp_path / "k.sqlite3")
        w = frapnet("host", "--no-announce", "--bind", "127.0.0.1", "--port", 0, "--web", port,
                    "--db", tmp_path / "w.sqlite3")
    finally:
        busy.close()
    assert (p.returncode, p.stderr.splitlines()[-1:]) == (1, [
        f"frapnet host: port {port} is already in use (another host? choose another with --port)"]), p.stderr
    assert (w.returncode, w.stderr.splitlines()[-1:]) == (1, [
        f"frapnet host: port {port} is already in use (another host? choose another with --web)"]), w.stderr


def test_tables_and_bot_say_an_interface_address_this_machine_has_not():
    """`frapnet tables --interface 1.2.3.4` printed "[Errno 19] No such device" (exit 1). Run in a
    network namespace of its own (loopback only): nothing is announced or browsed on a real LAN."""
    script = ("ip link set lo up; for c in tables bot; do "
              f"{sys.executable} -m frapnet $c $([ $c = bot ] && echo Kitchen) --interface 1.2.3.4 --timeout 0.5; "
              "echo rc=$?; done")
    try:
        p = subprocess.run(["unshare", "-rn", "sh", "-c", script], capture_output=True, text=True, env=ENV,
                           stdin=subprocess.DEVNULL, timeout=60)
    except FileNotFoundError:
        pytest.skip("no unshare")
    if "unshare:" in p.stderr:
        pytest.skip(f"cannot make a network namespace: {p.stderr.strip()}")
    assert p.stdout == "rc=2\nrc=2\n"
    assert p.stderr == ("frapnet tables: --interface 1.2.3.4: no interface of this machine has that address\n"
                        "frapnet bot: --interface 1.2.3.4: no interface of this machine has that address\n")
    from frapnet.commands._say import say
    assert say("--interface 1.2.3.4: no interface of this machine has that address", "ru") == \
        "--interface 1.2.3.4: ни у одного интерфейса этой машины нет такого адреса"


# --- `frapnet join` past its terminal check: run with a terminal (a pty), failing before the screen ---

def in_terminal(*args, timeout=60, env=None):
    """``frapnet ARGS`` with standard input and output a terminal (a pty), standard error piped:
    the mistakes `frapnet join` finds once it has its terminal, before its screen opens."""
    import pty

    main, child = pty.openpty()
    try:
        return subprocess.run([*FRAPNET, *map(str, args)], stdin=child, stdout=child, stderr=subprocess.PIPE,
                              text=True, env=env or ENV, timeout=timeout)
    finally:
        os.close(child)
        os.close(main)


@pytest.mark.parametrize("target, port", [("127.0.0.1:-5", "-5"), ("127.0.0.1:abc", "abc"), ("localhost:", "''"),
                                          ("notahost:+80", "+80"), ("notahost:abc", "abc")])
def test_join_and_bot_say_the_port_of_a_host_port_target_is_wrong(target, port):
    """"127.0.0.1:-5" and "notahost:abc" were looked for as table names ("no table called
    '127.0.0.1:-5' on the LAN"). An address, or a number after the colon, is HOST:PORT at once; a
    name with a colon is looked for first (a table name may have one: docs/hosting.md), and only
    when no table has it is its port the mistake."""
    look = ["--interface", "127.0.0.1", "--timeout", "0.3"]  # browsing: loopback only
    message = f"port must be 1…65535, not {port} (in {target!r})"
    j = in_terminal("join", target, *look)
    assert (j.returncode, j.stderr) == (2, f"frapnet join: {message}\n")
    b = frapnet("bot", target, *look)
    assert (b.returncode, b.stderr) == (2, f"frapnet bot: {message}\n")


def test_a_table_name_with_a_colon_is_still_looked_for_by_name():
    from frapnet.net import discovery

    assert discovery.parse_hostport("Bar:Open") is None and discovery.parse_hostport("Friday Frap:1") is None
    found = discovery.Table("Bar:Open", "127.0.0.1", 7070, {}, ["127.0.0.1"])
    assert discovery.find_table([found], "Bar:Open") is found


@pytest.mark.parametrize("value, shown", [("-2", "-2.0"), ("0", "0.0"), ("nan", "nan"), ("1e400", "inf"),
                                          ("61", "61.0")])
def test_join_and_bot_refuse_a_timeout_as_tables_does(value, shown):
    """`frapnet join --timeout -2` / `nan` were taken silently, and `1e400` waited for ever, while
    `frapnet tables --timeout -1` is refused: the same rule and words for all three, exit 2."""
    message = f"--timeout must be more than 0 and at most 60 seconds, not {shown}\n"
    for command in ("tables", "join", "bot"):
        p = frapnet(command, *(["Kitchen"] if command != "tables" else []), "--timeout", value)
        assert (p.returncode, p.stderr) == (2, f"frapnet {command}: {message}")
    ru = frapnet("join", "Kitchen", "--timeout", value, "--lang", "ru")
    assert (ru.returncode, ru.stderr) == (2, f"frapnet join: --timeout: нужно больше 0 и не больше 60 секунд, "
                                             f"а не {shown}\n")


def test_bot_asking_for_a_seat_the_table_has_not_is_told_the_tables_seats():
    """`frapnet bot … --seat 99` at a 3-seat table said "(seats are 0…63 at most)", the protocol's
    bound, not the table's."""
    host, port = start_host("--players", "3", "--bots", "1", "--deals", "1")
    try:
        for seat in (99, 3, 2 ** 40):
            p = frapnet("bot", f"127.0.0.1:{port}", "--seat", seat, "--name", "Eve")
            assert (p.returncode, p.stderr) == (1, f"frapnet bot: the host refused: seat {seat} does not "
                                                   "exist (this table has seats 0…2) (bad_message)\n")
    finally:
        host.kill()
        host.wait()
        host.stdout.close()


def test_join_without_the_password_of_a_password_table_says_how_to_give_it(tmp_path):
    """"wrong or missing password" alone left a newcomer guessing: with no --password given, the
    join's error (prefixed "frapnet join:", not "frapnet:") says how to give one."""
    host = subprocess.Popen([*FRAPNET, "host", "--bind", "127.0.0.1", "--port", "0", "--no-announce", "--players", "2",
                             "--bots", "1", "--password", "pw", "--name", "Den", "--db", str(tmp_path / "j.sqlite3")],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=ENV)
    try:
        port = int(host.stdout.readline().rsplit(":", 1)[1])
        j = in_terminal("join", f"127.0.0.1:{port}", "--name", "Olga", "--lang", "en")
    finally:
        host.terminate()
        host.wait(timeout=30)
    assert j.returncode == 2
    assert j.stderr.splitlines()[-1] == (
        f"frapnet join: Could not join the table at 127.0.0.1:{port}: password: wrong or missing password for table "
        "'Den' (this table has a password: give it with --password - to be asked for it, or --password TEXT)")


def test_a_command_line_mistake_is_one_line_without_the_whole_usage():
    """argparse printed eleven lines of usage before the mistake (a newcomer missed the mistake):
    now one line naming it and where the options are, exit 2."""
    p = frapnet("host", "--level", "godlike")
    assert (p.returncode, p.stdout) == (2, "")
    assert p.stderr == ("frapnet host: argument --level: invalid choice: 'godlike' (choose from 'random', 'basic', "
                        "'expert'); frapnet host --help lists the options\n")
    p = frapnet("replay")
    assert (p.returncode, p.stderr) == (2, "frapnet replay: the following arguments are required: file; "
                                           "frapnet replay --help lists the options\n")
