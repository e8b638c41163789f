"""The README's export format is enough to verify a file without reading the code, on SQLite and PostgreSQL.

The tests read the format section itself: its line shapes, its table of the events that use the
random stream (each type and field must exist in the code and in real exports of all four games,
and nothing in those exports may use the stream without being listed), its hash recipe (recomputed
here independently of the code), and its plain statements of what only a chain head held elsewhere
finds. Both verifiers, the standalone one and the service's, must count the same uses."""

from __future__ import annotations

import copy
import dataclasses
import hashlib
import inspect
import json
import re
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

from tests.kit.clients import OwnerClient
from tests.kit.databases import fresh_schema
from tests.kit.journey import JOURNEY_TEST_COMPONENTS
from tests.kit.forgery_kit import (
    events as _events,
    export as _export,
    lines_of as _lines,
    play_journey as _play_journey,
    rechain as _rechain,
    text_of as _text,
)
from tests.kit import yokai_quest as yokai_play
from tests.kit.descent import TEST_OVERLORD_DECK
from tests.kit.kung_fu_panda import TEST_COMPONENTS as KUNG_FU_PANDA_COMPONENTS
from tests.kit.session import post as _post
from tracker import rulesets
from tracker.domain import Session
from tracker.domain.events import TrackerCreated, TrackerEvent
from tracker.integrity.verify_export import event_name, verify_lines

README = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")


def _format_section() -> str:
    start = README.index("### The export format")
    return README[start : README.index("\n### ", start + 1)]


def _said(text: str) -> str:
    """Prose with its line breaks and emphasis folded away, to look for a sentence in it."""
    return " ".join(text.replace("**", "").split())


# -- four games, played a little, some sessions ended and some in play ------------------------------------


def _journey(client) -> str:
    cid = _post(client, "/campaigns", {"ruleset": "journey", "name": "J", "party": ["tripitaka", "monkey-king"], "components": JOURNEY_TEST_COMPONENTS})["id"]
    _play_journey(client, cid, "q1-meeting")
    sid = _play_journey(client, cid, "q2-rescue", end=False)
    _post(client, f"/sessions/{sid}/rolls", {"dice": {"d6": 1, "attack": 2}})
    _post(client, f"/sessions/{sid}/undo", {})
    return cid


def _descent(client) -> str:
    cid = _post(client, "/campaigns", {"ruleset": "descent", "name": "D", "party": ["aurim"], "components": TEST_OVERLORD_DECK})["id"]
    setup = {"purchases": [{"card": "Dark Power", "remove": "Aim"}], "dark_glyphs": [{"glyph": "summoning"}]}
    sid = _post(client, f"/campaigns/{cid}/sessions", {"quest": "altar-of-despair", "setup": setup})["id"]
    _post(client, f"/sessions/{sid}/rolls", {"dice": {"d6": 2}})
    _post(client, f"/sessions/{sid}/end", {"outcome": "defeat", "ruling": "the table stopped here and called it lost"}, 200)
    return cid


def _kung_fu_panda(client) -> str:
    body = {"ruleset": "kung-fu-panda", "name": "K", "party": ["po", "tigress"], "options": {"length": "single", "mission": "m2-1"}, "components": KUNG_FU_PANDA_COMPONENTS}
    cid = _post(client, "/campaigns", body)["id"]
    setup = {"start_tile": "F", "end_tile": "s", "enemies": {"F": {"ox-grunt": 1}}, "special_moves": {"po": "A", "tigress": "B"}}
    sid = _post(client, f"/campaigns/{cid}/sessions", {"quest": "m2-1", "setup": setup})["id"]
    _post(client, f"/sessions/{sid}/actions", {"type": "start-round"})
    _post(client, f"/sessions/{sid}/actions", {"type": "roll", "hero": "tigress"})  # digital, inside an action
    return cid


