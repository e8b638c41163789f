"""The Flask class this service runs: Flask, less the work it repeats on every request.

Flask passes every hook and view through ``ensure_sync`` on every request (18 times for a roll), and each
call asks ``inspect.iscoroutinefunction``: about 4% of a roll request's CPU (bench/RESULTS.md). Whether a
function is a coroutine function does not change, so the answer is kept per function (a bound method's
underlying function, as MethodView binds a new instance each request); a coroutine function still goes
through Flask's own ``ensure_sync``. A plain function (a hook, not a method bound anew each request) is found by
one set membership test, without the look-ups of the table.

Flask's own request path reads the request and the application through its context proxies (``request``,
``request_ctx``, ``current_app``) nine times a request (the before and after hooks' dispatch, the view's, the
teardown, the body's size limit, a MethodView's method and its ``ensure_sync``). Each proxy read first fails the
proxy's own attribute look-up (an AttributeError, its message formatted) before the proxy forwards it: about 8,000
instructions a read where the context variable itself costs 650. The methods below are Flask 3.1's, step for step,
with the context variables read instead (tests/test_flask_app.py holds them to Flask's source).

Three more things Flask and werkzeug redo per request are done once: a request's URL adapter keeps what its host
gives (validated twice and IDNA-encoded by werkzeug) per address; an answer's headers and body go to the server
without a copy werkzeug would check again (TrackerResponse); a JSON answer is encoded by one encoder per provider
settings (json_answer). Each is compared with Flask's own way in tests/test_flask_app.py.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from inspect import iscoroutinefunction
from itertools import chain
from typing import Any

from flask import Flask, Request, Response
from flask.app import _sentinel  # Flask's own "no exception given" default of do_teardown_request
from flask.json.provider import DefaultJSONProvider
from flask.globals import _cv_app, _cv_request  # Flask's own context variables: one look-up where a proxy makes a dozen
from flask.signals import request_tearing_down
from flask.views import MethodView, View
from werkzeug._internal import _wsgi_decoding_dance  # what Map.bind_to_environ reads the path and query with
from werkzeug.datastructures import Headers
from werkzeug.routing import Map, MapAdapter
from werkzeug.wrappers import Request as WerkzeugRequest

KEPT_AT_MOST = 4096  # functions made per request (none today) would otherwise grow the table without end


class TrackerRequest(Request):
    @property
    def max_content_length(self) -> int | None:
        """Flask's: set on this request, else the application's MAX_CONTENT_LENGTH (werkzeug's outside an app)."""
        if self._max_content_length is not None:
            return self._max_content_length
        app_context = _cv_app.get(None)
        if app_context is None:
            return WerkzeugRequest.max_content_length
        return app_context.app.config["MAX_CONTENT_LENGTH"]  # type: ignore[no-any-return]

    @max_content_length.setter
    def max_content_length(self, value: int | None) -> None:
        self._max_content_length = value


class TrackerResponse(Response):
    """Flask's response, handed to the server without copying its headers through werkzeug's checks when there is
    nothing for them to change, and its body as the bytes it already is."""

    def get_wsgi_headers(self, environ: Any) -> Headers:
        """werkzeug's copy of the headers for the server: where it would change nothing (no Location or
        Content-Location to make absolute, a Content-Length set, a status that keeps it), a copy of the list. Each
        value in it is a header's string already (Headers checked it when it was set), which is all werkzeug's copy
        checks again, one call per header."""
        headers = self.headers
        status = self.status_code
        if headers.__class__ is Headers and status >= 200 and status not in (204, 304):
            length = False
            for key, _ in headers._list:
                name = key.lower()
                if name == "content-length":
                    length = True
                elif name in ("location", "content-location"):
                    return super().get_wsgi_headers(environ)
            if length:
                copied = Headers()
                copied._list = headers._list.copy()
                return copied
        return super().get_wsgi_headers(environ)

    def get_app_iter(self, environ: Any) -> Any:
        """werkzeug's: for a body held as bytes (what set_data makes) with nothing to call when it closes, those bytes,
        which werkzeug's iterator would yield as they are and whose close would do nothing."""
        body = self.response
        status = self.status_code
        if (body.__class__ is list and not self._on_close and not self.direct_passthrough and environ["REQUEST_METHOD"] != "HEAD"
                and status >= 200 and status not in (204, 304) and all(part.__class__ is bytes for part in body)):
            return tuple(body)
        return super().get_app_iter(environ)


class TrackerFlask(Flask):
    request_class = TrackerRequest
    response_class = TrackerResponse

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._plain: dict[Any, bool] = {}
        self._plain_functions: set[Any] = set()  # functions (not bound methods) known plain: one membership test
        self._bound: dict[tuple[Any, ...], tuple[str, str, str | None, str]] = {}  # create_url_adapter's, by host
        self._json_encoder: tuple[tuple[Any, ...], json.JSONEncoder] | None = None

    def json_answer(self, value: Any, status: Any) -> Response:
        """What ``self.json.response(value)`` answers, with ``status`` (Flask's DefaultJSONProvider: compact out of
        debug mode, its default, ensure_ascii and sort_keys), by one encoder made once for those settings: json.dumps
        makes a JSONEncoder of them on every call, and the provider's response gets there in five calls. Any other
        provider, or an indented answer, is the provider's own."""
        provider = self.json
        if provider.__class__ is not DefaultJSONProvider or provider.compact is False or (provider.compact is None and self.debug):
            response = provider.response(value)
            response.status = status
            return response
        settings = (provider.default, provider.ensure_ascii, provider.sort_keys)
        kept = self._json_encoder
        if kept is None or kept[0] != settings:
            kept = self._json_encoder = (settings, json.JSONEncoder(
                default=provider.default, ensure_ascii=provider.ensure_ascii, sort_keys=provider.sort_keys, separators=(",", ":")))
        return self.response_class(f"{kept[1].encode(value)}\n", status=status, mimetype=provider.mimetype)

    def create_url_adapter(self, request: Any) -> MapAdapter | None:
        """Flask's adapter for a request: the request's host and the adapter's server name, subdomain and scheme are
        worked out once per kind of address the requests come to (the same few, whatever the path: werkzeug validates
        the host twice and encodes it by IDNA, about 50 calls), the path, query and method read per request as
        ``Map.bind_to_environ`` reads them. Trusted hosts, host or subdomain matching, or another Map take Flask's way."""
        if (request is None or self.config["TRUSTED_HOSTS"] is not None or request.trusted_hosts is not None
                or self.url_map.host_matching or self.subdomain_matching or type(self.url_map) is not Map):
            return super().create_url_adapter(request)
        env = request.environ
        key = (env["wsgi.url_scheme"], env.get("HTTP_HOST"), env.get("SERVER_NAME"), env.get("SERVER_PORT"),
               env.get("HTTP_CONNECTION"), env.get("HTTP_UPGRADE"), self.config["SERVER_NAME"], self.url_map.default_subdomain)
        known = self._bound.get(key)
        if known is None:
            adapter = super().create_url_adapter(request)  # (a host werkzeug refuses raises here, and is not kept)
            if len(self._bound) >= KEPT_AT_MOST:
                self._bound.clear()
            self._bound[key] = (request.host, adapter.server_name, adapter.subdomain, adapter.url_scheme)  # type: ignore[union-attr]
            return adapter
        host, server_name, subdomain, scheme = known
        request.host = host
        script_name, path_info, query = env.get("SCRIPT_NAME"), env.get("PATH_INFO"), env.get("QUERY_STRING")
        return MapAdapter(
            self.url_map, server_name, "/" if script_name is None else _wsgi_decoding_dance(script_name), subdomain, scheme,
            "/" if path_info is None else _wsgi_decoding_dance(path_info), env["REQUEST_METHOD"],
            None if query is None else _wsgi_decoding_dance(query))

    def ensure_sync(self, func: Callable[..., Any]) -> Callable[..., Any]:
        if func in self._plain_functions:
            return func
        key = getattr(func, "__func__", func)
        plain = self._plain.get(key)
        if plain is None:
            if len(self._plain) >= KEPT_AT_MOST:
                self._plain.clear()
                self._plain_functions.clear()
            plain = self._plain[key] = not iscoroutinefunction(func)
        if plain and key is func:
            self._plain_functions.add(func)
        return func if plain else super().ensure_sync(func)

    def add_url_rule(self, rule: str, endpoint: str | None = None, view_func: Any = None, *args: Any, **options: Any) -> None:
        """A MethodView's view function as Flask makes it (``as_view``) is registered as ``method_view``'s instead."""
        super().add_url_rule(rule, endpoint, method_view(view_func) if view_func is not None else None, *args, **options)

    def preprocess_request(self) -> Any:
        req = _cv_request.get().request
        names = (None, *reversed(req.blueprints))
        for name in names:
            if name in self.url_value_preprocessors:
                for url_func in self.url_value_preprocessors[name]:
                    url_func(req.endpoint, req.view_args)
        for name in names:
            if name in self.before_request_funcs:
                for before_func in self.before_request_funcs[name]:
                    rv = self.ensure_sync(before_func)()
                    if rv is not None:
                        return rv
        return None

    def dispatch_request(self) -> Any:
        req = _cv_request.get().request
        if req.routing_exception is not None:
            self.raise_routing_exception(req)
        rule = req.url_rule
        if getattr(rule, "provide_automatic_options", False) and req.method == "OPTIONS":
            return self.make_default_options_response()
        return self.ensure_sync(self.view_functions[rule.endpoint])(**req.view_args)  # type: ignore[union-attr]

    def process_response(self, response: Any) -> Any:
        ctx = _cv_request.get()
        for func in ctx._after_request_functions:
            response = self.ensure_sync(func)(response)
        for name in chain(ctx.request.blueprints, (None,)):
            if name in self.after_request_funcs:
                for func in reversed(self.after_request_funcs[name]):
                    response = self.ensure_sync(func)(response)
        if not self.session_interface.is_null_session(ctx._session):
            self.session_interface.save_session(self, ctx._session, response)
        return response

    def do_teardown_request(self, exc: BaseException | None = _sentinel) -> None:  # type: ignore[assignment]
        """Flask's; the request is read from its context variable, still set while the context pops."""
        if exc is _sentinel:
            exc = sys.exc_info()[1]
        for name in chain(_cv_request.get().request.blueprints, (None,)):
            if name in self.teardown_request_funcs:
                for func in reversed(self.teardown_request_funcs[name]):
                    self.ensure_sync(func)(exc)
        request_tearing_down.send(self, _async_wrapper=self.ensure_sync, exc=exc)


# The code of the view function View.as_view makes for a class instantiated on every request.
_AS_VIEW_CODE = next(const for const in View.as_view.__func__.__code__.co_consts  # type: ignore[attr-defined]
                     if getattr(const, "co_name", None) == "view" and "class_args" in const.co_freevars)


def method_view(view_func: Any) -> Any:
    """For the view function Flask's ``MethodView.as_view`` made (a new instance per request, no arguments, no
    decorators, MethodView's own ``dispatch_request``), a function doing the same: an instance of ``view_class``, its
    method for the request's (HEAD falls back to get), called through the application's ``ensure_sync``. Any other
    view function is returned as it is."""
    view_class = getattr(view_func, "view_class", None)
    if (view_class is None or getattr(view_func, "__code__", None) is not _AS_VIEW_CODE or not issubclass(view_class, MethodView)
            or view_class.dispatch_request is not MethodView.dispatch_request or view_class.decorators):
        return view_func
    made = dict(zip(view_func.__code__.co_freevars, (cell.cell_contents for cell in view_func.__closure__)))
    if made.get("class_args") != () or made.get("class_kwargs") != {}:
        return view_func

    def view(**kwargs: Any) -> Any:
        self = view.view_class()  # type: ignore[attr-defined]
        method = _cv_request.get().request.method
        meth = getattr(self, method.lower(), None)
        if meth is None and method == "HEAD":
            meth = getattr(self, "get", None)
        assert meth is not None, f"Unimplemented method {method!r}"
        return _cv_app.get().app.ensure_sync(meth)(**kwargs)

    view.__dict__.update(view_func.__dict__)  # view_class, methods, provide_automatic_options
    view.__name__, view.__qualname__, view.__doc__, view.__module__ = (
        view_func.__name__, view_func.__qualname__, view_func.__doc__, view_func.__module__)
    return view
