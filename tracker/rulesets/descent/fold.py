"""The session's Descent state after one change: pure, plain JSON."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tracker.rulesets.engine import correction
from tracker.rulesets.engine.changes import Changes


def new_hero() -> dict[str, Any]:
    return {"curses": 0, "frost": 0, "coins": 0, "dark_relics": [], "cursed_items": [], "items": [], "potions": {},
            "potion_drunk_turn": None, "invulnerable": False, "deaths": 0, "shattered": []}


def hero(game: dict[str, Any], hero_id: str) -> dict[str, Any]:
    return game["heroes"].setdefault(hero_id, new_hero())


# Each kind of change Descent records, declared once with its fold (tracker/rulesets/engine/changes.py); the combat kinds are
# declared in fold_combat.py, and events.py imports both, so every kind is declared before a session folds one.
CHANGES = Changes("tracker.rulesets.descent.events")
fold = CHANGES.fold


@CHANGES(correction.KIND, "ValueCorrected", doc="The table corrected a number on a hero's sheet: what it was, what it is, and why (tracker/rulesets/engine/correction.py).")
def _value_corrected(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    g["heroes"][change["hero"]] = correction.apply(g["heroes"][change["hero"]], change)


@CHANGES("quest-set-up", "QuestSetUp")
def _quest_set_up(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    g.update({
        "quest": change["quest"], "conquest": change["conquest"], "threat": 0, "lost": None,
        "treachery": {"granted": dict(change["treachery"]), "remaining": dict(change["treachery"]), "swaps": [], "glyphs": []},
        "heroes": {h: new_hero() for h in change["party"]},
        "glyph_pool": [], "glyphs_placed": [], "glyphs_activated": [],
        "prolonged": {}, "chests_opened": [], "shop_unlocked": [], "opening_hand": None, "spent": {},
    })
    if "glyphs" in change:
        g["glyphs"] = {"count": change["glyphs"], "wounds": {}, "destroyed": []}
    if "phase" in change:  # rules 1.7.0 on: the quest starts in the heroes' turns of turn 1 (turn.py)
        g.update(phase=change["phase"], active=None, turns_taken=[])
    if "hero_sheets" in change:
        g["monsters"] = {}
    for hero_id, sheet in change.get("hero_sheets", {}).items():  # rules 1.2.0 on: wounds and fatigue from the start
        g["heroes"][hero_id].update(wounds=sheet["wounds"], max_wounds=sheet["wounds"], fatigue=sheet["fatigue"], max_fatigue=sheet["fatigue"],
                                    armor=sheet["armor"], orders=[], readied=[])


@CHANGES("treachery-card-swapped", "TreacheryCardSwapped")
def _treachery_card_swapped(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    g["treachery"]["remaining"] = dict(change["remaining"])
    g["treachery"]["swaps"].append({k: change[k] for k in ("added", "colour", "cost", "removed")})


@CHANGES("dark-glyph-bought", "DarkGlyphBought")
def _dark_glyph_bought(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    g["treachery"]["remaining"] = dict(change["remaining"])
    g["treachery"]["glyphs"].append({"glyph": change["glyph"], "paid": dict(change["paid"])})
    g["glyph_pool"].append(change["glyph"])


@CHANGES("opening-hand-set", "OpeningHandSet")
def _opening_hand_set(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    g["opening_hand"] = change["hand_size"]


@CHANGES("glyph-placed", "GlyphPlaced")
def _glyph_placed(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    g["glyph_pool"].remove(change["glyph"])
    g["glyphs_placed"].append(change["glyph"])


@CHANGES("glyph-activated", "GlyphActivated")
@CHANGES("town-travelled", "TownTravelled")
def _glyph_triggered(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    kind = change["kind"]
    if kind == "glyph-activated":
        g["glyphs_activated"].append(change["glyph"])
        if change["glyph"] != "normal":
            g["glyphs_placed"].remove(change["glyph"])
    if change["glyph"] in ("summoning", "power"):  # each activation or town travel gives the overlord one spawn or draw (L123, L125)
        triggers = g.setdefault("glyph_triggers", {})
        triggers[change["glyph"]] = triggers.get(change["glyph"], 0) + 1


@CHANGES("monsters-spawned", "MonstersSpawned")
def _monsters_spawned(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    if change["source"] == "summoning-glyph":
        g["glyph_triggers"]["summoning"] -= 1


@CHANGES("glyph-restored", "GlyphRestored")
def _glyph_restored(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    g["glyphs"]["wounds"][change["glyph"]] = change["remaining"]
    if g["heroes"].get(change["hero"], {}).get("wounds") is not None:  # 1 wound per heal (L524), where the hero's wounds are tracked
        h = g["heroes"][change["hero"]]
        h["wounds"] = max(0, h["wounds"] - change["hero_wounds"])


def _zorek_state(g: dict[str, Any]) -> dict[str, Any]:
    return g.setdefault("zorek", {"facing": None, "doors_closed": [], "doors_opened": []})  # None: as he starts


@CHANGES("stone-doors-rolled", "StoneDoorsRolled")
def _stone_doors_rolled(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    z = _zorek_state(g)
    z["doors_closed"] = [d for d in z["doors_closed"] if d not in change["opened"]]
    z["doors_opened"] += change["opened"]


@CHANGES("stone-door-closed", "StoneDoorClosed")
def _stone_door_closed(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    _zorek_state(g)["doors_closed"].append(change["door"])


@CHANGES("zorek-gazed", "ZorekGazed")
def _zorek_gazed(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    _zorek_state(g)["facing"] = change["facing"]
    for hero_id in change["heroes_hit"]:  # 6 wounds, ignoring armour (L685), where the hero's wounds are tracked
        h = g["heroes"][hero_id]
        if h.get("wounds") is not None:
            h["wounds"] = max(0, h["wounds"] - change["wounds_each"])


@CHANGES("threat-gained", "ThreatGained")
def _threat_gained(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    g["threat"] += change["amount"]


@CHANGES("threat-spent", "ThreatSpent")
def _threat_spent(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    g["threat"] -= change["amount"]
    g["spent"][change["purpose"]] = g["spent"].get(change["purpose"], 0) + 1


@CHANGES("conquest-changed", "ConquestChanged")
def _conquest_changed(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    g["conquest"] = change["total"]


@CHANGES("quest-lost", "QuestLost")
def _quest_lost(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    g["lost"] = change["reason"]


@CHANGES("quest-won", "QuestWon")
def _quest_won(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    g["won"] = change["award"]


@CHANGES("glyph-damaged", "GlyphDamaged")
def _glyph_damaged(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    g["glyphs"]["wounds"][change["glyph"]] = change["remaining"]


@CHANGES("glyph-destroyed", "GlyphDestroyed")
def _glyph_destroyed(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    g["glyphs"]["wounds"].pop(change["glyph"], None)
    g["glyphs"]["destroyed"].append(change["glyph"])


@CHANGES("chest-opened", "ChestOpened")
def _chest_opened(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    g["chests_opened"].append(change["chest"])
    if change["colour"] not in g["shop_unlocked"]:
        g["shop_unlocked"].append(change["colour"])
    for hero_id, cards in change["treasure"].items():
        hero(g, hero_id)["items"].extend(cards)


@CHANGES("coins-changed", "CoinsChanged")
def _coins_changed(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    hero(g, change["hero"])["coins"] += change["amount"]


@CHANGES("hero-killed", "HeroKilled")
def _hero_killed(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    h = hero(g, change["hero"])
    h["curses"] = change["curses_after"]
    h["dark_relics"] = [r for r in h["dark_relics"] if r not in change["dark_relics_discarded"]]  # all of them, as L165 has it
    h["cursed_items"] = list(change["cursed_items_kept"])
    h["deaths"] += 1
    if "wounds" in h:  # how whole he comes back is not in the text (§10.1 item 5): unknown until stated
        h.update(wounds=None, fatigue=None, orders=[])
    for key in change["progress_lost"]:
        g["prolonged"].pop(key, None)


@CHANGES("curses-gained", "CursesGained")
def _curses_gained(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    hero(g, change["hero"])["curses"] += change["count"]


@CHANGES("cursed-item-equipped", "CursedItemEquipped")
def _cursed_item_equipped(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    h = hero(g, change["hero"])
    h["cursed_items"].append(change["item"])
    h["curses"] += 1


@CHANGES("dark-relic-equipped", "DarkRelicEquipped")
def _dark_relic_equipped(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    hero(g, change["hero"])["dark_relics"].append(change["relic"])


@CHANGES("frost-gained", "FrostGained")
def _frost_gained(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    hero(g, change["hero"])["frost"] += change["count"]


@CHANGES("frost-shaken", "FrostShaken")
def _frost_shaken(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    hero(g, change["hero"])["frost"] -= change["count"]


@CHANGES("item-shattered", "ItemShattered")
def _item_shattered(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    hero(g, change["hero"])["shattered"].append(change["item"])


@CHANGES("potion-gained", "PotionGained")
def _potion_gained(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    potions = hero(g, change["hero"])["potions"]
    potions[change["potion"]] = potions.get(change["potion"], 0) + change["count"]


@CHANGES("potion-packed", "PotionPacked")
def _potion_packed(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    pack = hero(g, change["hero"]).setdefault("pack_potions", {})
    pack[change["potion"]] = pack.get(change["potion"], 0) + change["count"]


@CHANGES("potion-drunk", "PotionDrunk")
def _potion_drunk(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    h = hero(g, change["hero"])
    h["potions"][change["potion"]] -= 1
    h["potion_drunk_turn"] = change["turn"]
    h["invulnerable"] = change["potion"] == "invulnerability"


@CHANGES("invulnerability-used", "InvulnerabilityUsed")
def _invulnerability_used(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    hero(g, change["hero"])["invulnerable"] = False


@CHANGES("prolonged-progress-made", "ProlongedProgressMade")
def _prolonged_progress_made(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    g["prolonged"][change["key"]] = {k: change[k] for k in ("task", "trait", "difficulty", "disruptable", "continuous", "group", "heroes", "progress", "last_turn")}


@CHANGES("prolonged-action-completed", "ProlongedActionCompleted")
def _prolonged_action_completed(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    g["prolonged"].pop(change["key"], None)
    g.setdefault("completed", []).append(change["task"])  # what a completed action unlocks (a villager freed, L438)
    g.setdefault("completed_progress", []).append({"task": change["task"], "heroes": list(change["heroes"]), "progress": change["progress"]})


def _prisoners(g: dict[str, Any]) -> dict[str, Any]:
    return g.setdefault("prisoners", {"wounds": 0, "sacrificed": [], "rescued": [], "cells_opened": {}, "clock_turns": []})


@CHANGES("prisoner-sacrificed", "PrisonerSacrificed")
def _prisoner_sacrificed(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    _prisoners(g)["sacrificed"].append(change["prisoner"])
    g["thing_extra_wounds"] = change["thing_extra_wounds"]  # 8 + 4 per villager sacrificed (L388)


@CHANGES("sacrifice-clock-ticked", "SacrificeClockTicked")
def _sacrifice_clock_ticked(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    p = _prisoners(g)
    p["wounds"] = change["wounds"]
    p["clock_turns"].append(change["turn"])


@CHANGES("cell-opened", "CellOpened")
def _cell_opened(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    p = _prisoners(g)
    p["cells_opened"][change["cell"]] = change["turn"]
    p["rescued"] += change["saved"]


@CHANGES("condition-tokens-placed", "ConditionTokensPlaced")
def _condition_tokens_placed(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    tokens = hero(g, change["hero"]).setdefault("tokens", {})
    tokens[change["condition"]] = tokens.get(change["condition"], 0) + change["count"]


@CHANGES("condition-tokens-resolved", "ConditionTokensResolved")
def _condition_tokens_resolved(g: dict[str, Any], change: Mapping[str, Any]) -> None:
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


@CHANGES("monkey-kings-line-struck", "MonkeyKingsLineStruck")
def _monkey_kings_line_struck(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    g.setdefault("monkey_line_turns", []).append(change["turn"])


@CHANGES("hero-transformed", "HeroTransformed")
def _hero_transformed(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    hero(g, change["hero"])["transformed"] = change["into"]


@CHANGES("fissures-moved", "FissuresMoved")
@CHANGES("fissures-stilled", "FissuresStilled")
def _fissures(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    kind = change["kind"]
    f = g.setdefault("fissures", {"stilled": False, "turns": [], "positions": None})
    if kind == "fissures-moved":
        f["turns"].append(change["turn"])
        f["positions"] = change["positions"]
    else:
        f["stilled"] = True


@CHANGES("temple-altars-counted", "TempleAltarsCounted")
def _temple_altars_counted(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    g["temple_altars"] = {"ids": list(change["ids"]), "used": {}}


@CHANGES("temple-altar-activated", "TempleAltarActivated")
def _temple_altar_activated(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    g["temple_altars"]["used"][change["altar"]] = change["turn"]


@CHANGES("turn-description-read", "TurnDescriptionRead")
def _turn_description_read(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    g.setdefault("turns_read", []).append(change["turn"])


def _spirits(g: dict[str, Any]) -> dict[str, Any]:
    return g.setdefault("spirits", {"ids": [], "angered": [], "destroyed": [], "convinced": []})


@CHANGES("spirit-convinced", "SpiritConvinced")
def _spirit_convinced(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    _spirits(g)["convinced"].append(change["spirit"])


@CHANGES("spirit-killed", "SpiritKilled")
def _spirit_killed(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    sp = _spirits(g)
    if change["destroyed"]:
        sp["destroyed"].append(change["spirit"])


@CHANGES("spirit-angered", "SpiritAngered")
def _spirit_angered(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    _spirits(g)["angered"].append(change["spirit"])


@CHANGES("spirits-counted", "SpiritsCounted")
def _spirits_counted(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    _spirits(g)["ids"] = list(change["ids"])


@CHANGES("crushing-trap-sprung", "CrushingTrapSprung")
def _crushing_trap_sprung(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    g["crushing_trap"] = {"apart": change["apart"], "disarmed": False, "moved_turn": None, "used": {}}


@CHANGES("crushing-walls-moved", "CrushingWallsMoved")
def _crushing_walls_moved(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    g["crushing_trap"].update(apart=change["apart"], moved_turn=change["turn"])


@CHANGES("crushing-wall-pushed", "CrushingWallPushed")
def _crushing_wall_pushed(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    g["crushing_trap"]["apart"] = change["apart"]
    used = g["crushing_trap"]["used"]
    used["push-wall"] = used.get("push-wall", 0) + 1


@CHANGES("crushing-trap-disarmed", "CrushingTrapDisarmed")
def _crushing_trap_disarmed(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    g["crushing_trap"]["disarmed"] = True
    if change["by"] != "push-wall":
        used = g["crushing_trap"]["used"]
        used[change["by"]] = used.get(change["by"], 0) + 1


CHANGES.declare("thing-struck", "ThingStruck")  # the attack is on record; its curse, if any, is its own change


@CHANGES("power-glyph-used", "PowerGlyphUsed")
def _power_glyph_used(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    # one draw per activation or town travel (L125)
    g["glyph_triggers"]["power"] -= 1


@CHANGES("troll-ambush-sprung", "TrollAmbushSprung")
def _troll_ambush_sprung(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    g.setdefault("troll_ambush_turns", []).append(change["turn"])


@CHANGES("villager-spell-broken", "VillagerSpellBroken")
def _villager_spell_broken(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    g.setdefault("villagers", {})[change["villager"]] = change["fate"]


@CHANGES("altar-destroyed", "AltarDestroyed")
def _altar_destroyed(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    g.setdefault("altars_destroyed", []).append(change["altar"])


@CHANGES("dark-glyph-cleansed", "DarkGlyphCleansed")
def _dark_glyph_cleansed(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    # Sharr: an activated dark glyph becomes an activated normal one (L200)
    g["glyphs_activated"].remove(change["glyph"])
    g["glyphs_activated"].append("normal")


@CHANGES("secret-room-marked", "SecretRoomMarked")
def _secret_room_marked(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    g["secret_room"] = {"rolled": True, "face": change["face"], "real": change["marker"], "searched": {}, "found": None}


@CHANGES("secret-room-searched", "SecretRoomSearched")
def _secret_room_searched(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    g["secret_room"]["searched"][change["marker"]] = change["real"]
    if change["real"]:
        g["secret_room"]["found"] = change["marker"]


@CHANGES("prolonged-action-disrupted", "ProlongedActionDisrupted")
def _prolonged_action_disrupted(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    g["prolonged"].pop(change["key"], None)


@CHANGES("treasure-bought", "TreasureBought")
@CHANGES("treasure-sold", "TreasureSold")
def _treasure_traded(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    kind = change["kind"]
    h = hero(g, change["hero"])
    h["coins"] += change["coins"]
    if kind == "treasure-bought":
        h["items"].append(change["card"])
    elif change["card"] in h["items"]:
        h["items"].remove(change["card"])


# The turn (rules 1.7.0 on, turn.py): the heroes' turns, then the overlord's; the session's own turn-ended follows his.
@CHANGES("hero-turn-started", "HeroTurnStarted", doc="A hero's turn began (L264): he is the hero whose turn it is.")
def _hero_turn_started(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    g["active"] = change["hero"]


@CHANGES("hero-turn-ended", "HeroTurnEnded", doc="A hero's turn ended; his prolonged order token is removed (L144).")
def _hero_turn_ended(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    g["active"] = None
    g.setdefault("turns_taken", []).append(change["hero"])
    orders = g["heroes"][change["hero"]].get("orders")
    for order in change["orders_removed"]:
        orders.remove(order)


@CHANGES("overlord-turn-started", "OverlordTurnStarted", doc="The heroes have all had their turn: the overlord's turn began (L273, L345).")
def _overlord_turn_started(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    g["phase"] = "overlord"


@CHANGES("overlord-turn-ended", "OverlordTurnEnded", doc="The overlord's turn ended, and with it the turn: the heroes' turns of the next begin.")
def _overlord_turn_ended(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    g.update(phase="heroes", active=None, turns_taken=[])
