"""The archive of earlier ruleset versions, each stored once: as the difference from the version before it.

A campaign pins its ruleset's id, version and hash, and plays and verifies under it long after the code's
``ruleset.json`` has moved on. The archive keeps what each earlier version hashed: its rules data and the
contract its code published (``Ruleset.contract()``: actions, schemas, event kinds). Under
``versions/<ruleset id>/`` each version is one file, ``<version>.json``::

    {"version": "1.1.0", "from": "1.0.0", "hash": "sha256:...", "data": <patch>, "contract": <patch>}

``from`` names the version it differs from (null for the first, whose patches replace nothing), ``hash`` is
the pin its campaigns hold. Two versions whose data differ only in their label share everything but that
label: the patch says so and holds nothing more. The loader rebuilds each version from the first one on and
refuses one that does not hash to its recorded pin (``RulesDataError``), so an archive that lost a byte is
found when loaded, not when a campaign verifies.

A patch is one of (keys and order exactly as the version had them, so the rebuilt document is the same one):
- ``{"=": value}``: the value itself (the whole of something new or changed beyond a patch's worth);
- ``{"keys": {"-": [key...], "~": {key: patch}, "+": {key: value}, "order": [key...]}}``: an object with those
  keys dropped, edited and added (added keys last, unless ``order`` gives the whole order);
- ``{"items": {...the same, keyed by what names each item...}, "by": "id"}``: a list whose items each have a name:
  entities by "id" (quests, decks, characters), action contracts by "type", or (``"by": null``) strings by themselves;
- ``{"at": {index: patch}}``: a list of the same length with those items edited.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from tracker.rulesets.engine.data import RulesDataError, content_hash, validate

ROOT = Path(__file__).parents[1] / "versions"  # tracker/rulesets/versions/, beside the games

Stored = tuple[dict[str, Any], dict[str, Any]]  # a version's rules data and its published contract


def _same(a: Any, b: Any) -> bool:
    """Equal as JSON documents, key order and types included (in Python ``1 == True == 1.0``)."""
    return json.dumps(a, ensure_ascii=False) == json.dumps(b, ensure_ascii=False)


def _size(value: Any) -> int:
    return len(json.dumps(value, ensure_ascii=False, separators=(",", ":")))


ITEM_KEYS = ("id", "type")  # what names an item of a list: entities by "id", an action contract by its "type"


def _item_key(item: Any, by: str | None) -> Any:
    return item if by is None else item[by]


def _keyed_by(items: Any) -> str | None | bool:
    """What names each item of a list once: "id" or "type" (objects), None (the strings themselves, e.g. event
    kinds); False when nothing does (the list is then patched item by item, or whole)."""
    if not isinstance(items, list) or not items:
        return False
    if all(isinstance(item, str) for item in items):
        return None if len(set(items)) == len(items) else False
    for by in ITEM_KEYS:
        if all(isinstance(item, dict) and isinstance(item.get(by), str) for item in items):
            if len({item[by] for item in items}) == len(items):
                return by
    return False


def _named(items: list[Any], by: str | None) -> dict[str, Any]:
    return {_item_key(item, by): item for item in items}


def _keyed_difference(before: Mapping[str, Any], after: Mapping[str, Any]) -> dict[str, Any]:
    dropped = [key for key in before if key not in after]
    edited = {key: difference(before[key], after[key]) for key in after if key in before and not _same(before[key], after[key])}
    added = {key: after[key] for key in after if key not in before}
    ops: dict[str, Any] = {op: keys for op, keys in (("-", dropped), ("~", edited), ("+", added)) if keys}
    if [key for key in before if key in after] + list(added) != list(after):
        ops["order"] = list(after)
    return ops


def difference(before: Any, after: Any) -> dict[str, Any]:
    """The patch that makes ``after`` from ``before`` (``patched(before, difference(before, after)) == after``),
    the smallest of an edit and the whole value."""
    whole = {"=": after}
    if isinstance(before, dict) and isinstance(after, dict):
        edit: dict[str, Any] = {"keys": _keyed_difference(before, after)}
    elif (by := _keyed_by(before)) is not False and _keyed_by(after) == by:
        edit = {"items": _keyed_difference(_named(before, by), _named(after, by)), "by": by}
    elif isinstance(before, list) and isinstance(after, list) and len(before) == len(after):
        edit = {"at": {str(i): difference(old, new) for i, (old, new) in enumerate(zip(before, after)) if not _same(old, new)}}
    else:
        return whole
    return edit if _size(edit) < _size(whole) else whole


def _keyed_patched(before: Mapping[str, Any], ops: Mapping[str, Any]) -> dict[str, Any]:
    dropped = set(ops.get("-", []))
    edited = ops.get("~", {})
    result = {key: patched(value, edited[key]) if key in edited else copy.deepcopy(value) for key, value in before.items() if key not in dropped}
    result.update(copy.deepcopy(ops.get("+", {})))
    if "order" in ops:
        result = {key: result[key] for key in ops["order"]}
    return result


def patched(before: Any, patch: Mapping[str, Any]) -> Any:
    """``before`` with ``patch`` applied (a new value; ``before`` is left as it was)."""
    if "=" in patch:
        return copy.deepcopy(patch["="])
    if "keys" in patch:
        return _keyed_patched(before, patch["keys"])
    if "items" in patch:
        return list(_keyed_patched(_named(before, patch["by"]), patch["items"]).values())
    if "at" in patch:
        return [patched(item, patch["at"][str(i)]) if str(i) in patch["at"] else copy.deepcopy(item) for i, item in enumerate(before)]
    raise RulesDataError(f"a patch in the ruleset archive has no known form: {sorted(patch)}")


def pin_hash(data: Mapping[str, Any], contract: Mapping[str, Any]) -> str:
    """The hash a version's campaigns pin: the data and the contract, as ``Ruleset.hash`` computes it."""
    return content_hash({"data": data, **contract})


