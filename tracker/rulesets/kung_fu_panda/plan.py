"""A Kung Fu Panda action being resolved: the one working copy (tracker/rulesets/engine/working_copy.py), each change
folded as it is planned so each step sees the last, plus the checks every action makes (the mission still on,
a round open, a hero able to act) and the mission's own failure, which follows a change the moment the board
shows it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tracker.core import wording
from tracker.core.errors import Unprocessable
from tracker.rulesets.kung_fu_panda import state as game_state
from tracker.rulesets.kung_fu_panda.table_words import tile_name, tile_names
from tracker.rulesets.kung_fu_panda.verdict import failure
from tracker.rulesets.engine.working_copy import WorkingCopy


MISSION_TOKENS = ("scroll", "dragon-scroll", "lever", "gong", "wall", "villager")  # dumplings and carts are checked by place


class Plan(WorkingCopy):

    def __init__(self, ctx: Any) -> None:
        super().__init__(ctx)
        self.data = ctx.ruleset.data
        if not self.game:
            raise Unprocessable("The mission has not been set up", detail="Start a session of a mission first.")

    @property
    def mission(self) -> dict[str, Any]:
        return self.ctx.ruleset.quest(self.game["mission"])

    def follows(self, change: Mapping[str, Any]) -> None:
        """A mission's own failure is automatic (L192): lost the moment the board shows it, e.g. a villager
        sharing a tile with 3 enemies (1.1, L246) or Tai Lung reaching the end tile (2.3, L353)."""
        if self.game.get("result") is None and self.game.get("heroes"):
            failed = failure(self.mission, self.game)
            if failed:
                self.add({"kind": "mission-lost", "loss": "mission-failure", "condition": failed, "round": self.game["round"]})

    # -- checks ---------------------------------------------------------------

    def require_playing(self) -> None:
        result = self.game.get("result")
        if result:
            raise Unprocessable(
                f"The mission is over: it was {result['result']}" + (f" ({result['loss']})" if result.get("loss") else ""),
                detail="End the session; a failed mission can be tried again in a new session.",
            )

    def require_round(self) -> None:
        self.require_playing()
        if self.game["phase"] != "round":
            raise Unprocessable(
                "No round is under way",
                detail=f"Start round {self.game['round'] + 1} first (1, 2, KUNG FU!).",
                errors={"type": ["No round under way."]},
            )

    def hero(self, hero: str, field: str = "hero") -> dict[str, Any]:
        if hero not in self.game["heroes"]:
            raise Unprocessable(
                f"{hero} is not playing this mission",
                detail=f"Heroes playing: {wording.listed(sorted(self.game['heroes']))}.",
                errors={field: [f"Not playing: {hero}"]},
            )
        return self.game["heroes"][hero]

    def character(self, character_id: str) -> dict[str, Any]:
        """A character's record in the rules data (a hero's board: health, ability; an enemy's KO cost)."""
        return next(c for c in self.data["characters"] if c["id"] == character_id)

    def able(self, hero: str, field: str = "hero") -> dict[str, Any]:
        h = self.hero(hero, field)
        if h["ko"]:
            raise Unprocessable(
                f"{hero} is KO'd and may not roll or spend until revived",
                detail="Another hero on the same tile revives them for 2 Chi.",
                errors={field: [f"KO'd: {hero}"]},
            )
        return h

    def tile(self, tile: str, field: str) -> str:
        """A tile named in an action must be one the mission lays out (its scene tile list)."""
        return check_tile(self.mission, tile, field, self.data["tiles"])

    def said(self, tile: Any) -> str:
        """A tile as the table says it, by its name from the rules data ("Kitchen (J)"), never a bare letter."""
        return tile_name(self.data["tiles"], tile)

    @property
    def tile_names(self) -> dict[str, str]:
        """Every tile's letter to its name, for a refusal's lists of tiles (wording.listed)."""
        return tile_names(self.data["tiles"])

    def villager(self, villager: str, field: str = "villager") -> dict[str, Any]:
        return named(self.game.get("villagers", {}), villager, field, "villager", "setup.villagers")

    def cart(self, cart: str, field: str = "cart") -> str:
        return named(self.game.get("carts", {}), cart, field, "cart", "setup.carts")

    def token(self, token: str, field: str = "token") -> str:
        """Scrolls, levers, gongs, walls and villagers are where a mission's instructions put them (L444-L454)."""
        tokens = self.mission.get("tokens", {})
        if token in MISSION_TOKENS and token not in tokens:
            raise Unprocessable(
                f"Mission {self.mission['number']} has no {token}",
                detail=f"Its tokens: {wording.listed(sorted(tokens))}.",
                errors={field: [f"Not in this mission: {token}"]},
            )
        return token

    def tile_limit(self) -> tuple[int, list[str]]:
        """The mission's enemies-per-tile limit and the enemies that do not count toward it: those the mission names
        (its tile_limit_excludes) and every enemy whose own data says it does not count (L126: "Tai Lung, Wolf Boss and
        Ox Grunts do not count towards a tile's enemy limit", each one's counts_toward_tile_limit)."""
        excluded = list(self.mission["tile_limit_excludes"])
        excluded += [c["id"] for c in self.data["characters"] if c.get("counts_toward_tile_limit") is False and c["id"] not in excluded]
        return self.mission["tile_limit"], excluded

    def dials_used(self) -> bool:
        return self.mission.get("dials_used", True)

    # -- consequences ---------------------------------------------------------

    def damage(self, hero: str, amount: int, cause: str) -> None:
        h = self.game["heroes"][hero]
        if amount <= 0 or h["ko"]:
            return
        health = max(self.data["health"]["ko_heart"], h["health"] - amount)
        self.add({"kind": "hero-damaged", "hero": hero, "amount": amount, "health": health, "cause": cause})
        if health == self.data["health"]["ko_heart"]:
            self.add({"kind": "hero-knocked-out", "hero": hero, "tile": h["tile"]})
            # "If all players are KO'd and cannot be revived, the game is lost" (L194), where the mission lists it
            if not game_state.standing_heroes(self.game) and "full-ko" in self.mission["loss_conditions"]:
                self.add({"kind": "mission-lost", "loss": "full-ko", "round": self.game["round"]})

    def spawn(self, enemy: str, tile: str, count: int, cause: str, spawn_point: int | None = None) -> None:
        available = game_state.reserve(self.game, self.data)[enemy]
        placed = min(count, available)
        if placed:
            change = {"kind": "enemy-spawned", "enemy": enemy, "tile": tile, "count": placed, "cause": cause}
            if spawn_point is not None:
                change["spawn_point"] = spawn_point
            self.add(change)
        if placed < count:
            self.add({"kind": "spawn-skipped", "enemy": enemy, "count": count - placed, "reason": "reserve-empty", "cause": cause})

    def enemies_required(self, tile: str, enemy: str, count: int, field: str) -> None:
        there = game_state.enemies_on(self.game, tile).get(enemy, 0)
        if there < count:
            raise Unprocessable(
                f"There {'is' if there == 1 else 'are'} {there} {enemy} on {self.said(tile)}, not {count}",
                detail=f"Enemies on {self.said(tile)}: {game_state.enemies_on(self.game, tile)}. A correction can fix the board if it was entered wrongly.",
                errors={field: [f"Not enough {enemy} on {self.said(tile)}."]},
            )


def tile_terrain(data: Mapping[str, Any], tile: str) -> str | None:
    return (data["tiles"].get(tile) or {}).get("terrain")


def check_tile(mission: Mapping[str, Any], tile: str, field: str, tiles: Mapping[str, Any]) -> str:
    """A tile the table names is one of the mission's scene tiles ("Scene tiles needed: ...", each mission's list),
    each said by its name (``tiles``: the rules data's)."""
    if tile not in mission["tiles"]:
        said = tile_name(tiles, tile) if tile in tiles else f"'{tile}'"  # a letter no tile has, quoted as it was sent
        raise Unprocessable(
            f"Mission {mission['number']} has no tile {said}",
            detail=f"Its scene tiles: {wording.listed(mission['tiles'], tile_names(tiles))}.",
            errors={field: [f"Not a tile of this mission: {said}"]},
        )
    return tile


def named(things: Mapping[str, Any], name: str, field: str, what: str, placed_by: str) -> Any:
    if name not in things:
        raise Unprocessable(
            f"There is no {what} '{name}' in this mission",
            detail=f"The {what}s placed at set-up ({placed_by}): {wording.listed(sorted(things), none='none')}.",
            errors={field: [f"Unknown {what}: {name}"]},
        )
    return things[name]
