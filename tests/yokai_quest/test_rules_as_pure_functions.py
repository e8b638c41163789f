"""Yōkai Quest's rules as pure functions: kept results, blows, the fold, and carry-over."""

from __future__ import annotations

from tracker import rulesets
from tracker.rulesets.yokai_quest import campaign, combat, state

DATA = rulesets.get("yokai-quest").data


def test_kept_results_and_blows():
    attack = {"red": ["katana", "helmet", "katana-helmet"], "blue": ["blank", "katana"]}
    assert combat.kept(attack, DATA["combat"]["attack_keeps"]) == 3
    assert combat.kept(attack, DATA["combat"]["defense_keeps"]) == 2
    assert combat.blows(3, 1) == 2 and combat.blows(1, 3) == 0


def _game(**hero_changes):
    hero = {**state.new_standing(6, DATA["hero_rules"]["equipment_slots"]), **hero_changes}
    return {
        "story": "shake-them-skeleton-bones", "scene": "shake-them-skeleton-bones-2", "attempt": 1, "board_kept": True,
        "heroes": {"ryo": hero}, "start_heroes": {"ryo": state.new_standing(6, DATA["hero_rules"]["equipment_slots"]) | {"hand": ["Mochi"]}},
        "treasure_reserve": 3, "treasure_owed": [], "achievements": [], "scene_result": None,
    }


def test_carry_over_follows_a_table_ruling_without_the_scenes_rewards_or_penalty():
    """Only a ruling reaches carry-over against the scene's end (the end is refused otherwise): the campaign follows it."""
    won = campaign.carry_over(DATA, {}, _game(), "shake-them-skeleton-bones-2", "victory", {})
    assert won["next_quest"] == "shake-them-skeleton-bones-3" and won["stories"]["shake-them-skeleton-bones"]["scenes"]["shake-them-skeleton-bones-2"]["result"] == "victory"
    game = state.fold(_game(), {"kind": "scene-ended", "outcome": "victory", "treasure_owed": []})
    ruled = campaign.carry_over(DATA, {}, game, "shake-them-skeleton-bones-2", "defeat", {})
    assert ruled["next_quest"] == "shake-them-skeleton-bones-2" and ruled["attempt"] == 2


def test_a_failed_scene_is_reattempted_from_its_start_then_the_story_is_lost():
    game = state.fold(_game(health=1, hand=["Mochi", "Soba"]), {"kind": "scene-ended", "outcome": "failed", "treasure_owed": []})
    progress = campaign.carry_over(DATA, {}, game, game["scene"], "defeat", {})
    assert progress["next_quest"] == game["scene"] and progress["attempt"] == 2 and progress["treasure_reserve"] == 0
    assert progress["heroes"]["ryo"]["health"] == 6 and progress["heroes"]["ryo"]["hand"] == ["Mochi"]
    again = {**game, "attempt": 2}
    lost = campaign.carry_over(DATA, progress, again, game["scene"], "defeat", {})
    assert lost["next_quest"] == "shake-them-skeleton-bones-1"
    assert lost["stories"]["shake-them-skeleton-bones"]["status"] == "lost"


def test_a_discard_penalty_applies_to_the_standing_the_reattempt_restores():
    game = state.fold(_game(), {"kind": "scene-ended", "outcome": "failed", "treasure_owed": []})
    game = state.fold(game, {"kind": "defeat-penalty-applied", "penalty": "discard-hand", "text": "", "discarded": {"ryo": ["Mochi"]}})
    progress = campaign.carry_over(DATA, {}, game, game["scene"], "defeat", {})
    assert progress["heroes"]["ryo"]["hand"] == []


def test_one_story_alone_is_the_campaign_chain():
    assert campaign.chain(DATA, DATA["campaign"]["chain"], {"story": "rain-of-flames"}) == ["rain-of-flames-1"]
    assert len(campaign.chain(DATA, DATA["campaign"]["chain"], {})) == 14


def test_every_null_in_the_rules_data_is_explained():
    def nulls(value, path=""):
        if value is None:
            yield path
        elif isinstance(value, dict):
            for key, item in value.items():
                if key != "unknowns":
                    yield from nulls(item, f"{path}.{key}" if path else key)

    for item in next(d for d in DATA["decks"] if d["id"] == "treasure")["known_cards"]:
        assert set(nulls(item)) == set(item["unknowns"]), item["name"]
