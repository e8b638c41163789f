"""`reported` has a contract (issue 31): each quest publishes the facts its end may take from the table as
``reported_schema`` in GET /rulesets/{id} and in the OpenAPI document; an end with a key the quest does not take, or
a value of the wrong type, is a 422 naming the known keys, and appends nothing. The check is the command's (the
Tracker's end_session), not only the API's.

Journey Q1: "The Quest ends immediately when the Demons in the house are removed" (L710): the table states
``house_cleared`` where the log cannot see the house.
"""

from __future__ import annotations

import jsonschema
import pytest

from tests.kit import descent, journey, kung_fu_panda, session, yokai_quest
from tracker.core.errors import Unprocessable


def _quest(client, ruleset: str, quest: str) -> dict:
    return next(q for q in client.get(f"/rulesets/{ruleset}").json["quests"] if q["id"] == quest)


def test_every_quest_of_every_game_publishes_a_closed_reported_schema(client):
    listed = [ruleset["id"] for ruleset in client.get("/rulesets").json]
    assert {"journey", "descent", "yokai-quest", "kung-fu-panda"} <= set(listed)
    for ruleset_id in listed:
        for quest in client.get(f"/rulesets/{ruleset_id}").json["quests"]:
            schema = quest["reported_schema"]
            jsonschema.Draft202012Validator.check_schema(schema)
            assert schema["type"] == "object" and schema["additionalProperties"] is False, (ruleset_id, quest["id"])
            for key, fact in schema["properties"].items():
                assert fact.get("type") and fact.get("description"), (ruleset_id, quest["id"], key)


def test_journey_q1_publishes_house_cleared_from_the_rules(client):
    schema = _quest(client, "journey", "q1-meeting")["reported_schema"]
    assert set(schema["properties"]) == {"house_cleared", "defeated"}
    assert schema["properties"]["house_cleared"]["type"] == "boolean"
    assert "house" in schema["properties"]["house_cleared"]["description"] and "L710" in schema["properties"]["house_cleared"]["description"]
    assert set(_quest(client, "journey", "q10-part-1-the-lair")["reported_schema"]["properties"]) >= {"fiery_bridge_reached"}
    assert _quest(client, "descent", "altar-of-despair")["reported_schema"]["properties"] == {}


def test_the_openapi_document_publishes_each_quests_reported_schema(client):
    document = client.get("/openapi.json").json
    components = document["components"]["schemas"]
    journey_reported = components["JourneyReported"]["anyOf"]
    # Titled by the game and the quest's name, which a generated client names its model by (not Q1Meeting).
    assert [schema["title"] for schema in journey_reported][:2] == ["JourneyMeetingReported", "JourneyRescueReported"]
    q1 = next(schema for schema in journey_reported if "(quest q1-meeting)" in schema["description"])
    assert q1["title"] == "JourneyMeetingReported"
    assert q1["properties"]["house_cleared"]["type"] == "boolean" and q1["additionalProperties"] is False
    end_body = components["End"]["properties"]["reported"]
    assert {"$ref": "#/components/schemas/JourneyReported"} in end_body["anyOf"]
    assert {"$ref": "#/components/schemas/YokaiQuestReported"} in end_body["anyOf"]


def test_an_unknown_fact_is_refused_naming_the_known_keys_and_appends_nothing(client):
    sid, _ = journey.start(client, journey.campaign(client), "q1-meeting")
    before = session.total(client, sid)
    refused = client.post(f"/sessions/{sid}/end", json={"outcome": "victory", "reported": {"house_cleared": True, "hous_cleared": False}})
    assert refused.status_code == 422 and refused.mimetype == session.PROBLEM, refused.json
    title = refused.json["title"]
    assert '"hous_cleared"' in title and '"house_cleared"' in title and '"defeated"' in title, title
    assert "[" not in title and "{" not in title and "None" not in title
    assert session.total(client, sid) == before and session.read(client, sid)["status"] == "in-progress"
    wrong_type = client.post(f"/sessions/{sid}/end", json={"outcome": "victory", "reported": {"house_cleared": "yes"}})
    assert wrong_type.status_code == 422 and "house_cleared" in wrong_type.json["title"], wrong_type.json
    assert session.total(client, sid) == before
    assert session.end(client, sid, "victory", reported={"house_cleared": True})["outcome"] == "victory"


def test_the_command_itself_refuses_an_unknown_fact(tracker):
    from tests.kit.journey import COMPONENTS

    campaign = tracker.create_campaign("journey", "Contract", party=journey.PILGRIMS, components=COMPONENTS).body["id"]
    sid = tracker.start_session(campaign, "q1-meeting", setup={"initiative": journey.ORDER}).body["id"]
    before = len(tracker.session_history(sid))
    with pytest.raises(Unprocessable) as refused:
        tracker.end_session(sid, "victory", reported={"hous_cleared": True})
    assert '"hous_cleared"' in refused.value.title and '"house_cleared"' in refused.value.title
    assert len(tracker.session_history(sid)) == before


def _yokai(client) -> str:
    return yokai_quest.start(client, yokai_quest.create_campaign(client)["id"], "shake-them-skeleton-bones-1")


def _descent(client) -> str:
    cid = descent.campaign(client, ["tahlia", "aurim"], components=descent.TEST_OVERLORD_DECK)
    return descent.start(client, cid, "thing-in-the-pit")


def _kung_fu_panda(client) -> str:
    cid = kung_fu_panda.campaign(client, {"length": "single", "mission": "lesson-1"})
    return kung_fu_panda.start(client, cid, "lesson-1", {"start_tile": "t"})


@pytest.mark.parametrize("begin", [_yokai, _descent, _kung_fu_panda], ids=["yokai-quest", "descent", "kung-fu-panda"])
def test_every_game_refuses_a_fact_its_quest_does_not_take(client, begin):
    sid = begin(client)
    before = session.total(client, sid)
    refused = client.post(f"/sessions/{sid}/end", json={"outcome": "defeat", "ruling": "the table stops here", "reported": {"hous_cleared": False}})
    assert refused.status_code == 422 and '"hous_cleared"' in refused.json["title"], refused.json
    assert session.total(client, sid) == before
