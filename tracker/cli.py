"""The `tracker` command: serve, front, project, rebuild, verify, export, import, tokens, shards, signing keys."""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import psycopg

from api import create_app
from api.front import launcher as front_launcher
from tracker.sharding import moving
from tracker.application.service import Request
from tracker.bootstrap import REBUILD_BATCH_SIZE, SHARD_WATCH_SECONDS, EveryShard, Service, Settings, bootstrap, create_tables
from tracker.bootstrap import serve as serve_under_gunicorn
from tracker.adapters import formation
from tracker.adapters.config import describe, persistence_env
from tracker.core.errors import Conflict, NotFound, TrackerError
from tracker.portability.export_file import ExportLines
from tracker.sharding.placement import HOME, Moving, Placement, conninfo, enabled, is_postgres
from tracker.settings import ServerSettings, database_url, move_settings, process_environment
from tracker.integrity.signing import KeyRing, KeysFileError


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
    serve.add_argument("--workers", type=int, default=ServerSettings.from_environment().workers, help="default: one per core (WEB_CONCURRENCY)")
    serve.add_argument("--no-projections", action="store_true", help="leave projections to a separate `tracker project`")
    serve.add_argument("--no-request-log", action="store_true", help="do not log requests (the log never holds a token: they travel in headers)")

    front = commands.add_parser(
        "front", help="the production server (the Procfile's web): nginx in front of gunicorn, started and stopped together",
    )
    front.add_argument("--bind", help="the public address, HOST:PORT or unix:PATH (default: $BIND, else 127.0.0.1:$PORT, else 127.0.0.1:8000)")

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
    load.add_argument("--jwks", action="append", default=[], help="a saved key set (another server's /.well-known/jwks.json) whose signatures to trust (repeatable)")
    load.add_argument("--allow-unsigned", action="store_true", help="accept a file made before exports were signed (nothing shows who wrote it)")

    keys = commands.add_parser("keys", help="the keys exports and receipts are signed with: list (the public key set), rotate")
    keys_commands = keys.add_subparsers(dest="keys_command", required=True)
    add_keys_parser = keys_commands.add_parser
    keys_commands.add_parser = lambda *a, **k: add_keys_parser(*a, parents=[common], **k)  # type: ignore[method-assign]
    for name, said in (("list", "print the public key set, as GET /.well-known/jwks.json serves it"),
                       ("rotate", "sign with a new key from now on; the old ones stay in the set, so what they signed still verifies")):
        keys_command = keys_commands.add_parser(name, help=said)
        keys_command.add_argument("--keys-file", help="the signing key file (default: $TRACKER_SIGNING_KEYS or var/signing-keys.json)")

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

    shards = commands.add_parser("shards", help="campaigns over several PostgreSQL servers: list, add, move")
    shard_commands = shards.add_subparsers(dest="shards_command", required=True)
    add_shard_parser = shard_commands.add_parser
    shard_commands.add_parser = lambda *a, **k: add_shard_parser(*a, parents=[common], **k)  # type: ignore[method-assign]
    shard_commands.add_parser("list", help="each shard, where it is and how many campaigns it holds, and the campaigns' placement")
    add = shard_commands.add_parser("add", help="add a PostgreSQL database as a shard (the first add turns routing on: restart the servers)")
    add.add_argument("name")
    add.add_argument("url", help="postgresql://user@host:port/dbname")
    replica = shard_commands.add_parser("replica", help="read a shard's views from a streaming replica of its database (--none: from the primary again)")
    replica.add_argument("name")
    replica.add_argument("url", nargs="?", help="postgresql://... of the replica")
    replica.add_argument("--none", action="store_true")
    move = shard_commands.add_parser(
        "move", help="move a campaign to another shard (its writes answer 503 meanwhile); takes over a move whose mover died, "
        "or clears it when --to names the shard the campaign is on")
    move.add_argument("campaign_id")
    move.add_argument("--to", required=True, dest="to", help="the shard's name")

    args = parser.parse_args(argv)
    url = database_url(getattr(args, "database_url", None))
    commands_run = {
        "serve": _serve, "front": _front, "project": _project, "rebuild": _rebuild, "verify": _verify, "export": _export, "import": _import, "token": _token, "shards": _shards,
        "keys": _keys,
    }
    return commands_run[args.command](args, url)


def _service(url: str, **settings: object) -> Service:
    # The environment's settings (the key files; the address exports name for their key set, where the operator set
    # one: the command line has no request), on the database this command names.
    return bootstrap(Settings.from_environment(database_url=url, **settings))


