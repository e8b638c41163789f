"""What GET /metrics counts (Prometheus' text format, prometheus-client), summed across gunicorn's workers.

Each worker counts into its own files in PROMETHEUS_MULTIPROC_DIR (gunicorn.conf.py makes a temporary one when the
operator names none, and tells the library a worker is gone when it exits); a scrape, answered by whichever worker
the connection reaches, adds up every worker's files. Without that directory (the test client, one process) the
counts are the process's own.

Labels are route templates (``/sessions/<session_id>/rolls``, never a path with its ids), statuses, operation names
and view names: a scrape shows how the service is used, never whose campaign or which token.

prometheus-client chooses, when it is first imported, whether its values live in those files (it reads
PROMETHEUS_MULTIPROC_DIR itself); it is imported here only when the first app is built, in the worker, after
gunicorn.conf.py has named the directory, and never at the import of this module (`tracker serve` imports the
API in gunicorn's master before reading gunicorn.conf.py).
"""

from __future__ import annotations

import time
from bisect import bisect_left
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from flask import Flask, request
from flask.globals import _cv_app, _cv_request  # Flask's own context variables: one look-up where a proxy makes four

LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)
IMPORT_BUCKETS = tuple(float(2 ** power) for power in range(10, 27, 2))  # 1 KiB to 64 MiB, the import limit
UNMATCHED = "unmatched"  # a path no route answers: one label, whatever was asked for


@dataclass(frozen=True)
class Instruments:
    requests: Any
    latency: Any
    commands: Any
    refusals: Any
    streams: Any
    import_bytes: Any


_made: list[Instruments] = []


def instruments() -> Instruments:
    """The process's counters, made once (a second app in one process, as in the tests, counts into the same)."""
    if not _made:
        from prometheus_client import Counter, Gauge, Histogram

        _made.append(Instruments(
            requests=Counter("tracker_http_requests", "HTTP requests answered, by route template, method and status",
                             ["route", "method", "status"]),
            latency=Histogram("tracker_http_request_duration_seconds", "Time to answer a request (to its headers, for a stream)",
                              ["route", "method", "status"], buckets=LATENCY_BUCKETS),
            commands=Counter("tracker_commands", "Commands (writes) by operation and outcome: accepted (2xx), refused (4xx), "
                             "failed (5xx)", ["command", "outcome"]),
            refusals=Counter("tracker_refusals", "Requests refused with a problem (4xx), by status", ["status"]),
            streams=Gauge("tracker_event_streams_open", "Server-Sent Event streams open now (GET /events/stream)",
                          multiprocess_mode="livesum"),
            import_bytes=Histogram("tracker_import_bytes", "Size of each campaign export sent to POST /campaigns/import",
                                   buckets=IMPORT_BUCKETS),
        ))
    return _made[0]


def install(app: Flask) -> None:
    """Count every request the app answers (its hooks run first and last, around everything else)."""
    instruments()
    app.before_request(_started)
    app.after_request(_counted)


def _started() -> None:
    vars(_cv_app.get().g)["metrics_started"] = time.perf_counter()  # (g's __setattr__ is a Python call for this)


def route_template(rule: Any) -> str:
    """A request's route as its label: the matched rule's template, one label for every path no route answers."""
    return rule.rule if rule is not None else UNMATCHED


def command_name(app: Flask) -> str:
    """The operation a write is (its operationId, as the OpenAPI document names it), else its endpoint (the pages')."""
    endpoint = request.endpoint or UNMATCHED
    view = app.view_functions.get(endpoint)
    handler = getattr(getattr(view, "view_class", None), request.method.lower(), view)
    return getattr(handler, "_apidoc", {}).get("manual_doc", {}).get("operationId") or endpoint


# The labelled series one kind of answer counts into, found once: prometheus-client's labels() validates and joins the
# label values and takes a lock on every call (about 60 Python calls a request for the three series a write counts
# into). Routes, methods, statuses and operations are few and fixed, so the table stays small; it is dropped if ever
# it is not (KEPT_AT_MOST), and keyed by the instruments, so another set of them (none is made today) starts afresh.
KEPT_AT_MOST = 4096
_series: dict[tuple[Any, ...], tuple[Any, Any, Any, Any]] = {}  # each kind of answer's series' own values (below)


