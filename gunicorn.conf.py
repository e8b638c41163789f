"""gunicorn settings for `tracker front` (the Procfile's web: nginx in front of this gunicorn) and `tracker serve`.

The app is not preloaded: each worker imports api.wsgi after the fork and
builds its own application and connection pool.
"""

import shutil
from pathlib import Path

from tracker.settings import ServerSettings, metrics_directory

server = ServerSettings.from_environment()  # BIND or PORT, WEB_CONCURRENCY, GUNICORN_THREADS, GUNICORN_ACCESS_LOG
bind = server.bind
# One worker per core, each with a few threads that overlap one request's database round trips
# with another's Python work. Throughput is bound by CPU per request, not by the thread count
# (2x2, 2x8, 3x4 and 4x2 measured no better on 2 cores). gthread keeps connections alive, so a
# client's rolls stay with one worker and start from its command cache; sync workers answer one
# request per connection, so a session's rolls land on any worker, and cost twice the CPU each.
# A gthread thread reads its request's bytes itself: a client that sends half a request holds one
# thread while it waits (twenty such clients held every thread of 2x4 for a minute). In production
# nginx reads each request whole first (`tracker front`, api/front/), as gunicorn's deployment guide
# asks; `tracker serve` alone is for a machine's own use.
workers = server.workers
# gthread, whose refusals of unreadable requests (a URL or headers over the limits below) are
# problem+json like every other error instead of gunicorn's text/html page.
worker_class = "api.front.worker.ProblemThreadWorker"
threads = server.threads
preload_app = False
# gunicorn 27 opens a control socket at one fixed path per user; several servers on one
# machine (tests, staging beside production) would fight over it. We do not use it.
control_socket_disable = True
timeout = 30
graceful_timeout = 10
accesslog = server.access_log
if server.log_format == "json":  # TRACKER_LOG_FORMAT=json: gunicorn's own lines as JSON too, as the app's are (api/request_log.py)
    _json = {"()": "pythonjsonlogger.json.JsonFormatter", "fmt": "%(asctime)s %(levelname)s %(name)s %(message)s",
             "rename_fields": {"levelname": "level", "asctime": "time"}}
    logconfig_dict = {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"json": _json},
        "root": {"level": "INFO", "handlers": ["error"]},
        "handlers": {"error": {"class": "logging.StreamHandler", "formatter": "json", "stream": "ext://sys.stderr"},
                     "access": {"class": "logging.StreamHandler", "formatter": "json", "stream": "ext://sys.stdout"}},
        "loggers": {"gunicorn.error": {"level": "INFO", "handlers": ["error"], "propagate": False},
                    "gunicorn.access": {"level": "INFO", "handlers": ["access"], "propagate": False}},
    }
# Each worker keeps its GET /metrics counters in files here, and a scrape adds up every worker's (api/metrics.py):
# PROMETHEUS_MULTIPROC_DIR, else a temporary directory made now, before the workers fork, and removed at exit.
metrics_dir, metrics_dir_made = metrics_directory()


def _forget_counters_of_past_runs() -> None:
    """prometheus-client's rule: the directory starts empty, or a dead run's counts would be added to this one's."""
    for stale in Path(metrics_dir).glob("*.db"):
        stale.unlink()


def child_exit(server, worker):
    """A worker gone (restarted, killed): its live gauges (open event streams) stop counting; its counters stay."""
    from api.metrics import forget_worker

    forget_worker(metrics_dir, worker.pid)


def on_exit(server):
    if metrics_dir_made:
        shutil.rmtree(metrics_dir, ignore_errors=True)


def on_starting(server):
    """Create the tables once, in the master, before any worker forks: workers racing to
    create them on a fresh SQLite file could fail to boot. The workers (api/wsgi.py) never do."""
    from tracker.bootstrap import Settings, create_tables

    _forget_counters_of_past_runs()
    create_tables(Settings.from_environment())
