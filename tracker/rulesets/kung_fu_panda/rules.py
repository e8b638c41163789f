"""Kung Fu Panda's GameRules, built from the rules data it judges by: its missions' verdicts, the story's chain and
carry-over, the standing and the turn order of real-time rounds."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from tracker.rulesets.kung_fu_panda import allowed as next_actions
from tracker.rulesets.kung_fu_panda import campaign, costs, describe, pauses, rounds, setup, spends, standing, table_words, verdict, versions
from tracker.rulesets.kung_fu_panda import state as game_state
from tracker.rulesets.kung_fu_panda.schemas import OPTIONS
from tracker.rulesets.engine.ruleset import GameRules
from tracker.rulesets.kung_fu_panda.state_schema import SCHEMA as STATE_SCHEMA


class Rules(GameRules):
    changes = game_state.CHANGES
    actor_fields = ("hero", "heroes")
    options_schema = OPTIONS
    # spends.py: knocking out the Wolf Boss; while its cost is lost the table's spend stands, recorded as cost unknown
    lost_fact_uses = {"tables.wolf-boss-ko-cost": {"actions": ["spend", "round-summary"],
                                                   "per_use": 'nothing to send: the dice the table spends stand, recorded with "cost_known": false'}}
    setup_schema = setup.SCHEMA
    state_schema = STATE_SCHEMA  # the game state as a session answer carries it
    party_roles = ("hero",)  # L46: "Each player chooses one of the six heroes"
    played_in_rounds = True  # L71: "played in three-minute rounds ... with pauses in between"

    def __init__(self, data: Mapping[str, Any]) -> None:
        super().__init__(data)
        for rule in (costs, rounds, pauses, spends):  # what the rules data says that a rule's module cannot play, refused at load
            rule.refuse_unplayable(data)
        self.missions = {mission["id"]: mission for mission in data["quests"]}
        self.version = versions.of(data["version"])  # the rules of the rules data's version (an archived one's, for its campaigns)
        # L46: "Each player chooses one of the six heroes"; L47-50: "Which Dials of Destiny you should use depends on ...
        # the number of players: - 2 Players: Dials 1 and 2 ... - 4 Players: Dials 1, 2, 3 and 4". A party is as many
        # heroes as the dial table has a row for, and only heroes (the characters list the enemies too).
        counts = [int(players) for players in data["destiny"]["dials_by_players"]]
        self.fewest_heroes, self.most_heroes = min(counts), max(counts)

    def allowed(self, quest: str, game: Mapping[str, Any], turn: int, actions: Sequence[str]) -> list[dict[str, Any]]:
        return next_actions.allowed_now(game, actions, self.data["modes"])

    def verdict(self, quest: str, game: Mapping[str, Any], turn: int) -> dict[str, str] | None:
        return verdict.verdict(self.missions[quest], game, self.version)

    def end_refusal(self, quest: str, game: Mapping[str, Any], turn: int, outcome: str, reported: Mapping[str, Any]) -> str | None:
        return verdict.end_refusal(self.missions[quest], game, outcome, self.data["tiles"])


    def turn_said(self, game: Mapping[str, Any], turn: int) -> str:
        return table_words.turn_said(game)

    def choices(self, quest: str, game: Mapping[str, Any]) -> dict[str, dict[str, str]]:
        return table_words.choices(self.data, self.missions.get(quest), game)

    def chain(self, data: Mapping[str, Any], options: Mapping[str, Any]) -> list[str]:
        return campaign.chain(data, options)

    def carry_over(self, progress: Mapping[str, Any], game: Mapping[str, Any], quest: str, outcome: str, options: Mapping[str, Any]) -> dict[str, Any]:
        return campaign.carry_over(progress, game, quest, outcome, options)

    def standing(self, records: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
        return standing.standing(records)

    def describe(self, change: Mapping[str, Any]) -> str | None:
        return describe.describe(change, self.data)

    def field_names(self) -> dict[str, dict[str, str]]:
        return table_words.field_names(self.data["tiles"])
