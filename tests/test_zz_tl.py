from tests.kit.yokai_quest import LOADOUTS, YOKAI_TEST_COMPONENTS
from tests.kit.descent import SHEETS, TEST_OVERLORD_DECK
def test_tl(client, app):
    made = client.post("/campaigns", json={"ruleset": "yokai-quest", "name": "Friday", "party": ["ryo", "ami"], "components": YOKAI_TEST_COMPONENTS}).json
    first = client.get(f"/campaigns/{made['id']}").json["next_quest"]
    sid = client.post(f"/campaigns/{made['id']}/sessions", json={"quest": first, "setup": {"abilities": LOADOUTS}}).json["id"]
    print(client.get(f"/sessions/{sid}").json["allowed"][:6])
    made2 = client.post("/campaigns", json={"ruleset": "descent", "name": "Dungeon", "party": ["tahlia", "aurim"], "components": TEST_OVERLORD_DECK}).json
    sid2 = client.post(f"/campaigns/{made2['id']}/sessions", json={"quest": "mists-of-time", "setup": {"hero_sheets": SHEETS}}).json["id"]
    app.extensions["tracker_views"].catch_up()
    for s in (sid, sid2):
        for e in client.get(f"/sessions/{s}/timeline?limit=100").json["entries"]:
            print("TL", e["event_type"], "|", e["summary"])
    print(LOADOUTS)
