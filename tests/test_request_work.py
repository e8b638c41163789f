"""Work a request no longer repeats (issue 35): each check still refuses what it refused, and skips the walk or the
look-up that could find nothing. Counted in calls, never in time."""

from __future__ import annotations

import json

import pytest

from api import access, metrics
from tracker.core import safe_json


@pytest.fixture
def database_url(sqlite_url: str) -> str:
    return sqlite_url  # what is counted here is the same on both backends


def _no_walk(*args, **kwargs):
    raise AssertionError("walked a document that cannot hold what the walk looks for")


def test_a_body_without_an_escape_or_a_raw_surrogate_is_not_walked_string_by_string(monkeypatch):
    monkeypatch.setattr(safe_json, "text_problem", _no_walk)
    assert safe_json.loads(b'{"dice": {"d6": 2}, "purpose": "Attack the demon"}') == {
        "dice": {"d6": 2}, "purpose": "Attack the demon"}


@pytest.mark.parametrize("raw, title", [
    (b'{"purpose": "a\\u0000b"}', "NUL"),
    (b'{"purpose": "a\\uD800b"}', "surrogate"),
    (b'{"purpose": "a\\udc00b"}', "surrogate"),
    ('{"purpose": "a\ud800b"}'.encode("utf-8", "surrogatepass"), "surrogate"),  # written raw, not escaped
    (json.dumps({"p\u0000": 1}).encode("utf-16"), "NUL"),  # json.loads reads UTF-16 too
])
def test_a_body_that_may_hold_unstorable_text_is_still_walked_and_refused(raw, title):
    with pytest.raises(safe_json.UnsafeJson, match=title):
        safe_json.loads(raw)


def test_the_shape_check_skips_a_body_with_fewer_commas_than_an_overlong_array_needs(client, session_id, monkeypatch):
    monkeypatch.setattr(access, "_shape_problem", _no_walk)
    answer = client.post(f"/sessions/{session_id}/rolls", json={"dice": {"d6": 2}})
    assert answer.status_code == 201, answer.json


def test_an_overlong_array_is_still_refused_by_the_shape_check(client, session_id):
    answer = client.post(f"/sessions/{session_id}/rolls", json={"faces": {"d6": [1] * (access.MAX_ARRAY + 1)}})
    assert answer.status_code == 422
    assert answer.json["title"] == f"An array holds {access.MAX_ARRAY + 1} items; at most {access.MAX_ARRAY} are accepted"


def test_the_metrics_find_each_kind_of_answers_series_once_and_count_every_answer(client, session_id, monkeypatch):
    found = metrics.instruments()
    made: list[tuple[str, ...]] = []
    for name in ("requests", "latency", "commands"):
        labels = getattr(found, name).labels
        monkeypatch.setattr(getattr(found, name), "labels", lambda *values, _labels=labels, _name=name: (
            made.append((_name, *values)), _labels(*values))[1])
    route = "/sessions/<session_id>/rolls"
    before = found.requests.labels(route, "POST", "201")._value.get()
    accepted = found.commands.labels("rollDice", "accepted")._value.get()
    made.clear()
    for _ in range(3):
        assert client.post(f"/sessions/{session_id}/rolls", json={"dice": {"d6": 1}}).status_code == 201
    assert len(made) <= 3  # each of the three series at most once (none where an earlier test found it already)
    assert found.requests.labels(route, "POST", "201")._value.get() == before + 3
    assert found.commands.labels("rollDice", "accepted")._value.get() == accepted + 3


