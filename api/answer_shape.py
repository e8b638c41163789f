"""Whether an answer the application built is already what its schema's dump would make of it.

marshmallow's dump calls a few Python functions per field (serialize, get_value, the field's _serialize) and builds
every container again: about 90 calls of a warm roll request's 1,800 for an answer that comes out equal to what went
in. For a schema whose fields are all of the kinds below, ``plan`` gives a function that checks a built answer, value
by value, against what each field's dump would do, and returns it (in the declared field order, as dump does) when
dumping would change nothing; None where it would (a value of another type, a field the schema does not declare), so
the caller dumps it with marshmallow as before. A schema with any other kind of field, a field renamed on the way out
(data_key, attribute), a default filled in on the way out or a dump hook of its own gets no plan (False).

What each kind's dump does to a value, read from marshmallow's fields (4.x), and so what is passed as built:
- String: ``str(value)``; a str is itself.
- Integer (not as_string): ``int(value)``; an int, not a bool (``int(True)`` is 1, which JSON writes otherwise).
- Boolean: True or False from a truthy or falsy value; a bool is itself.
- Raw: the value as it is.
- List(inner): a new list of the inner field's dumps; a list whose items each pass the inner field as built.
- Dict(keys=String or none, values=one of these or none): a new dict of the dumps; a dict whose keys are str and
  whose values pass.
None is None for every kind (``value is None: return None``), whatever allow_none says (that is for loading).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from marshmallow import Schema, fields, missing

Check = Callable[[Any], bool]


SCALARS = {fields.String: str, fields.Integer: int, fields.Boolean: bool}  # what each dumps a value to, as its type


def _as_is(value: Any) -> bool:
    return True


def _of_type(kind: type) -> Check:
    return lambda value: value is None or value.__class__ is kind


def _check(field: Any) -> Check | None:
    """What a value must be for ``field``'s dump to leave it as it is; None where this module cannot say."""
    kind = field.__class__
    if kind is fields.Raw:
        return _as_is
    if kind is fields.String:
        return _of_type(str)
    if kind is fields.Integer and not field.as_string:
        return _of_type(int)
    if kind is fields.Boolean:
        return _of_type(bool)
    if kind is fields.List:
        inner = _check(field.inner)
        if inner is None:
            return None
        if inner is _as_is:
            return lambda value: value is None or value.__class__ is list
        return lambda value: value is None or (value.__class__ is list and all(inner(item) for item in value))
    if kind is fields.Dict:
        if field.key_field is not None and field.key_field.__class__ is not fields.String:
            return None
        values = _as_is if field.value_field is None else _check(field.value_field)
        if values is None:
            return None
        return lambda value: value is None or (value.__class__ is dict and all(
            key.__class__ is str and values(item) for key, item in value.items()))
    return None


def plan(schema: Any, own_hooks: Iterable[str]) -> Callable[[dict], dict | None] | bool:
    """For ``schema`` (an instance), a function answering a built dict as its dump would, or None where it cannot
    tell; False when the schema has a field or a hook this module does not know (``own_hooks``: the dump hooks the
    caller runs itself, or knows to change nothing for an answer of declared fields only)."""
    hooks = schema._hooks
    if hooks.get("pre_dump") or any(name not in own_hooks for name, *_ in hooks.get("post_dump", ())):
        return False
    if type(schema).get_attribute is not Schema.get_attribute:  # values read as marshmallow's Schema reads them
        return False
    checks: list[tuple[str, Check]] = []
    for name, field in schema.dump_fields.items():
        check = _check(field)
        if (check is None or field.data_key is not None or field.attribute is not None or "." in name
                or field.dump_default is not missing):
            return False
        checks.append((name, check))
    declared = frozenset(name for name, _ in checks)
    # A field of one type is checked in place (no call a value); the containers by their check.
    typed = tuple((name, SCALARS[field.__class__]) for name, field in schema.dump_fields.items() if field.__class__ in SCALARS
                  and not (field.__class__ is fields.Integer and field.as_string))
    checked = tuple((name, check) for name, check in checks if check is not _as_is and name not in dict(typed))
    order = tuple(name for name, _ in checks)

    def as_built(answer: dict) -> dict | None:
        if not declared.issuperset(answer):
            return None  # an undeclared field: the schema's own hook says what happens to it
        for name, kind in typed:
            value = answer.get(name)
            if value is not None and value.__class__ is not kind:
                return None
        for name, check in checked:
            if name in answer and not check(answer[name]):
                return None
        return {name: answer[name] for name in order if name in answer}

    return as_built
