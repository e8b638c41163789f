"""A Demon's attack on a Pilgrim whose Health the log does not know asks for it before the dice (rules 1.5.0,
health.before_the_dice): the first refusal's example is a whole body, stating the Health for this use with the dice,
so following it with any faces the table rolled is accepted (issue 31: "no second refusal for something the first
could have named"); and no refusal tells the damage a digital roll gave, for a retry to roll again."""

from __future__ import annotations

import pytest

from tests.kit import session as kit


def _demon_phase(client) -> tuple[str, str]:
    campaign = kit.campaign(client, "journey", ["tripitaka", "monkey-king"])  # no components: every Health unknown
    started = kit.start(client, campaign["id"], campaign["next_quest"], {})
    sid = started["id"]
    for body in ({"type": "maintenance"}, {"type": "demon-phase"}):
        kit.act(client, sid, body)
    return sid, sorted(started["state"]["game"]["demons"])[0]


def test_the_first_refusal_asks_the_health_and_the_dice_and_its_example_then_takes_damage(client):
    sid, demon = _demon_phase(client)
    refused = client.post(f"/sessions/{sid}/actions", json={"type": "demon-attack", "demon": demon, "target": "tripitaka"})
    assert refused.status_code == 422 and refused.json["title"] == "Tripitaka's Health is unknown"
    example = refused.json["example"]
    assert example["stated"] == {"health": 1} and set(example["faces"]) == {"attack", "defense"}
    assert "stated.health" in refused.json["errors"] and "Then: Berrok's number of attack dice is unknown" in refused.json["detail"]
    assert "damage" not in refused.json["detail"].lower()  # asked before any die: nothing rolled is told
    # The table fills in what it reads: the Health on the sheet and faces that deal damage (3 against 0 and 0).
    body = {**example, "stated": {"health": 6}, "faces": {"attack": ["3"], "defense": ["0", "0"]}}
    attacked = kit.act(client, sid, body)
    hero = attacked["state"]["game"]["heroes"]["tripitaka"]
    assert hero["hp"] == 3
    kinds = [event["payload"]["change"]["kind"] for event in attacked["events"] if "change" in event["payload"]]
    assert kinds.index("health-reported") < kinds.index("attack-resolved") < kinds.index("damage-taken")


def test_a_stated_health_over_a_known_one_is_refused_and_appends_nothing(client):
    sid, demon = _demon_phase(client)
    kit.act(client, sid, {"type": "report-health", "hero": "tripitaka", "hp": 7})
    before = len(client.get(f"/sessions/{sid}/events").json["events"])
    refused = client.post(f"/sessions/{sid}/actions", json={"type": "demon-attack", "demon": demon, "target": "tripitaka",
                                                            "stated": {"health": 6}, "faces": {"attack": ["3"], "defense": ["0", "0"]}})
    assert refused.status_code == 422 and "leave stated.health out" in refused.json["title"]
    assert "7" in refused.json["detail"]
    assert len(client.get(f"/sessions/{sid}/events").json["events"]) == before


ATTACK = {"type": "demon-attack", "demon": "berrok-1", "target": "tripitaka"}


@pytest.mark.parametrize("version, asks_first", [("1.4.0", False), ("1.5.0", True)])
def test_before_1_5_0_the_health_was_asked_after_the_dice_and_no_stated_health_was_read(version, asks_first):
    from tracker import rulesets
    from tracker.core.errors import Unprocessable

    ruleset = next((r for r in rulesets.archived("journey") if r.version == version), None) or rulesets.get("journey")
    assert ruleset.version == version
    rules = ruleset.rules.version

    class Res:  # the one question the version asks of the resolution: the target's sheet
        game = {"heroes": {"tripitaka": {"hp": None, "max_hp": None}}, "demons": {}}

        def hero(self, hero):
            return self.game["heroes"][hero]

    if asks_first:
        with pytest.raises(Unprocessable) as refused:
            rules.health_before_the_dice(Res(), "tripitaka", ATTACK, {}, "An attack")
        assert refused.value.example["stated"] == {"health": 1}
    else:
        assert rules.health_before_the_dice(Res(), "tripitaka", ATTACK, {}, "An attack") is None
        with pytest.raises(Unprocessable) as refused:
            rules.health_before_the_dice(Res(), "tripitaka", {**ATTACK, "stated": {"health": 3}}, {}, "An attack")
        assert "Nothing in this attack needed stated.health" in refused.value.title
