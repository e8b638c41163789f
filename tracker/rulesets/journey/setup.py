"""Quest set-up (L211-L225, L666-L684): the Pilgrims' sheets, initiative, starting Demons and Gates.

- Individual quests, and the first quest of a linked campaign: Chi 10, Karma 0/0, weapon level 1,
  two random Skill Cards (or the quest's named cards plus random draws), then the quest's
  Karma Upgrades, each traded at once like any 10 points of Karma.
- Linked quests after the first: Health and Chi refill and conditions are gone; Karma, Skill,
  weapon level, Corruption, Fortune and Misfortune cards carry over.
- Q10 Part 2 continues Part 1 as one quest: nothing changes but the Sutras (all to Tripitaka)
  and the Villager tokens (removed).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tracker.core import decks
from tracker.core.errors import Unprocessable
from tracker.rulesets.journey import karma, kei_lun, readings, transformation
from tracker.rulesets.journey.resolution import Resolution, skill_deck
from tracker.rulesets.engine.data import RulesDataError
from tracker.rulesets.engine.ruleset import SET_UP_QUEST, ActionContext, ActionType

PILGRIMS = ("tripitaka", "monkey-king", "cho-hakkai", "monk-sha")
CHI_MAX = 10
PART_2 = "q10-part-2-seal-the-gate"
PART_1 = "q10-part-1-the-lair"
CARRIED_HANDS = ("skills", "corruption", "fortune", "misfortune")
HAND_DECKS = {"corruption": "corruption", "fortune": "fortune", "misfortune": "misfortune"}
# L682-L683: "Keep the same Good and Bad Karma Points. Retain all Skill, Weapon, Corruption, Fortune and Misfortune Cards
# in your hand at the end of the Quest." The rules data lists them in the book's words (campaign.modes, back-to-back's
# keep); each word is the Pilgrim sheet's entry the service carries for it.
KEPT_AS = {
    "Good Karma": "good",
    "Bad Karma": "bad",
    "Weapon Cards": "weapon_level",
    "Skill Cards in hand": "skills",
    "Corruption Cards": "corruption",
    "Fortune Cards in hand": "fortune",
    "Misfortune Cards in hand": "misfortune",
}


def _back_to_back(data: Mapping[str, Any]) -> Mapping[str, Any]:
    return data["campaign"]["modes"]["back-to-back"]


def carried_between_quests(data: Mapping[str, Any]) -> tuple[str, ...]:
    """The sheet entries a Pilgrim carries into the next linked quest: those the data's back-to-back keep names."""
    return tuple(KEPT_AS[word] for word in _back_to_back(data)["keep"])


def refuse_unplayable(data: Mapping[str, Any]) -> None:
    """Rules data the set-up cannot play, refused when the ruleset is loaded (never at play time)."""
    unknown = [word for word in _back_to_back(data)["keep"] if word not in KEPT_AS]
    if unknown:
        raise RulesDataError(f"campaign.modes.back-to-back.keep: the service carries no {unknown}; it knows {sorted(KEPT_AS)}")
    if "Skill Cards in hand" not in _back_to_back(data)["keep"]:
        # a carried Pilgrim draws no Skill Cards at set-up (_carried_pilgrim): without its hand it would hold none
        raise RulesDataError("campaign.modes.back-to-back.keep: a linked quest's set-up draws no Skill Cards, so the Pilgrims must keep theirs")
    # L1041: "Make no changes to the Pilgrims' Statistics, Cards or Initiative Markers when they start Part 2": the
    # Part 2 set-up takes no choices and continues Part 1's sheets (_continue_part_2); it plays no other way.
    if data["campaign"]["q10_part_transition"]["pilgrim_stats_cards_initiative_unchanged"] is not True:
        raise RulesDataError("campaign.q10_part_transition: Q10 Part 2 continues Part 1's Pilgrims unchanged; the service plays no other transition")

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "karma_upgrades": {
            "type": "object",
            "description": "Per Pilgrim, one choice per Karma Upgrade of the quest: 10 Good or 10 Bad (L672-L673).",
            "propertyNames": {"enum": list(PILGRIMS)},
            "additionalProperties": {"type": "array", "items": {"enum": ["good", "bad"]}, "maxItems": 4},
        },
        "initiative": {
            "type": "array",
            "description": "The initiative order drawn at the table; drawn by the service when omitted.",
            "items": {"enum": list(PILGRIMS)},
            "minItems": 4,
            "maxItems": 4,
            "uniqueItems": True,
        },
        "safe_house": {
            "type": "array",
            "description": "Quest 3: the Villager tokens in the Safe House, which cannot be Rescued (L782); the mini-map that showed them is lost.",
            "items": {"type": "string", "minLength": 1, "maxLength": 100},
            "maxItems": 10,
            "uniqueItems": True,
        },
        "drawn": {
            "type": "object",
            "description": "Cards drawn from physical decks during set-up, per deck, in order.",
            "additionalProperties": {"type": "array", "items": {"type": "string", "minLength": 1, "maxLength": 200}, "maxItems": 100},
        },
    },
    "additionalProperties": False,
}