def test_a_warm_roll_request_makes_fewer_python_calls_than_before_issue_35(app, client, session_id):
    """Counted, not timed: the median over warm requests of the Python calls (built-ins included) the application
    makes for one roll, on SQLite (bench/calls.py counts the same). Before issue 35's changes a roll made 1,996;
    1,837 after its first round; 1,777 once the write path's hash and SQLite insert were trimmed; with the HTTP
    layer's second round (answers passed as built, bodies taken as sent, no proxy per use, no ensure_sync per
    documentation wrapper) 1,383; with its third (one hook before the view and one after, headers read from the
    environ, the answer built and the body handed over without the frameworks' wrappers) 1,285; with its fourth
    (Flask's own request path reading its context variables instead of its proxies, the URL adapter's host worked out
    once per address, the answer handed to the server and encoded without werkzeug's copies) 1,096. The bound leaves
    room for a few calls more, not for a check repeated again."""
    import cProfile
    import pstats
    import statistics

    counts: list[int] = []
    inner = app.wsgi_app

    def counted(environ, start_response):
        profile = cProfile.Profile()
        profile.enable()
        try:
            return list(inner(environ, start_response))
        finally:
            profile.disable()
            counts.append(pstats.Stats(profile).total_calls)  # type: ignore[attr-defined]

    for _ in range(20):  # warm: caches, the grant, the command cache
        assert client.post(f"/sessions/{session_id}/rolls", json={"dice": {"d6": 2}}).status_code == 201
    app.wsgi_app = counted
    try:
        for _ in range(21):
            assert client.post(f"/sessions/{session_id}/rolls", json={"dice": {"d6": 2}}).status_code == 201
    finally:
        app.wsgi_app = inner
    assert statistics.median(counts) <= 1150, counts


def test_a_commands_answer_is_copied_container_by_container_sharing_nothing(monkeypatch):
    from tracker.application import unit_of_work

    copied: list[object] = []
    inner = unit_of_work.detached
    monkeypatch.setattr(unit_of_work, "detached", lambda value: (copied.append(value), inner(value))[1])
    nested = {"c": 3}
    answer = {"a": 1, "b": [1, "two", nested, (4, 5)], "d": None}
    copy = unit_of_work.detached(answer)
    assert copy == {"a": 1, "b": [1, "two", {"c": 3}, [4, 5]], "d": None}
    assert copy is not answer and copy["b"] is not answer["b"] and copy["b"][2] is not nested
    assert len(copied) == 4  # the answer, its list, the dict and the tuple in it: no call for a number or a string


ROLL_ANSWER = {"results": {"d6": [3, 5]}, "source": "digital", "counter_start": 4, "counter_end": 6, "event_id": "e1",
               "position": 2, "version": 3, "log_position": 17}


def _marshmallow_dump(schema, answer):
    from marshmallow import Schema

    return Schema.dump(schema, answer)


def test_an_answer_built_in_its_final_shape_is_answered_as_built_equal_to_marshmallows_dump():
    from api import schemas

    schema = schemas.RollResult()
    for answer in (ROLL_ANSWER, {**ROLL_ANSWER, "counter_start": None, "log_position": None}, {"source": "reported"}):
        as_built, dumped = schema.dump(answer), _marshmallow_dump(schema, answer)
        assert as_built == dumped and list(as_built) == list(dumped)  # the same values, in the same (declared) order
        assert [type(value) for value in as_built.values()] == [type(value) for value in dumped.values()]


@pytest.mark.parametrize("changed", [
    {"version": True},  # a bool where an Integer dumps int(True) == 1
    {"position": 2.0},  # a float: Integer dumps 2
    {"event_id": 7},  # String dumps "7"
    {"results": {"d6": (3, 5)}},  # a tuple: List dumps a list
])
def test_an_answer_whose_values_a_dump_would_change_is_dumped_by_marshmallow(changed, monkeypatch):
    from api import schemas

    schema = schemas.RollResult()
    answer = {**ROLL_ANSWER, **changed}
    assert schema.dump(answer) == _marshmallow_dump(schema, answer)
    dumped: list[object] = []
    inner = schemas.Schema.dump
    monkeypatch.setattr(schemas.Schema, "dump", lambda self, obj, **kwargs: (dumped.append(obj), inner(self, obj, **kwargs))[1])
    schema.dump(answer)
    assert dumped == [answer]  # marshmallow's own dump made it