def _yokai(client) -> str:
    components = {**yokai_play.YOKAI_TEST_COMPONENTS, "dice": {"red": {"faces": ["katana"] * 6}, "blue": {"faces": ["blank", "helmet"] * 3}}}
    cid = yokai_play.create_campaign(client, components=components)["id"]
    sid = yokai_play.start(client, cid, "shake-them-skeleton-bones-1")
    yokai_play.spawn(client, sid, {"hone-bushi": 2})  # yōkai come into play in a Yōkai phase (appearance card drawn digitally)
    targets = [{"defender": "hone-bushi", "attack_dice": {"red": 1}, "defense_dice": {"blue": 1}}] * 2
    yokai_play.act(client, sid, {"type": "use-ability", "hero": "ryo", "ability": "senpuu", "actions": 1})  # one action (L416)
    yokai_play.act(client, sid, {"type": "attack", "attacker": "ryo", "ability": "senpuu", "targets": targets})
    yokai_play.act(client, sid, {"type": "end-scene", "outcome": "failed"})
    yokai_play.end(client, sid, "defeat")
    return cid


GAMES = {"journey": _journey, "descent": _descent, "kung-fu-panda": _kung_fu_panda, "yokai-quest": _yokai}


def _any_game(ruleset_id: str):
    """How a game with no play of its own here is played: its first character, a session of its first quest, a roll."""
    def play(client) -> str:
        ruleset = rulesets.get(ruleset_id)
        cid = _post(client, "/campaigns", {"ruleset": ruleset_id, "name": ruleset.name, "party": [ruleset.data["characters"][0]["id"]]})["id"]
        sid = _post(client, f"/campaigns/{cid}/sessions", {"quest": ruleset.chain()[0]})["id"]
        _post(client, f"/sessions/{sid}/rolls", {"dice": {"d6": 1}})
        return cid
    return play


def _played(client) -> dict[str, list[dict]]:
    return {game: _lines(_export(client, (GAMES.get(game) or _any_game(game))(client))) for game in sorted(rulesets.registry())}


@pytest.fixture
def exports(client) -> dict[str, list[dict]]:
    """An export of every game the registry finds, played a little, on the database the test's client serves."""
    return _played(client)


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def exported(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, list[dict]]]:
    """The same exports, made once a file on each database for the tests that only read the files (none asks the
    service anything, none changes a line): playing every game through the API was most of each one's time."""
    from api import create_app

    with ExitStack() as stack:
        if request.param == "sqlite":
            url = f"sqlite:///{tmp_path_factory.mktemp('exported')}/tracker.sqlite3"
        else:
            url = stack.enter_context(fresh_schema(request.getfixturevalue("postgres_base_url")))
        flask_app = create_app({"TESTING": True, "DATABASE_URL": url, "PROJECTIONS_IN_PROCESS": False})
        try:
            OwnerClient.tokens, OwnerClient.last = {}, {}
            flask_app.test_client_class = OwnerClient
            played = _played(flask_app.test_client())
        finally:
            flask_app.extensions["tracker"].close()
            flask_app.extensions["tracker_views"].store.datastore.close()
        yield json.loads(json.dumps(played))  # kept apart from anything the client holds


# -- both verifiers count alike ------------------------------------------------------------------------------


def test_the_standalone_verifier_and_the_service_count_the_same_uses_of_every_sessions_stream(client, exports):
    compared = 0
    for game, lines in exports.items():
        report = verify_lines([json.dumps(line) for line in lines])
        assert report["status"] in ("verified", "pending"), (game, report)
        for sid in lines[0]["header"]["sessions"]:
            service = client.get(f"/sessions/{sid}/verification").json
            assert service["status"] in ("verified", "pending"), (game, service)
            counted = {key: service["checked"][key] for key in ("digital_rolls", "shuffles")}
            assert report["sessions"][sid]["checked"] == counted, (game, sid)
            compared += 1
    assert compared == 5 + len(set(exports) - set(GAMES))  # the four games' plays hold five sessions, any other game's one
    journey_sessions = exports["journey"][0]["header"]["sessions"]
    # the README walk-through's session: two deck shuffles and the set-up's initiative draw
    assert client.get(f"/sessions/{journey_sessions[0]}/verification").json["checked"]["shuffles"] == 3


# -- the format section against real files -------------------------------------------------------------------


