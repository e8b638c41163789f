"""The Pilgrims' actions (L364-L449), each 1 AP, and playing cards (L253-L271).

The service does not see the board: the request names the Well, Villager, Sutra, Door or
Gate, and the table vouches that the Pilgrim stands where the action needs.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tracker.core import wording
from tracker.core import decks
from tracker.core.errors import Unprocessable
from tracker.rulesets.journey import conditions, health, karma, kogaiji_trap
from tracker.rulesets.journey.resolution import Resolution
from tracker.rulesets.journey.turns import spend

_TIMES = {1: "once", 2: "twice"}
HANDS = {"fortune": "fortune", "misfortune": "misfortune"}


def token(res: Resolution, kind: str, name: str, field: str) -> str:
    """A token an action names must be one the quest set up (its Board Setup count, numbered)."""
    tokens = (res.game.get("tokens") or {}).get(kind)
    if tokens is None:
        return name  # a session set up before tokens were numbered names them freely
    if name not in tokens:
        raise Unprocessable(
            f"No {kind.replace('_', ' ')} token '{name}' in this quest",
            detail=f"The quest set up {tokens or 'none'}.",
            errors={field: [f"Unknown {kind}: {name}; this quest has {tokens}"]},
        )
    return name


def _activation(res: Resolution) -> dict[str, Any]:
    return res.game.get("activation") or {}


def rest(res: Resolution, params: Mapping[str, Any]) -> None:
    """"When a Pilgrim rests, they recover 5 Chi Points, up to their current maximum. Resting can be performed twice
    per Activation" (L437): the Chi and the limit are the rules data's (pilgrim_rules.actions.rest)."""
    hero = params["hero"]
    ap = spend(res, hero)
    rule = res.rule("pilgrim_rules", "actions", "rest")
    if _activation(res).get("rests", 0) >= rule["max_per_activation"]:
        said = _TIMES.get(rule["max_per_activation"], f"{rule['max_per_activation']} times")
        raise Unprocessable(f"{hero} has rested {said} this activation", detail=f"Rest may be taken {said} per activation (L437).")
    before = res.hero(hero)["chi"]
    res.add({"kind": "rested", "hero": hero, "ap": ap, "chi_before": before, "chi_after": min(health.CHI_MAX, before + rule["chi"])})


def _mystical_box(res: Resolution, hero: str) -> int:
    """"Each Pilgrim can only use a Mystical Box once (to Pray or Meditate) each time they are Activated" (L414): the
    number is the rules data's (pilgrim_rules.actions.mystical_box_uses_per_activation). The AP it costs."""
    ap = spend(res, hero)
    if _activation(res).get("mystical_box", 0) >= res.rule("pilgrim_rules", "actions", "mystical_box_uses_per_activation"):
        raise Unprocessable(f"{hero} has used a Mystical Box this activation", detail="One Pray or Meditate per Pilgrim per activation (L414).")
    quest = res.ctx.ruleset.quest(res.game["quest"])
    if quest.get("treasure_chest_token") == "mystical_box":
        raise Unprocessable(f"Quest {quest['number']}'s box is the treasure chest", detail="It is not a Mystical Box: no Pray or Meditate (L919).")
    return ap


def pray(res: Resolution, params: Mapping[str, Any]) -> None:
    hero = params["hero"]
    ap = _mystical_box(res, hero)
    res.add({"kind": "prayed", "hero": hero, "ap": ap})
    (card,) = res.draw("fortune", 1, hero)
    res.add({"kind": "card-taken", "hero": hero, "deck": "fortune", "card": card, "reason": "pray"})


