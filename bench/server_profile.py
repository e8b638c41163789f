"""Where a request's CPU goes in the real server: py-spy samples the running gunicorn workers under load.

py-spy (the `bench` extra) reads each worker's Python stacks from outside the process, without
pausing it (--nonblocking), about 200 times a second, and keeps only the thread holding the GIL
(--gil): a worker's threads share one GIL, so that thread is the worker's Python CPU, and one
waiting on a socket, a lock or the database (GIL released) is left out. Each sample is then put in the layer of its innermost frame
that belongs to one (a psycopg call made by the token check counts as the driver, not as the token
check), and a few stages are counted inclusively (any frame of theirs on the stack). Shares of
samples, times the workers' CPU per request measured from /proc in the same run, give milliseconds.

This is the server as it runs, not a reconstruction: gunicorn's parsing and hand-offs, Flask, our
code and the driver, each as warm or cold as they are between PostgreSQL and the load generator.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

RATE = 200  # samples a second per worker

# Innermost match wins; order matters only where one frame could match two.
LAYERS = [
    ("the PostgreSQL driver (psycopg, its pool)", re.compile(r"(^|/)(psycopg|psycopg_pool|psycopg_binary)/")),
    ("JSON encoding and decoding", re.compile(r"(^|/)(json|msgspec)/")),
    ("marshmallow, webargs, flask-smorest", re.compile(r"(^|/)(marshmallow|webargs|flask_smorest|apispec)/")),
    ("the eventsourcing library", re.compile(r"(^|/)eventsourcing/")),
    ("our application (tracker/: the command, the token check)", re.compile(r"(^|/)tracker/")),
    ("our API layer (api/: hooks, access, views)", re.compile(r"(^|/)api/")),
    ("Flask and Werkzeug", re.compile(r"(^|/)(flask|werkzeug)/")),
    ("gunicorn's HTTP parsing (gunicorn/http/)", re.compile(r"(^|/)gunicorn/http/")),
    ("gunicorn's worker (accept, poll, threads, writing the response)", re.compile(r"(^|/)gunicorn/")),
]
OTHER = "the standard library outside those (threading, selectors, socket, logging)"

# Stages counted inclusively: the share of samples with any such frame on the stack.
STAGES = [
    ("inside the Flask application (Flask.wsgi_app)", re.compile(r"^Flask\.wsgi_app \(")),
    ("the access check (api/access.py authorize), the token check included", re.compile(r"^authorize \(.*api/access\.py")),
    ("the command (Tracker.roll)", re.compile(r"^Tracker\.roll \(")),
    ("the token check (Tracker.authenticate)", re.compile(r"^Tracker\.authenticate \(")),
    ("the view's schemas: webargs parsing, marshmallow dumping", re.compile(r"^(Parser\.parse|Schema\.dump|Schema\.load|ResponseMixin\._prepare_response_content) \(")),
    ("the disclosure on the way out (tracker/integrity/disclosure.py)", re.compile(r"\(.*tracker/disclosure\.py")),
    ("gunicorn parsing the request (gunicorn/http/)", re.compile(r"\(.*gunicorn/http/")),
]
OUTSIDE = "outside the Flask application: gunicorn (accept, parse, write, hand-offs between threads)"


@dataclass
class Profile:
    samples: int = 0
    layers: Counter = field(default_factory=Counter)
    stages: Counter = field(default_factory=Counter)
    top: Counter = field(default_factory=Counter)  # innermost frames, for finding what to remove
    raw: str = ""  # the collapsed stacks, for a flame graph or a closer look
    note: str = ""

    def share(self, count: int) -> float:
        return count / self.samples if self.samples else 0.0


def py_spy() -> str | None:
    return shutil.which("py-spy", path=str(Path(sys.executable).parent)) or shutil.which("py-spy")


def start(pids: list[int], seconds: int, directory: Path) -> list[subprocess.Popen]:
    tool = py_spy()
    if tool is None:
        return []
    return [
        subprocess.Popen(
            [tool, "record", "--pid", str(pid), "--duration", str(seconds), "--rate", str(RATE), "--nonblocking", "--gil", "--full-filenames",
             "--format", "raw", "--output", str(directory / f"profile-{pid}.txt")],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        )
        for pid in pids
    ]


def finish(recorders: list[subprocess.Popen], directory: Path) -> Profile:
    profile = Profile()
    if not recorders:
        profile.note = "py-spy is not installed (pip install -e '.[bench]'): no profile of the server"
        return profile
    errors = []
    for recorder in recorders:
        _, err = recorder.communicate(timeout=120)
        if recorder.returncode != 0:
            errors.append(err.decode(errors="replace").strip().splitlines()[-1:] or ["py-spy failed"])
    for path in sorted(directory.glob("profile-*.txt")):
        read(path.read_text(), profile)
        profile.raw += path.read_text()
    if errors and not profile.samples:
        profile.note = f"py-spy could not sample the workers: {errors[0][0]}"
    return profile


def read(raw: str, profile: Profile) -> None:
    """py-spy's raw (collapsed) stacks: `frame;frame;...;innermost count`, a frame `function (file:line)`."""
    for line in raw.splitlines():
        stack, _, count = line.rpartition(" ")
        if not stack or not count.isdigit():
            continue
        n = int(count)
        frames = stack.split(";")
        profile.samples += n
        profile.layers[_layer(frames)] += n
        profile.top[re.sub(r":\d+\)$", ")", frames[-1])] += n
        for name, pattern in STAGES:
            if any(pattern.search(frame) for frame in frames):
                profile.stages[name] += n
        if not any(STAGES[0][1].search(frame) for frame in frames):
            profile.stages[OUTSIDE] += n


def _layer(frames: list[str]) -> str:
    for frame in reversed(frames):
        where = frame[frame.rfind("(") + 1 :]
        for name, pattern in LAYERS:
            if pattern.search(where):
                return name
    return OTHER
