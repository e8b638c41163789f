"""The combat part of the Descent state after one change: figures in play, wounds, fatigue and order tokens. Each kind
is declared with its fold, like the rest of the game's (fold.py, tracker/rulesets/engine/changes.py)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tracker.rulesets.descent.fold import CHANGES


def _figure(g: dict[str, Any], figure_id: str) -> dict[str, Any]:
    return g["heroes"][figure_id] if figure_id in g["heroes"] else g["monsters"][figure_id]


@CHANGES("monsters-placed", "MonstersPlaced")
def _monsters_placed(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    monsters = g.setdefault("monsters", {})
    for f in change["figures"]:
        monsters[f["id"]] = {"monster": f["monster"], "master": f["master"], **({"named": f["named"]} if "named" in f else {}), **({"spirit": f["spirit"]} if "spirit" in f else {}),
                             "wounds": f["wounds"], "max_wounds": f["wounds"], "armor": f["armor"], "killed": False, "entered": change["source"],
                             **({"abilities": dict(f["abilities"])} if f.get("abilities") else {}), **({"zone": f["zone"]} if "zone" in f else {})}


@CHANGES("monsters-moved", "MonstersMoved")
def _monsters_moved(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    for move in change["moves"]:  # the zone the table reported (figure_conditions.py)
        g["monsters"][move["figure"]]["zone"] = move["zone"]


@CHANGES("attack-made", "AttackMade")
def _attack_made(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    target = _figure(g, change["target"])
    if change["wounds_left"] is not None:
        target["wounds"] = change["wounds_left"]
    for used in change["orders_used"]:
        g["heroes"][used["hero"]]["orders"].remove(used["order"])
    if "turn" in change and change["attacker"] in (g.get("monsters") or {}):  # a stunned master attacks once (L317)
        g["monsters"][change["attacker"]]["attacked_turn"] = change["turn"]
    if "leap" in change:  # one Leap attack per turn, its roll affecting each figure passed (L224)
        attacker = _figure(g, change["attacker"])
        earlier = attacker.get("leap") or {}
        same = earlier.get("turn") == change["leap"]["turn"]
        targets = earlier["targets"] if same else []
        dodged = change["leap"].get("dodged_by") or (earlier.get("dodged_by") if same else None)  # the leap's one re-roll (L224)
        attacker["leap"] = {**change["leap"], "targets": targets + [change["target"]], **({"dodged_by": dodged} if dodged else {})}


@CHANGES("undying-rolled", "UndyingRolled")
def _undying_rolled(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    if change["restored"] and change["wounds"] is not None:
        g["monsters"][change["figure"]]["wounds"] = change["wounds"]


@CHANGES("monster-tokens-placed", "MonsterTokensPlaced")
def _monster_tokens_placed(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    tokens = g["monsters"][change["figure"]].setdefault("tokens", {})
    tokens[change["condition"]] = tokens.get(change["condition"], 0) + change["count"]


@CHANGES("monster-tokens-resolved", "MonsterTokensResolved")
def _monster_tokens_resolved(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    m = g["monsters"][change["figure"]]
    m["tokens"] = {c: n - change["discarded"].get(c, 0) for c, n in m["tokens"].items() if n - change["discarded"].get(c, 0)}
    m["tokens_resolved_turn"] = change["turn"]
    if "daze" in change["left"] or m.get("daze_rolled"):  # the daze tokens that remain after its roll (L300)
        m["daze_rolled"] = change["left"].get("daze", 0)
    if change["wounds_left"] is not None:
        m["wounds"] = change["wounds_left"]
    if "stun" in change["discarded"]:
        m["stunned_turn"] = change["turn"]


@CHANGES("aura-wounded", "AuraWounded")
def _aura_wounded(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    if change["wounds_left"] is not None:
        _figure(g, change["figure"])["wounds"] = change["wounds_left"]


@CHANGES("leeched", "Leeched")
def _leeched(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    target, attacker = _figure(g, change["target"]), _figure(g, change["attacker"])
    if target.get("fatigue") is not None:
        target["fatigue"] -= change["fatigue_lost"]
    if attacker.get("wounds") is not None:
        attacker["wounds"] += change["attacker_healed"]


@CHANGES("monster-killed", "MonsterKilled")
def _monster_killed(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    g["monsters"][change["figure"]].update(killed=True, wounds=0)


@CHANGES("wounds-stated", "WoundsStated")
def _wounds_stated(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    figure = _figure(g, change["figure"])
    for key in ("wounds", "fatigue"):
        if key in change:
            figure[key] = change[key]


@CHANGES("fatigue-spent", "FatigueSpent")
def _fatigue_spent(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    h = g["heroes"][change["hero"]]
    if h.get("fatigue") is not None:
        h["fatigue"] -= change["count"]


@CHANGES("wounds-recovered", "WoundsRecovered")
def _wounds_recovered(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    h = g["heroes"][change["hero"]]
    for key in ("wounds", "fatigue"):
        if h.get(key) is not None:
            h[key] += change[key]
    if change["poison_removed"]:
        h["tokens"]["poison"] -= change["poison_removed"]
        h["tokens"] = {c: n for c, n in h["tokens"].items() if n}


@CHANGES("hero-readied", "HeroReadied")
def _hero_readied(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    h = g["heroes"][change["hero"]]
    if change["order"] is not None:
        h["orders"].append(change["order"])
    h["readied"].append({"turn": change["turn"], "half_actions": change["half_actions"], "stunned": change["stunned"]})