def meditate(res: Resolution, params: Mapping[str, Any]) -> None:
    """Spin: white -> look at 3 Fortune Cards, keep 1 (keep-fortune), discard 2; black -> 1 Misfortune Card."""
    hero = params["hero"]
    ap = _mystical_box(res, hero)
    spin = params.get("spin")
    (result,) = res.roll({} if spin else {"spinner": 1}, {"spinner": [spin]} if spin else None, f"{hero} meditates")["spinner"]
    res.add({"kind": "meditated", "hero": hero, "ap": ap, "result": result})
    if result == "white":
        reported = res.reported.pop("fortune", None)
        if reported:
            if len(reported) != 3:
                raise Unprocessable("Report the 3 Fortune Cards drawn", detail="A white spin draws 3 Fortune Cards (L418).")
            res.add({"kind": "looked", "deck": "fortune", "cards": list(reported), "source": "reported"})
        else:
            res.require_known("fortune", "Fortune Cards", 3)
            res.extend(decks.resolve_look(res.decks["fortune"], "Fortune Cards", 3, res.rng))
    else:
        (card,) = res.draw("misfortune", 1, hero)
        res.add({"kind": "card-taken", "hero": hero, "deck": "misfortune", "card": card, "reason": "meditate"})


def keep_fortune(res: Resolution, params: Mapping[str, Any]) -> None:
    hero = params["hero"]
    if res.game.get("fortune_choice") != hero:
        raise Unprocessable(f"{hero} has no Fortune Cards to choose from", detail="Keep one after a white Meditate spin.")
    res.extend(decks.resolve_keep(res.decks["fortune"], [params["card"]], "discard", hero))
    res.add({"kind": "fortune-kept", "hero": hero, "card": params["card"]})
    res.add({"kind": "card-taken", "hero": hero, "deck": "fortune", "card": params["card"], "reason": "meditate"})


def recover(res: Resolution, params: Mapping[str, Any]) -> None:
    hero, well = params["hero"], token(res, "well", params["well"], "well")
    ap = spend(res, hero)
    # "each Pilgrim can only use each Water Well once per Quest" (L435): the number is the rules data's
    if res.hero(hero)["wells_used"].count(well) >= res.rule("pilgrim_rules", "actions", "recover", "uses_per_well_per_quest"):
        raise Unprocessable(f"{hero} has used {well} this quest", detail="Each Pilgrim may use each Water Well once per Quest (L435).")
    top = health.known_max_hp(res, hero, "Recovering at a Water Well (all Health back)")
    before = health.known_hp(res, hero, "Recovering")
    res.add({"kind": "well-used", "hero": hero, "ap": ap, "well": well, "hp_before": before, "hp_after": top})


def rescue_villager(res: Resolution, params: Mapping[str, Any]) -> None:
    hero, villager = params["hero"], token(res, "villager", params["villager"], "villager")
    ap = spend(res, hero)
    if kogaiji_trap.in_play(res):
        kogaiji_trap.rescue(res, hero, villager, params)  # Q9: a Rescue spins first (L1016-L1019)
        return
    if params.get("spin") or params.get("others_in_room"):
        raise Unprocessable("Only Quest 9's Rescue spins the Fortune Spinner", detail="L1016; elsewhere a Rescue gives 3 Good Karma (L431).", errors={"spin": ["Not in this quest."]})
    rescued = {v for sheet in res.game["heroes"].values() for v in sheet["villagers"]}
    if villager in rescued:
        raise Unprocessable(f"{villager} has been rescued already", detail=f"Rescued: {wording.listed(sorted(rescued))}.")
    if villager in (res.game.get("villagers_replaced") or []):
        raise Unprocessable(f"{villager} is no longer a Villager", detail="A Bull Warrior replaced the token (L706).", errors={"villager": [villager]})
    if villager in (res.game.get("tokens") or {}).get("safe_house", []):
        raise Unprocessable(f"{villager} is in the Safe House", detail="You cannot Rescue the Villagers in the house (L782).", errors={"villager": [villager]})
    res.add({"kind": "villager-rescued", "hero": hero, "ap": ap, "villager": params["villager"]})
    karma.gain(res, hero, "good", karma.rescue_gain(res), "rescue-villager")


def collect_sutra(res: Resolution, params: Mapping[str, Any]) -> None:
    hero = params["hero"]
    token(res, "sutra", params["sutra"], "sutra")
    ap = spend(res, hero)
    held = {s for sheet in res.game["heroes"].values() for s in sheet["sutras"]}
    if params["sutra"] in held:
        raise Unprocessable(f"{params['sutra']} has been collected already", detail=f"Held: {wording.listed(sorted(held))}.")
    res.add({"kind": "sutra-collected", "hero": hero, "ap": ap, "sutra": params["sutra"]})


