"""Demon spawning (L380-L383, L595-L608, L659-L663).

- One Demon card per active Gate, the Gate closest to Tripitaka first (the request gives the order).
- A unique Demon already in play, or a card the quest excludes, is discarded and drawn again
  (the discard-and-redraw method, L675); Borrack is unique in Quests 1-3 (L707).
- Special cards stay face up beside the deck until the next Maintenance Phase unless they state
  a duration.
- Out of miniatures: promote along the promotion tree; if nothing can be promoted, Demon Rage:
  the Rage Card goes on top of the deck, drawing stops, Demons have 3 AP until the next Maintenance.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tracker.core import wording
from tracker.core import decks
from tracker.core.errors import Unprocessable
from tracker.rulesets.engine import components as component_data
from tracker.rulesets.journey import lair
from tracker.rulesets.journey.attack import demon_in_play
from tracker.rulesets.journey.resolution import Resolution
from tracker.rulesets.journey.setup import rage_card

BORROCK_UNIQUE = ("q1-meeting", "q2-rescue", "q3-village-fields")
MAX_REDRAWS = 200
RAGE_ACTION_POINTS = 3  # every Demon activates with 3 AP instead of 2 while the Rage Card lies on the deck (L604-L608)


def _card(res: Resolution, card: str, said: Mapping[str, Any]) -> dict[str, Any]:
    """What a Demon card does: from the campaign's component data, or as the table says it (``cards_said``, recorded
    with the action) for a card the data does not hold."""
    entry = dict(component_data.card_entries(res.ctx.components, "demon").get(card) or {})
    kind = res.ctx.deck("demon").kind_of.get(card) or entry.get("kind")
    if (kind is None or (kind in ("reinforcement", "unique") and "spawns" not in entry)) and card in said:
        entry, kind = dict(said[card]), said[card]["kind"]
    if kind is None or (kind in ("reinforcement", "unique") and "spawns" not in entry):
        raise Unprocessable(
            f"What the Demon card '{card}' does is unknown",
            detail=(
                "The Demon deck's cards were lost from the rulebook. Say what the card drawn at the table does, "
                f'"cards_said": {{"{card}": {{"kind": "reinforcement", "spawns": ["berrok", "berrok"]}}}}, or supply the deck as '
                'component data, each card with its kind and the Demons it places: "components": {"decks": {"demon": {"cards": '
                '[{"name": ..., "kind": "reinforcement", "spawns": ["berrok", "berrok"]}, ...]}}}.'
            ),
            errors={"components.decks.demon.cards": [f"{card}: kind or Demons unknown."], f"cards_said.{card}": ["Say what it does."]},
        )
    return {"name": card, "kind": kind, "spawns": list(entry.get("spawns") or []), "duration": entry.get("duration")}


def _excluded(res: Resolution, card: Mapping[str, Any]) -> str | None:
    quest = res.game["quest"]
    rule = (res.ctx.ruleset.data["decks"][_deck_index(res)].get("quest_exclusions") or {}).get(quest) or {}
    if rule.get("only_kinds") and card["kind"] not in rule["only_kinds"]:
        return "excluded-by-quest"
    if rule.get("only_demons") and any(d not in rule["only_demons"] for d in card["spawns"]):
        return "excluded-by-quest"
    if card["name"] in (rule.get("excluded_cards") or []):
        return "excluded-by-quest"
    in_play = set(res.game["demons"].values())
    if card["kind"] == "unique" and any(d in in_play for d in card["spawns"]):
        return "unique-in-play"
    if quest in BORROCK_UNIQUE and "borrack" in card["spawns"] and "borrack" in in_play:
        return "unique-in-play"
    return None


def _deck_index(res: Resolution) -> int:
    return next(i for i, deck in enumerate(res.ctx.ruleset.data["decks"]) if deck["id"] == "demon")


def _available(res: Resolution, character: str) -> bool:
    in_play = list(res.game["demons"].values()).count(character)
    return in_play < res.character(character)["miniatures"]


def _instance(res: Resolution, character: str) -> str:
    n = 1
    while f"{character}-{n}" in res.game["demons"]:
        n += 1
    return f"{character}-{n}"


def _promote(res: Resolution, character: str, said: Mapping[str, Any]) -> str | None:
    """The tougher Demon placed when no miniature of ``character`` is left (L604-L606): from the promotion tree the
    campaign supplied, else as the table says its tree reads for this use (``promotion_said``, recorded with the
    action); neither is refused, never guessed."""
    tree = res.table("promotion-tree")
    if character not in tree and character in said:
        tree = said
    if character not in tree:
        raise Unprocessable(
            f"No {res.character(character)['name']} miniature is left, and the promotion tree is unknown",
            detail=(
                "The promotion tree was a figure lost from the rulebook (L604-L606). Supply it as component data "
                f'("components": {{"tables": {{"promotion-tree": {{"{character}": ["<tougher demon>", ...]}}}}}}); '
                "an empty list means no promotion (Demon Rage). Or say how the tree reads for this spawn: "
                f'"promotion_said": {{"{character}": ["<tougher demon>", ...]}}.'
            ),
            errors={f"components.tables.promotion-tree.{character}": ["Unknown."], f"promotion_said.{character}": ["Say how the tree reads."]},
        )
    return next((tougher for tougher in tree[character] if _available(res, tougher)), None)


def spawn(res: Resolution, params: Mapping[str, Any]) -> None:
    if res.game.get("phase") != "demon":
        raise Unprocessable("Demons spawn in the Demon Phase", detail="Start the Demon Phase first (L380).")
    quest = res.ctx.ruleset.quest(res.game["quest"])
    if ((res.ctx.ruleset.data["decks"][_deck_index(res)].get("quest_exclusions") or {}).get(quest["id"]) or {}).get("deck_not_used"):
        raise Unprocessable(f"Quest {quest['number']} does not use the Demon deck", detail="Iron Fan respawns with set allies instead (L965).")
    active = sorted(g for g, s in res.game["gates"].items() if s == "active")
    order = list(params["gates"])
    if sorted(order) != active:
        raise Unprocessable(
            "List every active Gate once, closest to Tripitaka first",
            detail=f"Active Gates: {active}.",
            errors={"gates": [f"Expected an order of {active}."]},
        )
    if res.game.get("rage"):
        raise Unprocessable("Demon Rage: no Demon cards are drawn", detail="The Rage Card lies on the deck until the next Maintenance Phase (L607).")
    mantra = lair.mantra_order(res, params, order)  # Q10 Part 2: 2 cards per chanting Lord, alternating Gates (L1088)
    if mantra is not None:
        order = mantra
    else:
        # "Starting at the active Gate closest to Tripitaka, draw one Demon Card" (L596): the cards per active Gate are
        # the rules data's (decks[demon].draw_per_active_gate)
        per_gate = res.ctx.ruleset.data["decks"][_deck_index(res)]["draw_per_active_gate"]
        order = [gate for gate in order for _ in range(per_gate)]
    for gate in order:
        if _one_pass_played(res):
            return
        if _spawn_at(res, gate, params.get("cards_said") or {}, params.get("promotion_said") or {}):
            return  # Demon Rage: drawing stops for the rest of this Demon Phase
    _one_pass_played(res)


def _one_pass_played(res: Resolution) -> bool:
    """Q7: the Gates become inactive once the entire Demon Spawn Deck has been played once (L943). Known only when
    the deck's size is (its cards supplied or counted); otherwise the table turns the Gates off (gate-activation)."""
    rule = res.ctx.ruleset.quest(res.game["quest"]).get("gates_inactive_after_one_pass")
    deck = res.decks["demon"]
    if not rule or deck["unknown"] is None or len(deck["draw"]) + deck["unknown"] > 0:
        return False
    for gate, state in sorted(res.game["gates"].items()):
        if state == "active":
            res.add({"kind": "gate-state-changed", "gate": gate, "from": "active", "to": "inactive", "reason": f"the Demon Spawn Deck has been played once ({rule['line']})"})
    return True