def test_an_undeclared_field_still_goes_to_the_schemas_own_check(app):
    from api import schemas

    with app.app_context(), pytest.raises(schemas.UndeclaredField, match="RollResult does not declare"):
        schemas.RollResult().dump({**ROLL_ANSWER, "seed": "secret"})


def test_a_schema_with_a_field_the_shape_check_does_not_know_gets_no_plan():
    from marshmallow import fields

    from api import answer_shape, schemas

    class WithNested(schemas.Answer):
        pin = fields.Nested(schemas.RulesetPin)

    class Renamed(schemas.Answer):
        name = fields.String(data_key="title")

    for schema in (WithNested(), Renamed()):
        assert answer_shape.plan(schema, ("_nothing_built_is_lost",)) is False
    assert Renamed().dump({"name": "x"}) == {"title": "x"}


def test_a_new_correlation_id_is_a_version_4_uuid_in_its_canonical_text():
    import uuid

    from api.context import new_correlation_id

    made = {new_correlation_id() for _ in range(2000)}
    assert len(made) == 2000
    for text in made:
        parsed = uuid.UUID(text)
        assert parsed.version == 4 and parsed.variant == uuid.RFC_4122 and str(parsed) == text


BODIES = [
    {"dice": {"d6": 2}}, {"dice": {"d6": 2, "d8": 1}, "purpose": "initiative"}, {"faces": {"d6": [3, 5]}},
    {"faces": {"d6": [3], "d8": ["x", None]}, "purpose": "table"},
    # each of these a load refuses or changes: left to marshmallow
    {}, {"dice": {"d6": True}}, {"dice": {"d6": 0}}, {"dice": {"d6": 101}}, {"dice": {"": 2}}, {"dice": {}},
    {"dice": {"d6": 2}, "faces": {"d6": [1]}}, {"dice": {"d6": 2}, "extra": 1}, {"dice": {"d6": "2"}},
    {"dice": {"d6": 2}, "purpose": None}, {"dice": {"d6": 2}, "purpose": "x" * 201}, {"faces": {"d6": []}},
    {"faces": {"d6": (1, 2)}}, {"dice": [["d6", 2]]}, {"dice": {f"d{n}": 1 for n in range(21)}},
]


@pytest.mark.parametrize("body", BODIES)
def test_a_body_taken_as_sent_is_what_marshmallows_load_gives_and_any_other_is_loaded_by_marshmallow(body):
    from marshmallow import RAISE, Schema, ValidationError

    from api import body_shape, schemas

    schema = schemas.Roll()
    taken = body_shape.plan(schema)(body, RAISE)
    try:
        loaded = Schema.load(schema, body)
    except ValidationError:
        assert taken is None
        return
    assert taken is None or (taken == loaded and list(taken) == list(loaded))
    if body in BODIES[:4]:
        assert taken is not None  # what a client sends most is taken as sent


def test_a_roll_body_taken_as_sent_skips_marshmallows_load_and_a_refused_one_still_gets_its_message(client, session_id, monkeypatch):
    from marshmallow import Schema

    loads: list[object] = []
    inner = Schema.load
    monkeypatch.setattr(Schema, "load", lambda self, data, **kwargs: (loads.append(data), inner(self, data, **kwargs))[1])
    assert client.post(f"/sessions/{session_id}/rolls", json={"dice": {"d6": 2}}).status_code == 201
    assert not [data for data in loads if data == {"dice": {"d6": 2}}]
    refused = client.post(f"/sessions/{session_id}/rolls", json={"dice": {"d6": 2}, "faces": {"d6": [1]}})
    assert refused.status_code == 422
    assert refused.json["title"] == "Field 'faces': Send dice to roll or faces rolled on the table, not both."
    assert {"dice": {"d6": 2}, "faces": {"d6": [1]}} in loads