def _records(folder: Path) -> list[dict[str, Any]]:
    """The stored versions of one ruleset, each after the one it differs from."""
    records = {}
    for path in sorted(folder.glob("*.json")):
        record = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(record, dict) or not {"version", "from", "hash", "data", "contract"} <= set(record):
            raise RulesDataError(f"{path}: a stored version names its version, from, hash, data and contract")
        records[record["version"]] = record
    ordered: list[dict[str, Any]] = []
    base: str | None = None
    while len(ordered) < len(records):
        following = [record for record in records.values() if record["from"] == base]
        if len(following) != 1:
            raise RulesDataError(f"{folder}: {len(following)} stored versions follow {base or 'nothing'}; each follows one other")
        ordered.append(following[0])
        base = following[0]["version"]
    return ordered


def stored(ruleset_id: str, root: Path | None = None) -> list[Stored]:
    """Each archived version of a ruleset, oldest first: its rules data (validated) and its published contract,
    each rebuilt exactly and checked against the hash its campaigns pinned."""
    folder = (root or ROOT) / ruleset_id
    versions: list[Stored] = []
    data: Any = None
    contract: Any = None
    for record in _records(folder):
        data, contract = patched(data, record["data"]), patched(contract, record["contract"])
        where = f"{folder}/{record['version']}.json"
        validate(data, where)
        if data["version"] != record["version"] or pin_hash(data, contract) != record["hash"]:
            raise RulesDataError(f"{where}: rebuilt, it is not the version its campaigns pinned ({record['hash']})")
        versions.append((data, contract))
    return versions


def _recorded(data: Mapping[str, Any], contract: Mapping[str, Any], before: Stored | None) -> dict[str, Any]:
    old_data, old_contract = before if before is not None else (None, None)
    return {
        "version": data["version"],
        "from": old_data["version"] if old_data is not None else None,
        "hash": pin_hash(data, contract),
        "data": difference(old_data, data),
        "contract": difference(old_contract, contract),
    }


def _write(folder: Path, record: Mapping[str, Any]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{record['version']}.json"
    path.write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


def keep(data: Mapping[str, Any], contract: Mapping[str, Any], root: Path | None = None) -> Path:
    """Archive a version (before its ``ruleset.json`` changes): stored as its difference from the newest archived one."""
    folder = (root or ROOT) / data["id"]
    earlier = stored(data["id"], root) if folder.exists() else []
    if any(old["version"] == data["version"] for old, _ in earlier):
        raise RulesDataError(f"{data['id']} {data['version']} is archived already; bump the version of the changed rules")
    return _write(folder, _recorded(data, contract, earlier[-1] if earlier else None))