def _shapes() -> list[dict]:
    block = re.search(r"```json\n(.*?)```", _format_section(), re.S)
    assert block, "the format section shows the three line shapes in a json block"
    return [json.loads(line) for line in block.group(1).splitlines()]


def test_the_line_shapes_the_readme_shows_are_the_lines_of_an_export(exported):
    header, event, trailer = _shapes()
    for lines in exported.values():
        assert set(lines[0]["header"]) == set(header["header"])
        assert set(lines[-1]["trailer"]) == set(trailer["trailer"])
        for line in lines[1:-1]:
            # ``opened`` on the lines whose events commit to a side's secrets ("An event line whose ... also carries")
            assert set(line["event"]) - {"opened"} == set(event["event"])
            assert ("opened" in line["event"]) == bool(line["event"]["state"]["meta"].get("commitments"))
            state = line["event"]["state"]
            assert set(event["event"]["state"]) - {"..."} <= set(state)
            assert state["timestamp"]["_type_"] == event["event"]["state"]["timestamp"]["_type_"]
            assert isinstance(line["event"]["stream"], str) and isinstance(state["meta"], dict)
    assert header["header"]["format"] == "campaign-tracker-export" and header["header"]["format_version"] == 1


def _stream_uses() -> dict[str, list[tuple[str, bool]]]:
    """The README's table: event type -> [(field path in state, sealed)]."""
    section = _format_section()
    table = section[section.index("| Event | Fields |") :].split("\n\n", 1)[0]
    uses: dict[str, list[tuple[str, bool]]] = {}
    for row in table.splitlines()[2:]:
        _, name, fields, _ = row.split("|")
        fields_named = re.findall(r"`([a-z_.]+)`( \(sealed\))?", fields)
        uses[name.strip().strip("`")] = [(path, bool(sealed)) for path, sealed in fields_named]
    return uses


def _get(state: dict, path: str) -> Any:
    value: Any = state
    for part in path.split("."):
        if not isinstance(value, dict) or part not in value:
            return KeyError
        value = value[part]
    return value


def _opened(event: dict) -> dict:
    state = copy.deepcopy(event["state"])
    for path, opening in (event.get("opened") or {}).items():
        *parents, leaf = path.split(".")
        holder = state
        for part in parents:
            holder = holder.setdefault(part, {})
        holder[leaf] = opening["value"]
    return {**event, "state": state}


def _event_classes() -> dict[str, type]:
    classes = {name: cls for name, cls in vars(Session).items() if inspect.isclass(cls) and issubclass(cls, (TrackerEvent, TrackerCreated))}
    for ruleset in rulesets.registry().values():
        classes.update({cls.__name__: cls for cls in ruleset.rules.events.values()})
    return classes


def _uses_the_stream(value: Any) -> bool:
    if isinstance(value, dict):
        return bool({"counter_start", "counter_end", "seed_commitment"} & set(value)) or any(_uses_the_stream(v) for v in value.values())
    if isinstance(value, list):
        return any(_uses_the_stream(v) for v in value)
    return False


def test_every_use_of_the_stream_the_readme_lists_is_in_the_code_and_in_the_exports_and_none_is_missing(client, exports):
    uses = _stream_uses()
    assert {"SessionStarted", "ActionTaken", "DiceRolled", "DeckShuffled", "QuestSetUp", "SessionEnded"} <= set(uses)
    classes = _event_classes()
    # as a verifier checks them: each value a line opens put back at its path (the README's `opened`)
    events = [_opened(event) for lines in exports.values() for event in _events(lines)]
    for name, fields in uses.items():
        assert name in classes, f"the README names {name}, which the code does not have"
        declared = {field.name for field in dataclasses.fields(classes[name])}
        for path, _ in fields:
            assert path.split(".")[0] in declared, f"{name} declares no field {path.split('.')[0]}"
        # those that use the stream (not a reported roll, nor a set-up whose order the quest fixes)
        recorded = [e for e in events if event_name(e["topic"]) == name and _uses_the_stream(e["state"])]
        assert recorded, f"no export holds a {name} that uses the stream"
        for path, sealed in fields:
            if sealed:  # never in an export; listed as sealed where the event holds it
                assert all(_get(e["state"], path) is KeyError for e in recorded), (name, path)
                assert any(path in e["state"]["meta"].get("sealed", []) for e in recorded), (name, path)
            else:
                assert all(_get(e["state"], path) is not KeyError for e in recorded), (name, path)
    # ...and no event records a use of the stream that the table does not list
    unlisted = {event_name(e["topic"]) for e in events if _uses_the_stream(e["state"])} - set(uses)
    assert not unlisted, f"events that use the stream but are not in the README's table: {unlisted}"