def _series_of(found: Instruments, app: Flask, route: str, method: str, status_code: int, rule: Any,
               endpoint: str | None) -> tuple[Any, Any, Any, Any]:
    key = (id(found), endpoint, route, method, status_code)
    series = _series.get(key)
    if series is None:
        if len(_series) >= KEPT_AT_MOST:
            _series.clear()
        status = str(status_code)
        refusals = found.refusals.labels(status) if 400 <= status_code < 500 else None
        commands = None
        if method in ("POST", "PUT", "PATCH", "DELETE") and rule is not None:
            outcome = "accepted" if status_code < 400 else "refused" if status_code < 500 else "failed"
            commands = found.commands.labels(command_name(app), outcome)
        series = _series[key] = (_counter(found.requests.labels(route, method, status)),
                                 _histogram(found.latency.labels(route, method, status)), _counter(refusals), _counter(commands))
    return series


# A labelled series' own values, counted into directly: prometheus-client's inc() and observe() check on every call that
# the series is a labelled child (it is: labels() made it) before they add to those values, and observe() walks the
# buckets to the first bound not below the amount, which bisect_left finds (the last bound is +Inf). The same values
# change, so a scrape reads the same figures (tests/test_operating_metrics.py).
def _counter(series: Any) -> Any:
    return None if series is None else series._value


def _histogram(series: Any) -> tuple[Any, list[Any], tuple[float, ...]]:
    return series._sum, series._buckets, tuple(series._upper_bounds)


def _counted(response):
    app_context = _cv_app.get()  # one context look-up, not one per use
    started = vars(app_context.g).pop("metrics_started", None)  # (g's own pop is a Python call for this)
    app = app_context.app
    if app.extensions.get("tracker_warming"):
        return response  # a worker warming itself before it serves (api/warming.py): not a request anyone made
    req = _cv_request.get().request
    rule = req.url_rule
    requests, latency, refusals, commands = _series_of(
        instruments(), app, route_template(rule), req.method, response.status_code, rule, req.endpoint)
    requests.inc(1)
    if started is not None:
        amount = time.perf_counter() - started
        total, buckets, bounds = latency
        total.inc(amount)
        buckets[bisect_left(bounds, amount)].inc(1)
    if refusals is not None:
        refusals.inc(1)
    if commands is not None:
        commands.inc(1)
    return response


def stream_opened() -> Callable[[], None]:
    """One more open event stream; the function returned counts it closed (once, however often it is called)."""
    gauge = instruments().streams
    gauge.inc()
    closed: list[bool] = []

    def close() -> None:
        if not closed:
            closed.append(True)
            gauge.dec()

    return close


class CountedBody:
    """A request body read through, its bytes counted: an import's size, chunked bodies included."""

    def __init__(self, body: Any) -> None:
        self.body, self.count = body, 0

    def read(self, size: int = -1) -> bytes:
        data = self.body.read(size)
        self.count += len(data)
        return data

    def readline(self, size: int = -1) -> bytes:
        data = self.body.readline(size)
        self.count += len(data)
        return data

    def __iter__(self) -> Iterator[bytes]:
        while line := self.readline():
            yield line

    def observe(self) -> None:
        instruments().import_bytes.observe(self.count)


def scrape(metrics_dir: str | None, lag: Callable[[], Iterator[tuple[str, str, int]]]) -> tuple[bytes, str]:
    """The text a scrape answers: every worker's counts (from ``metrics_dir``), else this process's, and the views'
    lag measured now (``lag``: shard, view, events behind the log head)."""
    from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, CollectorRegistry, generate_latest
    from prometheus_client.core import GaugeMetricFamily
    from prometheus_client.multiprocess import MultiProcessCollector

    class Lag:
        def collect(self):
            family = GaugeMetricFamily("tracker_projection_lag_events", "Events in the log the view has not projected yet "
                                       "(the log head less the view's tracking position), per shard", labels=["shard", "view"])
            for shard, view, behind in lag():
                family.add_metric([shard, view], behind)
            yield family

    if metrics_dir:
        registry = CollectorRegistry()
        MultiProcessCollector(registry, path=metrics_dir)
    else:
        registry = CollectorRegistry()
        registry.register(_Everything(REGISTRY))
    registry.register(Lag())
    return generate_latest(registry), CONTENT_TYPE_LATEST


class _Everything:
    """The process's default registry, collected into a scrape's own registry beside the lag."""

    def __init__(self, registry: Any) -> None:
        self.registry = registry

    def collect(self):
        return self.registry.collect()


def forget_worker(metrics_dir: str, pid: int) -> None:
    """A worker exited: its live gauges (open streams) no longer count (gunicorn.conf.py's child_exit)."""
    from prometheus_client import multiprocess

    multiprocess.mark_process_dead(pid, metrics_dir)
