"""The Thing in the Pit's secret room through the API, on SQLite and PostgreSQL (L351-L361).

L352: "At the start of the quest, roll a power die. If the result is a power surge, the encounter marker in Zone 1 is
the real one. On a power enhancement, the westernmost encounter marker in Zone 2 is the real one. If the result is a
blank, the easternmost encounter marker in Zone 2 is the real one. Remember to note where the real encounter marker is."
The overlord notes it; the heroes learn it only by searching (L355-L361), so nothing they can read tells it before."""

from __future__ import annotations

from tests.kit.descent import act, campaign, refused as _refused, start, verified
from tests.kit.secrets import bearer, compact, mint, readable

# L355: "A hero must make a prolonged Ranged (4) action on the encounter marker"; Kirga's ranged trait is stated
SEARCH = {"type": "prolonged-roll", "hero": "kirga", "task": "secret-room-search", "trait": "ranged", "trait_value": 4, "half_action": "order"}
FOUR = ["enhancement"] * 4


def _q1(client):
    cid = campaign(client, ["kirga", "aurim"])
    return cid, start(client, cid, "thing-in-the-pit")


def test_the_real_marker_follows_the_power_die_and_only_a_search_on_it_reveals_zone_3(client):
    cid, sid = _q1(client)
    # no search completes before the overlord has noted the real marker (L352)
    assert "secret-room-roll" in _refused(client, sid, **SEARCH, marker="zone-1", faces=FOUR)["detail"]
    overlord = bearer(mint(client, cid, role="player", side="overlord"))
    rolled = client.post(f"/sessions/{sid}/actions", json={"type": "secret-room-roll", "face": "enhancement"}, headers=overlord)
    assert rolled.status_code == 201, rolled.json
    assert rolled.json["state"]["game"]["secret_room"]["real"] == "zone-2-west"  # L352: "On a power enhancement, the westernmost ... in Zone 2"
    assert _refused(client, sid, type="secret-room-roll", face="surge")["title"] == "The secret room's die was already rolled"
    assert "Encounter markers of Zones 1 and 2" in _refused(client, sid, **SEARCH, marker="zone-9", faces=FOUR)["detail"]

    # L356-L358: a search completed on a false marker is a false alarm, and the marker is removed
    false = act(client, sid, **SEARCH, marker="zone-1", faces=FOUR)
    found = next(e["payload"]["change"] for e in false["events"] if e["type"] == "SecretRoomSearched")
    assert found == {"kind": "secret-room-searched", "marker": "zone-1", "hero": "kirga", "real": False}
    assert _refused(client, sid, **SEARCH, marker="zone-1", faces=FOUR)["title"] == "The encounter marker zone-1 was already searched"
    # progress is the hero's own on each marker (L355): two enhancements on the real one do not complete it
    act(client, sid, **SEARCH, marker="zone-2-west", faces=["enhancement", "enhancement", "blank", "surge"])
    done = act(client, sid, **SEARCH, marker="zone-2-west", faces=["enhancement", "enhancement", "blank", "blank"])
    found = next(e["payload"]["change"] for e in done["events"] if e["type"] == "SecretRoomSearched")
    assert found == {"kind": "secret-room-searched", "marker": "zone-2-west", "hero": "kirga", "real": True, "zone_revealed": "zone-3"}  # L360-L361
    assert done["state"]["game"]["secret_room"]["found"] == "zone-2-west"
    verified(client, sid)