def _serve(args: argparse.Namespace, url: str) -> int:
    settings = Settings.from_environment(database_url=url, projections_in_process=not args.no_projections)
    print(f"campaign-tracker serving at http://{args.host}:{args.port}", flush=True)
    print(f"data lives in {describe(url)}", flush=True)
    options = {"bind": f"{args.host}:{args.port}", "workers": args.workers}
    if not args.no_request_log:
        options["accesslog"] = "-"
    serve_under_gunicorn(settings, lambda in_worker: create_app(settings=in_worker), options)
    return 0


def _front(args: argparse.Namespace, url: str) -> int:
    try:
        return front_launcher.run(args.bind, {**process_environment(), "DATABASE_URL": url})
    except front_launcher.NginxMissing as missing:
        print(f"tracker front: {missing}", file=sys.stderr)
        return 2


def _project(args: argparse.Namespace, url: str) -> int:
    """One runner per shard, each in its own thread, each writing its views beside its shard's events."""
    stop = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: stop.set())
    runners: dict[str, Any] = {}

    def every_runner() -> dict[str, Any]:
        """Each shard's runner, made once; a shard added while this runs is read from the home database here."""
        for name, where in _shard_urls(url).items():
            if name not in runners:
                runners[name] = _service(where).runner
                print(f"projecting {name}: {describe(where)} from position {runners[name].position}", flush=True)
        return runners

    every = EveryShard(every_runner, stop, daemon=False)
    every.watch()
    every.join()
    return 0


def _shard_urls(url: str) -> dict[str, str]:
    """Every shard's URL by name when the database routes by placement, else the one database."""

    if not (is_postgres(url) and enabled(url)):
        return {HOME: url}
    placement = Placement(url, pool_size=1)
    try:
        return placement.shards()
    finally:
        placement.close()


# -- progress of the long commands, on a terminal only ------------------------------------


@contextmanager
def _progress(what: str, total: int | None, unit: str) -> Iterator[Callable[..., None]]:
    """A progress bar on standard error (rich) with the count done, the total and the rate, while standard error is a
    terminal; elsewhere (a pipe, a log, CI) nothing, so what the command prints stays as it was. Yields ``advance(n)``
    (``advance(reset=True)`` starts the count again, for a second pass over the same file)."""
    if not sys.stderr.isatty():
        yield lambda n=0, reset=False, total=None: None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, ProgressColumn, TextColumn, TimeElapsedColumn

    class Rate(ProgressColumn):
        def render(self, task):
            return f"{task.speed or 0:,.0f} {unit}/s"

    columns = [TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TextColumn(unit), Rate(), TimeElapsedColumn()]
    with Progress(*columns, console=Console(file=sys.stderr), transient=False) as bar:
        task = bar.add_task(what, total=total)

        def advance(n: int = 0, reset: bool = False, total: int | None = None) -> None:
            if reset:
                bar.reset(task, total=total if total is not None else bar.tasks[0].total)
            bar.advance(task, n)

        yield advance


class _CountedFile:
    """A file read through, its bytes told to ``advance`` (an import's progress); a seek to the start begins again."""

    def __init__(self, file: Any, advance: Callable[..., None]) -> None:
        self.file, self.advance = file, advance

    def seek(self, *args: Any) -> int:
        self.advance(reset=True)
        return self.file.seek(*args)

    def read(self, size: int = -1) -> bytes:
        data = self.file.read(size)
        self.advance(len(data))
        return data

    def __iter__(self) -> Iterator[bytes]:
        for line in self.file:
            self.advance(len(line))
            yield line

    def __getattr__(self, name: str) -> Any:
        return getattr(self.file, name)


def _rebuild(args: argparse.Namespace, url: str) -> int:
    shards = _shard_urls(url)
    for name, where in shards.items():
        runner = _service(where, batch_size=args.batch_size or REBUILD_BATCH_SIZE).runner
        with _progress(f"rebuilding {name}", runner.app.recorder.max_notification_id() or 0, "events") as advance:
            digest = runner.rebuild(pause=args.pause, progress=advance)
        answer = {"position": runner.position, "digest": digest}
        print(json.dumps(answer if len(shards) == 1 else {"shard": name, **answer}))
    return 0


def _verify(args: argparse.Namespace, url: str) -> int:
    try:
        with _session_app(url, args.session_id) as app:
            report = app.verify(args.session_id)
    except TrackerError as error:
        print(f"{error.title}: {error.detail}", file=sys.stderr)
        return 2
    print(json.dumps({k: report[k] for k in ("status", "first_mismatch", "checked", "seed_commitment", "seed") if k in report}, indent=2))
    return 0 if report["status"] in ("verified", "pending") else 1


