"""Loading rules data: validated when loaded, content-hashed, lost facts explicit.

Every entity in a ruleset document (the document itself, and each item of its
entity lists) carries ``unknowns``: a map from dotted field paths to the reason
the fact is missing. Every ``null`` in an entity must be explained there, and
every explained path must be ``null``. That is how the data says "the rulebook
lost this" instead of inventing a value.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

ENTITY_LISTS = ("dice", "decks", "characters", "quests", "conditions")


class RulesDataError(ValueError):
    """The rules data breaks the format; raised at load time, never at play time."""


def canonical_json(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def content_hash(value: Any) -> str:
    return "sha256:" + hashlib.sha256(canonical_json(value)).hexdigest()


def load(path: Path) -> dict[str, Any]:
    with path.open(encoding="utf-8") as f:
        data = json.load(f)
    validate(data, str(path))
    return data


def validate(data: Mapping[str, Any], where: str) -> None:
    for key in ("id", "name", "version"):
        if not isinstance(data.get(key), str) or not data[key]:
            raise RulesDataError(f"{where}: '{key}' must be a non-empty string")
    _check_unknowns(data, f"{where}", skip=ENTITY_LISTS)
    for list_name in ENTITY_LISTS:
        entities = data.get(list_name, [])
        if not isinstance(entities, list):
            raise RulesDataError(f"{where}: '{list_name}' must be a list")
        seen: set[str] = set()
        for entity in entities:
            entity_id = entity.get("id")
            if not isinstance(entity_id, str) or not entity_id:
                raise RulesDataError(f"{where}: an item of '{list_name}' has no id")
            if entity_id in seen:
                raise RulesDataError(f"{where}: duplicate id '{entity_id}' in '{list_name}'")
            seen.add(entity_id)
            _check_unknowns(entity, f"{where}: {list_name}/{entity_id}")
    for die in data.get("dice", []):
        _check_die(die, where)
    for deck in data.get("decks", []):
        _check_deck(deck, where)


def _null_paths(value: Any, prefix: str, skip: tuple[str, ...]) -> Iterator[str]:
    if value is None:
        yield prefix
    elif isinstance(value, dict):
        for key, item in value.items():
            if prefix == "" and key in skip + ("unknowns",):
                continue
            yield from _null_paths(item, f"{prefix}.{key}" if prefix else key, skip)
    # Lists are values in their own right: items inside lists that need
    # reasons are entities with their own ``unknowns``.


def _check_unknowns(entity: Mapping[str, Any], where: str, skip: tuple[str, ...] = ()) -> None:
    unknowns = entity.get("unknowns")
    if not isinstance(unknowns, dict):
        raise RulesDataError(f"{where}: 'unknowns' must be an object (use {{}} when nothing is unknown)")
    nulls = set(_null_paths(entity, "", skip))
    unexplained = nulls - set(unknowns)
    if unexplained:
        raise RulesDataError(f"{where}: null without a reason in 'unknowns': {sorted(unexplained)}")
    stale = set(unknowns) - nulls
    if stale:
        raise RulesDataError(f"{where}: 'unknowns' names fields that are not null: {sorted(stale)}")
    for path, reason in unknowns.items():
        if not isinstance(reason, str) or not reason.strip():
            raise RulesDataError(f"{where}: the reason for '{path}' must be a sentence")


def _check_die(die: Mapping[str, Any], where: str) -> None:
    results = die.get("results")
    if not isinstance(results, list) or not results:
        raise RulesDataError(f"{where}: die '{die['id']}' must list its possible results")
    faces = die.get("faces")
    if faces is not None:
        if die.get("sides") is not None and len(faces) != die["sides"]:
            raise RulesDataError(f"{where}: die '{die['id']}' has {len(faces)} faces but {die['sides']} sides")
        if any(face not in results for face in faces):
            raise RulesDataError(f"{where}: die '{die['id']}' shows a face that is not one of its results")


def _check_deck(deck: Mapping[str, Any], where: str) -> None:
    cards = deck.get("cards")
    if cards is not None and deck.get("size") is not None and len(cards) != deck["size"]:
        raise RulesDataError(f"{where}: deck '{deck['id']}' lists {len(cards)} cards but its size is {deck['size']}")
