"""Component data supplied after a campaign was created (POST /campaigns/{cid}/components), through the
REST API on SQLite and PostgreSQL: validated against the ruleset's component schema, only facts still
unknown, pinned by content hash, used by sessions started afterwards, owner only, and carried by an
export into another database. Journey serves as the example: its rules lost most profile stats."""

from __future__ import annotations

from tests.kit.forgery_kit import NDJSON, empty_postgres_url, target  # noqa: F401  (fixtures)
from tests.kit import journey
from tracker.rulesets.engine.data import content_hash
from tracker.integrity.verify_export import verify_lines

MONKEY_HP = {"characters": {"monkey-king": {"stats": {"HP": 10}}}}
ATTACK = {"type": "demon-attack", "demon": "kogaiji-1", "target": "monkey-king", "faces": {"attack": ["3", "1"], "demon": ["X"], "defense": ["1", "1"]}}


def _bare(client):
    made = client.post("/campaigns", json={"ruleset": "journey", "name": "Bare"})
    assert made.status_code == 201, made.json
    return made.json["id"]


def _start(client, cid):
    """A session of Journey's Quest 4, the Pilgrims in Initiative order: its id and game state."""
    return journey.start(client, cid, "q4-the-village")


def _version(client, cid):
    return client.get(f"/campaigns/{cid}").json["version"]


def _refused(client, cid, body, status=422, headers=None):
    before = _version(client, cid)
    refused = client.post(f"/campaigns/{cid}/components", json=body, headers=headers or {})
    assert refused.status_code == status and refused.mimetype == "application/problem+json", refused.json
    assert _version(client, cid) == before
    return refused.json


def test_supplied_components_are_pinned_and_used_by_sessions_started_afterwards(client):
    cid = _bare(client)
    earlier, game = _start(client, cid)
    assert game["heroes"]["monkey-king"]["hp"] is None
    before = _version(client, cid)
    supplied = client.post(f"/campaigns/{cid}/components", json={"components": MONKEY_HP})
    assert supplied.status_code == 201, supplied.json
    assert supplied.json["components"] == MONKEY_HP and supplied.json["components_hash"] == content_hash(MONKEY_HP)
    assert _version(client, cid) == before + 1
    assert client.get(f"/campaigns/{cid}").json["components_hash"] == content_hash(MONKEY_HP)
    # A second supplement adds other unknown facts; the hash pins the whole document.
    more = {"characters": {"monkey-king": {"stats": {"CR": 2}}, "kogaiji": {"stats": {"HP": 6}}}}
    both = client.post(f"/campaigns/{cid}/components", json={"components": more}).json
    whole = {"characters": {"monkey-king": {"stats": {"HP": 10, "CR": 2}}, "kogaiji": {"stats": {"HP": 6}}}}
    assert both["components"] == whole and both["components_hash"] == content_hash(whole)

    later, game = _start(client, cid)
    assert game["heroes"]["monkey-king"]["hp"] == 10 and game["heroes"]["monkey-king"]["max_hp"] == 10
    hit = client.post(f"/sessions/{later}/actions", json=ATTACK)
    assert hit.status_code == 201 and hit.json["state"]["game"]["heroes"]["monkey-king"]["hp"] == 8
    # The session in play got the facts too (pinned in its own stream), but a Pilgrim's Health is set up at the
    # quest's start: there it stays unknown until the table reports it (report-health).
    unknown = client.post(f"/sessions/{earlier}/actions", json=ATTACK)
    assert unknown.status_code == 422 and "Health is unknown" in unknown.json["title"]
    for sid in (earlier, later):
        assert client.post(f"/sessions/{sid}/end", json={"outcome": "defeat", "reported": {"defeated": ["tripitaka"]}}).status_code == 200
        assert client.get(f"/sessions/{sid}/verification").json["status"] == "verified"
    # The campaign as it was before the supplements.
    assert client.get(f"/campaigns/{cid}/state?at={before}").json["components"] == {}


def test_facts_supplied_while_a_session_is_in_play_reach_it_and_its_replay_stays_exact(client):
    cid = _bare(client)
    sid, _ = _start(client, cid)
    refused = client.post(f"/sessions/{sid}/rolls", json={"dice": {"attack": 2}})
    assert refused.status_code == 422
    client.post(f"/sessions/{sid}/rolls", json={"faces": {"attack": ["1", "2"]}})  # a roll at the table meanwhile
    faces = {"dice": {"attack": {"faces": ["X", "0", "1", "1", "2", "3"]}}}
    supplied = client.post(f"/campaigns/{cid}/components", json={"components": faces})
    assert supplied.status_code == 201 and supplied.json["sessions_supplied"] == [sid]
    pinned = [e for e in client.get(f"/sessions/{sid}/events?limit=100").json["events"] if e["type"] == "SessionComponentsSupplied"]
    assert [e["payload"]["components_hash"] for e in pinned] == [content_hash(faces)]
    rolled = client.post(f"/sessions/{sid}/rolls", json={"dice": {"attack": 2}})
    assert rolled.status_code == 201 and rolled.json["source"] == "digital"
    assert set(rolled.json["results"]["attack"]) <= {"X", "0", "1", "2", "3"}
    missing = client.get(f"/campaigns/{cid}/components/missing").json
    assert "components.dice.attack.faces" not in {f["path"] for f in missing["facts"]}
    assert client.post(f"/sessions/{sid}/undo").status_code == 201  # undo reverts the roll, not the supplied facts
    assert client.post(f"/sessions/{sid}/rolls", json={"dice": {"attack": 1}}).status_code == 201
    assert client.post(f"/sessions/{sid}/end", json={"outcome": "defeat", "reported": {"defeated": ["tripitaka"]}}).status_code == 200
    report = client.get(f"/sessions/{sid}/verification").json
    assert report["status"] == "verified" and report["checked"]["digital_rolls"] == 2, report
    standalone = verify_lines(client.get(f"/campaigns/{cid}/export").get_data(as_text=True).splitlines())
    assert standalone["status"] == "verified", standalone
    # A session that has ended gets nothing more.
    again = client.post(f"/campaigns/{cid}/components", json={"components": {"dice": {"defense": {"faces": ["X", "0", "0", "1", "1", "2"]}}}})
    assert again.status_code == 201 and again.json["sessions_supplied"] == []


