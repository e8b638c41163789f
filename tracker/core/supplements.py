"""Component data supplied after a campaign was created, merged into what the campaign already knows.

Below both the domain (a campaign folds ComponentsSupplied with it) and the rulesets (which validate
the document against their component schema, tracker/rulesets/engine/components.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tracker.core.errors import Unprocessable


def supplement(known: Mapping[str, Any], supplied: Mapping[str, Any]) -> dict[str, Any]:
    """The campaign's component data with ``supplied`` added: facts still unknown only.

    Objects merge key by key (another die, deck, character, stat, table entry); any value the
    campaign holds already (a die's faces, a deck's card list, a stat) is refused, all at once.
    """
    known_paths: list[str] = []
    merged = _merge(known, supplied, "components", known_paths)
    if known_paths:
        raise Unprocessable(
            "Some of these facts were supplied already",
            detail=f"Component data is pinned once supplied, so replays stay exact; send only facts still unknown. Known: {', '.join(known_paths)}.",
            errors={path: ["Supplied already."] for path in known_paths},
        )
    return merged


def _merge(known: Mapping[str, Any], supplied: Mapping[str, Any], path: str, known_paths: list[str]) -> dict[str, Any]:
    merged = dict(known)
    for key, value in supplied.items():
        where = f"{path}.{key}"
        if key not in known:
            merged[key] = value
        elif isinstance(value, Mapping) and isinstance(known[key], Mapping):
            merged[key] = _merge(known[key], value, where, known_paths)
        else:
            known_paths.append(where)
    return merged
