"""The archive of earlier ruleset versions (tracker/rulesets/engine/archive.py): each version stored once, as its difference
from the one before it, rebuilt exactly to the hash its campaigns pinned."""

from __future__ import annotations

import json
import shutil

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tracker import rulesets
from tracker.rulesets.engine import archive, keep
from tracker.rulesets.engine.data import RulesDataError

GAMES = sorted(rulesets.registry())


def _records(ruleset_id):
    return [json.loads(path.read_text(encoding="utf-8")) for path in sorted((archive.ROOT / ruleset_id).glob("*.json"))]


def _unlabelled(data):
    return {key: value for key, value in data.items() if key != "version"}


@pytest.mark.parametrize("ruleset_id", GAMES)
def test_every_archived_version_rebuilds_to_the_hash_its_campaigns_pinned(ruleset_id):
    recorded = {record["version"]: record["hash"] for record in _records(ruleset_id)}
    built = {old.version: old.hash for old in rulesets.archived(ruleset_id)}
    assert built == recorded and built
    for old in rulesets.archived(ruleset_id):
        assert rulesets.resolve(old.pin) is old


def _plays_otherwise(rules: type) -> bool:
    """Whether a version's rules class overrides something of the version before it (more than its number)."""
    return any(name != "number" and not name.startswith("__") for name in vars(rules))


@pytest.mark.parametrize("ruleset_id", GAMES)
def test_no_two_versions_differ_only_in_their_label(ruleset_id):
    """Journey 1.1.0, 1.2.0 and 1.3.0 have the same data: what tells them apart is the contract their code published.
    A version whose data and contract are the one before's is one whose rules play otherwise (Journey 1.5.0 words its
    verdicts' reasons), its class overriding what changed; a bare relabel is no version."""
    versions = [(old.version, old.data, old.published, type(old.rules.version)) for old in rulesets.archived(ruleset_id)]
    current = rulesets.get(ruleset_id)
    versions.append((current.version, current.data, current.contract(), type(current.rules.version)))
    seen: dict[str, str] = {}
    for version, data, contract, rules in versions:
        key = json.dumps({"data": _unlabelled(data), "contract": contract}, sort_keys=True)
        assert key not in seen or _plays_otherwise(rules), f"{ruleset_id} {version} is {seen.get(key)} under another label"
        seen[key] = version


def test_a_relabel_that_plays_the_same_is_found():
    class Before:
        number = "1.0.0"

    class Relabelled(Before):
        number = "1.1.0"

    class Worded(Before):
        number = "1.1.0"

        def verdicts(self, names):
            return names

    assert not _plays_otherwise(Relabelled) and _plays_otherwise(Worded)


@pytest.mark.parametrize("ruleset_id", GAMES)
def test_each_version_is_stored_once_as_its_difference_from_the_one_before(ruleset_id):
    records = _records(ruleset_id)
    first, *later = sorted(records, key=lambda record: [int(part) for part in record["version"].split(".")])
    assert first["from"] is None and "=" in first["data"]
    for before, record in zip([first, *later], later):
        assert record["from"] == before["version"]
        assert "=" not in record["data"] and "=" not in record["contract"], f"{record['version']} holds a whole copy"
    unlabelled_only = [record for record in later if record["data"] == {"keys": {"~": {"version": {"=": record["version"]}}}}]
    for record in unlabelled_only:  # the data of e.g. Descent 1.4.0 is 1.3.0's: its file holds the label and nothing more
        old = next(o for o in rulesets.archived(ruleset_id) if o.version == record["version"])
        previous = next(o for o in rulesets.archived(ruleset_id) if o.version == record["from"])
        assert _unlabelled(old.data) == _unlabelled(previous.data)


def test_the_archive_is_smaller_than_the_whole_copies_it_replaced():
    stored = sum(path.stat().st_size for path in archive.ROOT.rglob("*.json"))
    whole = sum(
        len(json.dumps(old.data, indent=1, ensure_ascii=False)) + len(json.dumps(old.published, indent=1, ensure_ascii=False))
        for ruleset_id in GAMES for old in rulesets.archived(ruleset_id)
    )
    assert stored < whole / 2


def test_an_archive_that_lost_a_byte_is_refused_when_loaded(tmp_path):
    shutil.copytree(archive.ROOT / "descent", tmp_path / "descent")
    path = tmp_path / "descent" / "1.2.0.json"
    record = json.loads(path.read_text(encoding="utf-8"))
    record["data"]["keys"].setdefault("+", {})["note"] = "not what 1.2.0 held"
    path.write_text(json.dumps(record), encoding="utf-8")
    with pytest.raises(RulesDataError, match="not the version its campaigns pinned"):
        archive.stored("descent", tmp_path)


def test_a_version_that_follows_no_stored_one_is_refused(tmp_path):
    shutil.copytree(archive.ROOT / "journey", tmp_path / "journey")
    (tmp_path / "journey" / "1.1.0.json").unlink()
    with pytest.raises(RulesDataError, match="follow 1.0.0"):
        archive.stored("journey", tmp_path)


def test_keeping_the_current_version_archives_it_as_a_difference_that_rebuilds_to_its_pin(tmp_path):
    shutil.copytree(archive.ROOT / "yokai-quest", tmp_path / "yokai-quest")
    current = rulesets.get("yokai-quest")
    path = archive.keep(current.data, current.contract(), tmp_path)
    record = json.loads(path.read_text(encoding="utf-8"))
    assert record["from"] == "1.4.0" and record["hash"] == current.hash
    data, contract = archive.stored("yokai-quest", tmp_path)[-1]
    assert json.dumps(data) == json.dumps(current.data) and archive.pin_hash(data, contract) == current.hash
    with pytest.raises(RulesDataError, match="archived already"):
        archive.keep(current.data, current.contract(), tmp_path)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 3) | st.floats(allow_nan=False) | st.sampled_from(["a", "b", "c"]),
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.sampled_from(["id", "type", "x", "y", "z"]), inner, max_size=4)
    | st.lists(st.fixed_dictionaries({"id": st.sampled_from(["p", "q", "r", "s"]), "v": inner}), max_size=4)
    | st.lists(st.sampled_from(["k1", "k2", "k3", "k4"]), max_size=4, unique=True),
    max_leaves=12,
)


@given(json_values, json_values)
def test_a_difference_rebuilds_the_later_value_exactly(before, after):
    """Key order and types included: ``1``, ``1.0`` and ``true`` are different documents, and so are reordered keys."""
    rebuilt = archive.patched(before, archive.difference(before, after))
    assert json.dumps(rebuilt) == json.dumps(after)


def test_the_command_archives_the_code_s_current_version(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(archive, "ROOT", tmp_path)
    assert keep.main(["kung-fu-panda"]) == 0
    assert capsys.readouterr().out.strip() == str(tmp_path / "kung-fu-panda" / "1.2.0.json")
    (data, contract), = archive.stored("kung-fu-panda", tmp_path)
    assert archive.pin_hash(data, contract) == rulesets.get("kung-fu-panda").hash
    assert keep.main([]) == 2