def break_door(res: Resolution, params: Mapping[str, Any]) -> None:
    token(res, "door", params["door"], "door")
    ap = spend(res, params["hero"])
    res.add({"kind": "door-broken", "hero": params["hero"], "ap": ap, "door": params["door"]})


def _tripitaka_only(res: Resolution, hero: str, action: str, action_id: str) -> None:
    """"Only Tripitaka can Close a Demon Gate" (L440), "Only Tripitaka can Revive other Pilgrims" (L445): the actions
    are those the rules data lists as his own (characters[tripitaka].exclusive_actions)."""
    if action_id in res.character("tripitaka").get("exclusive_actions", []) and hero != "tripitaka":
        raise Unprocessable(f"Only Tripitaka may {action}", detail="L440, L445.", errors={"hero": ["Tripitaka only."]})


def close_gate(res: Resolution, params: Mapping[str, Any]) -> None:
    hero, gate = params["hero"], params["gate"]
    _tripitaka_only(res, hero, "close a Gate", "close-gate")
    ap = spend(res, hero)
    quest = res.ctx.ruleset.quest(res.game["quest"])
    gates = res.game["gates"]
    if gate not in gates or gates[gate] == "closed":
        raise Unprocessable(f"No open Gate '{gate}'", detail=f"Gates: {gates}.", errors={"gate": [gate]})
    if quest.get("gates_sealable") is False:
        raise Unprocessable(f"Gates cannot be sealed in Quest {quest['number']}", detail="Not even with Prayer of Sealing (L1008).")
    limit = quest.get("max_gates_sealed")
    if limit is not None and list(gates.values()).count("closed") >= limit:
        raise Unprocessable(f"At most {limit} Gate(s) may be sealed in Quest {quest['number']}", detail="L884.")
    sutras = res.hero(hero)["sutras"]
    if not sutras:
        raise Unprocessable("Tripitaka holds no Sutra", detail="Closing a Gate spends 1 Sutra (L374).")
    sutra = params.get("sutra") or sutras[0]
    if sutra not in sutras:
        raise Unprocessable(f"Tripitaka does not hold {sutra}", detail=f"He holds {sutras}.")
    res.add({"kind": "gate-closed", "hero": hero, "ap": ap, "gate": gate, "sutra": sutra})


def revive(res: Resolution, params: Mapping[str, Any]) -> None:
    """Tripitaka sacrifices 1-5 HP (keeping at least 1) and 0-5 Chi; the Pilgrim gets exactly those (L440-L449)."""
    hero, target, hp, chi = params["hero"], params["target"], params["hp"], params.get("chi", 0)
    _tripitaka_only(res, hero, "Revive", "revive")
    ap = spend(res, hero)
    if res.hero(target)["status"] not in ("face-down", "side", "back"):
        raise Unprocessable(f"{target} is not Unconscious", detail=f"{target} is {res.hero(target)['status']}.")
    rule = res.rule("pilgrim_rules", "actions", "revive")
    for paid, said, (least, most) in ((hp, "Health", rule["hp_sacrificed"]), (chi, "Chi", rule["chi_sacrificed"])):
        if not least <= paid <= most:  # "1-5 Health Points", "0-5 Chi Points" (L447-L448), by the data
            raise Unprocessable(f"Tripitaka sacrifices {least}-{most} {said} to Revive", detail=f"{paid} asked (L447-L448).", errors={"hp" if said == "Health" else "chi": [f"{least}-{most}"]})
    own = health.known_hp(res, hero, "Reviving (Tripitaka's Health)")
    if own < rule["needs_tripitaka_hp"]:  # "Tripitaka must have at least 1 Action and 2 Health Points" (L449)
        raise Unprocessable(f"Tripitaka has {own} HP and needs at least {rule['needs_tripitaka_hp']} to Revive", detail="L449.")
    if own - hp < 1:
        raise Unprocessable(f"Tripitaka has {own} HP and must keep at least 1", detail=f"He can sacrifice at most {own - 1}.")
    if chi > res.hero(hero)["chi"]:
        raise Unprocessable(f"Tripitaka has only {res.hero(hero)['chi']} Chi", detail="He cannot sacrifice more.")
    res.add({"kind": "damage-taken", "hero": hero, "amount": hp, "cause": "revive", "hp_before": own, "hp_after": own - hp, "ap": ap})
    if chi:
        health.change_chi(res, hero, -chi, "revive")
    res.add({"kind": "pilgrim-revived", "hero": target, "by": hero, "hp": hp, "chi": chi})


