"""The environment is read in one module, tracker/settings.py: everything else is handed its settings, so an app built
from explicit settings is the same whatever the environment says (the bootstrap wires it from them alone)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from api import create_app
from tests.kit.clients import OwnerClient
from tests.kit.journey import JOURNEY_TEST_COMPONENTS
from tracker.bootstrap import wire
from tracker.settings import ServerSettings, Settings, move_settings

ROOT = Path(__file__).resolve().parents[1]
SETTINGS_MODULE = ROOT / "tracker" / "settings.py"
# The service's code: its packages, and gunicorn's settings file.
SOURCES = [*(p for package in ("tracker", "api", "projections") for p in sorted((ROOT / package).rglob("*.py"))), ROOT / "gunicorn.conf.py"]
READERS = {"environ", "environb", "getenv", "getenvb", "putenv", "unsetenv"}


def environment_reads(source: str) -> list[int]:
    """The lines of ``source`` that touch the process environment: os.environ, os.getenv and the like, imported
    from os by name, or reached through a module imported under another name."""
    tree = ast.parse(source)
    os_names = {"os"} | {alias.asname for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names if alias.name == "os" and alias.asname}
    lines = []
    for node in ast.walk(tree):
        through_os = isinstance(node, ast.Attribute) and node.attr in READERS and isinstance(node.value, ast.Name) and node.value.id in os_names
        imported = isinstance(node, ast.ImportFrom) and node.module == "os" and any(alias.name in READERS for alias in node.names)
        if through_os or imported:
            lines.append(node.lineno)
    return sorted(lines)


def test_the_scan_finds_each_way_of_reading_the_environment() -> None:
    assert environment_reads("import os\nx = os.environ.get('A')\n") == [2]
    assert environment_reads("import os as o\nx = o.getenv('A')\n") == [2]
    assert environment_reads("from os import environ\n") == [1]
    assert environment_reads("import os\nx = os.path.join('a', 'b')\nenviron = {}\ny = environ.get('A')\n") == []


def test_no_module_but_the_settings_reads_the_environment() -> None:
    readers = [
        f"{path.relative_to(ROOT)}:{line}"
        for path in SOURCES
        if path != SETTINGS_MODULE
        for line in environment_reads(path.read_text(encoding="utf-8"))
    ]
    assert not readers, "read the environment outside tracker/settings.py:\n" + "\n".join(readers)
    assert environment_reads(SETTINGS_MODULE.read_text(encoding="utf-8"))  # (and the scan does see the one that does)


def test_the_settings_read_each_variable_from_the_environment_given() -> None:
    environ = {
        "DATABASE_URL": "postgresql://someone@db.example:5433/tracker", "TRACKER_PROJECTIONS_IN_PROCESS": "1",
        "TRACKER_SIGNING_KEYS": "/etc/tracker/keys.json", "TRACKER_TRUSTED_JWKS": "/a.json:/b.json", "TRACKER_PUBLIC_URL": "https://t.example",
        "TRACKER_RATE_LIMIT": "30/10", "TRACKER_TRUSTED_PROXIES": "2", "GUNICORN_THREADS": "8", "TRACKER_STREAM_HEARTBEAT_SECONDS": "3",
        "TRACKER_VIEWS_STALL_SECONDS": "90", "TRACKER_VIEWS_WAIT_SECONDS": "1.5", "TRACKER_VIEWS_REPLICA_URL": "postgresql://replica/tracker",
        "TRACKER_REPLICA_WAIT_SECONDS": "0.25", "TRACKER_IMPORT_MAX_BYTES": "1000", "BIND": "0.0.0.0:9000", "WEB_CONCURRENCY": "3",
        "GUNICORN_ACCESS_LOG": "-", "TRACKER_NGINX": "/opt/nginx", "TRACKER_MOVE_LEASE_SECONDS": "5",
    }
    settings = Settings.from_environment(environ)
    assert (settings.database_url, settings.projections_in_process, settings.signing_keys, settings.trusted_jwks, settings.public_url) == (
        "postgresql://someone@db.example:5433/tracker", True, "/etc/tracker/keys.json", ("/a.json", "/b.json"), "https://t.example")
    assert (settings.rate_limit, settings.trusted_proxies, settings.streams_per_worker, settings.stream_heartbeat_seconds) == ("30/10", 2, 4, 3.0)
    assert (settings.views_stall_seconds, settings.views_wait_seconds, settings.views_replica_url, settings.replica_wait_seconds) == (
        90.0, 1.5, "postgresql://replica/tracker", 0.25)
    assert settings.import_max_bytes == 1000
    assert Settings.from_environment({**environ, "TRACKER_STREAMS_PER_WORKER": "5"}).streams_per_worker == 5
    assert ServerSettings.from_environment(environ) == ServerSettings(bind="0.0.0.0:9000", workers=3, threads=8, access_log="-", nginx="/opt/nginx")
    assert move_settings(environ).lease_seconds == 5.0
    assert Settings.from_environment({}) == Settings(database_url="sqlite:///var/tracker.sqlite3")  # nothing set: the defaults


def test_an_app_built_from_explicit_settings_needs_no_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every variable the service reads, set to a value that would break or change the app: none of them is read."""
    for name, poison in {
        "DATABASE_URL": "postgresql://nobody@127.0.0.1:1/nowhere", "TRACKER_PROJECTIONS_IN_PROCESS": "1", "TRACKER_RATE_LIMIT": "1/3600",
        "TRACKER_TRUSTED_PROXIES": "many", "GUNICORN_THREADS": "many", "TRACKER_STREAMS_PER_WORKER": "many",
        "TRACKER_STREAM_HEARTBEAT_SECONDS": "soon", "TRACKER_VIEWS_STALL_SECONDS": "soon", "TRACKER_VIEWS_WAIT_SECONDS": "soon",
        "TRACKER_VIEWS_REPLICA_URL": "postgresql://nobody@127.0.0.1:1/replica", "TRACKER_REPLICA_WAIT_SECONDS": "soon",
        "TRACKER_IMPORT_MAX_BYTES": "lots", "TRACKER_SIGNING_KEYS": str(tmp_path / "not-these-keys.json"),
        "TRACKER_TRUSTED_JWKS": str(tmp_path / "missing.json"), "TRACKER_PUBLIC_URL": "https://not-this.example",
        # and the eventsourcing library's own names, plain and with the application's prefix, as it would read them
        "TRACKER_PERSISTENCE_MODULE": "nowhere.at.all", "COMPRESSOR_TOPIC": "nowhere:compressor", "TRACKER_AGGREGATE_CACHE_MAXSIZE": "many",
    }.items():
        monkeypatch.setenv(name, poison)
    settings = Settings(database_url=f"sqlite:///{tmp_path / 'explicit.sqlite3'}", signing_keys=str(tmp_path / "keys.json"))
    app = create_app({"TESTING": True}, settings=settings)
    app.test_client_class = OwnerClient
    OwnerClient.tokens, OwnerClient.last = {}, {}
    try:
        assert {key: app.config[key] for key in ("DATABASE_URL", "RATE_LIMIT", "TRUSTED_PROXIES", "VIEWS_REPLICA_URL", "IMPORT_MAX_BYTES")} == {
            "DATABASE_URL": settings.database_url, "RATE_LIMIT": "", "TRUSTED_PROXIES": 0, "VIEWS_REPLICA_URL": "", "IMPORT_MAX_BYTES": settings.import_max_bytes}
        assert "tracker_views_replica" not in app.extensions and "tracker_projection_threads" not in app.extensions
        tracker = app.extensions["tracker"]
        assert tracker.signing.path == tmp_path / "keys.json" and tracker.signing.trusted == () and tracker.public_url is None
        client = app.test_client()
        created = client.post("/campaigns", json={"ruleset": "journey", "name": "Explicit", "party": ["tripitaka"], "components": JOURNEY_TEST_COMPONENTS})
        assert created.status_code == 201, created.json
        sid = client.post(f"/campaigns/{created.json['id']}/sessions", json={"quest": "q1-meeting"}).json["id"]
        assert [client.post(f"/sessions/{sid}/rolls", json={"dice": {"d6": 1}}).status_code for _ in range(3)] == [201] * 3  # no 1/3600 limit
        assert (tmp_path / "explicit.sqlite3").exists()
    finally:
        app.extensions["tracker_service"].close()