def _export(args: argparse.Namespace, url: str) -> int:
    try:
        with _campaign_app(url, args.campaign_id) as app:
            lines = app.export_campaign(args.campaign_id, backup=args.backup)
    except TrackerError as error:
        print(f"{error.title}: {error.detail}", file=sys.stderr)
        return 2
    if args.output and args.backup:
        _write_private(Path(args.output), "".join(lines))
    elif args.output:
        with open(args.output, "w", encoding="utf-8") as file, _progress(f"exporting {args.campaign_id}", len(lines), "lines") as advance:
            for line in lines:
                file.write(line)
                advance(1)
    else:
        sys.stdout.write("".join(lines))
    return 0


def _write_private(path: Path, text: str) -> None:
    """A backup holds the live seeds of sessions in play (and the grants' token hashes): readable by its owner alone,
    0600, also when the file was already there with looser bits (open's mode applies only to a file it creates)."""
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w", encoding="utf-8") as file:
        os.fchmod(file.fileno(), 0o600)  # before a byte is written
        file.write(text)


def _import(args: argparse.Namespace, url: str) -> int:
    shard, where = _new_campaign_shard(url)
    app = _service(where).tracker
    try:
        with open(args.file, "rb") as file, _placing(url, shard) as placing:  # read line by line, as the API does, not held whole
            with _progress(f"importing {Path(args.file).name}", os.fstat(file.fileno()).st_size, "bytes") as advance:
                result = app.import_campaign(ExportLines(_CountedFile(file, advance)), placing=placing, trusted_files=args.jwks,
                                             allow_unsigned=args.allow_unsigned)
    except OSError as error:
        print(f"cannot read {args.file}: {error}", file=sys.stderr)
        return 2
    except TrackerError as error:
        print(f"{error.title}: {error.detail}", file=sys.stderr)
        return 1
    print(json.dumps(result.body, indent=2))
    return 0


def _keys(args: argparse.Namespace, url: str) -> int:
    """Every server of a deployment reads the same key file: after a rotation, copy it to each (mode 0600) unless
    they share it; their workers read it again before they next sign."""
    ring = KeyRing(args.keys_file or Settings.from_environment().signing_keys)
    try:
        if args.keys_command == "rotate":
            kid = ring.rotate()
            print(json.dumps({"signing_with": kid, "keys_file": str(ring.path.resolve()), **ring.jwks()}, indent=2))
        else:
            print(json.dumps(ring.jwks(), indent=2))
    except KeysFileError as error:
        print(str(error), file=sys.stderr)
        return 2
    return 0


def _token(args: argparse.Namespace, url: str) -> int:
    operator = Request(issued_by="operator:cli")
    try:
        with _campaign_app(url, args.campaign_id, write=args.token_command != "list") as app:
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


@contextmanager
def _campaign_app(url: str, campaign_id: str, write: bool = False) -> Iterator[Any]:
    """The application of the shard holding the campaign (the one database without shards); a write holds the
    campaign's move lock while it runs, as the API's writes do (tracker/sharding/placement.py)."""

    if not (is_postgres(url) and enabled(url)):
        with _closing(_service(url)) as service:
            yield service.tracker
        return
    placement = Placement(url, pool_size=1 if not write else 2)
    try:
        shards = placement.shards()
        if not write:
            placed = placement.of(campaign_id)
            with _closing(_service(shards[placed.shard if placed else HOME])) as service:
                yield service.tracker
            return
        try:
            with placement.fence(campaign_id) as placed:
                with _closing(_service(shards[placed.shard if placed else HOME])) as service:
                    yield service.tracker
        except Moving:
            raise Conflict("The campaign is being moved to another shard", detail="Retry when `tracker shards list` no longer shows its move's lease live.") from None
    finally:
        placement.close()


@contextmanager
def _session_app(url: str, session_id: str) -> Iterator[Any]:
    """The application of the shard holding the session: its campaign's, asked of each shard in turn."""

    for where in _shard_urls(url).values():
        with _closing(_service(where)) as service:
            try:
                campaign_id = service.tracker.campaign_of_session(session_id)
            except NotFound:
                continue
        with _campaign_app(url, campaign_id) as app:
            yield app
        return
    raise NotFound(f"No session with id '{session_id}'", detail="Check the session id; ids are UUIDs.")


@contextmanager
def _closing(app: Any) -> Iterator[Any]:
    try:
        yield app
    finally:
        app.close()


def _new_campaign_shard(url: str) -> tuple[str | None, str]:
    """Where an imported campaign goes: the least loaded shard, or the one database."""

    if not (is_postgres(url) and enabled(url)):
        return None, url
    placement = Placement(url, pool_size=1)
    try:
        shard = placement.least_loaded()
        return shard, placement.shards()[shard]
    finally:
        placement.close()


