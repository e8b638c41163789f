"""Campaigns pinned to Yōkai Quest 1.0.0, played step by step through the REST API: the plays recorded in
tests/fixtures/yokai_1_0_0_plays.json (tests/fixtures/make_yokai_1_0_0_plays.py) with what 1.0.0's resolvers
answered, which tests/yokai_quest/test_pinned_1_0_0_plays.py replays under today's code."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tests.kit.yokai_quest import YOKAI_TEST_COMPONENTS
from tracker import rulesets

PIN_1_0_0 = {"id": "yokai-quest", "version": "1.0.0", "hash": "sha256:f13a772fc8ff2023e9f0f506b73ed5b21e93cd8aa73e5366fea943e8c8728653"}

# What differs between two runs of the same play, and what is not the resolvers' answer.
VOLATILE = {"id", "session_id", "campaign_id", "seed", "seed_commitment", "version", "log_position", "meta", "timestamp"}


def answer(value: Any) -> Any:
    """The part of an answer the rules decide."""
    if isinstance(value, Mapping):
        return {key: answer(item) for key, item in value.items() if key not in VOLATILE}
    if isinstance(value, list):
        return [answer(item) for item in value]
    return value


def _said(response: Any, part: str | None = None) -> list[Any]:
    """A refusal by its status alone (its wording may improve); an accepted step by what it recorded: an action's
    events, a session's set-up (its game), a session's end."""
    if response.status_code >= 400:
        return [response.status_code]
    said = response.json
    if part == "game":  # the ruleset's id the answer names in its game state (api/schemas.py) came after these recordings
        return [response.status_code, answer({key: value for key, value in said["state"]["game"].items() if key != "ruleset"})]
    return [response.status_code, answer(said[part] if part else said)]


def play(client: Any, name: str, plan: Mapping[str, Any]) -> tuple[list[list[Any]], list[str]]:
    """Play ``plan`` (its campaign options and steps) in a new campaign; the answers and the sessions played."""
    body = {"ruleset": "yokai-quest", "name": name, "party": ["ryo", "ami"], "components": YOKAI_TEST_COMPONENTS}
    created = client.post("/campaigns", json={**body, **({"options": plan["options"]} if plan["options"] else {})})
    assert created.status_code == 201 and created.json["ruleset"] == PIN_1_0_0, created.json
    campaign_id, session_id, sessions, answers = created.json["id"], None, [], []
    for step in plan["steps"]:
        if "start" in step:
            response = client.post(f"/campaigns/{campaign_id}/sessions", json={"quest": step["start"], "setup": step.get("setup", {})})
            if response.status_code == 201:
                session_id = response.json["id"]
                sessions.append(session_id)
            answers.append(_said(response, "game"))
        elif "end" in step:
            response = client.post(f"/sessions/{session_id}/end", json={"outcome": step["end"]})
            answers.append(_said(response) + [answer(client.get(f"/campaigns/{campaign_id}").json["progress"])])
        elif "draw_owed" in step:
            while owed := client.get(f"/sessions/{session_id}").json["game"]["treasure_owed"]:
                drawn = client.post(f"/sessions/{session_id}/actions", json={"type": "draw-treasure", "hero": owed[0]["hero"], "card": "Nigiri"})
                assert drawn.status_code == 201, drawn.json
                answers.append(_said(drawn, "events"))
        else:
            answers.append(_said(client.post(f"/sessions/{session_id}/actions", json=step["action"]), "events"))
    return answers, sessions


def pinned_to_1_0_0(monkeypatch: Any) -> None:
    """A server from before 1.1.0: new Yōkai Quest campaigns pin 1.0.0 (its archived data and contract)."""
    rulesets.archived.cache_clear()
    old = rulesets.resolve(PIN_1_0_0)
    known = rulesets.registry()
    monkeypatch.setattr(rulesets, "registry", lambda: {**known, "yokai-quest": old})
