"""Whether the rules have decided a mission, and which of its conditions the recorded state meets.

"There's one way to win but several ways to lose" (L189): a mission is won when every win condition its
text states holds (each mission's ``win_conditions``, checked here against the board), and lost by time's up
(L193), a full KO (L194) or a failure of the mission's own (L192), which ``failure`` detects from the board
after every change. The win is declared by the table (mission-won) and checked: the text does not say a mission
ends the moment its condition is met (the reading ``win.declared`` in the data).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tracker.core import wording
from tracker.rulesets.kung_fu_panda import state as game_state
from tracker.rulesets.kung_fu_panda.table_words import tile_name, tile_names

LOSSES = {
    "times-up": "time's up: the mission was not won by the end of its final round (L193)",
    "full-ko": "full KO: every hero was KO'd (L194)",
}


def verdict(mission: Mapping[str, Any], game: Mapping[str, Any], version: Any) -> dict[str, str] | None:
    """The rules' verdict on the mission, in the words of the rules ``version`` the campaign pinned (versions.py)."""
    result = (game or {}).get("result")
    if not result:
        return None
    if result["result"] == "won":
        return {"outcome": "victory", "reason": f"Mission {mission['number']} won in round {result['round']}: {version.win_stated(mission)}"}
    if result["loss"] == "mission-failure":
        condition = next((c for c in mission["failure_conditions"] if c["id"] == result.get("condition")), None)
        text = f"{condition['text']} ({condition.get('source', mission['source'])})" if condition else result.get("condition")
        return {"outcome": "defeat", "reason": f"Mission {mission['number']} failed: {text}"}
    return {"outcome": "defeat", "reason": f"Mission {mission['number']} lost: {LOSSES[result['loss']]}"}


def end_refusal(mission: Mapping[str, Any], game: Mapping[str, Any], outcome: str, tiles: Mapping[str, Any] | None = None) -> str | None:
    """An undecided mission ends only by what the text allows: won when the win is recorded, lost by one of
    the three defeat types (L191-L194); there is no heroic victory in this game ("one way to win", L189)."""
    if outcome == "heroic-victory":
        return "Kung Fu Panda has no heroic victory: 'there's one way to win but several ways to lose' (L189)"
    if outcome == "victory":
        unmet = unmet_wins(mission, game, tiles)
        if unmet:
            return f"Mission {mission['number']}'s win condition is not met: {'; '.join(unmet)}"
        return f"Mission {mission['number']}'s win is not recorded: declare it with mission-won"
    return (
        f"no defeat is recorded: Mission {mission['number']} is lost by time's up (L193), a full KO (L194) or its own "
        f"failure (L192), which the tracker records as it happens; play on, or record the failure with mission-failed"
    )


def unmet_wins(mission: Mapping[str, Any], game: Mapping[str, Any], tiles: Mapping[str, Any] | None = None) -> list[str]:
    """Each win condition the board does not show yet, with what the board shows instead (its tiles by their names
    in ``tiles``, the rules data's)."""
    return [why for condition in mission.get("win_conditions", []) if (why := _unmet(condition, mission, game, tiles or {}))]


def _unmet(condition: Mapping[str, Any], mission: Mapping[str, Any], game: Mapping[str, Any], tiles: Mapping[str, Any]) -> str | None:
    check, where = condition["check"], f"{condition['text']} ({condition['source']})"
    if check == "heroes-on-end-tile":
        end = game.get("end_tile")
        away = [f"{hero} on {tile_name(tiles, h['tile'])}" for hero, h in game["heroes"].items() if h["tile"] != end]
        return f"{where}: not on the end tile, {tile_name(tiles, end)}: {wording.listed(away)}" if away else None
    if check == "villagers-rescued":
        left = sorted(v for v, villager in game.get("villagers", {}).items() if not villager["rescued"])
        if not game.get("villagers"):
            return f"{where}: no villagers were placed at set-up (setup.villagers)"
        return f"{where}: not rescued: {left}" if left else None
    if check == "no-enemies-on-spawn-point":
        tile = game["spawn_points"].get(str(condition["spawn_point"]))
        if tile is None:
            return f"{where}: spawn point {condition['spawn_point']} was not placed at set-up (setup.spawn_points)"
        there = game_state.enemies_on(game, tile)
        return f"{where}: enemies on {tile_name(tiles, tile)}: {there}" if there else None
    if check == "token-collected":
        return None if game["tokens"].get(condition["token"]) else f"{where}: the {condition['token']} is not read"
    if check == "enemy-knocked-out":
        return None if game["knocked_out"].get(condition["enemy"]) else f"{where}: the {condition['enemy']} is not knocked out"
    if check == "figure-on-tile":
        at = game.get("figures", {}).get(condition["figure"])
        return None if at == condition["tile"] else f"{where}: the {condition['figure']} is on {tile_name(tiles, at) if at else 'no tile'}, not {tile_name(tiles, condition['tile'])}"
    if check == "carts-reached-spawn-points":
        missing = sorted(set(game["spawn_points"].values()) - set(game.get("carts_reached", [])))
        if not game["spawn_points"]:
            return f"{where}: no spawn points were placed at set-up (setup.spawn_points)"
        return f"{where}: no cart has reached the spawn points on {wording.listed(missing, tile_names(tiles))}" if missing else None
    raise ValueError(f"unknown win check {check!r}")


def failure(mission: Mapping[str, Any], game: Mapping[str, Any]) -> str | None:
    """The id of a failure condition of the mission's own that the board now shows, or None."""
    for condition in mission["failure_conditions"]:
        if _failed(condition, game):
            return condition["id"]
    return None


def _failed(condition: Mapping[str, Any], game: Mapping[str, Any]) -> bool:
    check = condition.get("check")
    villagers = [v for v in game.get("villagers", {}).values() if not v["rescued"]]
    if check == "villager-with-enemies":
        # "enemies of any type" (L246, L375): Ox Grunts, Wolf Boss and Tai Lung count here
        return any(sum(game_state.enemies_on(game, v["tile"]).values()) >= condition["enemies_at_least"] for v in villagers)
    if check == "villagers-on-tile":
        return bool(villagers) and all(v["tile"] == condition["tile"] for v in villagers)
    if check == "figure-on-end-tile":
        at = game.get("figures", {}).get(condition["figure"])
        return at is not None and at == game.get("end_tile")
    if check == "figure-on-tile-before-token":
        return game.get("figures", {}).get(condition["figure"]) == condition["tile"] and not game["tokens"].get(condition["token"])
    return False
