"""The Thing in the Pit's prisoners (L344-L350, L372-L377, L388, L393-L401): the sacrifice clock the overlord runs at
the start of each of his turns, the cells the heroes open, and the Thing that grows with every villager sacrificed.

The clock (L345): a turn in which no hero opened a cell adds a wound token; the third one is discarded with a villager
sacrificed, in numerical order; a turn in which a cell was opened discards the tokens instead. Once the ten villagers
are sacrificed or saved the clock stops. A cell opened gives conquest for the villagers still alive in it (L350,
L374, L377); the Thing has 4 more wounds per villager sacrificed (L388) and curses a hero who deals it 4 or more
wounds after armour in one attack (L388); freed, it may devour a villager in a closed cell and heal (L393-L395).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tracker.core import wording
from tracker.rulesets.descent.common import COUNT, NAME, conquest_changes, plays_only, quest, refuse, require_hero, schema
from tracker.rulesets.descent.conquest import award_amount
from tracker.rulesets.engine.data import RulesDataError
from tracker.rulesets.engine.ruleset import ActionContext, ActionType

# L345: "one of the prisoners is sacrificed to the chaos beast, in the numerical order shown on the map": the one order
# the clock plays (the lowest-numbered villager neither sacrificed nor saved).
SACRIFICE_ORDER = "numerical"


def check_rules_data(data: Mapping[str, Any]) -> None:
    """A clock the code plays one way only, refused at load otherwise (issue 31): it sacrifices in numerical order (L345;
    another order is no rule of the text)."""
    for q in data["quests"]:
        if "prisoners" in q:
            plays_only(data, f"{q['id']}.prisoners.sacrifice_order", q["prisoners"]["sacrifice_order"], SACRIFICE_ORDER,
                       "'in the numerical order shown on the map' (L345)")


def check_thing_growth(data: Mapping[str, Any]) -> None:
    """Refuse, when the rules data loads, two rates of the Thing's growth: its 4 wounds per villager sacrificed (L388),
    stated by the quest and by the named monster (rules data 1.2.0 on: versions.py asks it), must say the same (the
    clock grows the Thing by the quest's)."""
    named = {m["quest"]: m for m in data["combat"]["named_monsters"] if "extra_wounds_per_sacrifice" in m}
    for q in data["quests"]:
        if "prisoners" not in q:
            continue
        thing, figure = _thing(q), named.get(q["id"])
        if figure is not None and figure["extra_wounds_per_sacrifice"] != thing["extra_wounds_per_sacrificed_villager"]:
            raise RulesDataError(f"{data['id']} {data['version']}: the Thing in the Pit's wounds per villager sacrificed are "
                                 f"{thing['extra_wounds_per_sacrificed_villager']} in {q['id']}.monsters but {figure['extra_wounds_per_sacrifice']} in "
                                 "combat.named_monsters: L388 states one number ('4 additional wounds for each villager that has been sacrificed')")


def _thing(q: Mapping[str, Any]) -> Mapping[str, Any]:
    return next(m for m in q["monsters"] if m["name"] == "The Thing in the Pit")


def rules(ctx: ActionContext) -> Mapping[str, Any]:
    q = quest(ctx)
    if "prisoners" not in q:
        raise refuse(f"{q['name']} has no prisoners", "Only The Thing in the Pit has the sacrifice clock and its cells (L344-L350).", "type")
    return q["prisoners"]


def standing(game: Mapping[str, Any]) -> dict[str, Any]:
    """The prisoners' state as folded (fold.py): empty until the first cell or tick."""
    return game.get("prisoners") or {"wounds": 0, "sacrificed": [], "rescued": [], "cells_opened": {}, "clock_turns": []}


def _undecided(ctx: ActionContext) -> list[int]:
    p = standing(ctx.game)
    return sorted(n for n in range(1, rules(ctx)["count"] + 1) if n not in p["sacrificed"] and n not in p["rescued"])  # numerical (L345)


def _cell(ctx: ActionContext, cell_id: str) -> Mapping[str, Any]:
    cells = {c["id"]: c for c in rules(ctx)["cells"]}
    if cell_id not in cells:
        raise refuse(f"'{cell_id}' is not a cell of The Thing in the Pit", f"Cells: {wording.listed(sorted(cells))}.", "cell")
    if cell_id in standing(ctx.game)["cells_opened"]:
        raise refuse(f"Cell '{cell_id}' is already open", "Each cell opens once.", "cell")
    return cells[cell_id]


def _sacrificed(ctx: ActionContext, prisoner: int, by: str, **detail: Any) -> dict[str, Any]:
    count = len(standing(ctx.game)["sacrificed"]) + 1
    thing = _thing(quest(ctx))
    return {"kind": "prisoner-sacrificed", "prisoner": prisoner, "by": by, "sacrificed": count,
            "thing_extra_wounds": thing["extra_wounds"] + count * thing["extra_wounds_per_sacrificed_villager"], **detail}


def tick(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    """The start of the overlord's turn (L345), once a turn, while any villager is neither sacrificed nor saved."""
    r, p, turn = rules(ctx), standing(ctx.game), ctx.state["turn"]
    undecided = _undecided(ctx)
    if not undecided:
        raise refuse("The ten villagers are all sacrificed or saved", "The clock is no longer followed (L345).", "type")
    if turn in p["clock_turns"]:
        raise refuse(f"The sacrifice clock already ran on turn {turn}", "It runs once, at the start of each overlord turn (L345).", "type")
    opened = [cell for cell, at in p["cells_opened"].items() if at == turn]
    if opened:
        return [{"kind": "sacrifice-clock-ticked", "turn": turn, "cells_opened": opened, "wounds": 0, "discarded": p["wounds"]}]
    wounds = p["wounds"] + 1
    if wounds < r["clock_wounds"]:
        return [{"kind": "sacrifice-clock-ticked", "turn": turn, "cells_opened": [], "wounds": wounds, "discarded": 0}]
    return [{"kind": "sacrifice-clock-ticked", "turn": turn, "cells_opened": [], "wounds": 0, "discarded": wounds},
            _sacrificed(ctx, undecided[0], "clock", turn=turn)]


def open_cell(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    """A hero opens a cell: the villagers still alive in it are saved and the heroes gain their conquest (L350, L374,
    L377); a cell whose villager was sacrificed is empty (L347)."""
    require_hero(ctx, params["hero"])
    cell = _cell(ctx, params["cell"])
    ctx.ruleset.rules.version.require_zone_clear(ctx, cell)  # L396: not while monsters live in the zone
    p = standing(ctx.game)
    alive = [n for n in cell["prisoners"] if n not in p["sacrificed"]]
    changes: list[dict[str, Any]] = [{"kind": "cell-opened", "cell": cell["id"], "hero": params["hero"], "turn": ctx.state["turn"],
                                       "saved": alive, "found_sacrificed": [n for n in cell["prisoners"] if n in p["sacrificed"]]}]
    award = next(a for a in quest(ctx)["awards"] if a["id"] == cell["award"])
    amount = award_amount(award, {"alive": len(alive)}) if award["id"] == "zone-2-cell-opened" else award["conquest"] * len(alive)
    if amount:
        changes += conquest_changes(ctx, amount, award["id"], cell=cell["id"], saved=alive)
    return changes


def devour(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    """The freed Thing, below half its wounds, smashes a closed cell in its zone: the villager is sacrificed and the
    Thing's wounds are healed (L393-L395). Whether it is freed and below half is the table's to see."""
    cell = _cell(ctx, params["cell"])
    if not cell.get("thing_may_devour"):
        raise refuse(f"The Thing cannot reach cell '{cell['id']}'", f"It devours only in its own zone (L393): {wording.listed([c['id'] for c in rules(ctx)['cells'] if c.get('thing_may_devour')])}.", "cell")
    alive = [n for n in cell["prisoners"] if n not in standing(ctx.game)["sacrificed"]]
    changes: list[dict[str, Any]] = [{"kind": "cell-opened", "cell": cell["id"], "hero": None, "turn": ctx.state["turn"], "saved": [], "found_sacrificed": [],
                                       "by": "the-thing"}]
    for n in alive:
        changes.append(_sacrificed(ctx, n, "the-thing", cell=cell["id"], thing_healed=True))
    return changes


def strike(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    """A hero's single attack wounds the Thing: 4 or more wounds after armour place a curse token on him (L388)."""
    rules(ctx)
    require_hero(ctx, params["hero"])
    threshold = next(m for m in quest(ctx)["monsters"] if m["name"] == "The Thing in the Pit")["curse_at_wounds"]
    if params["wounds"] < threshold:
        return [{"kind": "thing-struck", "hero": params["hero"], "wounds": params["wounds"], "cursed": False}]
    return [{"kind": "thing-struck", "hero": params["hero"], "wounds": params["wounds"], "cursed": True},
            {"kind": "curses-gained", "hero": params["hero"], "count": 1, "source": "the-thing-in-the-pit"}]


ACTIONS = [
    ActionType("sacrifice-clock", "The Thing in the Pit, start of the overlord's turn: a wound token unless a cell was opened this turn; the third sacrifices the next villager (L345).",
               schema({}, []), tick, random=False),
    ActionType("open-cell", "The Thing in the Pit: a hero opens a cell; the villagers alive in it are saved for their conquest (L350, L374, L377).",
               schema({"cell": NAME, "hero": NAME}, ["cell", "hero"]), open_cell, random=False),
    ActionType("thing-devours", "The freed Thing, below half its wounds, smashes a closed cell in its zone: the villager is sacrificed and it heals (L393-L395).",
               schema({"cell": NAME}, ["cell"]), devour, random=False),
    ActionType("thing-struck", "A hero's attack deals the Thing wounds after armour: 4 or more curse the hero (L388).",
               schema({"hero": NAME, "wounds": COUNT}, ["hero", "wounds"]), strike, random=False),
]