def test_reported_rolls_carry_no_counters_as_the_readme_says(exported):
    assert "has `dice`, `results` and `purpose` only: no `layouts`, no `order`, no counters" in _said(_format_section())
    reported = [e["state"]["roll"] for lines in exported.values() for e in _events(lines)
                if event_name(e["topic"]) == "DiceRolled" and e["state"]["roll"]["source"] == "reported"]
    assert reported and all(set(roll) == {"source", "dice", "results", "purpose"} for roll in reported)


def test_the_meta_fields_the_readme_defines_are_what_the_exports_hold(exported):
    section = _said(_format_section())
    for field in ("prev_hash", "command", "session_head", "sealed", "commitments", "issued_by", "correlation_id", "ruleset_version", "ruleset_id"):
        assert f"`{field}`" in section
    for lines in exported.values():
        streams: dict[str, list[dict]] = {}
        for event in _events(lines):
            streams.setdefault(event["stream"], []).append(event)
        for event in _events(lines):
            meta = event["state"]["meta"]
            assert set(meta) <= {"prev_hash", "command", "session_head", "sealed", "commitments", "issued_by", "correlation_id", "ruleset_version", "ruleset_id"}
            # command: the position of the first event of the same command, in the same stream, no later than this one
            assert 1 <= meta["command"] <= event["position"]
            first = streams[event["stream"]][meta["command"] - 1]
            assert first["state"]["meta"]["command"] == meta["command"]
            if "session_head" in meta:
                assert event_name(event["topic"]) in ("QuestStarted", "QuestEnded")
        # uuids are plain strings; only timestamps use the {"_type_", "_data_"} form
        text = json.dumps([e["state"] for e in _events(lines)])
        assert text.count('"_type_"') == text.count('"datetime_iso"') == len(_events(lines))


# -- the hash recipe, recomputed from the README alone ------------------------------------------------------


def _readme_hash(event: dict) -> str:
    """The README's recipe, written out here and not taken from the code."""
    body = {"stream": event["stream"], "position": event["position"], "topic": event["topic"], "state": event["state"]}
    return hashlib.sha256(json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()).hexdigest()


def test_event_hashes_recomputed_from_the_readme_recipe_alone(exported):
    section = _said(_format_section())
    assert 'json.dumps(v, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()' in section
    assert "The line's own `hash` field must equal it: the verifier checks it" in section
    for lines in exported.values():
        previous: dict[str, str] = {}
        for event in _events(lines):
            assert event["hash"] == _readme_hash(event)
            assert event["state"]["meta"]["prev_hash"] == previous.get(event["stream"])
            if "session_head" in event["state"]["meta"]:
                assert event["state"]["meta"]["session_head"] == previous[event["state"]["session_id"]]
            previous[event["stream"]] = event["hash"]
        assert lines[-1]["trailer"]["heads"] == previous


