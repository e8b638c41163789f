"""jsonschema.validate for the tests that check many bodies against a few published schemas.

jsonschema.validate checks the schema itself against its metaschema on every call (half of a group-play test's
time): here each schema is checked and compiled once, then used for every instance, with the same verdicts.
"""

from __future__ import annotations

from typing import Any

from jsonschema.validators import validator_for

_compiled: dict[int, tuple[Any, Any]] = {}  # id of a schema -> (the schema, kept so its id is not reused; its validator)


def validate(instance: Any, schema: Any) -> None:
    """Raise jsonschema.ValidationError (or SchemaError, for a schema that is not one) as jsonschema.validate does."""
    found = _compiled.get(id(schema))
    if found is None or found[0] is not schema:
        kind = validator_for(schema)
        kind.check_schema(schema)
        found = _compiled[id(schema)] = (schema, kind(schema))
    found[1].validate(instance)
