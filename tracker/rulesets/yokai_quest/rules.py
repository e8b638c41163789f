"""Yōkai Quest's GameRules, built from the rules data it judges by: its scenes' stories, carry-over, turn order and
verdicts."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tracker.rulesets.engine import allowed, reported_facts
from tracker.rulesets.engine.ruleset import GameRules
from tracker.rulesets.yokai_quest.state_schema import SCHEMA as STATE_SCHEMA
from tracker.rulesets.yokai_quest import log_verdict
from tracker.rulesets.yokai_quest import campaign, combat, describe, entrance, heroes, lookup, owed as table_owes, setup, state, versions


class Rules(GameRules):
    changes = state.CHANGES
    actor_fields = ("hero", "attacker")
    setup_schema = setup.SCHEMA
    state_schema = STATE_SCHEMA  # the game state as a session answer carries it
    # allowed.py: "a turn is a Hero phase, then a Yōkai phase" (L152); end-turn closes the Yōkai phase, a step of the turn
    turn_steps = ("end-turn",)
    # lookup.py: a hero's Health is needed from the set-up on (L278-L280); the table may state it there.
    lost_fact_uses = {"hero.health": {"quest_setup": True, "per_use": 'state it when the session starts: "setup": {"health": {"<hero>": n}}'}}

    def __init__(self, data: Mapping[str, Any]) -> None:
        super().__init__(data)
        self.version = versions.of(data["version"])  # the rules of the version the campaign pinned
        # the rules data this code cannot play is refused as it loads, each check in its rule's module
        for require_playable in (campaign.require_playable, combat.require_playable, entrance.require_playable, heroes.require_revival_item, lookup.require_abilities_counted):
            require_playable(data)
        self.options_schema = campaign.options_schema(data)

    def carry_over(self, progress, game, quest, outcome, options) -> dict[str, Any]:
        return self.version.carry_over(self.data, progress, game, quest, outcome, options)

    def chain(self, data: Mapping[str, Any], options: Mapping[str, Any]) -> list[str]:
        return campaign.chain(data, list(data.get("campaign", {}).get("chain") or []), options)

    def field_names(self) -> dict[str, dict[str, str]]:
        """The heroes' (their own and their class's) and foes' abilities by their names in the rules data ("kiri-susumu":
        Kiri Susumu), wherever a field names one: the set-up's loadouts ("abilities"), an ability used ("ability")."""
        holders = [*self.data.get("characters", []), *(self.data.get("classes") or {}).values()]  # a hero's own, his class's
        named = {a["id"]: a["name"] for holder in holders if isinstance(holder, Mapping) for a in holder.get("abilities") or []
                 if isinstance(a, Mapping) and a.get("id") and a.get("name")}
        return {"abilities": named, "ability": named}

    def describe(self, change: Mapping[str, Any]) -> str | None:
        return describe.describe(change)

    def owed(self, quest: str, game: Mapping[str, Any], turn: int) -> list[str]:
        named = {c["id"]: c.get("name") or c["id"] for c in self.data.get("characters", [])}
        return table_owes.owed(game, named)

    def allowed(self, quest: str, game: Mapping[str, Any], turn: int, actions: Sequence[str]) -> list[dict[str, Any]]:
        return self.version.allowed(self, quest, game, turn, actions)

    def verdict(self, quest: str, game: Mapping[str, Any], turn: int) -> dict[str, str] | None:
        return self.version.verdict(self.data, game, turn)

    def _scene(self, scene_id: str) -> Mapping[str, Any]:
        return next(q for q in self.data["quests"] if q["id"] == scene_id)

    def reported_schema(self, quest: str) -> dict[str, Any]:
        """The facts a scene's end takes from the table: each condition that asks for one, by its id, in its words. They
        are stated with the end-scene action that records the scene's end."""
        scene = self._scene(quest)
        return reported_facts.schema({
            c["id"]: {"type": "string", "minLength": 1, "maxLength": 500, "description": f"{c['reported']} ({c.get('source', scene.get('source', ''))})"}
            for c in scene["victory"] + scene["achievements"] if c.get("reported")
        })

    def awaited(self, quest: str, game: Mapping[str, Any], turn: int) -> list[str]:
        return log_verdict.awaited(self._scene(quest), game) if game.get("scene") else []

    def end_pending(self, quest: str, game: Mapping[str, Any], verdict: Mapping[str, Any]) -> str | None:
        return log_verdict.end_pending(game, verdict)

    def closing(self, quest: str, game: Mapping[str, Any], verdict: Mapping[str, Any], actions: Sequence[str]) -> list[dict[str, Any]]:
        """Once decided: the scene's end where the log won it (end-scene records its rewards), then the treasure it owes."""
        entries = []
        if verdict["outcome"] == "victory" and game.get("scene_result") is None:
            entries.append(allowed.entry("end-scene"))
        owed = sorted({o["hero"] for o in game.get("treasure_owed") or []})
        if owed:
            entries.append(allowed.entry("draw-treasure", owed))
        return [e for e in entries if e["type"] in actions]

    def end_refusal(self, quest: str, game: Mapping[str, Any], turn: int, outcome: str, reported: Mapping[str, Any]) -> str | None:
        return self.version.end_refusal(next(q for q in self.data["quests"] if q["id"] == quest), game, outcome)
