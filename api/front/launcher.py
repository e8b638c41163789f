"""`tracker front`: the Procfile's `web`, nginx in front of gunicorn as one command a platform runs.

gunicorn's deployment guide asks for a buffering proxy in front of it: a gthread thread reads a
request's bytes itself, so clients that send half a request and wait hold its threads. This starts
gunicorn (gunicorn.conf.py, api.wsgi:app) as WEB_CONCURRENCY masters of one worker each, each on a
unix socket in a private temporary directory, then nginx (nginx.conf beside this file) on the public
address, and stops them together: a signal to this process stops all gracefully, and when any exits
the others are stopped and this process exits with the first one's status. Nothing is written outside the temporary directory.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path

from tracker.bootstrap import GUNICORN_CONF, ROOT
from tracker.settings import ServerSettings, Settings, process_environment

TEMPLATE = Path(__file__).with_name("nginx.conf")
# Debian installs nginx in /usr/sbin, which is not on an ordinary user's PATH.
NGINX_PLACES = ("/usr/sbin", "/usr/local/sbin", "/usr/local/nginx/sbin")
SOCKET_WAIT_SECONDS = 60.0  # gunicorn's master makes the tables before it listens (gunicorn.conf.py)


class NginxMissing(RuntimeError):
    pass


def find_nginx(environ: Mapping[str, str] | None = None) -> str:
    """TRACKER_NGINX, else nginx on PATH or where Debian puts it."""
    named = ServerSettings.from_environment(environ).nginx
    if named:
        return named
    found = shutil.which("nginx") or shutil.which("nginx", path=os.pathsep.join(NGINX_PLACES))
    if found is None:
        raise NginxMissing("nginx is not installed (Debian: apt-get install nginx; or .ci/install-nginx); set TRACKER_NGINX to its path")
    return found


def public_address(environ: Mapping[str, str] | None = None) -> str:
    """Where the service listens: BIND, else 127.0.0.1:PORT, as gunicorn.conf.py reads them."""
    return ServerSettings.from_environment(environ).bind


def render(listen: str, upstream_sockets: list[Path], run_dir: Path, max_body: int, as_root: bool) -> str:
    """nginx.conf with its @NAMES@ filled in; any left over is a mistake in the template."""
    values = {
        # gunicorn's bind and nginx's listen write HOST:PORT, [V6]:PORT and unix:PATH alike.
        "@LISTEN@": listen,
        "@UPSTREAMS@": "\n".join(f"        server unix:{path};" for path in upstream_sockets),
        "@RUN_DIR@": str(run_dir),
        "@MAX_BODY@": str(max_body),
        # As root, nginx would run its workers as `nobody`, who cannot reach the private directory;
        # they run as the user who started the front, like gunicorn does.
        "@USER@": "user root;" if as_root else "",
    }
    text = TEMPLATE.read_text(encoding="utf-8")
    for name, value in values.items():
        text = text.replace(name, value)
    if re.search(r"@[A-Z_]+@", text):
        raise ValueError("api/front/nginx.conf has a name the launcher does not fill")
    return text


def largest_body(environ: Mapping[str, str] | None = None) -> int:
    """The largest body a route takes (an import): nginx passes it, the application holds each route to its own limit."""
    return Settings.from_environment(environ).import_max_bytes


def gunicorn_environment(environ: Mapping[str, str]) -> dict[str, str]:
    """nginx is one more proxy in front of gunicorn: the application counts it among the hops whose
    X-Forwarded-For/-Proto/-Host it believes (TRACKER_TRUSTED_PROXIES counts those before the front)."""
    before = Settings.from_environment(environ).trusted_proxies
    return {**environ, "TRACKER_TRUSTED_PROXIES": str(before + 1)}


def workers(environ: Mapping[str, str]) -> int:
    """WEB_CONCURRENCY, else one per core, as gunicorn.conf.py counts them."""
    return max(1, ServerSettings.from_environment(environ).workers)


def run(bind: str | None = None, environ: Mapping[str, str] | None = None) -> int:
    environ = process_environment() if environ is None else dict(environ)
    nginx = find_nginx(environ)
    listen = bind or public_address(environ)
    with tempfile.TemporaryDirectory(prefix="tracker-front-") as private:
        run_dir = Path(private)
        # One gunicorn of one worker per socket: nginx sends each session's requests to one of them (nginx.conf).
        upstreams = [run_dir / f"gunicorn-{n}.sock" for n in range(workers(environ))]
        config = run_dir / "nginx.conf"
        config.write_text(render(listen, upstreams, run_dir, largest_body(environ), os.geteuid() == 0), encoding="utf-8")
        stopping: list[int] = []

        def stop(signum: int, _frame: object) -> None:
            stopping.append(signum)

        for signum in (signal.SIGTERM, signal.SIGINT):
            signal.signal(signum, stop)
        children: dict[str, subprocess.Popen[bytes]] = {}
        try:
            # One after the other: each master makes the tables before it listens (gunicorn.conf.py), and
            # masters racing to make them on a fresh database fail. nginx starts once all listen.
            for n, upstream in enumerate(upstreams):
                gunicorn = subprocess.Popen(
                    [sys.executable, "-m", "gunicorn", "-c", str(GUNICORN_CONF), "--bind", f"unix:{upstream}", "--workers", "1", "api.wsgi:app"],
                    cwd=ROOT, env=gunicorn_environment(environ),
                )
                children[f"gunicorn {n}"] = gunicorn
                deadline = time.monotonic() + SOCKET_WAIT_SECONDS
                while not upstream.exists() and gunicorn.poll() is None and not stopping and time.monotonic() < deadline:
                    time.sleep(0.05)
                if gunicorn.poll() is not None or stopping:
                    break
                if not upstream.exists():
                    print(f"tracker front: gunicorn did not listen within {SOCKET_WAIT_SECONDS:g} s", file=sys.stderr, flush=True)
                    return 1
            if all(child.poll() is None for child in children.values()) and not stopping:
                children["nginx"] = subprocess.Popen([nginx, "-p", str(run_dir), "-c", str(config), "-e", "stderr"], cwd=run_dir)
                print(f"campaign-tracker front: nginx at {listen}, {len(upstreams)} gunicorn workers behind it", flush=True)
            while not stopping and all(child.poll() is None for child in children.values()):
                time.sleep(0.1)
            exited = [name for name, child in children.items() if child.poll() is not None]
            if exited and not stopping:
                print(f"tracker front: {exited[0]} exited with status {children[exited[0]].returncode}; stopping the rest", file=sys.stderr, flush=True)
            if not exited:
                return 0  # stopped by a signal, as a platform stops a process
            return children[exited[0]].returncode or (0 if stopping else 1)
        finally:
            _stop_all(children)


def _stop_all(children: dict[str, subprocess.Popen[bytes]]) -> None:
    """All at once, gracefully: nginx finishes what it has (SIGQUIT), each gunicorn its requests (SIGTERM, graceful_timeout)."""
    for name, child in children.items():
        if child.poll() is None:
            child.send_signal(signal.SIGQUIT if name == "nginx" else signal.SIGTERM)
    deadline = time.monotonic() + 20
    for child in children.values():
        try:
            child.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()
