"""Quest rules that hang on where figures are, whether they live, and what a chest's row lists (rules data 1.6.0 on):

- a chest gives exactly what its row lists: each hero draws the listed treasure (L272: "If a chest has 2 copper
  treasure tokens, does each hero draw 2 copper treasure cards? A: Yes."), so a row with no treasure (The Mists of
  Time's Gold 1, L590: "1 curse, 500 coins") gives no card, and only the party's heroes draw;
- the Monkey Kings' line needs both alive (L492: "between the two Monkey Kings (assuming both are alive)");
- the cells of prisoners 9 and 10 stay shut while monsters live in their zone (L396: "When a hero tries to open the
  cells containing prisoners 9 or 10 and there are still monsters alive in the zone"), Zone 4 (L386-L396).

A monster figure carries the zone the table reports when it places it (place-monsters) or moves it (move-monsters);
a rule that asks where the monsters are asks for the zone of any figure in play the table has not placed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tracker.core.errors import Unprocessable
from tracker.rulesets.descent.common import NAME, quest, refuse, schema
from tracker.rulesets.descent.figures import ZONE, in_play, require_figure
from tracker.rulesets.engine.ruleset import ActionContext, ActionType

def _said(ids: list[str]) -> str:
    return ids[0] if len(ids) == 1 else ", ".join(ids[:-1]) + " and " + ids[-1]


def require_listed_treasure(ctx: ActionContext, chest: Mapping[str, Any], reported: Mapping[str, list[str]] | None) -> None:
    """Treasure reported from a chest is what its row lists: none where it lists none, and only for the party's heroes."""
    if reported is None:
        return
    heroes = set(ctx.game.get("heroes") or {})
    names = {c["id"]: c["name"] for c in ctx.ruleset.data["characters"]}
    strangers = sorted(set(reported) - heroes)
    if strangers:
        raise refuse(f"{_said([names.get(h, h) for h in strangers])} {'is' if len(strangers) == 1 else 'are'} not in the party",
                     f"Each hero of the party draws the chest's treasure (L272): {_said(sorted(names.get(h, h) for h in heroes))}.", f"treasure.{strangers[0]}")
    drawn = sorted(hero for hero, cards in reported.items() if cards)
    if drawn and not chest["treasure"]:
        raise refuse(f"The {chest['id'].replace('-', ' ').capitalize()} chest of {quest(ctx)['name']} lists no treasure",
                     "A chest gives exactly what its row lists (L272); this one's row holds no treasure card: leave \"treasure\" out.",
                     f"treasure.{drawn[0]}")


def require_both_monkey_kings(ctx: ActionContext) -> None:
    """L492: the line runs "between the two Monkey Kings (assuming both are alive)". Where the table keeps the Monkey
    Kings as figures (place-monsters, named monkey-king), both must be on the board and none killed; a reading: where it
    placed none, the line is its word."""
    kings = {fid: f for fid, f in (ctx.game.get("monsters") or {}).items() if f.get("named") == "monkey-king"}
    killed = sorted(fid for fid, f in kings.items() if f["killed"])
    if killed:
        raise refuse(f"{_said(killed)} was killed: the Monkey Kings' line needs both alive",
                     "L492: \"if at the start of your turn you can trace a straight line ... between the two Monkey Kings (assuming both are alive)\".", "type")
    if kings and len(kings) < 2:
        raise refuse("Only one Monkey King is on the board",
                     "L492: the line runs between the two Monkey Kings; place the other (place-monsters, \"named\": \"monkey-king\") first.", "type")


def require_zone_clear(ctx: ActionContext, cell: Mapping[str, Any]) -> None:
    """L396-L398: a hero cannot open the cells of prisoners 9 and 10 while monsters live in their zone."""
    rule = (quest(ctx).get("prisoners") or {}).get("closed_while_monsters_in_zone") or {}
    if cell["id"] not in rule.get("cells", []):
        return
    living = in_play(ctx.game)
    unplaced = sorted(fid for fid, f in living.items() if f.get("zone") is None)
    if unplaced:
        raise Unprocessable(
            f"Say which zone {_said(unplaced)} {'is' if len(unplaced) == 1 else 'are'} in first",
            detail=(f"L396: the cell stays shut while monsters live in {rule['zone_name']}, and the log does not know where these figures are: "
                    "report each one's zone with the move-monsters action, then open the cell."),
            errors={"cell": [f"Zones unknown: {_said(unplaced)}."]},
            example={"type": "move-monsters", "moves": [{"figure": fid, "zone": rule["zone"]} for fid in unplaced]},
        )
    there = sorted(fid for fid, f in living.items() if f.get("zone") == rule["zone"])
    if there:
        raise refuse(f"Monsters still live in {rule['zone_name']}: {_said(there)}",
                     "L396-L398: \"With the battle raging, you have something else to do than open this cell.\" The hero loses no movement points.", "cell")


def move_monsters(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    """The table reports the zone each moved monster figure now stands in."""
    moves = []
    for number, move in enumerate(params["moves"]):
        side, _ = require_figure(ctx, move["figure"], f"moves.{number}.figure")
        if side != "monster":
            raise refuse(f"{move['figure']} is a hero", "Only monster figures carry a zone here.", f"moves.{number}.figure")
        moves.append({"figure": move["figure"], "zone": move["zone"]})
    return [{"kind": "monsters-moved", "moves": moves}]


ACTIONS = [
    ActionType("move-monsters", "The zone each moved monster figure now stands in, as the table reports it (the maps are lost): the rules that ask "
               "where monsters live read it (The Thing in the Pit's cells 9 and 10, L396).",
               schema({"moves": {"type": "array", "minItems": 1, "maxItems": 30, "items": {
                   "type": "object", "properties": {"figure": NAME, "zone": ZONE}, "required": ["figure", "zone"], "additionalProperties": False}}}, ["moves"]),
               move_monsters, random=False),
]
