"""api/flask_app.py: Flask's request path read through its context variables instead of its proxies. Each method
there is Flask 3.1's step for step; these tests hold it to what Flask itself does, on the same app, and to the
source it was copied from (a Flask release that changes any of them fails here until it is read again)."""

from __future__ import annotations

import hashlib
import inspect

import pytest
from flask import Blueprint, Flask, after_this_request, g, request
from flask.testing import FlaskClient
from flask.views import MethodView, View
from werkzeug.datastructures import headers as werkzeug_headers
from werkzeug.routing import Map, MapAdapter
from werkzeug.wrappers import Response as WerkzeugResponse

from api import flask_app
from api.flask_app import TrackerFlask

# Flask's (and werkzeug's) methods api/flask_app.py follows, by the SHA-256 of their source as it was read (Flask 3.1.3,
# werkzeug 3.1.9).
COPIED_FROM = {
    "Flask.preprocess_request": (Flask.preprocess_request, "74a4cb2d"),
    "Flask.dispatch_request": (Flask.dispatch_request, "62c7e9d1"),
    "Flask.process_response": (Flask.process_response, "8f4afb5f"),
    "Flask.do_teardown_request": (Flask.do_teardown_request, "8c253136"),
    "Request.max_content_length": (flask_app.Request.max_content_length.fget, "9a5760c2"),
    "View.as_view": (View.as_view, "570d54ed"),
    "MethodView.dispatch_request": (MethodView.dispatch_request, "5b2dd911"),
    "Flask.create_url_adapter": (Flask.create_url_adapter, "066133a7"),
    "Map.bind_to_environ": (Map.bind_to_environ, "9f9d25ed"),  # werkzeug's, which Flask's create_url_adapter calls
    "Map.bind": (Map.bind, "fa3b9d53"),
    "MapAdapter.__init__": (MapAdapter.__init__, "dcfc8d1d"),
    "Response.get_wsgi_headers": (WerkzeugResponse.get_wsgi_headers, "c602160e"),
    "Response.get_app_iter": (WerkzeugResponse.get_app_iter, "e5cf208d"),
    "Response.close": (WerkzeugResponse.close, "7e7028b5"),
    "headers._str_header_value": (werkzeug_headers._str_header_value, "9879e136"),  # each value a str once set
}


@pytest.mark.parametrize("name", sorted(COPIED_FROM))
def test_the_flask_methods_followed_are_those_read(name):
    method, digest = COPIED_FROM[name]
    assert hashlib.sha256(inspect.getsource(method).encode()).hexdigest()[:8] == digest, (
        f"Flask's {name} changed: read it again and follow it in api/flask_app.py")


def _app(kind: type[Flask], seen: list[str]) -> Flask:
    """An app with a hook of every kind Flask runs, app-wide and on a blueprint, each saying it ran."""
    app = kind(__name__)
    app.config["MAX_CONTENT_LENGTH"] = 64
    part = Blueprint("part", __name__, url_prefix="/part")

    @app.url_value_preprocessor
    def _values(endpoint, values):
        seen.append(f"values {endpoint} {sorted(values or {})}")

    @part.url_value_preprocessor
    def _part_values(endpoint, values):
        seen.append(f"part values {endpoint}")

    for where, target in (("app", app), ("part", part)):
        def before(where=where):
            seen.append(f"before {where}")
            if request.args.get("answer") == where:
                return f"answered by {where}"
            return None

        def after(response, where=where):
            seen.append(f"after {where} {response.status_code}")
            response.headers[f"X-{where}"] = "1"
            return response

        def teardown(error, where=where):
            seen.append(f"teardown {where} {type(error).__name__}")

        target.before_request(before)
        target.after_request(after)
        target.teardown_request(teardown)

    class Thing(MethodView):
        def get(self, thing_id):
            seen.append(f"get {thing_id} {request.max_content_length}")

            @after_this_request
            def _once(response):
                seen.append("after this request")
                return response

            return {"id": thing_id}

        def post(self, thing_id):
            g.thing = thing_id
            seen.append(f"post {len(request.get_data())}")
            return {"posted": thing_id}, 201

        def delete(self, thing_id):
            raise RuntimeError("no")

    part.add_url_rule("/<thing_id>", view_func=Thing.as_view("thing"))

    @app.get("/plain")
    def plain():
        return "plain"

    app.register_blueprint(part)

    @app.errorhandler(RuntimeError)
    def _failed(error):
        seen.append("handled")
        return "failed", 500

    return app


REQUESTS = [
    ("GET", "/part/7", None), ("HEAD", "/part/7", None), ("POST", "/part/8", b"x" * 10), ("POST", "/part/8", b"x" * 100),
    ("DELETE", "/part/9", None), ("PUT", "/part/9", None), ("OPTIONS", "/part/9", None), ("GET", "/plain", None),
    ("GET", "/nowhere", None), ("GET", "/part/7?answer=app", None), ("GET", "/part/7?answer=part", None),
]


