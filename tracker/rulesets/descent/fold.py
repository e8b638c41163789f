"""The session's Descent state after one change: pure, plain JSON."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from tracker.rulesets import correction

from tracker.rulesets.descent.fold_combat import COMBAT_KINDS, fold_combat


def new_hero() -> dict[str, Any]:
    return {"curses": 0, "frost": 0, "coins": 0, "dark_relics": [], "cursed_items": [], "items": [], "potions": {},
            "potion_drunk_turn": None, "invulnerable": False, "deaths": 0, "shattered": []}


def hero(game: dict[str, Any], hero_id: str) -> dict[str, Any]:
    return game["heroes"].setdefault(hero_id, new_hero())


def fold(game: Mapping[str, Any], change: Mapping[str, Any]) -> dict[str, Any]:
    g = copy.deepcopy(dict(game))
    kind = change["kind"]
    if kind == correction.KIND:
        g["heroes"][change["hero"]] = correction.apply(g["heroes"][change["hero"]], change)
        return g
    if kind == "quest-set-up":
        g.update({
            "quest": change["quest"], "conquest": change["conquest"], "threat": 0, "lost": None,
            "treachery": {"granted": dict(change["treachery"]), "remaining": dict(change["treachery"]), "swaps": [], "glyphs": []},
            "heroes": {h: new_hero() for h in change["party"]},
            "glyph_pool": [], "glyphs_placed": [], "glyphs_activated": [],
            "prolonged": {}, "chests_opened": [], "shop_unlocked": [], "opening_hand": None, "spent": {},
        })
        if "glyphs" in change:
            g["glyphs"] = {"count": change["glyphs"], "wounds": {}, "destroyed": []}
        if "hero_sheets" in change:
            g["monsters"] = {}
        for hero_id, sheet in change.get("hero_sheets", {}).items():  # rules 1.2.0 on: wounds and fatigue from the start
            g["heroes"][hero_id].update(wounds=sheet["wounds"], max_wounds=sheet["wounds"], fatigue=sheet["fatigue"], max_fatigue=sheet["fatigue"],
                                        armor=sheet["armor"], orders=[], readied=[])
    elif kind == "treachery-card-swapped":
        g["treachery"]["remaining"] = dict(change["remaining"])
        g["treachery"]["swaps"].append({k: change[k] for k in ("added", "colour", "cost", "removed")})
    elif kind == "dark-glyph-bought":
        g["treachery"]["remaining"] = dict(change["remaining"])
        g["treachery"]["glyphs"].append({"glyph": change["glyph"], "paid": dict(change["paid"])})
        g["glyph_pool"].append(change["glyph"])
    elif kind == "opening-hand-set":
        g["opening_hand"] = change["hand_size"]
    elif kind == "glyph-placed":
        g["glyph_pool"].remove(change["glyph"])
        g["glyphs_placed"].append(change["glyph"])
    elif kind in ("glyph-activated", "town-travelled"):
        if kind == "glyph-activated":
            g["glyphs_activated"].append(change["glyph"])
            if change["glyph"] != "normal":
                g["glyphs_placed"].remove(change["glyph"])
        if change["glyph"] in ("summoning", "power"):  # each activation or town travel gives the overlord one spawn or draw (L123, L125)
            triggers = g.setdefault("glyph_triggers", {})
            triggers[change["glyph"]] = triggers.get(change["glyph"], 0) + 1
    elif kind == "monsters-spawned":
        if change["source"] == "summoning-glyph":
            g["glyph_triggers"]["summoning"] -= 1
    elif kind == "glyph-restored" and g["heroes"].get(change["hero"], {}).get("wounds") is not None:  # 1 wound per heal (L524)
        g["glyphs"]["wounds"][change["glyph"]] = change["remaining"]
        h = g["heroes"][change["hero"]]
        h["wounds"] = max(0, h["wounds"] - change["hero_wounds"])
    elif kind in ("zorek-gazed", "stone-door-closed", "stone-doors-rolled"):
        z = g.setdefault("zorek", {"facing": None, "doors_closed": [], "doors_opened": []})  # None: as he starts
        if kind == "zorek-gazed":
            z["facing"] = change["facing"]
            for hero_id in change["heroes_hit"]:  # 6 wounds, ignoring armour (L685), where the hero's wounds are tracked
                h = g["heroes"][hero_id]
                if h.get("wounds") is not None:
                    h["wounds"] = max(0, h["wounds"] - change["wounds_each"])
        elif kind == "stone-door-closed":
            z["doors_closed"].append(change["door"])
        else:
            z["doors_closed"] = [d for d in z["doors_closed"] if d not in change["opened"]]
            z["doors_opened"] += change["opened"]
    elif kind == "threat-gained":
        g["threat"] += change["amount"]
    elif kind == "threat-spent":
        g["threat"] -= change["amount"]
        g["spent"][change["purpose"]] = g["spent"].get(change["purpose"], 0) + 1
    elif kind == "conquest-changed":
        g["conquest"] = change["total"]
    elif kind == "quest-lost":
        g["lost"] = change["reason"]
    elif kind == "quest-won":
        g["won"] = change["award"]
    elif kind in ("glyph-damaged", "glyph-restored"):
        g["glyphs"]["wounds"][change["glyph"]] = change["remaining"]
    elif kind == "glyph-destroyed":
        g["glyphs"]["wounds"].pop(change["glyph"], None)
        g["glyphs"]["destroyed"].append(change["glyph"])
    elif kind == "chest-opened":
        g["chests_opened"].append(change["chest"])
        if change["colour"] not in g["shop_unlocked"]:
            g["shop_unlocked"].append(change["colour"])
    elif kind == "coins-changed":
        hero(g, change["hero"])["coins"] += change["amount"]
    elif kind == "hero-killed":
        h = hero(g, change["hero"])
        h["curses"] = change["curses_after"]
        h["dark_relics"] = []
        h["cursed_items"] = list(change["cursed_items_kept"])
        h["deaths"] += 1
        if "wounds" in h:  # how whole he comes back is not in the text (§10.1 item 5): unknown until stated
            h.update(wounds=None, fatigue=None, orders=[])
        for key in change["progress_lost"]:
            g["prolonged"].pop(key, None)
    elif kind == "curses-gained":
        hero(g, change["hero"])["curses"] += change["count"]
    elif kind == "cursed-item-equipped":
        h = hero(g, change["hero"])
        h["cursed_items"].append(change["item"])
        h["curses"] += 1
    elif kind == "dark-relic-equipped":
        hero(g, change["hero"])["dark_relics"].append(change["relic"])
    elif kind == "frost-gained":
        hero(g, change["hero"])["frost"] += change["count"]
    elif kind == "frost-shaken":
        hero(g, change["hero"])["frost"] -= change["count"]
    elif kind == "item-shattered":
        hero(g, change["hero"])["shattered"].append(change["item"])
    elif kind == "potion-gained":
        potions = hero(g, change["hero"])["potions"]
        potions[change["potion"]] = potions.get(change["potion"], 0) + change["count"]
    elif kind == "potion-packed":
        pack = hero(g, change["hero"]).setdefault("pack_potions", {})
        pack[change["potion"]] = pack.get(change["potion"], 0) + change["count"]
    elif kind == "potion-drunk":
        h = hero(g, change["hero"])
        h["potions"][change["potion"]] -= 1
        h["potion_drunk_turn"] = change["turn"]
        h["invulnerable"] = change["potion"] == "invulnerability"
    elif kind == "invulnerability-used":
        hero(g, change["hero"])["invulnerable"] = False
    elif kind == "prolonged-progress-made":
        g["prolonged"][change["key"]] = {k: change[k] for k in ("task", "trait", "difficulty", "disruptable", "continuous", "group", "heroes", "progress", "last_turn")}
    elif kind == "prolonged-action-completed":
        g["prolonged"].pop(change["key"], None)
        g.setdefault("completed", []).append(change["task"])  # what a completed action unlocks (a villager freed, L438)
        g.setdefault("completed_progress", []).append({"task": change["task"], "heroes": list(change["heroes"]), "progress": change["progress"]})
    elif kind in ("cell-opened", "sacrifice-clock-ticked", "prisoner-sacrificed"):
        p = g.setdefault("prisoners", {"wounds": 0, "sacrificed": [], "rescued": [], "cells_opened": {}, "clock_turns": []})
        if kind == "cell-opened":
            p["cells_opened"][change["cell"]] = change["turn"]
            p["rescued"] += change["saved"]
        elif kind == "sacrifice-clock-ticked":
            p["wounds"] = change["wounds"]
            p["clock_turns"].append(change["turn"])
        else:
            p["sacrificed"].append(change["prisoner"])
            g["thing_extra_wounds"] = change["thing_extra_wounds"]  # 8 + 4 per villager sacrificed (L388)
    elif kind == "condition-tokens-placed":
        tokens = hero(g, change["hero"]).setdefault("tokens", {})
        tokens[change["condition"]] = tokens.get(change["condition"], 0) + change["count"]
    elif kind == "condition-tokens-resolved":
        h = hero(g, change["hero"])
        for condition, n in change["discarded"].items():
            h["tokens"][condition] -= n
        h["tokens"] = {c: n for c, n in h["tokens"].items() if n}
        h["tokens_resolved_turn"] = change["turn"]
        if "daze" in change["left"] or h.get("daze_rolled"):  # the daze tokens that remain after his roll (L300)
            h["daze_rolled"] = change["left"].get("daze", 0)
        h["wounds_suffered"] = h.get("wounds_suffered", 0) + change["wounds"]
        if h.get("wounds") is not None:
            h["wounds"] = max(0, h["wounds"] - change["wounds"])
        if "stun" in change["discarded"]:
            h["stunned_turn"] = change["turn"]  # one half action this turn (L249)
    elif kind == "monkey-kings-line-struck":
        g.setdefault("monkey_line_turns", []).append(change["turn"])
    elif kind == "hero-transformed":
        hero(g, change["hero"])["transformed"] = change["into"]
    elif kind in ("fissures-moved", "fissures-stilled"):
        f = g.setdefault("fissures", {"stilled": False, "turns": [], "positions": None})
        if kind == "fissures-moved":
            f["turns"].append(change["turn"])
            f["positions"] = change["positions"]
        else:
            f["stilled"] = True
    elif kind == "temple-altars-counted":
        g["temple_altars"] = {"ids": list(change["ids"]), "used": {}}
    elif kind == "temple-altar-activated":
        g["temple_altars"]["used"][change["altar"]] = change["turn"]
    elif kind == "turn-description-read":
        g.setdefault("turns_read", []).append(change["turn"])
    elif kind in ("spirits-counted", "spirit-angered", "spirit-killed", "spirit-convinced"):
        sp = g.setdefault("spirits", {"ids": [], "angered": [], "destroyed": [], "convinced": []})
        if kind == "spirits-counted":
            sp["ids"] = list(change["ids"])
        elif kind == "spirit-angered":
            sp["angered"].append(change["spirit"])
        elif kind == "spirit-killed":
            if change["destroyed"]:
                sp["destroyed"].append(change["spirit"])
        else:
            sp["convinced"].append(change["spirit"])
    elif kind == "crushing-trap-sprung":
        g["crushing_trap"] = {"apart": change["apart"], "disarmed": False, "moved_turn": None, "used": {}}
    elif kind == "crushing-walls-moved":
        g["crushing_trap"].update(apart=change["apart"], moved_turn=change["turn"])
    elif kind == "crushing-wall-pushed":
        g["crushing_trap"]["apart"] = change["apart"]
        used = g["crushing_trap"]["used"]
        used["push-wall"] = used.get("push-wall", 0) + 1
    elif kind == "crushing-trap-disarmed":
        g["crushing_trap"]["disarmed"] = True
        if change["by"] != "push-wall":
            used = g["crushing_trap"]["used"]
            used[change["by"]] = used.get(change["by"], 0) + 1
    elif kind == "thing-struck":
        pass  # the attack is on record; its curse, if any, is its own change
    elif kind == "power-glyph-used":  # one draw per activation or town travel (L125)
        g["glyph_triggers"]["power"] -= 1
    elif kind == "troll-ambush-sprung":
        g.setdefault("troll_ambush_turns", []).append(change["turn"])
    elif kind == "villager-spell-broken":
        g.setdefault("villagers", {})[change["villager"]] = change["fate"]
    elif kind == "altar-destroyed":
        g.setdefault("altars_destroyed", []).append(change["altar"])
    elif kind == "dark-glyph-cleansed":  # Sharr: an activated dark glyph becomes an activated normal one (L200)
        g["glyphs_activated"].remove(change["glyph"])
        g["glyphs_activated"].append("normal")
    elif kind == "secret-room-marked":
        g["secret_room"] = {"rolled": True, "face": change["face"], "real": change["marker"], "searched": {}, "found": None}
    elif kind == "secret-room-searched":
        g["secret_room"]["searched"][change["marker"]] = change["real"]
        if change["real"]:
            g["secret_room"]["found"] = change["marker"]
    elif kind == "prolonged-action-disrupted":
        g["prolonged"].pop(change["key"], None)
    elif kind in ("treasure-bought", "treasure-sold"):
        h = hero(g, change["hero"])
        h["coins"] += change["coins"]
        if kind == "treasure-bought":
            h["items"].append(change["card"])
        elif change["card"] in h["items"]:
            h["items"].remove(change["card"])
    elif kind in COMBAT_KINDS:
        fold_combat(g, change)
    else:
        raise ValueError(f"no Descent event of kind {kind!r}")
    if kind == "chest-opened":
        for hero_id, cards in change["treasure"].items():
            hero(g, hero_id)["items"].extend(cards)
    return g