@contextmanager
def _placing(url: str, shard: str | None) -> Iterator[Any]:
    """With shards, what an import writes in: its campaign placed on ``shard`` first, or refused when another holds it."""

    if shard is None:
        yield None
        return
    placement = Placement(url, pool_size=1)
    try:
        yield lambda campaign_id: placement.placing(campaign_id, shard)
    finally:
        placement.close()


def _prepare_shard(url: str) -> None:
    """A new shard's tables (events, snapshots, views), made once here, as gunicorn's master does for one database."""
    create_tables(Settings(database_url=url))


def _shards(args: argparse.Namespace, url: str) -> int:

    if not is_postgres(url):
        print("Shards are PostgreSQL databases: set DATABASE_URL (the home database) to postgresql://...", file=sys.stderr)
        return 2
    if args.shards_command != "add" and not enabled(url):
        print("No shards yet: `tracker shards add NAME URL` adds the first beside this database (the shard 'home').", file=sys.stderr)
        return 2
    placement = Placement(url, pool_size=2)
    try:
        if args.shards_command == "add":
            first = not enabled(url)
            if first:
                placement.create_tables()
                placed = moving.place_existing(placement, persistence_env(url))
                print(f"routing by placement is on: {placed} campaigns placed on 'home'; restart the servers so they route by it", file=sys.stderr)
            try:
                conninfo(args.url)  # a PostgreSQL URL, or ValueError
                if args.name in placement.shards():
                    raise ValueError(f"There is a shard named {args.name!r} already")
                # Its tables first: once its row is in, running servers may send it a new campaign.
                _prepare_shard(args.url)
                placement.add_shard(args.name, args.url)
            except ValueError as error:
                print(error, file=sys.stderr)
                return 2
            if not first:
                print(f"running servers start projecting {args.name!r} within {SHARD_WATCH_SECONDS:g} s and send new campaigns to it; "
                      "no restart needed", file=sys.stderr)
            print(json.dumps({"added": args.name, "at": describe(args.url)}))
        elif args.shards_command == "replica":
            if (args.url is None) == (not args.none):
                print("Name the replica's URL, or --none to read that shard's views from its primary again", file=sys.stderr)
                return 2
            try:
                placement.set_replica(args.name, None if args.none else args.url)
            except ValueError as error:
                print(error, file=sys.stderr)
                return 2
            print(json.dumps({"shard": args.name, "views_replica": None if args.none else describe(args.url)}))
        elif args.shards_command == "list":
            load, replicas = placement.load(), placement.replicas()
            print(json.dumps({
                "shards": [{"name": name, "at": describe(where), "campaigns": load.get(name, 0),
                            "views_replica": describe(replicas[name]) if name in replicas else None, "formation": _formation(where)}
                           for name, where in placement.shards().items()],
                "placement": [{"campaign_id": p.campaign_id, "shard": p.shard, "moving": p.held, "move": _move_listed(p)} for p in placement.placed()],
            }, indent=2))
        else:
            try:
                settings = move_settings()
            except ValueError as error:
                print(error, file=sys.stderr)
                return 2
            try:
                with _progress(f"moving {args.campaign_id} to {args.to}", None, "lines") as advance:
                    report = moving.move(placement, args.campaign_id, args.to, settings, progress=advance)
            except moving.MoveFailed as error:
                print(str(error), file=sys.stderr)
                return 1
            print(json.dumps(report, indent=2))
    finally:
        placement.close()
    return 0


def _formation(url: str) -> dict | str:
    """Which server of the shard answers and how its standbys replicate (tracker/adapters/formation.py), or why not."""
    try:
        with psycopg.connect(conninfo(url)[0], connect_timeout=5) as conn:
            return formation.report(conn)
    except psycopg.Error as error:
        return f"unreachable: {str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__}"


def _move_listed(placed: Any) -> dict[str, Any] | None:
    """A move under way or abandoned: its lease live (writes answer 503) or expired (writes go to ``shard``; the next
    `tracker shards move` of the campaign takes it over)."""
    if not placed.moving:
        return None
    lease = placed.lease
    if lease is None:
        return {"lease": "none", "to": None, "step": None, "owner": None, "expires_at": None}  # left by a mover from before leases
    return {"lease": "live" if lease.live else "expired", "to": lease.to, "step": lease.step,
            "owner": {"host": lease.host, "pid": lease.pid, "lease_id": lease.lease_id},
            "began_at": lease.began_at.isoformat(), "expires_at": lease.expires_at.isoformat()}


if __name__ == "__main__":
    sys.exit(main())