@pytest.mark.parametrize("method, path, body", REQUESTS)
def test_a_request_runs_the_same_hooks_in_the_same_order_with_the_same_answer_as_on_flask(method, path, body):
    answers = {}
    for kind in (Flask, TrackerFlask):
        seen: list[str] = []
        app = _app(kind, seen)
        # Flask's own client: these apps have no OpenAPI document for the suite's contract client to check against
        answer = FlaskClient(app, app.response_class).open(path, method=method, data=body)
        answers[kind] = (seen, answer.status_code, sorted(answer.headers.items()), answer.get_data())
    assert answers[TrackerFlask] == answers[Flask]


def test_a_method_views_function_is_flasks_own_made_again_and_any_other_is_kept():
    app = _app(TrackerFlask, [])
    view = app.view_functions["part.thing"]
    assert view.__code__ is not flask_app._AS_VIEW_CODE  # made again
    made = _app(Flask, []).view_functions["part.thing"]
    assert view.__code__ is not made.__code__ and made.__code__ is flask_app._AS_VIEW_CODE
    assert (view.view_class.__qualname__, view.methods, view.provide_automatic_options, view.__name__, view.__doc__) == (
        made.view_class.__qualname__, made.methods, made.provide_automatic_options, made.__name__, made.__doc__)

    class Once(MethodView):
        init_every_request = False

        def get(self):
            return "once"

    class Decorated(MethodView):
        decorators = [lambda view: view]

        def get(self):
            return "decorated"

    class Own(MethodView):
        def dispatch_request(self, **kwargs):
            return "own"

    for kept in (Once.as_view("once"), Decorated.as_view("decorated"), Own.as_view("own"), MethodView.as_view("args", 1)):
        assert flask_app.method_view(kept) is kept
    assert flask_app.method_view(app.view_functions["plain"]) is app.view_functions["plain"]


def test_every_route_of_the_service_made_by_a_method_view_dispatches_through_method_view(app):
    made_again = [endpoint for endpoint, view in app.view_functions.items() if hasattr(view, "view_class")]
    assert made_again  # the API's resources are MethodViews
    for endpoint in made_again:
        assert app.view_functions[endpoint].__code__ is not flask_app._AS_VIEW_CODE, endpoint


ADDRESSES = [
    {"HTTP_HOST": "127.0.0.1:8000"},
    {"HTTP_HOST": "Tracker.Example:443", "wsgi.url_scheme": "https"},
    {"HTTP_HOST": "tracker.example:80"},
    {"HTTP_HOST": "bücher.example"},  # IDNA-encoded for the adapter
    {"HTTP_HOST": "bad host\n"},  # invalid: werkzeug reads it as no host
    {},  # no Host header: the server's own name and port
    {"HTTP_HOST": "tracker.example", "HTTP_CONNECTION": "keep-alive, Upgrade", "HTTP_UPGRADE": "websocket"},
]
PLACES = [("/sessions/s1/rolls", "", "POST"), ("/caf%C3%A9", "a=1&b=%C3%A9", "GET"), ("/x", "", "HEAD")]


@pytest.mark.parametrize("address", ADDRESSES)
@pytest.mark.parametrize("server_name", [None, "tracker.example"])
def test_a_requests_url_adapter_and_host_are_flasks_the_first_time_and_every_time_after(address, server_name):
    from werkzeug.test import EnvironBuilder

    apps = {kind: kind(__name__) for kind in (Flask, TrackerFlask)}
    for app in apps.values():
        app.config["SERVER_NAME"] = server_name
    for _ in range(2):  # worked out, then known
        for path, query, method in PLACES:
            made = {}
            for kind, app in apps.items():
                environ = EnvironBuilder(path=path, query_string=query, method=method).get_environ()
                environ["SCRIPT_NAME"] = "/api"
                environ.update({"wsgi.url_scheme": "http", **address})
                if "HTTP_HOST" not in address:
                    environ.pop("HTTP_HOST", None)
                request = app.request_class(environ)
                adapter = app.create_url_adapter(request)
                made[kind] = (request.host, {name: getattr(adapter, name) for name in (
                    "server_name", "script_name", "subdomain", "url_scheme", "path_info", "default_method", "query_args",
                    "websocket")})
            assert made[TrackerFlask] == made[Flask]
    assert apps[TrackerFlask]._bound  # the second round was answered from what the first worked out


def test_trusted_hosts_and_subdomain_matching_take_flasks_way():
    app = TrackerFlask(__name__, subdomain_matching=True)
    app.config["SERVER_NAME"] = "tracker.example"
    with app.test_request_context("/", base_url="http://a.tracker.example"):
        assert not app._bound
    trusting = TrackerFlask(__name__)
    trusting.config["TRUSTED_HOSTS"] = ["tracker.example"]
    from werkzeug.exceptions import SecurityError

    with pytest.raises(SecurityError):
        trusting.create_url_adapter(trusting.request_class({**_environ(), "HTTP_HOST": "evil.example"}))
    assert not trusting._bound


