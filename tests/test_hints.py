"""A refusal for a fact the rulebooks lost shows, as `example`, a body of the same action that reports it from the table.

Each example is checked against the schema the ruleset document publishes for the action it names (never the
code's), and where the example's stand-in values are real faces, it is posted and accepted."""

from __future__ import annotations

from tests.kit import schema_checks, yokai_quest as yokai_play
from tests.kit.kung_fu_panda import TEST_COMPONENTS as KUNG_FU_PANDA_COMPONENTS
from tests.kit.session import post as _post


def _fits_its_action(client, ruleset: str, example: dict) -> None:
    schemas = {action["type"]: action["schema"] for action in client.get(f"/rulesets/{ruleset}").json["actions"]}
    schema_checks.validate(example, schemas[example["type"]])


def _hint(client, sid: str, action: dict) -> dict:
    refused = client.post(f"/sessions/{sid}/actions", json=action)
    assert refused.status_code == 422, refused.json
    assert "example" in refused.json, refused.json
    return refused.json


def test_meditate_without_the_spinners_faces_is_shown_its_spin(client):
    cid = _post(client, "/campaigns", {"ruleset": "journey", "name": "J", "party": ["tripitaka"]})["id"]
    sid = _post(client, f"/campaigns/{cid}/sessions", {"quest": "q1-meeting"})["id"]
    state = _post(client, f"/sessions/{sid}/actions", {"type": "maintenance"})["state"]
    (hero,) = next(e["heroes"] for e in state["allowed"] if e["type"] == "activate-pilgrim")  # whoever's turn it is
    _post(client, f"/sessions/{sid}/actions", {"type": "activate-pilgrim", "hero": hero})
    problem = _hint(client, sid, {"type": "meditate", "hero": hero})
    example = problem["example"]
    assert example["spin"] in ("white", "black") and "faces" not in example and '"spin"' in problem["detail"]
    _fits_its_action(client, "journey", example)
    example = {**example, "spin": "black", "drawn": {"misfortune": ["Stumble"]}}  # black: a Misfortune Card, drawn at the table
    _post(client, f"/sessions/{sid}/actions", example)


def test_a_descent_prolonged_roll_is_shown_a_flat_list_of_faces(client):
    cid = _post(client, "/campaigns", {"ruleset": "descent", "name": "D", "party": ["aurim", "tahlia"]})["id"]
    sid = _post(client, f"/campaigns/{cid}/sessions", {"quest": "hall-of-the-monkey-kings", "setup": {}})["id"]
    _post(client, f"/sessions/{sid}/actions", {"type": "start-hero-turn", "hero": "aurim"})  # he rolls in his turn
    search = {"type": "prolonged-roll", "hero": "aurim", "task": "secret-door", "trait": "magic", "difficulty": 2, "disruptable": True, "half_action": "order"}
    example = _hint(client, sid, search)["example"]
    assert isinstance(example["faces"], list) and len(example["faces"]) == 1
    _fits_its_action(client, "descent", example)
    _post(client, f"/sessions/{sid}/actions", example)


def test_a_kung_fu_panda_roll_is_shown_a_flat_list_of_faces(client):
    body = {"ruleset": "kung-fu-panda", "name": "K", "party": ["po", "tigress"], "options": {"length": "single", "mission": "m2-1"}}
    cid = _post(client, "/campaigns", body)["id"]
    setup = {"start_tile": "F", "end_tile": "s", "enemies": {"F": {"ox-grunt": 1}}, "special_moves": {"po": "A", "tigress": "B"}}
    sid = _post(client, f"/campaigns/{cid}/sessions", {"quest": "m2-1", "setup": setup})["id"]
    _post(client, f"/sessions/{sid}/actions", {"type": "start-round"})
    example = _hint(client, sid, {"type": "roll", "hero": "po"})["example"]
    assert isinstance(example["faces"], list) and len(example["faces"]) == 4  # all four Action Dice at a round's start
    _fits_its_action(client, "kung-fu-panda", example)
    _post(client, f"/sessions/{sid}/actions", example)
    assert KUNG_FU_PANDA_COMPONENTS["dice"]["action-die"]  # (with the faces supplied, the same roll is digital)


