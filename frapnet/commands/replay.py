"""`frapnet replay FILE [--json]` (record-format.md)."""
HELP = "replay a deal record and print its result (exit 2 at the first illegal action)"


def add_arguments(p):
    p.add_argument("file", help="the record (JSON); - reads standard input")
    p.add_argument("--json", action="store_true", help="print the result as one JSON object")
    p.add_argument("--plugins-dir", action="append", default=[], metavar="DIR",
                   help="also load one-file plugins from DIR (repeatable)")


def run(args) -> int:
    import json
    import sys

    from frapnet import record
    from frapnet.plugins import default_registry

    if hasattr(sys, "set_int_max_str_digits"):
        sys.set_int_max_str_digits(0)  # F6: amounts are exact at any size (JSON integers have no limit)
    registry = default_registry(args.plugins_dir)
    try:
        rec = record.loads(sys.stdin.buffer.read()) if args.file == "-" else record.load(args.file)
        res = record.replay(rec, registry)[1]
    except record.ReplayError as exc:
        res = {"ok": False, "error": exc.to_dict()}
    if args.json:
        print(json.dumps(res, ensure_ascii=False))
    elif not res["ok"] and res["error"]["deal"] is None and res["error"]["message"].startswith(record.FILE_ERRORS):
        print(f"frapnet replay: {res['error']['message']}", file=sys.stderr)  # no such file: nothing replayed
    else:
        print(record.summary(res))
    return 0 if res["ok"] else 2