def _environ() -> dict:
    from werkzeug.test import EnvironBuilder

    return EnvironBuilder(path="/").get_environ()


def _answers():
    """Answers of every shape a view or an error handler makes, each made anew (a response is consumed once)."""
    from flask import Response

    def location(response):
        response.headers["Location"] = "/sessions/caf\u00e9"
        return response

    def content_location(response):
        response.headers["Content-Location"] = "/x y"
        return response

    def no_length(response):
        del response.headers["Content-Length"]
        return response

    def subclassed_headers(response):
        from werkzeug.datastructures import Headers

        class Mine(Headers):
            pass

        response.headers = Mine(response.headers)
        return response

    def closing(response):
        response.call_on_close(lambda: None)
        return response

    return {
        "json 201": lambda kind: kind('{"a":1}\n', status=201, mimetype="application/json"),
        "problem": lambda kind: kind('{"title":"t"}', status=422, mimetype="application/problem+json", headers={"Retry-After": "2"}),
        "204": lambda kind: kind(status=204),
        "304": lambda kind: kind("x", status=304, headers={"ETag": '"1"', "Content-Type": "text/plain"}),
        "101": lambda kind: kind("x", status=101),
        "location": lambda kind: location(kind("moved", status=302)),
        "content location": lambda kind: content_location(kind("here")),
        "no length": lambda kind: no_length(kind("body")),
        "other headers": lambda kind: subclassed_headers(kind("body")),
        "on close": lambda kind: closing(kind("body")),
        "generated": lambda kind: kind((part for part in (b"a", b"b"))),
        "text parts": lambda kind: kind(["a", "b"]),
        "passthrough": lambda kind: kind([b"raw"], direct_passthrough=True),
        "Response": lambda kind: Response("plain"),
    }


@pytest.mark.parametrize("shape", sorted(_answers()))
@pytest.mark.parametrize("method", ["GET", "HEAD", "POST"])
def test_an_answer_goes_to_the_server_as_werkzeug_sends_it(shape, method):
    from flask import Response
    from werkzeug.test import EnvironBuilder

    sent = {}
    for kind in (Response, flask_app.TrackerResponse):
        environ = EnvironBuilder(path="/sessions/s1/rolls", method=method, base_url="http://tracker.example/api").get_environ()
        answer = _answers()[shape](kind)
        closed = []
        answer.call_on_close(lambda: closed.append(True)) if shape == "on close" else None
        app_iter, status, headers = answer.get_wsgi_response(environ)
        body = b"".join(app_iter)
        getattr(app_iter, "close", lambda: None)()
        sent[kind] = (status, headers, body, closed)
    assert sent[flask_app.TrackerResponse] == sent[Response]


def test_a_json_answer_takes_the_short_way_to_the_server():
    from werkzeug.test import EnvironBuilder

    answer = flask_app.TrackerResponse('{"a":1}\n', status=201, mimetype="application/json")
    environ = EnvironBuilder(path="/", method="POST").get_environ()
    assert answer.get_app_iter(environ) == (b'{"a":1}\n',)
    copied = answer.get_wsgi_headers(environ)
    assert copied is not answer.headers and copied._list == answer.headers._list and copied._list is not answer.headers._list


JSON_VALUES = [
    {"log_position": 110, "results": {"d6": [3, 2]}, "source": "digital"},
    {"b": 1, "a": "caf\u00e9 \u2603", "when": __import__("datetime").date(2026, 12, 7), "id": __import__("uuid").UUID(int=7)},
    [1, 2.5, None, True, "x"],
    "text",
    None,
]


@pytest.mark.parametrize("value", JSON_VALUES)
@pytest.mark.parametrize("settings", [{}, {"sort_keys": False}, {"ensure_ascii": False}, {"compact": False}, {"debug": True}])
@pytest.mark.parametrize("status", [201, 200, "202 ACCEPTED"])
def test_a_json_answer_is_the_providers_response_byte_for_byte(value, settings, status):
    app = TrackerFlask(__name__)
    app.debug = settings.get("debug", False)
    for name in ("sort_keys", "ensure_ascii", "compact"):
        if name in settings:
            setattr(app.json, name, settings[name])
    with app.app_context():
        for _ in range(2):  # the encoder made, then kept
            answer = app.json_answer(value, status)
            expected = app.json.response(value)
            expected.status = status
            assert (answer.status, answer.headers.to_wsgi_list(), answer.get_data()) == (
                expected.status, expected.headers.to_wsgi_list(), expected.get_data())
    app.json.sort_keys = not app.json.sort_keys  # a setting changed after: a new encoder
    with app.app_context():
        assert app.json_answer({"b": 1, "a": 2}, 200).get_data() == app.json.response({"b": 1, "a": 2}).get_data()