def _spawn_at(res: Resolution, gate: str, said: Mapping[str, Any], promotion_said: Mapping[str, Any]) -> bool:
    for _ in range(MAX_REDRAWS):
        (name,) = res.draw("demon", 1, None)
        card = _card(res, name, said)
        excluded = _excluded(res, card)
        if excluded:
            res.add({"kind": "demon-card-resolved", "gate": gate, "card": name, "outcome": excluded})
            res.extend(decks.resolve_move(res.decks["demon"], "discarded", [name], "held"))
            continue
        if card["kind"] == "special":
            res.add({"kind": "demon-card-resolved", "gate": gate, "card": name, "outcome": "special", "duration": card["duration"]})
            return False
        for character in card["spawns"]:
            placed = character if _available(res, character) else _promote(res, character, promotion_said)
            if placed is None:
                res.add({"kind": "demon-card-resolved", "gate": gate, "card": name, "outcome": "rage"})
                res.extend(decks.resolve_move(res.decks["demon"], "discarded", [name], "held"))
                res.extend(decks.resolve_move(res.decks["demon"], "returned", [rage_card(res)], "removed", position="top"))
                res.add({"kind": "demon-rage-started", "gate": gate, "reason": "no-miniatures", "demon_action_points": RAGE_ACTION_POINTS})
                return True
            res.add({"kind": "demon-spawned", "demon": _instance(res, placed), "character": placed, "gate": gate, "card": name, "promoted_from": character if placed != character else None})
        res.add({"kind": "demon-card-resolved", "gate": gate, "card": name, "outcome": "spawned"})
        res.extend(decks.resolve_move(res.decks["demon"], "discarded", [name], "held"))
        return False
    raise Unprocessable("No Demon card this quest allows came up", detail=f"Drew {MAX_REDRAWS} times; check the quest's deck.")