def test_only_facts_still_unknown_in_the_shape_of_the_component_schema(client):
    cid = _bare(client)
    assert client.post(f"/campaigns/{cid}/components", json={"components": MONKEY_HP}).status_code == 201
    problem = _refused(client, cid, {"components": {"characters": {"monkey-king": {"stats": {"HP": 12}}}}})
    assert "supplied already" in problem["title"] and "components.characters.monkey-king.stats.HP" in problem["detail"]
    # Monkey King's ATT is in the rules (2): the schema accepts only what the rules lost.
    problem = _refused(client, cid, {"components": {"characters": {"monkey-king": {"stats": {"ATT": 3}}}}})
    assert "does not fit this ruleset" in problem["title"]
    _refused(client, cid, {"components": {"dice": {"attack": {"faces": ["1", "2"]}}}})  # six faces, not two
    problem = _refused(client, cid, {"components": {}})
    assert "No component data" in problem["title"]
    _refused(client, cid, {})  # the document is required
    assert client.get(f"/campaigns/{cid}").json["components"] == MONKEY_HP


def test_only_the_owner_supplies_component_data(client):
    cid = _bare(client)
    player = client.post(f"/campaigns/{cid}/tokens", json={"role": "player", "heroes": ["monkey-king"]}).json["token"]
    problem = _refused(client, cid, {"components": MONKEY_HP}, status=403, headers={"Authorization": f"Bearer {player}"})
    assert "owner" in problem["title"]
    _refused(client, cid, {"components": MONKEY_HP}, status=401, headers={"Authorization": ""})


def test_an_export_with_supplied_components_imports_and_verifies(client, target):  # noqa: F811
    cid = _bare(client)
    earlier, _ = _start(client, cid)
    client.post(f"/campaigns/{cid}/components", json={"components": MONKEY_HP})
    later, _ = _start(client, cid)
    assert client.post(f"/sessions/{later}/actions", json=ATTACK).status_code == 201
    for sid in (earlier, later):
        client.post(f"/sessions/{sid}/end", json={"outcome": "defeat", "reported": {"defeated": ["tripitaka"]}})
    text = client.get(f"/campaigns/{cid}/export").get_data(as_text=True)
    imported = target.test_client().post("/campaigns/import", data=text, headers=NDJSON)
    assert imported.status_code == 201, imported.json
    assert imported.json["sessions"] == {earlier: "verified", later: "verified"}
    assert target.test_client().get(f"/campaigns/{cid}").json["components"] == MONKEY_HP


def test_a_deck_listed_in_play_reaches_the_session_and_is_drawn_digitally_after_a_sealed_shuffle(client):
    """The Fortune Deck's cards were lost. One card is drawn at the table; then the owner supplies the list: the
    session records the deck listed (the card seen stays out of the pile), its first digital draw shuffles it from
    the session's stream with the order sealed, and the whole session verifies once its seed is revealed."""
    cid = _bare(client)
    sid, _ = _start(client, cid)
    refused = client.post(f"/sessions/{sid}/draws", json={"deck": "fortune", "count": 1})
    assert refused.status_code == 422
    assert client.post(f"/sessions/{sid}/draws", json={"deck": "fortune", "cards": ["Fortune 3"]}).status_code == 201

    short = client.post(f"/campaigns/{cid}/components", json={"components": {"decks": {"fortune": {"cards": [f"Fortune {n}" for n in range(4, 24)]}}}})
    assert short.status_code == 422 and "Fortune 3" in short.json["title"]  # a card the session saw must be listed

    cards = [f"Fortune {n}" for n in range(1, 21)]
    supplied = client.post(f"/campaigns/{cid}/components", json={"components": {"decks": {"fortune": {"cards": cards}}}})
    assert supplied.status_code == 201, supplied.json
    assert supplied.json["sessions_supplied"] == [sid]
    events = client.get(f"/sessions/{sid}/events?limit=1000").json["events"]
    listed = next(e for e in events if e["type"] == "DeckListed")
    assert sorted(listed["payload"]["change"]["cards"]) == sorted(c for c in cards if c != "Fortune 3")
    assert client.get(f"/sessions/{sid}").json["decks"]["fortune"]["draw_pile"] == 19

    drawn = client.post(f"/sessions/{sid}/draws", json={"deck": "fortune", "count": 2})
    assert drawn.status_code == 201, drawn.json
    events = client.get(f"/sessions/{sid}/events?limit=1000").json["events"]
    shuffle = next(e for e in events if e["type"] == "DeckShuffled" and e["payload"]["change"]["deck"] == "fortune")
    assert "order" not in shuffle["payload"]["change"]  # sealed while the session is in play
    taken = [c for e in events if e["type"] == "CardsDrawn" for c in e["payload"]["change"]["cards"]]
    assert len(taken) == 3 and taken.count("Fortune 3") == 1 and set(taken) <= set(cards)
    assert client.get(f"/sessions/{sid}").json["decks"]["fortune"]["draw_pile"] == 17

    assert client.post(f"/sessions/{sid}/abandon", json={"reason": "only checking a deck listed in play"}).status_code == 200
    verification = client.get(f"/sessions/{sid}/verification").json
    assert verification["status"] == "verified", verification
