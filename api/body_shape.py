"""Whether a request body is one its argument schema would load unchanged, checked without marshmallow's machinery.

marshmallow's load of a roll's ``{"dice": {"d6": 2}}`` is about 90 Python calls (the schema's error store, each field's
deserialize, is_collection's generator checks), some 8% of a roll request's CPU in the process, to give back a dict
equal to what was sent. For a schema whose fields are all of the kinds below, ``plan`` gives a function that checks a
decoded body against what each field's load would do, runs every validator the schema and its fields declare (the
same callables marshmallow runs), and returns what the load would return; None as soon as anything would not load as
it is (a value of another type, a validator that refuses, a field missing, a key the schema does not know), so the
caller loads it with marshmallow, whose refusal and messages are unchanged. A schema with any other kind of field, a
renamed field, a default, a load hook or a field's own pre/post-load function gets no plan (False).

What each kind's load does to a value, read from marshmallow's fields (4.x), and so what passes as it is:
- String: a str is itself (bytes would be decoded: not passed).
- Integer: ``int(value)`` of an int that is not a bool (a bool is refused): an int is itself.
- Raw: the value as it is.
- List(inner): a new list of the inner field's loads (a tuple would become a list: not passed).
- Dict(keys=String or none, values=one of these or none): a new dict of the loads, in the order sent.
None is passed by no kind (a field that allows none loads it; one that does not refuses it): marshmallow decides.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from marshmallow import Schema, ValidationError, fields, missing
from marshmallow.validate import Validator

Load = Callable[[Any], Any]  # the loaded value, or NOT_AS_SENT
NOT_AS_SENT = object()


def _valid(field: Any, value: Any) -> bool:
    """The field's validators, run as marshmallow runs them (a plain function refuses by raising or returning False)."""
    for validator in field.validators:
        try:
            if validator(value) is False and not isinstance(validator, Validator):
                return False
        except ValidationError:
            return False
    return True


def _load(field: Any) -> Load | None:
    """How ``field`` loads a value that passes as sent; None where this module cannot say."""
    if field.pre_load or field.post_load or field.load_default is not missing or field.data_key is not None or field.attribute is not None:
        return None
    kind = field.__class__
    checked: Load
    if kind is fields.Raw:
        checked = lambda value: value  # noqa: E731
    elif kind is fields.String:
        checked = lambda value: value if value.__class__ is str else NOT_AS_SENT  # noqa: E731
    elif kind is fields.Integer:
        checked = lambda value: value if value.__class__ is int else NOT_AS_SENT  # noqa: E731  (a bool's class is bool)
    elif kind is fields.List:
        inner = _load(field.inner)
        if inner is None:
            return None

        def checked(value: Any) -> Any:
            if value.__class__ is not list:
                return NOT_AS_SENT
            loaded = [inner(item) for item in value]
            return NOT_AS_SENT if NOT_AS_SENT in loaded else loaded
    elif kind is fields.Dict:
        keys = None if field.key_field is None else _load(field.key_field)
        values = None if field.value_field is None else _load(field.value_field)
        if (field.key_field is not None and (keys is None or field.key_field.__class__ is not fields.String)) or (
                field.value_field is not None and values is None):
            return None

        def checked(value: Any) -> Any:
            if value.__class__ is not dict:
                return NOT_AS_SENT
            loaded = {}
            for key, item in value.items():
                key = key if keys is None else keys(key)
                item = item if values is None else values(item)
                if key is NOT_AS_SENT or item is NOT_AS_SENT:
                    return NOT_AS_SENT
                loaded[key] = item
            return loaded
    else:
        return None

    if not field.validators:
        return lambda value: NOT_AS_SENT if value is None else checked(value)

    def validated(value: Any) -> Any:
        if value is None:
            return NOT_AS_SENT
        loaded = checked(value)
        return loaded if loaded is NOT_AS_SENT or _valid(field, loaded) else NOT_AS_SENT

    return validated


def plan(schema: Any) -> Callable[[Any, Any], dict | None] | bool:
    """For ``schema`` (an instance), a function loading a decoded body as ``schema.load(body, unknown=...)`` would,
    or None where it cannot tell; False when the schema has a field or a hook this module does not know."""
    hooks = schema._hooks
    if hooks.get("pre_load") or hooks.get("post_load") or hooks.get("validates") or type(schema).load is not Schema.load:
        return False
    schema_checks = []
    for name, many, options in hooks.get("validates_schema", ()):
        if many or options.get("pass_original"):
            return False
        schema_checks.append(name)
    loads: list[tuple[str, Load, bool]] = []
    for name, field in schema.load_fields.items():
        load = _load(field)
        if load is None:
            return False
        loads.append((name, load, bool(field.required)))
    known = frozenset(name for name, _, _ in loads)

    def as_sent(body: Any, unknown: Any) -> dict | None:
        if body.__class__ is not dict or not known.issuperset(body):
            return None
        loaded = {}
        for name, load, required in loads:
            if name in body:
                value = load(body[name])
                if value is NOT_AS_SENT:
                    return None
                loaded[name] = value
            elif required:
                return None
        for name in schema_checks:
            try:
                getattr(schema, name)(loaded, partial=None, many=False, unknown=unknown)
            except ValidationError:
                return None
        return loaded

    return as_sent