def test_a_yokai_treasure_draw_is_shown_its_card_field(client):
    _, sid = None, yokai_play.start(client, yokai_play.create_campaign(client)["id"], "shake-them-skeleton-bones-1")
    yokai_play.spawn(client, sid, {"hone-bushi": 8})
    yokai_play.strike(client, sid, "ryo", ["hone-bushi"] * 5)  # the fifth treasure token: a card is owed
    problem = _hint(client, sid, {"type": "draw-treasure", "hero": "ryo"})
    example = problem["example"]
    assert "card" in example and "cards" not in example
    _fits_its_action(client, "yokai-quest", example)
    _post(client, f"/sessions/{sid}/actions", {**example, "card": "Hibana"})


def test_an_attack_refused_for_lost_facts_names_all_of_them_at_once(client):
    cid = _post(client, "/campaigns", {"ruleset": "journey", "name": "J", "party": ["monkey-king"]})["id"]
    sid = _post(client, f"/campaigns/{cid}/sessions", {"quest": "q1-meeting"})["id"]
    state = _post(client, f"/sessions/{sid}/actions", {"type": "maintenance"})["state"]
    (hero,) = next(e["heroes"] for e in state["allowed"] if e["type"] == "activate-pilgrim")
    _post(client, f"/sessions/{sid}/actions", {"type": "activate-pilgrim", "hero": hero})
    target, character = next(iter(state["game"]["demons"].items()))
    refused = client.post(f"/sessions/{sid}/actions", json={"type": "pilgrim-attack", "hero": hero, "target": target})
    assert refused.status_code == 422
    named = set(refused.json["errors"])
    missing = client.get(f"/campaigns/{cid}/components/missing").json["blocks"]["actions"]["pilgrim-attack"]
    wanted = {"components.dice.attack.faces", "components.dice.pilgrim.faces", "components.tables.weapons",
              f"components.characters.{character}.stats.HP", f"components.characters.{character}.stats.BKR", f"components.characters.{character}.stats.SP"}
    assert wanted <= named and wanted <= set(missing)
    assert not any(path.startswith("components.characters.") and character not in path and hero not in path for path in named)
    assert client.get(f"/sessions/{sid}/events").json["total"] == client.get(f"/sessions/{sid}").json["version"]  # nothing appended
    # Reported faces need no die faces: those are no longer named.
    refused = client.post(f"/sessions/{sid}/actions", json={"type": "pilgrim-attack", "hero": hero, "target": target, "faces": {"attack": ["2"], "pilgrim": ["1"]}})
    assert refused.status_code == 422 and not any(path.startswith("components.dice.") for path in refused.json["errors"])


def test_a_demon_card_drawn_at_the_table_is_played_as_the_table_says_it(client):
    cid = _post(client, "/campaigns", {"ruleset": "journey", "name": "J", "party": ["tripitaka"]})["id"]
    sid = _post(client, f"/campaigns/{cid}/sessions", {"quest": "q1-meeting"})["id"]
    _post(client, f"/sessions/{sid}/actions", {"type": "maintenance"})
    state = _post(client, f"/sessions/{sid}/actions", {"type": "demon-phase"})["state"]
    gates = sorted(g for g, s in state["game"]["gates"].items() if s == "active")
    spawn = {"type": "spawn-demons", "gates": gates, "drawn": {"demon": ["Two Berroks"]}}
    refused = client.post(f"/sessions/{sid}/actions", json=spawn)
    assert refused.status_code == 422 and "cards_said.Two Berroks" in refused.json["errors"]
    said = {**spawn, "cards_said": {"Two Berroks": {"kind": "reinforcement", "spawns": ["berrok", "boof"]}}}
    _fits_its_action(client, "journey", said)
    answer = _post(client, f"/sessions/{sid}/actions", said)
    placed = [e["payload"]["change"]["character"] for e in answer["events"] if e["type"] == "DemonSpawned"]
    assert placed == ["berrok", "boof"]
    recorded = [e for e in client.get(f"/sessions/{sid}/events?limit=200").json["events"] if e["type"] == "ActionTaken"][-1]
    assert recorded["payload"]["action"]["cards_said"] == said["cards_said"]  # recorded as stated
    _post(client, f"/sessions/{sid}/abandon", {"reason": "checking a spawn"}, 200)
    assert client.get(f"/sessions/{sid}/verification").json["status"] == "verified"