def test_commitments_recomputed_from_the_readme_recipe_alone(exported):
    section = _said(_format_section())
    assert "`sha256(bytes.fromhex(salt) + canonical(value)).hexdigest()` must equal `state.meta.commitments[path]`" in section
    opened = [event for event in _events(exported["descent"]) if "opened" in event]
    assert opened, "the Descent export commits to the overlord's set-up"
    for event in opened:
        committed = event["state"]["meta"]["commitments"]
        assert set(event["opened"]) == set(committed) and "salts" not in event["state"]["meta"]
        for path, opening in event["opened"].items():
            value = json.dumps(opening["value"], sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()
            assert hashlib.sha256(bytes.fromhex(opening["salt"]) + value).hexdigest() == committed[path]
            assert _get(event["state"], path) is KeyError  # left out of the hashed form
    swaps = [e for e in opened if event_name(e["topic"]) == "TreacheryCardSwapped"]
    assert swaps and swaps[0]["opened"]["change"]["value"]["added"] == "Dark Power"


def test_the_header_components_are_the_documented_merge_of_the_campaigns_events(client):
    assert "objects merge key by key, recursively" in _said(_format_section())
    cid = _post(client, "/campaigns", {"ruleset": "journey", "name": "Merged", "components": {"decks": JOURNEY_TEST_COMPONENTS["decks"]}})["id"]
    _post(client, f"/campaigns/{cid}/components", {"components": {"dice": JOURNEY_TEST_COMPONENTS["dice"]}})
    lines = _lines(_export(client, cid))
    created, supplied = _events(lines)[0]["state"], next(e["state"] for e in _events(lines) if event_name(e["topic"]) == "ComponentsSupplied")
    assert lines[0]["header"]["components"] == {**created["components"], **supplied["components"]} == JOURNEY_TEST_COMPONENTS
    for pinned in (created, supplied):
        document = created["components"] if pinned is created else JOURNEY_TEST_COMPONENTS
        canonical = json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()
        assert pinned["components_hash"] == "sha256:" + hashlib.sha256(canonical).hexdigest()
    assert lines[0]["header"]["components_hash"] == supplied["components_hash"]


# -- what the file cannot show, said plainly -----------------------------------------------------------------


def test_the_readme_says_what_only_a_chain_head_held_elsewhere_finds_and_the_file_indeed_cannot(client):
    said = _said(README)
    assert "only a copy of the chain head held elsewhere" in said
    assert "finds a session still in play cut short" in said
    assert "or with its last digital roll relabelled as reported (nothing records where its stream stops until it ends)" in said
    assert "an undone action that used no randomness deleted together with its `ActionUndone`, the later positions renumbered" in said

    cid = _post(client, "/campaigns", {"ruleset": "journey", "name": "Limits", "party": ["tripitaka", "monkey-king"], "components": JOURNEY_TEST_COMPONENTS})["id"]
    sid = _play_journey(client, cid, "q1-meeting", end=False)
    _post(client, f"/sessions/{sid}/actions", {"type": "end-turn"})
    _post(client, f"/sessions/{sid}/undo", {})
    _post(client, f"/sessions/{sid}/actions", {"type": "end-turn"})
    _post(client, f"/sessions/{sid}/rolls", {"dice": {"d6": 1}})
    genuine = _lines(_export(client, cid))
    session = [e for e in _events(genuine) if e["stream"] == sid]
    names = [event_name(e["topic"]) for e in session]
    assert names[-6:] == ["ActionTaken", "TurnEnded", "ActionUndone", "ActionTaken", "TurnEnded", "DiceRolled"]

    cut_short = copy.deepcopy([line for line in genuine if line.get("event") not in session[-3:]])
    undone_deleted = copy.deepcopy([line for line in genuine if line.get("event") not in session[-6:-3]])
    relabelled = copy.deepcopy(genuine)
    roll = [e for e in _events(relabelled) if e["stream"] == sid][-1]["state"]["roll"]
    assert roll["source"] == "digital"
    roll.clear()
    roll.update({"dice": {"d6": 1}, "results": {"d6": ["6"]}, "source": "reported", "purpose": None})
    for forged in (cut_short, undone_deleted, relabelled):
        report = verify_lines(_text(_rechain(forged)).splitlines())
        assert report["status"] == "pending", report  # the file alone cannot tell
        # a head kept from the genuine file can: it is no longer the hash of any event of the session
        kept = genuine[-1]["trailer"]["heads"][sid]
        assert kept not in {_readme_hash(e) for e in _events(forged) if e["stream"] == sid}
    assert "the head you kept must still be the hash of an event of that stream in any later file" in said
