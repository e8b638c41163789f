"""Data tests for the Journey: Wrath of Demons ruleset (tracker/rulesets/journey/ruleset.json).

They load the JSON with the standard library only and check the format rules (ids, unknowns,
inferred paths) and the facts the rulebook states.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Iterator

import pytest

PATH = Path(__file__).resolve().parents[2] / "tracker/rulesets/journey/ruleset.json"
ENTITY_LISTS = ("dice", "decks", "characters", "quests", "conditions")
KEBAB = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
LINE_REF = re.compile(r"L\d+")

PILGRIMS = ["tripitaka", "monkey-king", "cho-hakkai", "monk-sha"]
CHAIN = [
    "q1-meeting",
    "q2-rescue",
    "q3-village-fields",
    "q4-the-village",
    "q5-beasts",
    "q6-kogaiji",
    "q7-demon-army",
    "q8-iron-fans-interruption",
    "q9-kogaijis-trap",
    "q10-part-1-the-lair",
    "q10-part-2-seal-the-gate",
]


@pytest.fixture(scope="module")
def data() -> dict[str, Any]:
    with PATH.open(encoding="utf-8") as f:
        return json.load(f)


def by_id(data: dict[str, Any], list_name: str) -> dict[str, dict[str, Any]]:
    return {item["id"]: item for item in data[list_name]}


def null_paths(value: Any, prefix: str = "", skip: tuple[str, ...] = ()) -> Iterator[str]:
    """Dotted paths of every null inside nested objects (lists are not entered)."""
    if value is None:
        yield prefix
    elif isinstance(value, dict):
        for key, item in value.items():
            if prefix == "" and key in skip + ("unknowns", "inferred"):
                continue
            yield from null_paths(item, f"{prefix}.{key}" if prefix else key, skip)


_MISSING = object()


def lookup(entity: dict[str, Any], dotted: str) -> Any:
    node: Any = entity
    for part in dotted.split("."):
        if not isinstance(node, dict) or part not in node:
            return _MISSING
        node = node[part]
    return node


def all_entities(data: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    for list_name in ENTITY_LISTS:
        for entity in data[list_name]:
            yield f"{list_name}/{entity['id']}", entity


def list_items_with_unknowns(data: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    """Items inside plain lists that follow the same unknowns convention (card entries)."""
    for deck in data["decks"]:
        for i, card in enumerate(deck.get("known_cards", [])):
            yield f"decks/{deck['id']}/known_cards[{i}]", card
    for i, card in enumerate(data.get("unassigned_cards", [])):
        yield f"unassigned_cards[{i}]", card


def check_unknowns(where: str, entity: dict[str, Any], skip: tuple[str, ...] = ()) -> None:
    unknowns = entity.get("unknowns")
    assert isinstance(unknowns, dict), f"{where}: 'unknowns' must be an object"
    nulls = set(null_paths(entity, "", skip))
    assert nulls - set(unknowns) == set(), f"{where}: nulls without a reason: {sorted(nulls - set(unknowns))}"
    assert set(unknowns) - nulls == set(), f"{where}: unknowns that are not null: {sorted(set(unknowns) - nulls)}"
    for path, reason in unknowns.items():
        assert isinstance(reason, str) and reason.strip(), f"{where}: reason for {path} must be a sentence"


# ------------------------------------------------------------------ format


def test_top_level_identity(data):
    assert data["id"] == "journey"
    assert data["name"] == "Journey: Wrath of Demons"
    assert data["version"] == "1.5.0"  # 1.1.0: each quest's outcomes as data; 1.2.0: the correct action; 1.3.0: a pilgrim-attack's stated results; 1.4.0: the Villager bonus reading; 1.5.0: verdicts in words; earlier ones under versions/
    assert data["source"] == {
        "rulebook": "seeds/000_c58113b742c12a1f.txt",
        "digest": "rules/journey-wrath-of-demons.md",
    }
    assert data["precedence"] == ["quest", "card", "rulebook"]
    for key in ENTITY_LISTS:
        assert isinstance(data[key], list) and data[key], key
    for key in ("pilgrim_rules", "campaign", "karma", "unknowns"):
        assert isinstance(data[key], dict), key


@pytest.mark.parametrize("list_name", ENTITY_LISTS)
def test_ids_unique_and_kebab_case(data, list_name):
    ids = [item["id"] for item in data[list_name]]
    assert len(ids) == len(set(ids)), f"duplicate ids in {list_name}"
    for entity_id in ids:
        assert KEBAB.match(entity_id), f"{list_name}: id {entity_id!r} is not lowercase kebab-case"


def test_entities_have_name_and_line_source(data):
    for where, entity in all_entities(data):
        assert isinstance(entity.get("name"), str) and entity["name"], f"{where}: name"
        assert isinstance(entity.get("source"), str) and LINE_REF.search(entity["source"]), f"{where}: source"


def test_every_null_is_explained_and_every_unknown_is_null(data):
    check_unknowns("top level", data, skip=ENTITY_LISTS)
    for where, entity in all_entities(data):
        check_unknowns(where, entity)
    for where, item in list_items_with_unknowns(data):
        check_unknowns(where, item)


def test_null_walker_catches_problems():
    check_unknowns("ok", {"a": None, "b": {"c": None}, "d": [None], "unknowns": {"a": "x.", "b.c": "y."}})
    with pytest.raises(AssertionError):
        check_unknowns("missing", {"a": None, "unknowns": {}})
    with pytest.raises(AssertionError):
        check_unknowns("stale", {"a": 1, "unknowns": {"a": "x."}})
    with pytest.raises(AssertionError):
        check_unknowns("nested", {"b": {"c": None}, "unknowns": {}})


def test_inferred_paths_exist_and_are_not_null(data):
    holders = [("top level", data)] + list(all_entities(data)) + list(list_items_with_unknowns(data))
    for where, entity in holders:
        for path in entity.get("inferred", []):
            value = lookup(entity, path)
            assert value is not _MISSING, f"{where}: inferred path {path} does not exist"
            assert value is not None, f"{where}: inferred path {path} is null; it should be in unknowns instead"


def test_short_paraphrases(data):
    for quest in data["quests"]:
        for rule in quest["special_rules"]:
            assert len(rule.split()) <= 25, f"{quest['id']}: special rule too long: {rule}"
        for key in ("victory", "heroic_victory", "defeat", "end_trigger"):
            if quest[key] is not None:
                assert len(quest[key].split()) <= 25, f"{quest['id']}.{key} too long"


# ------------------------------------------------------------------ dice


def test_four_dice_with_lost_faces(data):
    dice = by_id(data, "dice")
    colours = {"attack": "red", "defense": "blue", "pilgrim": "white", "demon": "black"}
    for die_id, colour in colours.items():
        die = dice[die_id]
        assert die["colour"] == colour
        assert die["kind"] == "die"
        assert die["sides"] == 6
        assert die["faces"] is None
        assert "faces" in die["unknowns"]
        assert die["results"] == ["X", "0", "1", "2", "3"]
        assert die["values"]["X"] == 0
        assert {die["values"][r] for r in die["results"]} <= {0, 1, 2, 3}
        assert set(die["faces_seen_in_text"]) <= set(die["results"])


def test_faces_seen_in_text(data):
    dice = by_id(data, "dice")
    assert set(dice["attack"]["faces_seen_in_text"]) == {"X", "1"}
    assert set(dice["defense"]["faces_seen_in_text"]) == {"2", "3"}
    assert set(dice["pilgrim"]["faces_seen_in_text"]) == {"X", "1", "2", "3"}
    assert set(dice["demon"]["faces_seen_in_text"]) == {"1", "2", "3"}


def test_spinner(data):
    spinner = by_id(data, "dice")["spinner"]
    assert spinner["kind"] == "spinner"
    assert spinner["results"] == ["white", "black"]
    assert spinner["sides"] is None and "sides" in spinner["unknowns"]
    assert spinner["faces"] is None and "faces" in spinner["unknowns"]
    assert spinner["full_rotation_required"] is True
    assert "q9_result_mapping" in spinner["inferred"]


# ------------------------------------------------------------------ characters


def test_character_roster(data):
    chars = by_id(data, "characters")
    assert set(chars) == {
        "tripitaka", "monkey-king", "cho-hakkai", "monk-sha", "kei-lun",
        "berrok", "bharhaz", "borrack", "boof", "kogaiji", "yazuiji", "koorogg",
    }
    assert [c for c in chars if chars[c]["role"] == "pilgrim"] == PILGRIMS
    assert chars["kei-lun"]["role"] == "heavenly-creature"
    for demon in ("berrok", "bharhaz", "borrack", "boof"):
        assert chars[demon]["role"] == "demon" and chars[demon]["type"] == "minion"
    for lord in ("kogaiji", "yazuiji", "koorogg"):
        assert chars[lord]["role"] == "demon" and chars[lord]["type"] == "demon-lord"
    minis = {c: chars[c]["miniatures"] for c in chars}
    assert minis["berrok"] == 15 and minis["bharhaz"] == 5 and minis["borrack"] == 2 and minis["boof"] == 3
    assert sum(minis.values()) == 33


def test_koorogg_bull_demon_king(data):
    dk = by_id(data, "characters")["koorogg"]
    assert "Bull Demon King" in dk["also_called"]
    assert dk["one_hit_kill"] is True
    stats = dk["stats"]
    assert (stats["HP"], stats["SP"], stats["GKR"], stats["BKR"]) == (9, 3, 5, 5)
    assert stats["targets"] == "all"
    assert dk["demon_die"] == {"3": {"damage": 3, "condition": "paralyzed"}}
    assert stats["DF"] == "none" and stats["CR"] == "none"


def test_borrack_yazuiji_kogaiji_demon_die(data):
    chars = by_id(data, "characters")
    assert chars["borrack"]["demon_die"] == {"1": {"knock_back": 1}}
    assert chars["yazuiji"]["demon_die"] == {"2": {"knock_back": 2, "damage": 1}}
    assert chars["kogaiji"]["demon_die"] == {"2": {"damage": 2, "condition": "burned"}}
    assert {"demon_die.2.damage", "demon_die.2.condition"} <= set(chars["kogaiji"]["inferred"])
    for lord in ("borrack", "yazuiji", "kogaiji", "koorogg"):
        assert chars[lord]["extra_attack_die"] == "demon"
        assert chars[lord]["demon_die_other_faces"] is None


def test_movement(data):
    chars = by_id(data, "characters")
    assert chars["berrok"]["stats"]["MV"] == 2 and "stats.MV" not in chars["berrok"]["inferred"]
    assert chars["monkey-king"]["stats"]["MV"] == 4 and "stats.MV" not in chars["monkey-king"]["inferred"]
    assert chars["boof"]["stats"]["MV"] == 4 and "stats.MV" in chars["boof"]["inferred"]
    assert chars["monk-sha"]["stats"]["MV"] == 3 and "stats.MV" in chars["monk-sha"]["inferred"]
    for who in ("tripitaka", "cho-hakkai", "bharhaz", "borrack", "kogaiji", "yazuiji", "koorogg", "kei-lun"):
        assert chars[who]["stats"]["MV"] is None and "stats.MV" in chars[who]["unknowns"]


def test_kei_lun_profile_unknown(data):
    kl = by_id(data, "characters")["kei-lun"]
    for stat in ("MV", "HP", "ATT", "DF", "SP", "GKR", "BKR", "targets", "range"):
        assert kl["stats"][stat] is None, stat


def test_pilgrims(data):
    chars = by_id(data, "characters")
    for pid in PILGRIMS:
        pilgrim = chars[pid]
        assert pilgrim["one_hit_kill"] is False
        assert pilgrim["stats"]["HP"] is None and "stats.HP" in pilgrim["unknowns"]
        assert pilgrim["stats"]["Chi"] == 10
    assert chars["tripitaka"]["stats"]["CR"] == 1
    assert chars["monkey-king"]["stats"]["targets"] == 1


def test_pilgrim_rules(data):
    rules = data["pilgrim_rules"]
    assert rules["action_points"] == 2
    assert rules["chi"] == {"max": 10, "start": 10}
    assert rules["karma_wheels"]["good"]["start"] == 0
    assert rules["karma_wheels"]["bad"]["start"] == 0


# ------------------------------------------------------------------ decks


def test_deck_sizes(data):
    decks = by_id(data, "decks")
    assert decks["corruption"]["size"] == 16
    assert decks["demon"]["size"] == 50
    assert decks["fortune"]["size"] == 20
    assert decks["misfortune"]["size"] == 20
    assert decks["condition"]["size"] == 20
    assert decks["condition"]["shuffled"] is False
    for deck_id in ("corruption", "demon", "fortune", "misfortune"):
        assert decks[deck_id]["shuffled"] is True
        assert "owner" not in decks[deck_id]


def test_weapon_decks(data):
    decks = by_id(data, "decks")
    weapons = [d for d in data["decks"] if d["id"].startswith("weapon-")]
    assert sorted(d["owner"] for d in weapons) == sorted(PILGRIMS)
    for pid in PILGRIMS:
        deck = decks[f"weapon-{pid}"]
        assert deck["size"] == 3 and deck["shuffled"] is False and deck["owner"] == pid
    assert sum(d["size"] for d in weapons) == 12


def test_skill_decks(data):
    decks = by_id(data, "decks")
    skills = [d for d in data["decks"] if d["kind"] == "skill"]
    assert sorted(d["owner"] for d in skills) == sorted(PILGRIMS)
    for pid in PILGRIMS:
        deck = decks[f"skill-{pid}"]
        assert deck["owner"] == pid
        assert deck["card_kinds"] == ["one-time", "permanent"]
        assert deck["size"] is None and "size" in deck["unknowns"]
        assert deck["shuffled"] is True
    for deck in data["decks"]:
        if deck.get("cards") is not None and deck.get("size") is not None:
            assert len(deck["cards"]) == deck["size"]
        if "owner" in deck:
            assert deck["owner"] in PILGRIMS


def test_named_cards(data):
    decks = by_id(data, "decks")
    names = {deck_id: {c["name"] for c in deck["known_cards"]} for deck_id, deck in decks.items()}
    assert {"Prayer of Sealing", "Om Chant", "Prayer of Mercy", "Asura Seal", "Shining Seal", "Healing Trance"} <= names["skill-tripitaka"]
    assert {"Phase Walk", "Flaming War Cry", "Shadow Walk"} <= names["skill-monkey-king"]
    assert {"Greedy"} <= names["skill-cho-hakkai"]
    assert {"Brotherhood of the Skull", "Spirit of Fortune", "Healing Fellowship"} <= names["skill-monk-sha"]
    assert {"Lure of Demons", "Demon Distraction", "Permanent Limp", "Curse of the Dead"} == names["corruption"]
    assert {"Om Mala of Vigor", "Om Mala of Knowledge", "Wild Herbs", "Wild Ginseng"} == names["fortune"]
    assert {"Spawn Demon Lord", "Flood Gate", "Wild Attacks", "Phase March"} <= names["demon"]
    assert {"Poisoned", "Burned", "Disabled", "Paralyzed"} == names["condition"]
    ninth = next(c for c in decks["skill-tripitaka"]["known_cards"] if c["name"] == "Ninth Cycle Scripture")
    assert ninth["inferred"]
    assert {c["name"] for c in data["unassigned_cards"]} == {"Flying Nimbus", "Cleansing Flame"}


# ------------------------------------------------------------------ quests and campaign


def test_quest_chain(data):
    quests = data["quests"]
    assert [q["id"] for q in quests] == CHAIN
    assert data["campaign"]["chain"] == CHAIN
    for position, quest in enumerate(quests, start=1):
        assert quest["chain_position"] == position
        expected_next = CHAIN[position] if position < len(CHAIN) else None
        assert quest["next"] == expected_next
        assert set(quest["pilgrims"]) == set(PILGRIMS)


def test_quest_demons_reference_characters(data):
    chars = by_id(data, "characters")
    for quest in data["quests"]:
        for entry in quest["demons"]:
            assert entry["character"] in chars and chars[entry["character"]]["role"] == "demon"
            assert entry["count"] >= 1
    demons = {q["id"]: {e["character"]: e["count"] for e in q["demons"]} for q in data["quests"]}
    assert demons["q6-kogaiji"] == {"berrok": 2, "kogaiji": 1, "koorogg": 1}
    assert demons["q10-part-2-seal-the-gate"] == {"kogaiji": 1, "yazuiji": 1, "koorogg": 1}


def test_karma_upgrades(data):
    quests = by_id(data, "quests")
    expected = {q: 0 for q in CHAIN}
    expected.update({"q6-kogaiji": 1, "q7-demon-army": 1, "q8-iron-fans-interruption": 1,
                     "q9-kogaijis-trap": 1, "q10-part-1-the-lair": 2})
    assert data["karma"]["upgrades_by_quest"] == expected
    for quest_id, upgrades in expected.items():
        assert quests[quest_id]["karma_upgrades"] == upgrades


def test_quest_specific_facts(data):
    quests = by_id(data, "quests")
    assert quests["q2-rescue"]["starting_cards"] == {"tripitaka": ["Shining Seal"], "monk-sha": ["Healing Fellowship"]}
    assert quests["q2-rescue"]["initiative"]["order"] == ["monkey-king", "monk-sha", "tripitaka", "cho-hakkai"]
    assert quests["q5-beasts"]["starting_cards"] == {"tripitaka": ["Healing Trance"]}
    assert quests["q8-iron-fans-interruption"]["deck_presets"]["demon"]["used"] is False
    assert quests["q10-part-1-the-lair"]["gate_timers"] == {"lower-left": 4, "top-right": 8}
    assert quests["q10-part-2-seal-the-gate"]["lord_respawn_turn_tokens"] == {"kogaiji": 10, "yazuiji": 7, "koorogg": 2}
    for quest_id in ("q10-part-1-the-lair", "q10-part-2-seal-the-gate"):
        assert quests[quest_id]["victory"] is None and "victory" in quests[quest_id]["unknowns"]
    for quest in data["quests"]:
        assert quest["map_layout"] is None and "map_layout" in quest["unknowns"]


def test_karma_trade_table(data):
    rows = {row["id"]: row for row in data["karma"]["trade_table"]}
    assert rows["master-skill"]["cost"] == {"good_karma": 4, "action_points": 1}
    assert rows["master-skill"]["mandatory"] is False
    assert rows["master-skill"]["reward"]["skill_card"] == "one-time"
    assert rows["permanent-skill"]["cost"] == {"good_karma": 10}
    assert rows["permanent-skill"]["mandatory"] is True
    assert rows["permanent-skill"]["reward"]["skill_card"] == "permanent"
    assert rows["weapon-upgrade"]["cost"] == {"bad_karma": 10}
    assert rows["weapon-upgrade"]["mandatory"] is True
    assert rows["weapon-upgrade"]["reward"] == {"weapon_levels": 1, "corruption_cards": 1}


# ------------------------------------------------------------------ conditions


def test_poisoned(data):
    poisoned = by_id(data, "conditions")["poisoned"]
    assert poisoned["duration_turns"] == 3
    assert poisoned["effect"]["hp_loss_per_turn"] == 1


def test_conditions_without_stated_duration(data):
    conditions = by_id(data, "conditions")
    assert set(conditions) == {"poisoned", "burned", "disabled", "paralyzed"}
    for cond_id in ("burned", "disabled", "paralyzed"):
        assert conditions[cond_id]["duration_turns"] is None
        assert "duration_turns" in conditions[cond_id]["unknowns"]
    assert conditions["burned"]["effect"]["immediate_damage"] == 2