def set_up_quest(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    quest = ctx.ruleset.quest(params["quest"])
    setup = params.get("setup") or {}
    campaign = params.get("campaign") or {}
    options = campaign.get("options") or {}
    progress = campaign.get("progress") or {}
    mode = options.get("mode", "individual")
    res = Resolution(ctx, rng, setup.get("drawn"))
    if quest["id"] == PART_2:
        return _continue_part_2(res, quest, mode, progress, setup)
    carried = (progress.get("heroes") or {}) if mode == "linked" else {}
    initiative, counters = _initiative(res, quest, setup.get("initiative"))
    # A party of fewer Pilgrims names who the Players control; the game always plays all 4 (L73, L216-L220): a counter
    # of the set-up from rules data 1.1.0 on (versions.py).
    counters = ctx.ruleset.rules.version.pilgrims_in_play(counters, ctx.ruleset.data["pilgrim_rules"])
    ally = kei_lun.set_up(quest, ctx.components)
    if ally is not None:
        counters["kei_lun"] = ally  # Q5 hostile, Q7 an ally (L852, L933)
    res.add(_as_published(ctx, _quest_set_up(quest, mode, initiative, counters, setup)))
    _set_aside_rage_card(res)
    upgrades = _upgrades(quest, setup.get("karma_upgrades") or {}, required=not carried)
    for hero in quest["pilgrims"]:
        if hero in carried:
            _carried_pilgrim(res, hero, carried[hero])
            _quest_starting_cards(res, quest, hero, carried[hero])
        else:
            _fresh_pilgrim(res, quest, hero)
    for hero in quest["pilgrims"]:
        for wheel in upgrades.get(hero, []):
            karma.gain(res, hero, wheel, karma.upgrade_block(res), "karma-upgrade")
    for hero, orientation in (quest.get("starts_unconscious") or {}).items():
        res.add({"kind": "pilgrim-fell-unconscious", "hero": hero, "orientation": orientation, "cause": "quest-set-up"})
    readings.carry_in(res, progress)
    return res.finish()


# Tokens that actions name, numbered as the quest's Board Setup counts them: "villager-1", "sutra-2", ...
SET_UP = ActionType(
    SET_UP_QUEST,
    "Quest set-up: Chi 10, Karma, weapon level, starting Skill Cards, Karma Upgrades, initiative (L211-L225, L666-L684).",
    {"type": "object"},
    set_up_quest,
    random=True,
    internal=True,
)


NAMED_TOKENS = ("villager", "sutra", "well", "door")


def _quest_set_up(
    quest: Mapping[str, Any], mode: str, initiative: list[str], counters: dict[str, Any], setup: Mapping[str, Any] | None = None, sutras: list[str] | None = None
) -> dict[str, Any]:
    demons: dict[str, str] = {}
    for entry in quest.get("demons", []):
        for n in range(1, entry["count"] + 1):
            demons[f"{entry['character']}-{n}"] = entry["character"]
    counts = quest.get("tokens") or {}
    tokens = {kind: [f"{kind}-{n}" for n in range(1, counts.get(kind, 0) + 1)] for kind in NAMED_TOKENS}
    if sutras is not None:
        tokens["sutra"] = list(sutras)  # Q10 Part 2: the Sutras collected in Part 1 (L1083)
    tokens["safe_house"] = _safe_house(quest, tokens, (setup or {}).get("safe_house") or [])
    start = "active" if quest.get("gates_start_active") is not False else "inactive"
    turn_tokens: dict[str, int] = {}
    if quest.get("gates"):
        # Gates the quest names: Q10 Part 1's timed Gates are inactive while they hold Turn Tokens (L1055-L1057);
        # Q10 Part 2 lists only the two single Gates that spawn, the 3-square Seal is no Gate of spawning (L1084).
        turn_tokens = {gate["id"]: gate["turn_tokens"] for gate in quest["gates"] if gate.get("turn_tokens")}
        gates = {gate["id"]: "inactive" if gate["id"] in turn_tokens else start for gate in quest["gates"]}
    else:
        gates = {f"gate-{n}": start for n in range(1, counts.get("gate", 0) + 1)}
    change = {"kind": "quest-set-up", "quest": quest["id"], "mode": mode, "initiative": initiative, "demons": demons, "gates": gates, "tokens": tokens, **counters}
    if turn_tokens:
        change["gate_turn_tokens"] = turn_tokens
    timers = transformation.turn_tokens(quest, tokens["villager"])
    if timers:
        change["villager_turn_tokens"] = timers  # Q1: 5 Turn Tokens on the Villager (L706)
    if quest.get("rescue_spin"):
        change["kogaiji_spell"] = True  # Q9: Kogaiji casts his deception spell until the Elder Monk is found (L1015)
    return change


def _as_published(ctx: ActionContext, change: dict[str, Any]) -> dict[str, Any]:
    """The set-up as the pinned version's code recorded it (versions.py), so its sessions re-derive as they were played."""
    return ctx.ruleset.rules.version.quest_set_up(change)


def _safe_house(quest: Mapping[str, Any], tokens: Mapping[str, list[str]], named: list[str]) -> list[str]:
    """Q3's Safe House (L782): the Villagers the table names as in the house cannot be Rescued. Which ones are
    in the house was on the lost mini-map, so the table names them at set-up; other quests have no Safe House."""
    if named and not quest.get("safe_house"):
        raise Unprocessable(
            f"Quest {quest['number']} has no Safe House",
            detail="Only Quest 3's Villagers in the house cannot be Rescued (L782).",
            errors={"setup.safe_house": ["No Safe House in this quest."]},
        )
    unknown = sorted(set(named) - set(tokens["villager"]))
    if unknown:
        raise Unprocessable(
            f"No Villager token {unknown[0]} in Quest {quest['number']}",
            detail=f"Villager tokens: {tokens['villager']}.",
            errors={"setup.safe_house": [f"Unknown: {unknown}"]},
        )
    return sorted(set(named))


def _initiative(res: Resolution, quest: Mapping[str, Any], reported: list[str] | None) -> tuple[list[str], dict[str, int]]:
    rule = quest.get("initiative") or {"method": "random"}
    pilgrims = list(quest["pilgrims"])
    if rule["method"] == "fixed":
        if reported and reported != rule["order"]:
            raise Unprocessable(
                f"Quest {quest['number']} fixes the initiative order",
                detail=f"The order is {rule['order']}.",
                errors={"setup.initiative": ["This quest fixes the order."]},
            )
        return list(rule["order"]), {}
    fixed = {hero: token for hero, token in (rule.get("fixed") or {}).items()}
    if reported:
        wrong = [hero for hero, token in fixed.items() if reported.index(hero) != token - 1]
        if wrong:
            raise Unprocessable(
                f"Quest {quest['number']} gives {wrong[0]} Initiative Token {fixed[wrong[0]]}",
                detail=f"Fixed tokens: {fixed}; the others are drawn at random.",
                errors={"setup.initiative": ["Breaks the quest's fixed tokens."]},
            )
        return list(reported), {}
    start = res.rng.counter
    drawn = [hero for hero in pilgrims if hero not in fixed]
    shuffled = res.rng.shuffle(drawn)
    order = list(shuffled)
    for hero, token in sorted(fixed.items(), key=lambda item: item[1]):
        order.insert(token - 1, hero)
    # The draw in the generic form any verifier recomputes: a Fisher-Yates shuffle at these counters.
    shuffle = {"before": drawn, "order": shuffled, "counter_start": start, "counter_end": res.rng.counter}
    return order, {"counter_start": start, "counter_end": res.rng.counter, "shuffle": shuffle}


def rage_card(res: Resolution) -> str:
    """The Rage Card's name, by which a supplied Demon deck holds it: the rules data's (decks[demon].rage_card_name)."""
    return next(deck for deck in res.rule("decks") if deck["id"] == "demon")["rage_card_name"]


def _set_aside_rage_card(res: Resolution) -> None:
    """The Rage Card is removed from the Demon deck before play (L178)."""
    state = res.decks["demon"]
    rage = rage_card(res)
    if state["unknown"] == 0 and rage not in state["draw"]:
        raise Unprocessable(
            "The supplied Demon deck has no Rage Card",
            detail=f'The Demon deck\'s 50 cards include the Rage Card; name it "{rage}" (kind "rage") in the component data.',
            errors={"components.decks.demon.cards": ["No Rage Card."]},
        )
    res.extend(decks.resolve_move(state, "removed", [rage], "draw"))


def _upgrades(quest: Mapping[str, Any], chosen: Mapping[str, list[str]], required: bool) -> dict[str, list[str]]:
    count = quest.get("karma_upgrades", 0)
    for hero in quest["pilgrims"]:
        got = len(chosen.get(hero, []))
        if got != count and (required or got):
            raise Unprocessable(
                f"Quest {quest['number']} gives each Pilgrim {count} Karma Upgrade(s); {hero} has {got}",
                detail='Choose "good" or "bad" for each upgrade, per Pilgrim: "karma_upgrades": {"tripitaka": ["good"], ...} (10-point blocks only, L672-L673).',
                errors={f"setup.karma_upgrades.{hero}": [f"Expected {count} choice(s)."]},
            )
    return dict(chosen)


def max_hp(res: Resolution, hero: str) -> int | None:
    stats = ((res.ctx.components.get("characters") or {}).get(hero) or {}).get("stats") or {}
    return res.character(hero)["stats"].get("HP") or stats.get("HP")


def _fresh_pilgrim(res: Resolution, quest: Mapping[str, Any], hero: str) -> None:
    hp = max_hp(res, hero)
    rules = res.rule("pilgrim_rules")
    # "Set the Chi wheel to 10, the normal maximum value, and both Karma wheels to 0" (L224); a Level 1 Weapon (L553)
    wheels = rules["karma_wheels"]
    res.add({"kind": "pilgrim-set-up", "hero": hero, "start": "fresh", "hp": hp, "max_hp": hp, "chi": rules["chi"]["start"],
             "good": wheels["good"]["start"], "bad": wheels["bad"]["start"], "weapon_level": rules["weapon_level_at_setup"]})
    named = (quest.get("starting_cards") or {}).get(hero, [])
    deck = skill_deck(hero)
    spec = res.ctx.deck(deck)
    if named:
        res.add({**decks.resolve_reported_draw(res.decks[deck], named, hero)[0], "source": "quest-set-up"})
        for card in named:
            res.add({"kind": "card-taken", "hero": hero, "deck": deck, "card": card, "card_kind": spec.kind_of.get(card), "reason": "quest-starting-card"})
    # "Shuffle the Skill Cards and draw the top 2" (L221): the deck's set-up draw in the rules data, or the Pilgrims' rule
    count = (quest.get("starting_random_draws") or {}).get(hero, spec_setup_draw(res, deck))
    if not res.reported.get(deck) and res.decks[deck]["unknown"] != 0:
        # The deck's cards are lost and none were reported: the Pilgrim draws at the table and the
        # cards are reported later (take-starting-skills), never made up here.
        res.add({"kind": "skill-draws-owed", "hero": hero, "deck": deck, "count": count})
        return
    for card in res.draw(deck, count, hero):
        res.add({"kind": "card-taken", "hero": hero, "deck": deck, "card": card, "card_kind": spec.kind_of.get(card), "reason": "set-up-draw"})


def spec_setup_draw(res: Resolution, deck: str) -> int:
    """How many Skill Cards a fresh Pilgrim draws at set-up: the deck's setup_draw, else pilgrim_rules.skill_cards_at_setup."""
    spec = next((d for d in res.rule("decks") if d["id"] == deck), {})
    return spec.get("setup_draw", res.rule("pilgrim_rules", "skill_cards_at_setup"))


def _carried_pilgrim(res: Resolution, hero: str, sheet: Mapping[str, Any]) -> None:
    """Linked quests (L680-L684): full Health and Chi, no conditions; Karma and cards carry over: what the data's
    back-to-back keep names (carried_between_quests), the rest as a fresh Pilgrim starts (L224, L553)."""
    hp = max_hp(res, hero)
    rules = res.rule("pilgrim_rules")
    wheels = rules["karma_wheels"]
    res.add(
        {
            "kind": "pilgrim-set-up",
            "hero": hero,
            "start": "carried",
            "hp": hp,
            "max_hp": hp,
            "chi": CHI_MAX,
            "good": sheet.get("good", wheels["good"]["start"]),
            "bad": sheet.get("bad", wheels["bad"]["start"]),
            "weapon_level": sheet.get("weapon_level", rules["weapon_level_at_setup"]),
            **{hand: list(sheet.get(hand) or []) for hand in CARRIED_HANDS},
        }
    )
    _hold_carried_cards(res, hero, sheet)


def _quest_starting_cards(res: Resolution, quest: Mapping[str, Any], hero: str, sheet: Mapping[str, Any]) -> None:
    """A card the quest names for a Pilgrim goes to a carried Pilgrim too (Q5's Healing Trance, L849, is the only
    way to calm Kei Lun and win, L861); one already in hand stays. The random draws beside it are the fresh set-up's
    (L666-L684: a linked Pilgrim keeps its hand)."""
    held = {card["name"] for card in sheet.get("skills") or []}
    deck = skill_deck(hero)
    spec = res.ctx.deck(deck)
    for card in (quest.get("starting_cards") or {}).get(hero, []):
        if card in held:
            continue
        res.add({**decks.resolve_reported_draw(res.decks[deck], [card], hero)[0], "source": "quest-set-up"})
        res.add({"kind": "card-taken", "hero": hero, "deck": deck, "card": card, "card_kind": spec.kind_of.get(card), "reason": "quest-starting-card"})


def _hold_carried_cards(res: Resolution, hero: str, sheet: Mapping[str, Any]) -> None:
    """The cards a Pilgrim carries in are in hand, not in this session's draw piles."""
    hands = {skill_deck(hero): [card["name"] for card in sheet.get("skills") or []]}
    hands.update({deck: list(sheet.get(hand) or []) for hand, deck in HAND_DECKS.items()})
    for deck, cards in hands.items():
        if cards:
            res.add({**decks.resolve_reported_draw(res.decks[deck], cards, hero)[0], "source": "carried"})


def _continue_part_2(res: Resolution, quest: Mapping[str, Any], mode: str, progress: Mapping[str, Any], setup: Mapping[str, Any]) -> list[dict[str, Any]]:
    part_1 = progress.get("q10_part_1")
    if not part_1:
        raise Unprocessable(
            "Q10 Part 2 continues Part 1",
            detail="Part 1 and Part 2 are one quest (L1040-L1041): win Part 1 in this campaign first.",
            errors={"quest": ["Part 1 has not been won in this campaign."]},
        )
    if setup.get("karma_upgrades") or setup.get("initiative"):
        raise Unprocessable(
            "Nothing about the Pilgrims changes between Q10 Part 1 and Part 2",
            detail="Statistics, cards and initiative carry over unchanged (L1081-L1083); send no upgrades or initiative.",
            errors={"setup": ["Part 2 takes no set-up choices."]},
        )
    given = [sutra for sheet in part_1["heroes"].values() for sutra in sheet.get("sutras", [])]
    res.add(_as_published(res.ctx, _quest_set_up(quest, mode, list(part_1["initiative"]), {}, setup, sutras=given)))
    _set_aside_rage_card(res)
    # L1082: "Give all 4 Sutra Tokens to Tripitaka and remove any Villager Tokens collected in Part 1": the Sutras go to
    # Tripitaka below; the Villager Tokens go where the data's transition says so (part1_villager_tokens_removed).
    transition = res.rule("campaign", "q10_part_transition")
    left = ("sutras", "villagers") if transition["part1_villager_tokens_removed"] else ("sutras",)
    for hero, sheet in part_1["heroes"].items():
        res.add({"kind": "pilgrim-set-up", "hero": hero, "start": "continued", **{k: v for k, v in sheet.items() if k not in left}})
        _hold_carried_cards(res, hero, sheet)
    sutras = [sutra for sheet in part_1["heroes"].values() for sutra in sheet.get("sutras", [])]
    res.add({"kind": "sutras-given", "hero": "tripitaka", "sutras": sutras, "reason": "q10-part-2"})
    readings.carry_in(res, progress)
    return res.finish()
