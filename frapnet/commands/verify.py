"""`frapnet verify RECORD [--json]` (docs/fairness.md)."""
HELP = "check a record's shuffle proofs: every deal is the one its commitment and nonces give (exit 2 if not)"


def add_arguments(p):
    p.add_argument("file", help="the record (JSON) a host wrote; - reads standard input")
    p.add_argument("--json", action="store_true", help="print the result as one JSON object")
    p.add_argument("--plugins-dir", action="append", default=[], metavar="DIR",
                   help="also load one-file plugins from DIR (repeatable)")


def run(args) -> int:
    import json
    import sys

    from frapnet import record
    from frapnet.plugins import default_registry

    registry = default_registry(args.plugins_dir)
    try:
        rec = record.loads(sys.stdin.buffer.read()) if args.file == "-" else record.load(args.file)
        checked = record.verify(rec, registry)
    except record.ReplayError as exc:  # not JSON, or not a record at all
        if exc.deal is None and exc.message.startswith(record.FILE_ERRORS):  # no such file: nothing checked
            if not args.json:
                print(f"frapnet verify: {exc.message}", file=sys.stderr)
                return 2
            err = record.VerifyError(None, exc.message)
        else:
            err = record.VerifyError(exc.deal, f"the record does not replay: {record.describe(exc.rule, exc.message)}")
    except record.VerifyError as exc:
        err = exc
    else:
        if args.json:
            print(json.dumps({"ok": True, "deals": checked}))
        else:
            print(record.verify_summary(checked))
        return 0
    if args.json:
        print(json.dumps({"ok": False, "error": err.to_dict()}, ensure_ascii=False))
    else:
        print(f"NOT VERIFIED: {err}", file=sys.stdout)
    return 2