def master_skill(res: Resolution, params: Mapping[str, Any]) -> None:
    hero = params["hero"]
    spend(res, hero)
    rule = res.rule("pilgrim_rules", "actions", "master_skill")
    if _activation(res).get("master_skill", 0) >= rule["per_activation"]:
        raise Unprocessable(f"{hero} has used Master Skill this activation", detail="Once per activation (L550).")
    cost = karma.master_skill_cost(res)
    if res.hero(hero)["good"] < cost:
        raise Unprocessable(f"{hero} has {res.hero(hero)['good']} Good Karma", detail=f"Master Skill costs {cost} Good Karma and 1 AP (L547).")
    karma.master_skill(res, hero)


def red_line_damage(res: Resolution, params: Mapping[str, Any]) -> None:
    """Red Lines damage Pilgrims, never Demons: 1 per square entered, or at the end of a turn stood in one (L571).
    The service does not see the board: the table reports the squares, like green terrain in an attack. Without the
    Health to pay, the move cannot be made (L566); a Pilgrim who pays its last Health falls Unconscious (L557)."""
    hero, squares = params["hero"], params["squares"]
    hp = health.known_hp(res, hero, "Red Line damage")
    per_square = res.rule("pilgrim_rules", "terrain", "red_damage")  # "one point of damage every time" (L571), by the data
    if hp < squares * per_square:
        raise Unprocessable(f"{hero} has {hp} HP and cannot enter {squares} Red Line square(s)", detail="Without the Health Points for Red Regions you cannot make the move (L566).", errors={"squares": [f"{squares} Red Line square(s) with {hp} HP"]})  # problem+json errors are messages
    health.damage(res, hero, squares * per_square, f"red-line ({params.get('how', 'entered')})")


def report_health(res: Resolution, params: Mapping[str, Any]) -> None:
    hero, hp = params["hero"], params["hp"]
    top = res.hero(hero)["max_hp"]
    if top is not None and hp > top:
        raise Unprocessable(f"{hero}'s maximum Health is {top}", detail="No stat rises above its maximum (L310).")
    res.add({"kind": "health-reported", "hero": hero, "hp_before": res.hero(hero)["hp"], "hp_after": hp})


