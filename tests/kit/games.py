"""The game packages as the suite finds them (tracker/rulesets/__init__.py discovers them): a fifth needs no list here."""

from __future__ import annotations

from tracker import rulesets


def package(ruleset_id: str) -> str:
    """The name of the game package under tracker/rulesets/ whose rules play ``ruleset_id`` ("yokai-quest" -> "yokai_quest")."""
    return type(rulesets.get(ruleset_id).rules).__module__.split(".")[2]