def test_the_secret_room_roll_is_the_overlords_secret_in_every_channel_until_the_quest_ends(app, client):
    cid, sid = _q1(client)
    overlord = bearer(mint(client, cid, role="player", side="overlord"))
    heroes = bearer(mint(client, cid, role="player", side="heroes"))
    refused = client.post(f"/sessions/{sid}/actions", json={"type": "secret-room-roll", "face": "blank"}, headers=heroes)
    assert refused.status_code == 403, refused.json  # the overlord rolls it (L352 speaks to him)
    rolled = client.post(f"/sessions/{sid}/actions", json={"type": "secret-room-roll", "face": "blank"}, headers=overlord)
    assert rolled.status_code == 201, rolled.json
    # an undo names what it takes back: it must not show the heroes the face either; roll again after it
    assert client.post(f"/sessions/{sid}/undo", headers=overlord).status_code == 201
    rolled = client.post(f"/sessions/{sid}/actions", json={"type": "secret-room-roll", "face": "blank"}, headers=overlord)
    assert rolled.status_code == 201, rolled.json
    secrets = ["zone-2-east", '"blank"', "blankonthepower", "secretroom'spowerdie"]  # the marker, the face, the timeline's line
    viewers = [heroes, bearer(mint(client, cid, role="viewer")), bearer(mint(client, cid, role="player", heroes=["kirga"])),
               bearer(mint(client, cid, role="integration"))]
    for token in viewers:
        text = compact(readable(app, client, token, cid, sid))
        for secret in secrets:
            assert secret not in text, f"{secret!r} can be read"
    assert "zone-2-east" in compact(readable(app, client, overlord, cid, sid))  # the check can see it where it is shown
    statistics = client.get(f"/campaigns/{cid}/dice-statistics", headers=heroes).get_data(as_text=True)
    assert "blank" not in statistics  # one die more on a face would tell it

    # once the quest ends, the heroes read what the overlord noted
    act(client, sid, type="award-conquest", award="thing-defeated")  # 8 + 4 = 12: the heroes have completed their quest
    assert client.post(f"/sessions/{sid}/end", json={"outcome": "victory"}).status_code == 200
    state = client.get(f"/sessions/{sid}", headers=heroes).json
    assert state["game"]["secret_room"]["real"] == "zone-2-east"
    report = client.get(f"/sessions/{sid}/verification", headers=heroes).json
    assert report["status"] == "verified" and any(r.get("purpose") == "the secret room's power die" for r in report["rolls"]), report


def _power_faces(app, client, cid, headers=None):
    app.extensions["tracker_views"].catch_up()
    faces = client.get(f"/campaigns/{cid}/dice-statistics", headers=headers or {}).json["faces"]
    return {row["face"]: row["count"] for row in faces if row["die"] == "power"}


def test_the_secret_rooms_die_is_counted_in_the_dice_statistics_once_the_quest_ends(app, client):
    # L352: "At the start of the quest, roll a power die." The overlord notes the result; the statistics every side reads
    # count it only once the quest ends and the game reveals it, and count it once.
    cid, sid = _q1(client)
    overlord = bearer(mint(client, cid, role="player", side="overlord"))
    heroes = bearer(mint(client, cid, role="player", side="heroes"))
    assert client.post(f"/sessions/{sid}/actions", json={"type": "secret-room-roll", "face": "enhancement"}, headers=overlord).status_code == 201
    assert client.post(f"/sessions/{sid}/undo", headers=overlord).status_code == 201  # taken back: never counted
    assert client.post(f"/sessions/{sid}/actions", json={"type": "secret-room-roll", "face": "blank"}, headers=overlord).status_code == 201
    for token in (heroes, overlord, None):  # the statistics are one answer for every reader: nothing of the die before the end
        assert not any(_power_faces(app, client, cid, token).values())
    assert '"blank"' not in compact(readable(app, client, heroes, cid, sid))

    act(client, sid, type="award-conquest", award="thing-defeated")
    assert client.post(f"/sessions/{sid}/end", json={"outcome": "victory"}).status_code == 200
    counted = _power_faces(app, client, cid, heroes)
    assert counted.get("blank") == 1 and sum(counted.values()) == 1  # the kept roll, once; the undone one not at all
    # a rebuild from the log reaches the same count
    views = app.extensions["tracker_views"]
    views.rebuild()
    assert _power_faces(app, client, cid, heroes) == counted
