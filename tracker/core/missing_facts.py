"""The facts a campaign still lacks, grouped by what each blocks: GET /campaigns/{cid}/components/missing.

Every fact the rulebook transcription lost and the campaign has not supplied: a die's faces (digital rolls
of that die), a deck's cards (digital draws from it), a character's printed stat, a lost table. Each names
its path in the campaign's component data (and in the ruleset's component_schema), why it is unknown, what
it blocks (quest set-up, actions, digital rolls or draws), and whether the table may state it per use
instead. What a character's stat or a table blocks is the game's own declaration (``GameRules.lost_fact_uses``,
keyed ``hero.<stat>``, ``other.<stat>``, ``tables.<id>``, ``dice.<id>`` or ``decks.<id>``); a fact no rule of the tracker reads blocks nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

HEROES = ("hero", "pilgrim")  # the roles whose characters a party is made of


def missing(ruleset: Any, party: list[str], components: Mapping[str, Any], chain: list[str]) -> dict[str, Any]:
    """The campaign's missing facts; a use declared with ``"quest_setup": True`` blocks setting up every quest of ``chain``."""
    uses = {key: {**use, "quest_setup": list(chain) if use.get("quest_setup") else []} for key, use in ruleset.rules.lost_fact_uses.items()}
    facts = [*_dice(ruleset, uses, components), *_decks(ruleset, uses, components), *_stats(ruleset, uses, party, components), *_tables(ruleset, uses, components)]
    return {"facts": facts, "blocks": _grouped(facts)}


def _fact(path: list[str], what: str, reason: str | None, blocks: Mapping[str, Any], per_use: str | None) -> dict[str, Any]:
    return {
        "path": "components." + ".".join(path),
        "schema_pointer": "".join(f"/properties/{part}" for part in path),
        "what": what,
        "reason": reason,
        "blocks": {"quest_setup": list(blocks.get("quest_setup") or []), "actions": list(blocks.get("actions") or []),
                   "digital_rolls": list(blocks.get("digital_rolls") or []), "digital_draws": list(blocks.get("digital_draws") or [])},
        "stated_per_use": per_use is not None,
        "how_per_use": per_use,
    }


def _dice(ruleset: Any, uses: Mapping[str, Any], components: Mapping[str, Any]) -> list[dict[str, Any]]:
    supplied = components.get("dice") or {}
    return [
        _fact(["dice", die["id"], "faces"], f"the face layout of {die['name']}", (die.get("unknowns") or {}).get("faces"),
              {**(uses.get(f"dice.{die['id']}") or {}), "digital_rolls": [die["id"]]},
              (uses.get(f"dice.{die['id']}") or {}).get("per_use")
              or "roll the physical dice and report the faces (an action's own faces field, or POST /sessions/{sid}/rolls with \"faces\")")
        for die in ruleset.data.get("dice", []) if die.get("faces") is None and die["id"] not in supplied
    ]


def _decks(ruleset: Any, uses: Mapping[str, Any], components: Mapping[str, Any]) -> list[dict[str, Any]]:
    supplied = components.get("decks") or {}
    return [
        _fact(["decks", deck["id"], "cards"], f"the cards of {deck['name']}", (deck.get("unknowns") or {}).get("cards"),
              {**(uses.get(f"decks.{deck['id']}") or {}), "digital_draws": [deck["id"]]},
              (uses.get(f"decks.{deck['id']}") or {}).get("per_use") or "draw from the physical deck and report the cards drawn")
        for deck in ruleset.data.get("decks", []) if deck.get("cards") is None and deck["id"] not in supplied
    ]


def _stats(ruleset: Any, uses: Mapping[str, Any], party: list[str], components: Mapping[str, Any]) -> list[dict[str, Any]]:
    supplied = components.get("characters") or {}
    facts = []
    for character in ruleset.data.get("characters", []):
        hero = character.get("role") in HEROES
        if hero and party and character["id"] not in party:
            continue  # a hero the campaign does not play
        known = ((supplied.get(character["id"]) or {}).get("stats") or {})
        for stat, value in sorted((character.get("stats") or {}).items()):
            if value is not None or known.get(stat) is not None:
                continue
            use = uses.get(f"{'hero' if hero else 'other'}.{stat}") or {}
            reason = (character.get("unknowns") or {}).get(f"stats.{stat}") or (character.get("unknowns") or {}).get("stats")
            facts.append(_fact(["characters", character["id"], "stats", stat], f"{character['name']}'s {stat}", reason, use, use.get("per_use")))
    return facts


def _tables(ruleset: Any, uses: Mapping[str, Any], components: Mapping[str, Any]) -> list[dict[str, Any]]:
    supplied = components.get("tables") or {}
    return [
        _fact(["tables", table_id], table.get("description") or table_id, None, uses.get(f"tables.{table_id}") or {}, (uses.get(f"tables.{table_id}") or {}).get("per_use"))
        for table_id, table in (ruleset.data.get("component_tables") or {}).items() if table_id not in supplied
    ]


def _grouped(facts: list[dict[str, Any]]) -> dict[str, Any]:
    grouped: dict[str, dict[str, list[str]]] = {"quest_setup": {}, "actions": {}, "digital_rolls": {}, "digital_draws": {}}
    blocking_nothing = []
    for fact in facts:
        blocked = False
        for kind, names in fact["blocks"].items():
            for name in names:
                grouped[kind].setdefault(name, []).append(fact["path"])
                blocked = True
        if not blocked:
            blocking_nothing.append(fact["path"])
    return {**grouped, "nothing_the_tracker_checks": blocking_nothing}


def needed_by(ruleset: Any, action: Mapping[str, Any], state: Mapping[str, Any], components: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The missing facts this request may read: those its action type reads, less dice whose faces it reports,
    and of the characters' stats only those of the heroes and figures it names."""
    named = _named(action, state.get("game") or {})
    facts = missing(ruleset, list(state.get("party") or []), components, [])["facts"]
    reported = action.get("faces") if isinstance(action.get("faces"), Mapping) else {}
    needed = []
    for fact in facts:
        if action.get("type") not in fact["blocks"]["actions"]:
            continue
        parts = fact["path"].split(".")
        if parts[1] == "characters" and parts[2] not in named:
            continue
        if parts[1] == "dice" and parts[2] in reported:
            continue
        needed.append(fact)
    return needed


def _named(action: Mapping[str, Any], game: Mapping[str, Any]) -> set[str]:
    """Every id a request names, and the character behind each figure it names (a Demon in play -> its profile)."""
    names: set[str] = set()

    def walk(value: Any) -> None:
        if isinstance(value, str):
            names.add(value)
        elif isinstance(value, Mapping):
            for key, inner in value.items():
                names.add(str(key))
                walk(inner)
        elif isinstance(value, list):
            for inner in value:
                walk(inner)

    walk({k: v for k, v in action.items() if k != "type"})
    for figures in game.values():
        if isinstance(figures, Mapping):
            names.update(str(figures[name]) for name in list(names) if isinstance(figures.get(name), str))
    return names