def play_card(res: Resolution, params: Mapping[str, Any]) -> None:
    """Play a card from hand: pay its Chi/AP/HP costs whatever the result (L268-L271), then apply what it
    did as the request reports it (the card texts are lost); Misfortune damage may reach 0 HP (L327)."""
    hero, deck, card = params["hero"], params["deck"], params["card"]
    sheet = res.hero(hero)
    hand = "skills" if deck.startswith("skill-") else HANDS.get(deck)
    names = [c["name"] if isinstance(c, dict) else c for c in sheet.get(hand or "", [])]
    if hand is None or card not in names:
        raise Unprocessable(f"{hero} holds no '{card}' from {deck}", detail=f"In hand: {names}.", errors={"card": [card]})
    if sheet["status"] != "conscious" or conditions.forbidding(res, hero, "play"):
        raise Unprocessable(f"{hero} cannot play cards now", detail="Unconscious or Paralyzed Pilgrims play no cards (L302, L558).")
    costs = params.get("costs") or {}
    if costs.get("ap"):
        spend(res, hero, costs["ap"])
    if costs.get("chi", 0) > sheet["chi"]:
        raise Unprocessable(f"{hero} has {sheet['chi']} Chi", detail=f"The card costs {costs['chi']}.")
    if costs.get("hp"):
        hp = health.known_hp(res, hero, "Paying an HP cost")
        least = res.rule("pilgrim_rules", "card_hp_cost_min_hp_left")  # "you must leave the Pilgrim with at least 1 Health Point" (L270)
        if hp - costs["hp"] < least:
            raise Unprocessable(f"An HP cost must leave {hero} at least {least} HP", detail=f"{hero} has {hp} HP (L270).")
    res.add({"kind": "card-played", "hero": hero, "deck": deck, "card": card, "costs": costs, "ap": costs.get("ap", 0)})
    _calms_kei_lun(res, hero, card)
    if costs.get("chi"):
        health.change_chi(res, hero, -costs["chi"], f"cost of {card}")
    if costs.get("hp"):
        health.damage(res, hero, costs["hp"], f"cost of {card}")
    effects = params.get("effects") or {}
    if effects.get("heal"):
        health.heal(res, hero, effects["heal"], card)
    if effects.get("damage"):
        health.damage(res, hero, effects["damage"], card)
    if effects.get("chi"):
        health.change_chi(res, hero, effects["chi"], card)
    for wheel in ("good", "bad"):
        amount = effects.get(f"{wheel}_karma", 0)
        if amount > 0:
            karma.gain(res, hero, wheel, amount, card)
        elif amount < 0:
            karma.lose(res, hero, wheel, -amount, card)
    if effects.get("condition"):
        conditions.apply(res, hero, effects["condition"], card)
    if params.get("keep"):
        return  # a card that stays in play (Continuous, a permanent Skill)
    res.extend(decks.resolve_move(res.decks[deck], "discarded", [card], "held", hero))
    res.add({"kind": "card-given-up", "hero": hero, "deck": deck, "card": card, "reason": "played"})


def _calms_kei_lun(res: Resolution, hero: str, card: str) -> None:
    """Q5: Tripitaka calms Kei Lun by using the Healing Trance once all the Demons are removed from play, paying
    its normal costs; used earlier it is just the card (L861)."""
    calm = res.ctx.ruleset.quest(res.game["quest"]).get("calm_kei_lun")
    if calm and hero == calm["hero"] and card == calm["card"] and not res.game.get("demons"):
        res.add({"kind": "kei-lun-calmed", "hero": hero, "card": card})


def discard_condition(res: Resolution, params: Mapping[str, Any]) -> None:
    """A condition whose duration the rules lost ends when its card (or another card) says so."""
    hero, condition = params["hero"], params["condition"]
    if condition not in {c["id"] for c in res.hero(hero)["conditions"]}:
        raise Unprocessable(f"{hero} has no {condition} card", detail="Nothing to discard.")
    res.add({"kind": "condition-removed", "hero": hero, "condition": condition, "reason": params.get("reason", "card")})


def take_starting_skills(res: Resolution, params: Mapping[str, Any]) -> None:
    """The set-up Skill Cards drawn at the table from a deck whose cards the rules lost."""
    hero = params["hero"]
    deck = f"skill-{hero}"
    owed = res.hero(hero)["skill_draws_owed"]
    cards = list((res.reported.get(deck) or []))
    if not owed or len(cards) != owed:
        raise Unprocessable(
            f"{hero} is owed {owed} starting Skill Card(s)",
            detail=f'Report exactly the cards drawn: "drawn": {{"{deck}": [{owed} card name(s)]}}.',
            errors={f"drawn.{deck}": [f"Expected {owed} card(s)."]},
        )
    spec = res.ctx.deck(deck)
    res.draw(deck, owed, hero)
    res.add({"kind": "starting-skills-reported", "hero": hero, "cards": cards})
    for card in cards:
        res.add({"kind": "card-taken", "hero": hero, "deck": deck, "card": card, "card_kind": params.get("kinds", {}).get(card) or spec.kind_of.get(card), "reason": "set-up-draw"})