def change_gate(res: Resolution, params: Mapping[str, Any]) -> None:
    """A Gate becomes active or inactive as its quest says (Q3, Q6: when a Pilgrim steps on its tile; Q10 Part 1:
    when its Turn Tokens run out; behind a closed door until it opens). A closed Gate never reactivates (L590-L594)."""
    gate, to = params["gate"], params["state"]
    gates = res.game["gates"]
    if gate not in gates:
        raise Unprocessable(f"No Gate '{gate}' in this quest", detail=f"Gates: {wording.listed(sorted(gates))}.", errors={"gate": [f"Unknown Gate: {gate}; this quest has {sorted(gates)}"]})
    lair.refuse_timed_gate(res, gate, to)
    if gates[gate] == "closed":
        raise Unprocessable(f"{gate} is closed", detail="A closed Gate never reactivates (L590-L594).", errors={"gate": [gate]})
    if gates[gate] == to:
        raise Unprocessable(f"{gate} is {to} already", detail=f"Gates: {gates}.", errors={"state": [to]})
    res.add({"kind": "gate-state-changed", "gate": gate, "from": gates[gate], "to": to, "reason": params.get("reason")})


def remove_demon(res: Resolution, params: Mapping[str, Any]) -> None:
    """A quest rule or card removes a Demon without Kill or Cleanse: no Karma (L660, L976, L1014)."""
    character = demon_in_play(res, params["demon"])
    res.add({"kind": "demon-removed", "demon": params["demon"], "character": character, "reason": params["reason"], "karma": False})


def place_demon(res: Resolution, params: Mapping[str, Any]) -> None:
    """A quest rule places a Demon (Q1's transformed Villager, Q8's respawns, Q9's Bull Generals)."""
    character = params["character"]
    if res.character(character).get("role") != "demon":
        raise Unprocessable(f"'{character}' is not a Demon", errors={"character": [character]})
    if not _available(res, character):
        raise Unprocessable(f"No {res.character(character)['name']} miniature is left", detail="All of them are in play.")
    res.add({"kind": "demon-spawned", "demon": _instance(res, character), "character": character, "gate": None, "card": None, "reason": params["reason"], "promoted_from": None})
