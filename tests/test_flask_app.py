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
from werkzeug.routing import Map, MapAdapter

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