@pytest.mark.parametrize("body", BODIES)
def test_a_body_handed_to_the_view_without_webargs_is_what_webargs_parse_hands_it(app, body):
    from werkzeug.exceptions import HTTPException

    from api import schemas
    from api.blueprint import Blueprint

    parser = Blueprint.ARGUMENTS_PARSER
    schema = schemas.Roll()
    handed_over = parser.body_as_sent(schema, {})
    with app.test_request_context("/sessions/s/rolls", method="POST", json=body):
        handed = handed_over()
        try:
            parsed = parser.parse(schema, location="json")
        except HTTPException:  # webargs refuses it: never handed over without webargs either
            assert handed is None
            return
    assert handed is None or (handed == parsed and list(handed) == list(parsed))
    if body in BODIES[:4]:
        assert handed is not None


def test_an_argument_given_what_webargs_reads_is_always_parsed_by_webargs():
    from api import schemas
    from api.blueprint import Blueprint

    parser = Blueprint.ARGUMENTS_PARSER
    assert parser.body_as_sent(schemas.Roll(), {"description": "a roll"}) is not None  # the document's alone
    for options in ({"unknown": "exclude"}, {"validate": lambda body: True}, {"location": "query"}, {"as_kwargs": True}):
        assert parser.body_as_sent(schemas.Roll(), options) is None, options


def test_a_schema_with_a_field_or_hook_the_body_check_does_not_know_gets_no_plan():
    from marshmallow import Schema, fields, pre_load

    from api import body_shape

    class Nested(Schema):
        pin = fields.Nested(Schema)

    class Hooked(Schema):
        name = fields.String()

        @pre_load
        def _strip(self, data, **kwargs):
            return data

    class Defaulted(Schema):
        count = fields.Integer(load_default=1)

    for schema in (Nested(), Hooked(), Defaulted(), type("Email", (Schema,), {"to": fields.Email()})()):
        assert body_shape.plan(schema) is False


def test_a_json_request_line_carries_what_the_request_was_read_from_the_context_variables(app, client, monkeypatch, caplog):
    """api/request_log.py reads the request and g through Flask's context variables, not its proxies: the same fields,
    for an answered write, a refusal without a token and a path no route answers."""
    import logging

    from api import request_log

    monkeypatch.setattr(request_log, "configure", lambda log_format: None)  # the root logger stays the suite's
    request_log.install(app, "json")
    caplog.set_level(logging.INFO, logger=request_log.REQUEST_LOGGER)
    campaign = client.post("/campaigns", json={"ruleset": "journey", "name": "Logged"}).json
    token = campaign["owner_token"]
    session = client.post(f"/campaigns/{campaign['id']}/sessions", json={"quest": "q1-meeting"},
                          headers={"Authorization": f"Bearer {token}"}).json["id"]
    caplog.clear()
    rolled = client.post(f"/sessions/{session}/rolls", json={"dice": {"d6": 1}},
                         headers={"Authorization": f"Bearer {token}", "X-Correlation-Id": "roll-1"})
    assert rolled.status_code == 201
    app.test_client_class = None  # Flask's own client: the 404 below is not in the document the suite's client checks
    from flask.testing import FlaskClient

    plain = FlaskClient(app, app.response_class)
    assert plain.get("/nowhere", headers={"X-Correlation-Id": "lost-1"}).status_code == 404
    lines = {record.correlation_id: record for record in caplog.records if record.name == request_log.REQUEST_LOGGER}
    roll, lost = lines["roll-1"], lines["lost-1"]
    grant = app.extensions["tracker"].authenticate(token)
    assert (roll.method, roll.route, roll.status, roll.token_id, roll.remote_addr) == (
        "POST", "/sessions/<session_id>/rolls", 201, grant.token_id, "127.0.0.1")
    assert isinstance(roll.latency_ms, float) and roll.latency_ms >= 0
    assert (lost.method, lost.route, lost.status, lost.token_id) == ("GET", "unmatched", 404, None)
