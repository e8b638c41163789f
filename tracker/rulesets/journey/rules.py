"""Journey's GameRules, built from the rules data it judges by: its events, state fold, campaign options, verdicts and
carry-over between quests."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tracker.rulesets.journey import allowed as next_actions
from tracker.rulesets.journey import attack, lost_facts, owed as table_owes, readings, setup, state, versions
from tracker.rulesets.journey.describe import describe
from tracker.rulesets.journey import verdict as quest_verdict
from tracker.rulesets.journey.setup import PART_1
from tracker.rulesets.engine import reported_facts
from tracker.rulesets.engine.ruleset import GameRules
from tracker.rulesets.journey.state_schema import SCHEMA as STATE_SCHEMA

WINS = ("victory", "heroic-victory")


class Rules(GameRules):
    changes = state.CHANGES
    actor_fields = ("hero", "pilgrim", "character")  # character: the Demon a quest rule places
    options_schema = {
        "type": "object",
        "properties": {
            "mode": {
                "enum": ["individual", "linked"],
                "description": "individual: each quest starts fresh; linked (back-to-back): Karma and cards carry over (L666-L684).",
            }
        },
        "additionalProperties": False,
    }
    setup_schema = setup.SCHEMA
    state_schema = STATE_SCHEMA  # the game state as a session answer carries it
    lost_fact_uses = lost_facts.USES

    def allowed(self, quest: str, game: Mapping[str, Any], turn: int, actions: Sequence[str]) -> list[dict[str, Any]]:
        return next_actions.allowed_now(game, actions, self.quests.get(quest))

    def __init__(self, data: Mapping[str, Any]) -> None:
        super().__init__(data)
        setup.refuse_unplayable(data)  # what the rules data says that the rules' modules cannot play, refused at load
        attack.refuse_unplayable(data)
        self.carried = setup.carried_between_quests(data)  # what a Pilgrim keeps between linked quests (L682-L683)
        self.version = versions.of(data["version"])  # the rules of the rules data's version (an archived one's, for its campaigns)
        self.changes = self.version.changes  # its kinds of change, folded as the version's code recorded them
        # Each quest's end, victory and defeat conditions, from the rules data (ruleset.json "outcomes").
        self.outcomes = {quest["id"]: quest["outcomes"] for quest in data["quests"] if quest.get("outcomes")}
        # Each quest's rules data, by id: which actions the quest has at all (allowed.py).
        self.quests = {quest["id"]: quest for quest in data["quests"]}
        # The words its verdicts' reasons record, naming the data's characters (the version's: older ones re-derive theirs).
        self.verdicts = self.version.verdicts({c["id"]: c.get("name") or c["id"] for c in data.get("characters", [])})

    def verdict(self, quest: str, game: Mapping[str, Any], turn: int) -> dict[str, str] | None:
        if quest not in self.outcomes or "record" not in game:
            return None  # a session set up before quests kept their record: nothing to decide from
        return quest_verdict.verdict(game, self.outcomes[quest], self.verdicts)

    def end_refusal(self, quest: str, game: Mapping[str, Any], turn: int, outcome: str, reported: Mapping[str, Any]) -> str | None:
        if quest not in self.outcomes or "record" not in game:
            return None
        return quest_verdict.end_refusal(game, self.outcomes[quest], outcome, reported)

    def reported_schema(self, quest: str) -> dict[str, Any]:
        return reported_facts.schema(quest_verdict.reported_facts(self.outcomes.get(quest) or {}))

    def awaited(self, quest: str, game: Mapping[str, Any], turn: int) -> list[str]:
        if quest not in self.outcomes or "record" not in game:
            return []
        return quest_verdict.awaited(game, self.outcomes[quest])


    anytime_actions = next_actions.ANYTIME

    def owed(self, quest: str, game: Mapping[str, Any], turn: int) -> list[str]:
        named = {c["id"]: c.get("name") or c["id"] for c in self.data.get("characters", [])}
        return table_owes.owed(game, named)

    def describe(self, change: Mapping[str, Any]) -> str | None:
        return describe(change)

    def carry_over(
        self, progress: Mapping[str, Any], game: Mapping[str, Any], quest: str, outcome: str, options: Mapping[str, Any]
    ) -> dict[str, Any]:
        carried = dict(progress)
        heroes = game.get("heroes") or {}
        stated = readings.carried(progress, game)
        if stated:
            carried["readings"] = stated  # a reading the table stated holds for the whole campaign (readings.py)
        if quest == PART_1:
            # Q10 is one quest in two parts: Part 2 starts from exactly where Part 1 ended (L1081-L1083).
            carried["q10_part_1"] = {"heroes": heroes, "initiative": game.get("initiative")} if outcome in WINS else None
        if options.get("mode") == "linked" and heroes:
            # Between linked quests Health, Chi and conditions reset; Karma and cards carry (L680-L684).
            carried["heroes"] = {hero: {key: sheet[key] for key in self.carried} for hero, sheet in heroes.items()}
        return carried
