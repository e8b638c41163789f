"""The combat part of the Descent state after one change: figures in play, wounds, fatigue and order tokens."""

from __future__ import annotations

from typing import Any

COMBAT_KINDS = frozenset({"monsters-placed", "attack-made", "monster-killed", "wounds-stated", "fatigue-spent", "wounds-recovered", "hero-readied",
                          "undying-rolled", "leeched", "aura-wounded", "monster-tokens-placed", "monster-tokens-resolved"})


def _figure(g: dict[str, Any], figure_id: str) -> dict[str, Any]:
    return g["heroes"][figure_id] if figure_id in g["heroes"] else g["monsters"][figure_id]


def fold_combat(g: dict[str, Any], change: dict[str, Any]) -> None:
    """Mutates ``g`` (the fold's own copy)."""
    kind = change["kind"]
    if kind == "monsters-placed":
        monsters = g.setdefault("monsters", {})
        for f in change["figures"]:
            monsters[f["id"]] = {"monster": f["monster"], "master": f["master"], **({"named": f["named"]} if "named" in f else {}), **({"spirit": f["spirit"]} if "spirit" in f else {}),
                                 "wounds": f["wounds"], "max_wounds": f["wounds"], "armor": f["armor"], "killed": False, "entered": change["source"],
                                 **({"abilities": dict(f["abilities"])} if f.get("abilities") else {})}
    elif kind == "attack-made":
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
    elif kind == "undying-rolled":
        if change["restored"] and change["wounds"] is not None:
            g["monsters"][change["figure"]]["wounds"] = change["wounds"]
    elif kind == "monster-tokens-placed":
        tokens = g["monsters"][change["figure"]].setdefault("tokens", {})
        tokens[change["condition"]] = tokens.get(change["condition"], 0) + change["count"]
    elif kind == "monster-tokens-resolved":
        m = g["monsters"][change["figure"]]
        m["tokens"] = {c: n - change["discarded"].get(c, 0) for c, n in m["tokens"].items() if n - change["discarded"].get(c, 0)}
        m["tokens_resolved_turn"] = change["turn"]
        if "daze" in change["left"] or m.get("daze_rolled"):  # the daze tokens that remain after its roll (L300)
            m["daze_rolled"] = change["left"].get("daze", 0)
        if change["wounds_left"] is not None:
            m["wounds"] = change["wounds_left"]
        if "stun" in change["discarded"]:
            m["stunned_turn"] = change["turn"]
    elif kind == "aura-wounded":
        if change["wounds_left"] is not None:
            _figure(g, change["figure"])["wounds"] = change["wounds_left"]
    elif kind == "leeched":
        target, attacker = _figure(g, change["target"]), _figure(g, change["attacker"])
        if target.get("fatigue") is not None:
            target["fatigue"] -= change["fatigue_lost"]
        if attacker.get("wounds") is not None:
            attacker["wounds"] += change["attacker_healed"]
    elif kind == "monster-killed":
        g["monsters"][change["figure"]].update(killed=True, wounds=0)
    elif kind == "wounds-stated":
        figure = _figure(g, change["figure"])
        for key in ("wounds", "fatigue"):
            if key in change:
                figure[key] = change[key]
    elif kind == "fatigue-spent":
        h = g["heroes"][change["hero"]]
        if h.get("fatigue") is not None:
            h["fatigue"] -= change["count"]
    elif kind == "wounds-recovered":
        h = g["heroes"][change["hero"]]
        for key in ("wounds", "fatigue"):
            if h.get(key) is not None:
                h[key] += change[key]
        if change["poison_removed"]:
            h["tokens"]["poison"] -= change["poison_removed"]
            h["tokens"] = {c: n for c, n in h["tokens"].items() if n}
    elif kind == "hero-readied":
        h = g["heroes"][change["hero"]]
        if change["order"] is not None:
            h["orders"].append(change["order"])
        h["readied"].append({"turn": change["turn"], "half_actions": change["half_actions"], "stunned": change["stunned"]})