def test_a_test_config_overrides_a_setting_before_anything_is_wired(tmp_path: Path) -> None:
    settings = Settings(database_url=f"sqlite:///{tmp_path / 'a.sqlite3'}")
    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path / 'b.sqlite3'}", "RATE_LIMIT": "2/60"}, settings=settings)
    try:
        assert app.extensions["tracker_rate_limit"].rate == 2
        assert app.extensions["tracker"].recorder is not None and (tmp_path / "b.sqlite3").exists() and not (tmp_path / "a.sqlite3").exists()
    finally:
        app.extensions["tracker_service"].close()


def test_create_app_serves_what_the_bootstrap_wired(tmp_path: Path) -> None:
    """The pieces are built before the app (tracker/bootstrap.py's wire); create_app registers the routes over them."""
    served = wire(Settings(database_url=f"sqlite:///{tmp_path / 'wired.sqlite3'}", rate_limit="5/60"))
    app = create_app({"TESTING": True}, served=served)
    try:
        assert app.extensions["tracker_service"] is served.service and app.extensions["tracker"] is served.service.tracker
        assert app.extensions["tracker_rate_limit"] is served.rate_limit and served.rate_limit.rate == 5
        assert app.config["RATE_LIMIT"] == "5/60" and app.test_client().get("/health").status_code == 200
    finally:
        served.service.close()
