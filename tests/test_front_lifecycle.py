"""The production front's processes (`tracker front`, api/front/launcher.py): stopping it stops nginx and
gunicorn together; when gunicorn dies the front stops nginx and exits failing; while gunicorn is not listening
nginx answers a 503 problem to retry; the configuration it renders is one nginx accepts. Each test starts its
own front or nginx (it stops or breaks it). Without nginx these tests skip, saying why (tests/kit/front.py);
in CI that is a failure instead."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
from pathlib import Path

import pytest

from api.front.launcher import render
from tests.kit.front import address as _address, assert_a_problem as _assert_a_problem, exchange as _exchange, get as _get
from tests.kit.front import nginx, start_front as _front  # noqa: F401  (nginx: a fixture)
from tests.kit.server import free_port as _free_port

pytestmark = pytest.mark.server


def test_stopping_the_front_stops_nginx_and_gunicorn_together(nginx, tmp_path):
    process, base, log_path = _front(nginx, f"sqlite:///{tmp_path / 'tracker.sqlite3'}", tmp_path)
    children = subprocess.run(["ps", "-o", "pid=", "--ppid", str(process.pid)], capture_output=True, text=True).stdout.split()
    assert len(children) == 2, log_path.read_text()  # nginx's master and gunicorn's
    process.send_signal(signal.SIGTERM)
    assert process.wait(timeout=30) == 0, log_path.read_text()
    for pid in children:
        assert not Path(f"/proc/{pid}").exists() or "zombie" in Path(f"/proc/{pid}/status").read_text(), f"{pid} outlived the front"
    with pytest.raises(OSError):
        socket.create_connection(_address(base), timeout=2).close()


def test_when_gunicorn_dies_the_front_stops_nginx_and_exits_failing(nginx, tmp_path):
    process, base, log_path = _front(nginx, f"sqlite:///{tmp_path / 'tracker.sqlite3'}", tmp_path)
    children = subprocess.run(["ps", "-o", "pid=,comm=", "--ppid", str(process.pid)], capture_output=True, text=True).stdout.splitlines()
    gunicorn = next(int(line.split()[0]) for line in children if "nginx" not in line)
    os.kill(gunicorn, signal.SIGKILL)
    assert process.wait(timeout=30) != 0
    assert "tracker front: gunicorn 0 exited" in log_path.read_text()
    with pytest.raises(OSError):
        socket.create_connection(_address(base), timeout=2).close()


def test_the_rendered_configuration_is_one_nginx_accepts_and_stays_in_its_directory(nginx, tmp_path):
    sockets = [tmp_path / f"gunicorn-{n}.sock" for n in range(3)]
    text = render("127.0.0.1:8000", sockets, tmp_path, 1234, as_root=False)
    assert text.count("server unix:") == 3 and "client_max_body_size 1234;" in text
    # Every path nginx writes (pid, temporary files) is in the private directory; logs go to stderr.
    written = [line.split()[1].rstrip(";") for line in text.splitlines() if line.strip().split(" ")[0] in (
        "pid", "client_body_temp_path", "proxy_temp_path", "fastcgi_temp_path", "uwsgi_temp_path", "scgi_temp_path")]
    assert len(written) == 6 and all(Path(path).parent == tmp_path for path in written), written
    (tmp_path / "nginx.conf").write_text(text)
    checked = subprocess.run([nginx, "-t", "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf"), "-e", "stderr"], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr


def test_while_gunicorn_is_not_listening_nginx_answers_a_503_problem_to_retry(nginx, tmp_path):
    port = _free_port()
    (tmp_path / "nginx.conf").write_text(render(f"127.0.0.1:{port}", [tmp_path / "gone.sock"], tmp_path, 1024, as_root=os.geteuid() == 0))
    process = subprocess.Popen([nginx, "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf"), "-e", "stderr"], stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 15
        while True:
            try:
                status, headers, body = _exchange(f"http://127.0.0.1:{port}", _get("/health"))
                break
            except OSError:
                assert time.monotonic() < deadline and process.poll() is None, "nginx did not start"
                time.sleep(0.1)
        _assert_a_problem(status, headers, body, 503, "retry")
        assert headers["retry-after"] == "5"
    finally:
        process.terminate()
        process.wait(timeout=15)
