"""The `tracker` command: serve, project, rebuild, verify, export, import."""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import threading
from pathlib import Path

from api import create_app
from tracker.application import Request
from tracker.bootstrap import REBUILD_BATCH_SIZE, Service, Settings, bootstrap
from tracker.bootstrap import serve as serve_under_gunicorn
from tracker.config import database_url, describe
from tracker.errors import TrackerError
from tracker.export_file import ExportLines


def main(argv: list[str] | None = None) -> int:
    # Options every command takes, before or after its name (`tracker --database-url URL serve` or `tracker serve --database-url URL`).
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--database-url", default=argparse.SUPPRESS,
        help="sqlite:///path or postgresql://... (default: $DATABASE_URL or sqlite:///var/tracker.sqlite3)",
    )
    parser = argparse.ArgumentParser(prog="tracker", description="Event-sourced campaign tracker", parents=[common])
    commands = parser.add_subparsers(dest="command", required=True)
    add_parser = commands.add_parser
    commands.add_parser = lambda *a, **k: add_parser(*a, parents=[common], **k)  # type: ignore[method-assign]

    serve = commands.add_parser("serve", help="serve the REST API with gunicorn, projections in the same process")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--workers", type=int, default=int(os.environ.get("WEB_CONCURRENCY", str(os.cpu_count() or 1))), help="default: one per core")
    serve.add_argument("--no-projections", action="store_true", help="leave projections to a separate `tracker project`")
    serve.add_argument("--no-request-log", action="store_true", help="do not log requests (the log never holds a token: they travel in headers)")

    commands.add_parser("project", help="keep the views up to date (runs until stopped)")
    rebuild = commands.add_parser("rebuild", help="rebuild every view from the log and print the views' digest")
    rebuild.add_argument("--batch-size", type=int, help="notifications per transaction (default: 5,000)")
    rebuild.add_argument("--pause", type=float, default=0.0, help="seconds to rest between batches, to spare a busy database")
    verify = commands.add_parser("verify", help="re-derive a session and report verified or the first mismatch")
    verify.add_argument("session_id")
    export = commands.add_parser("export", help="write a campaign as JSON Lines (stdout, or --output FILE)")
    export.add_argument("campaign_id")
    export.add_argument("--output", "-o", help="file to write (default: stdout)")
    export.add_argument(
        "--backup", action="store_true",
        help="also write the unrevealed seeds, shuffle orders and token grants (hashes only): to move a campaign between servers; keep it private",
    )
    load = commands.add_parser("import", help="load a campaign export; the whole file is checked before anything is written")
    load.add_argument("file")

    token = commands.add_parser("token", help="mint, list and revoke a campaign's tokens (for operators)")
    token_commands = token.add_subparsers(dest="token_command", required=True)
    add_token_parser = token_commands.add_parser
    token_commands.add_parser = lambda *a, **k: add_token_parser(*a, parents=[common], **k)  # type: ignore[method-assign]
    mint = token_commands.add_parser("mint", help="mint a token; it is printed once")
    mint.add_argument("campaign_id")
    # owner: a new owner token for a campaign whose owner lost theirs (the API never mints one)
    mint.add_argument("--role", required=True, choices=["owner", "player", "viewer", "integration"])
    mint.add_argument("--hero", action="append", default=[], help="bind a player token to a hero (repeatable)")
    mint.add_argument("--side", help="bind a player token to a side, e.g. overlord")
    mint.add_argument("--label")
    listing = token_commands.add_parser("list", help="list a campaign's tokens (never the tokens themselves)")
    listing.add_argument("campaign_id")
    revoke = token_commands.add_parser("revoke", help="revoke a token by its id")
    revoke.add_argument("campaign_id")
    revoke.add_argument("token_id")

    args = parser.parse_args(argv)
    url = database_url(getattr(args, "database_url", None))
    commands_run = {
        "serve": _serve, "project": _project, "rebuild": _rebuild, "verify": _verify, "export": _export, "import": _import, "token": _token,
    }
    return commands_run[args.command](args, url)


def _service(url: str, **settings: object) -> Service:
    return bootstrap(Settings(database_url=url, **settings))  # type: ignore[arg-type]


def _serve(args: argparse.Namespace, url: str) -> int:
    settings = Settings.from_environment(database_url=url, projections_in_process=not args.no_projections)
    print(f"campaign-tracker serving at http://{args.host}:{args.port}", flush=True)
    print(f"data lives in {describe(url)}", flush=True)
    options = {"bind": f"{args.host}:{args.port}", "workers": args.workers}
    if not args.no_request_log:
        options["accesslog"] = "-"
    serve_under_gunicorn(settings, lambda in_worker: create_app(settings=in_worker), options)
    return 0


def _project(args: argparse.Namespace, url: str) -> int:
    runner = _service(url).runner
    stop = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: stop.set())
    print(f"projecting {describe(url)} from position {runner.position}", flush=True)
    runner.run_forever(stop)
    return 0


def _rebuild(args: argparse.Namespace, url: str) -> int:
    runner = _service(url, batch_size=args.batch_size or REBUILD_BATCH_SIZE).runner
    digest = runner.rebuild(pause=args.pause)
    print(json.dumps({"position": runner.position, "digest": digest}))
    return 0


def _verify(args: argparse.Namespace, url: str) -> int:
    app = _service(url).tracker
    try:
        report = app.verify(args.session_id)
    except TrackerError as error:
        print(f"{error.title}: {error.detail}", file=sys.stderr)
        return 2
    print(json.dumps({k: report[k] for k in ("status", "first_mismatch", "checked", "seed_commitment", "seed") if k in report}, indent=2))
    return 0 if report["status"] in ("verified", "pending") else 1


def _export(args: argparse.Namespace, url: str) -> int:
    app = _service(url).tracker
    try:
        lines = app.export_campaign(args.campaign_id, backup=args.backup)
    except TrackerError as error:
        print(f"{error.title}: {error.detail}", file=sys.stderr)
        return 2
    if args.output:
        Path(args.output).write_text("".join(lines), encoding="utf-8")
    else:
        sys.stdout.write("".join(lines))
    return 0


def _import(args: argparse.Namespace, url: str) -> int:
    app = _service(url).tracker
    try:
        with open(args.file, "rb") as file:  # read line by line, as the API does, not held whole
            result = app.import_campaign(ExportLines(file))
    except OSError as error:
        print(f"cannot read {args.file}: {error}", file=sys.stderr)
        return 2
    except TrackerError as error:
        print(f"{error.title}: {error.detail}", file=sys.stderr)
        return 1
    print(json.dumps(result.body, indent=2))
    return 0


def _token(args: argparse.Namespace, url: str) -> int:
    app = _service(url).tracker
    operator = Request(issued_by="operator:cli")
    try:
        if args.token_command == "mint":
            result = app.mint_token(args.campaign_id, args.role, args.hero, args.side, args.label, request=operator, by_operator=True)
            print(json.dumps(result.body, indent=2))
        elif args.token_command == "list":
            print(json.dumps(app.list_tokens(args.campaign_id), indent=2))
        else:
            print(json.dumps(app.revoke_token(args.campaign_id, args.token_id, request=operator).body, indent=2))
    except TrackerError as error:
        print(f"{error.title}: {error.detail}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
