"""Progress of the long commands on a terminal (issue 34): `tracker rebuild`, `export` and `import` draw a bar with
the count done, the total and the rate on standard error when it is a terminal (a pty here), and print nothing more
when it is not; what they print on standard output stays the same."""

from __future__ import annotations

import json
import os
import pty
import re
import subprocess
from pathlib import Path

from api import create_app
from tests.kit.server import BIN

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def _tracker(args: list[str], env: dict[str, str], cwd: Path, terminal: bool) -> tuple[int, str, str]:
    """``tracker ARGS``: its exit status, standard output and standard error (from a pty when ``terminal``)."""
    if not terminal:
        done = subprocess.run([str(BIN / "tracker"), *args], env=env, cwd=cwd, capture_output=True, text=True, timeout=120)
        return done.returncode, done.stdout, done.stderr
    leader, follower = pty.openpty()
    process = subprocess.Popen([str(BIN / "tracker"), *args], env=env, cwd=cwd, stdin=subprocess.DEVNULL,
                               stdout=subprocess.PIPE, stderr=follower)
    os.close(follower)
    seen = b""
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # the other end closed: the command is done
            break
        if not chunk:
            break
        seen += chunk
    os.close(leader)
    out = process.stdout.read().decode()
    process.stdout.close()
    return process.wait(timeout=120), out, ANSI.sub("", seen.decode(errors="replace").replace("\r", "\n"))


def _campaign(url: str, rolls: int) -> str:
    app = create_app({"TESTING": True, "DATABASE_URL": url})
    try:
        client = app.test_client()
        created = client.post("/campaigns", json={"ruleset": "journey", "name": "Long"}).json
        owner = {"Authorization": f"Bearer {created['owner_token']}"}
        session = client.post(f"/campaigns/{created['id']}/sessions", json={"quest": "q1-meeting"}, headers=owner).json
        for _ in range(rolls):
            assert client.post(f"/sessions/{session['id']}/rolls", json={"dice": {"d6": 1}}, headers=owner).status_code == 201
        return created["id"]
    finally:
        app.extensions["tracker_service"].close()


def test_rebuild_export_and_import_show_their_progress_on_a_terminal_only(tmp_path):
    url = f"sqlite:///{tmp_path / 'long.sqlite3'}"
    campaign_id = _campaign(url, 12)
    env = {**os.environ, "TRACKER_SIGNING_KEYS": str(tmp_path / "keys.json"), "COLUMNS": "160", "DATABASE_URL": url}
    env.pop("TRACKER_LOG_FORMAT", None)

    status, out, shown = _tracker(["rebuild"], env, tmp_path, terminal=True)
    assert status == 0, shown
    events = json.loads(out)["position"]
    assert re.search(rf"rebuilding home .*{events}/{events} events .*events/s", shown), shown
    status, quiet_out, quiet = _tracker(["rebuild"], env, tmp_path, terminal=False)
    assert status == 0 and "rebuilding" not in quiet and json.loads(quiet_out)["digest"] == json.loads(out)["digest"]

    exported = tmp_path / "long.jsonl"
    status, _, shown = _tracker(["export", campaign_id, "--output", str(exported)], env, tmp_path, terminal=True)
    lines = len(exported.read_text().splitlines())
    assert status == 0 and re.search(rf"exporting {campaign_id} .*{lines}/{lines} lines .*lines/s", shown), shown

    elsewhere = {**env, "DATABASE_URL": f"sqlite:///{tmp_path / 'elsewhere.sqlite3'}"}
    status, out, shown = _tracker(["import", str(exported)], elsewhere, tmp_path, terminal=True)
    size = exported.stat().st_size
    assert status == 0, shown
    assert campaign_id in out
    assert re.search(rf"importing long\.jsonl .*{size:,}/{size:,} bytes .*bytes/s", shown) or \
        re.search(rf"importing long\.jsonl .*{size}/{size} bytes", shown), shown
