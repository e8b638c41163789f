"""What each of Journey's lost facts blocks, and how the table states it instead (tracker/core/missing_facts.py).

Read from the resolvers: each entry names the actions that read the fact, and the field the table may
send instead when there is one.
"""

from __future__ import annotations

USES = {
    # health.py: damage and healing need a Pilgrim's Health; "report the Health on the profile sheet with a report-health action".
    "hero.HP": {"actions": ["demon-attack", "kei-lun-attack", "red-line-damage", "play-card", "recover", "revive"],
                "per_use": 'the "report-health" action: the Health shown on the profile sheet'},
    "hero.ATT": {"actions": ["pilgrim-attack"], "per_use": 'report the Attack Dice rolled: "faces": {"attack": [...]}'},
    "hero.DF": {"actions": ["demon-attack"], "per_use": 'report the Defense Dice rolled: "faces": {"defense": [...]}'},
    "hero.CR": {"actions": ["pilgrim-attack"], "per_use": 'report the Cleanse Ritual dice rolled: "cleanse_faces": [...]'},
    # whether a Demon is defeated (One Hit Kill); kei-lun-attack has no stated form yet
    "other.HP": {"actions": ["pilgrim-attack", "kei-lun-attack"], "per_use": 'with pilgrim-attack, state whether it was defeated: "stated": {"defeated": true}'},
    "other.ATT": {"actions": ["demon-attack"], "per_use": 'report the Attack Dice rolled: "faces": {"attack": [...]}'},
    "other.BKR": {"actions": ["pilgrim-attack"], "per_use": 'state the Karma the Kill gives: "stated": {"karma": n}'},  # its Bad Karma Reward
    "other.SP": {"actions": ["pilgrim-attack"], "per_use": 'state whether the Cleanse Ritual succeeded: "stated": {"cleansed": true}'},  # its Soul Power
    "other.GKR": {"actions": ["pilgrim-attack"], "per_use": 'state the Karma the Cleanse gives: "stated": {"karma": n}'},  # its Good Karma Reward
    "tables.weapons": {"actions": ["pilgrim-attack"], "per_use": 'state the Weapon Card\'s effect for the face rolled: "stated": {"weapon": {"damage": n, "knock_back": n}}'},
    "tables.demon-dice": {"actions": ["demon-attack"], "per_use": 'state the Demon Die\'s effect for the face rolled: "stated": {"demon_die": {"damage": n, "knock_back": n}}'},
    "tables.promotion-tree": {"actions": ["spawn-demons"], "per_use": 'say how the tree reads for the Demon with no miniature left: "promotion_said": {"<demon>": ["<tougher demon>", ...]}'},
    "tables.conditions": {"actions": ["maintenance"], "per_use": 'report the damage the Condition Card shows: "ongoing_damage": {"<hero>": {"<condition>": n}}'},
    # The dice each action rolls digitally when its faces are not reported.
    "dice.attack": {"actions": ["pilgrim-attack", "demon-attack"]},
    "dice.pilgrim": {"actions": ["pilgrim-attack"]},  # the weapon roll and the Cleanse Ritual
    "dice.defense": {"actions": ["demon-attack"]},
    "dice.demon": {"actions": ["demon-attack"]},
    "decks.demon": {"actions": ["spawn-demons"], "per_use": 'name the cards drawn ("drawn": {"demon": [...]}) and say what each does: "cards_said": {"<card>": {"kind": ..., "spawns": [...]}}'},
    "dice.spinner": {"actions": ["meditate", "rescue-villager"], "per_use": 'send the spin: "spin": "white" or "black"'},
}
