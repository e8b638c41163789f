"""Kei Lun, the Heavenly Creature: hostile in Quest 5, an ally in Quest 7.

- Quest 5 (L852-L860): he attacks all Pilgrims in range and line of sight; Demons never attack him.
- Quest 7 (L933-L948): he attacks Demons and Pilgrims alike; his attacks Kill Demons (no Cleanse Ritual) and no
  Karma is tracked for him (L936); Demons treat him as a fifth Pilgrim and attack him (L942); his death is the
  quest's Defeat (L945, L948).
His profile sheet was lost: his attack is reported as faces, and his Health comes from component data
(``"characters": {"kei-lun": {"stats": {"HP": n}}}``), without which his death is a fact the table states.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tracker.core.errors import Unprocessable
from tracker.rulesets.journey import health, stated_results
from tracker.rulesets.journey.resolution import Resolution

KEI_LUN = "kei-lun"


def set_up(quest: Mapping[str, Any], components: Mapping[str, Any]) -> dict[str, Any] | None:
    """Kei Lun's part of a quest's set-up: his stance and his Health where the group supplied it."""
    if KEI_LUN in (quest.get("allies") or []):
        stance = "ally"
    elif KEI_LUN in (quest.get("neutral_or_hostile") or []):
        stance = "hostile"
    else:
        return None
    hp = (((components.get("characters") or {}).get(KEI_LUN) or {}).get("stats") or {}).get("HP")
    return {"stance": stance, "hp": hp, "status": "in-play"}


def total(res: Resolution, faces: list[Any]) -> int:
    values = next(die["values"] for die in res.ctx.ruleset.data["dice"] if die["id"] == "attack")
    return sum(values[str(face)] for face in faces)  # X counts 0 (L454)


def _present(res: Resolution) -> dict[str, Any]:
    kei_lun = res.game.get("kei_lun")
    if not kei_lun:
        raise Unprocessable("Kei Lun is not in this quest", detail="He plays in Quests 5 and 7 (L843, L925).", errors={"target": [KEI_LUN]})
    if kei_lun["status"] != "in-play":
        raise Unprocessable("Kei Lun has been Killed", detail="L945.", errors={"target": [KEI_LUN]})
    return kei_lun


def attacked(res: Resolution, demon: str, damage: int) -> None:
    """A Demon's attack on Kei Lun: only where Demons treat him as a fifth Pilgrim (Q7, L942); never in Q5 (L860)."""
    kei_lun = _present(res)
    if kei_lun["stance"] != "ally":
        raise Unprocessable("Demons do not attack Kei Lun in this quest", detail="They do not see him as a threat (L860).", errors={"target": [KEI_LUN]})
    if kei_lun["hp"] is None:
        raise Unprocessable(
            "Kei Lun's Health is unknown",
            detail='His profile sheet was lost: supply "components": {"characters": {"kei-lun": {"stats": {"HP": n}}}}, or state his death at the end ("reported": {"kei_lun_killed": true}).',
            errors={"components.characters.kei-lun.stats.HP": ["Unknown."]},
        )
    after = max(0, kei_lun["hp"] - damage)
    res.add({"kind": "kei-lun-damaged", "by": demon, "amount": damage, "hp_before": kei_lun["hp"], "hp_after": after})
    if after == 0:
        res.add({"kind": "kei-lun-killed", "by": demon})


def attacks(res: Resolution, params: Mapping[str, Any]) -> None:
    """Kei Lun's attack (1 Action each turn, right after the Pilgrims: L852, L934), its faces reported."""
    kei_lun = _present(res)
    target = params["target"]
    faces = res.roll({}, {"attack": list(params["faces"])}, f"Kei Lun attacks {target}")["attack"]
    if target in (res.game.get("heroes") or {}):
        sheet = res.hero(target)
        if sheet["status"] != "conscious":
            raise Unprocessable(f"{target} is {sheet['status']}", detail="Attacks target conscious Pilgrims (L559).", errors={"target": [target]})
        defense_faces = res.roll({}, {"defense": list(params.get("defense") or [])}, f"{target} defends")["defense"] if params.get("defense") else []
        net = max(0, total(res, faces) - total(res, defense_faces))
        res.add({"kind": "attack-resolved", "attacker": KEI_LUN, "target": target, "attack_total": total(res, faces), "defense_total": total(res, defense_faces), "net_damage": net, "crushing_damage": 0})
        if net:
            health.damage(res, target, net, "Kei Lun's attack")
        return
    if kei_lun["stance"] != "ally":
        raise Unprocessable("In Quest 5 Kei Lun attacks the Pilgrims", detail="He attacks all Pilgrims in range/LOS (L852).", errors={"target": [target]})
    character = res.game["demons"].get(target)
    if character is None:
        in_play = sorted(res.game["demons"]) or "none"
        raise Unprocessable(f"No Demon or Pilgrim '{target}' is in play", detail=f"Demons in play: {in_play}.", errors={"target": [f"Not in play: {target}; Demons in play: {in_play}"]})
    stated: dict[str, Any] = {}
    hp = stated_results.stat_or_stated(res, params, stated, character, "HP", "defeated", True, f"Whether {target} is defeated")
    # L502: "You must do at least this much damage in one attack to Defeat the character." (One Hit Kill)
    defeated = stated["defeated"] if hp is None else total(res, faces) >= hp
    res.add({"kind": "attack-resolved", "attacker": KEI_LUN, "target": target, "attack_total": total(res, faces), "defense_total": 0, "damage": total(res, faces),
             "one_hit_kill": hp, "defeated": defeated, **({"stated": stated} if stated else {})})
    if defeated:
        # "Kei Lun's attacks Kill Demons (no Cleanse Ritual) but there is no need to track Bad Karma" (L936).
        res.add({"kind": "demon-killed", "demon": target, "character": character, "by": KEI_LUN, "bkr": 0})
