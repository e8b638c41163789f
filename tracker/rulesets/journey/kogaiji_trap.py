"""Quest 9, Kogaiji's Trap (L1007-L1020): the Rescue that spins first, Kogaiji's spell, and his Defeat.

- Only 1 of the 4 Villager tokens is the Elder Monk; the others are Bull Generals (Borrack) hidden by the
  deception spell. A Rescue costs 1 AP whatever comes of it and first spins the Fortune Spinner (L1016).
- Good Fortune: the Elder Monk, +3 Good Karma as normal; the spell ends and the other Villager tokens in the room
  become Bull Generals facing Tripitaka (L1017). Which tokens share the room was on the lost mini-map: the request
  names them (``others_in_room``).
- Bad Fortune: the token becomes a Bull General facing the rescuer, no Karma (L1018).
- The last of the 4 tokens is the Elder Monk without a spin (L1019); once he is found, every other token is a
  Bull General (L1016: "the other 3 are Borrack Bull Generals"), no spin either.
- No Bull General miniature left: Demon Rage, lasting until Kogaiji is Defeated (L1020).
- While the spell lasts Kogaiji neither moves nor attacks and cannot be attacked (L1015). Once Defeated he leaves
  play without Kill, Cleanse or Karma (L1014), and the Gates stop spawning (L1009).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tracker.core import wording
from tracker.core import decks
from tracker.core.errors import Unprocessable
from tracker.rulesets.journey import karma
from tracker.rulesets.journey.resolution import Resolution
from tracker.rulesets.journey.setup import rage_card
from tracker.rulesets.journey.turns import action_cost

BULL_GENERAL = "borrack"
KOGAIJI = "kogaiji"
RAGE_ACTION_POINTS = 3


def in_play(res: Resolution) -> bool:
    """Whether this session is Quest 9 with the trap set (a version whose set-up casts the spell, versions.py)."""
    return res.ctx.ruleset.rules.version.kogaiji_trap_set(res.ctx.ruleset.quest(res.game["quest"]))


def tokens_left(res: Resolution) -> list[str]:
    rescued = {v for sheet in res.game["heroes"].values() for v in sheet["villagers"]}
    gone = rescued | set(res.game.get("villagers_replaced") or [])
    return [v for v in res.game["tokens"].get("villager", []) if v not in gone]  # (the trap is set where the set-up named them: in_play)


def rescue(res: Resolution, hero: str, villager: str, params: Mapping[str, Any]) -> None:
    left = tokens_left(res)
    if villager not in left:
        raise Unprocessable(f"{villager} is no longer on the board", detail=f"Villager tokens left: {left}.", errors={"villager": [villager]})
    found = _found_elder_monk(res, hero, villager, left, params.get("spin"))
    if not found:
        res.add({"kind": "villager-token-replaced", "villager": villager, "by": BULL_GENERAL, "facing": hero, "reason": "deception-broken"})
        _bull_general(res, f"Deception is Broken: {villager} was a Bull General (L1018)")
        return
    res.add({"kind": "villager-rescued", "hero": hero, "villager": villager, "elder_monk": True})
    karma.gain(res, hero, "good", karma.rescue_gain(res), "rescue-villager")  # "the 3 Good Karma points, as normal" (L1017)
    res.add({"kind": "kogaiji-spell-ended", "reason": "the Elder Monk was rescued (L1015, L1017)"})
    others = list(params.get("others_in_room") or [])
    stray = [v for v in others if v not in left or v == villager]
    if stray:
        raise Unprocessable(
            f"{stray[0]} is not another Villager token still on the board",
            detail=f"Other tokens left: {wording.listed([v for v in left if v != villager])}.",
            errors={"others_in_room": stray},
        )
    for other in others:
        res.add({"kind": "villager-token-replaced", "villager": other, "by": BULL_GENERAL, "facing": "tripitaka", "reason": "elder-monk-found"})
        _bull_general(res, f"Elder Monk: {other} in the room becomes a Bull General (L1017)")


def _found_elder_monk(res: Resolution, hero: str, villager: str, left: list[str], spin: str | None) -> bool:
    if not res.game.get("kogaiji_spell"):
        # The Elder Monk is found: every other token is one of the 3 hidden Bull Generals (L1016), no spin needed.
        if spin:
            raise Unprocessable("The Elder Monk has been found: no spin", detail="The other tokens are Bull Generals (L1016).", errors={"spin": [spin]})
        res.add({"kind": "rescue-attempted", "hero": hero, "ap": action_cost(res), "villager": villager, "spin": None, "result": "bull-general"})
        return False
    if len(left) == 1:
        # "If there is only 1 of the 4 Villager Tokens left, there is no need to use the Fortune Spinner" (L1019).
        if spin:
            raise Unprocessable("The last Villager token is the Elder Monk: no spin", detail="L1019.", errors={"spin": [spin]})
        res.add({"kind": "rescue-attempted", "hero": hero, "ap": action_cost(res), "villager": villager, "spin": None, "result": "elder-monk"})
        return True
    # Which colour is Good Fortune is the data's (an inferred mapping: white is Good Fortune).
    mapping = next(die for die in res.ctx.ruleset.data["dice"] if die["id"] == "spinner")["q9_result_mapping"]
    (face,) = res.roll({} if spin else {"spinner": 1}, {"spinner": [spin]} if spin else None, f"{hero} attempts a Rescue of {villager}")["spinner"]
    result = "good-fortune" if face == mapping["good-fortune"] else "bad-fortune"
    res.add({"kind": "rescue-attempted", "hero": hero, "ap": action_cost(res), "villager": villager, "spin": face, "result": result})
    return result == "good-fortune"


def _bull_general(res: Resolution, reason: str) -> None:
    in_play_now = list(res.game["demons"].values()).count(BULL_GENERAL)
    if in_play_now < res.character(BULL_GENERAL)["miniatures"]:
        n = 1
        while f"{BULL_GENERAL}-{n}" in res.game["demons"]:
            n += 1
        res.add({"kind": "demon-spawned", "demon": f"{BULL_GENERAL}-{n}", "character": BULL_GENERAL, "gate": None, "card": None, "reason": reason, "promoted_from": None})
        return
    if res.game.get("rage_until") == "kogaiji-defeated":
        return  # Demon Rage already lasts until Kogaiji falls
    if not res.game.get("rage"):
        res.extend(decks.resolve_move(res.decks["demon"], "returned", [rage_card(res)], "removed", position="top"))
    res.add({"kind": "demon-rage-started", "gate": None, "reason": "no-bull-general-miniature", "demon_action_points": RAGE_ACTION_POINTS, "until": "kogaiji-defeated"})


def refuse_attack_on_kogaiji(res: Resolution, target: str) -> None:
    if in_play(res) and res.game["demons"].get(target) == KOGAIJI and res.game.get("kogaiji_spell"):
        raise Unprocessable(
            "Kogaiji is immune from attack while he casts his spell",
            detail="He casts a deception spell and a protection Mantra until the Elder Monk is rescued (L1015).",
            errors={"target": [target]},
        )


def refuse_kogaiji_acting(res: Resolution, demon: str) -> None:
    if in_play(res) and res.game["demons"].get(demon) == KOGAIJI and res.game.get("kogaiji_spell"):
        raise Unprocessable("Kogaiji neither moves nor attacks while he casts his spell", detail="L1015.", errors={"demon": [demon]})


def kogaiji_defeated(res: Resolution, target: str, outcome: str | None) -> bool:
    """Q9's Kogaiji is not Killed or Cleansed: Defeated, he leaves play with no Karma (L1014), the Gates stop
    spawning (L1009) and a Demon Rage of the trap ends (L1020). True when this rule handled the defeat."""
    if not in_play(res) or res.game["demons"].get(target) != KOGAIJI:
        return False
    if outcome in ("kill", "cleanse"):
        raise Unprocessable(
            "In Quest 9 the Pilgrims do not Kill or Cleanse Kogaiji",
            detail='Once Defeated he is out of game play and gives no Karma (L1014): send no "outcome", or "interrupted".',
            errors={"outcome": [outcome]},
        )
    res.add({"kind": "demon-removed", "demon": target, "character": KOGAIJI, "reason": "defeated (L1014)", "karma": False})
    for gate, state in sorted(res.game["gates"].items()):
        if state == "active":
            res.add({"kind": "gate-state-changed", "gate": gate, "from": "active", "to": "inactive", "reason": "Kogaiji's Defeat: the Gates stop spawning (L1009)"})
    if res.game.get("rage_until") == "kogaiji-defeated":
        res.extend(decks.resolve_move(res.decks["demon"], "removed", [rage_card(res)], "draw"))
        res.add({"kind": "demon-rage-ended", "turn": res.ctx.state["turn"], "reason": "Kogaiji Defeated (L1020)"})
    return True
