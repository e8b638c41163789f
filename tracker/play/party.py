"""Who plays: the heroes a campaign's party may name, and who may hold the cards drawn in its sessions. Checked by
the commands that take them (tracker/application/commands.py) and again when a session is re-derived (tracker/integrity/verification.py,
which an import runs), so a party or a holder no command would accept cannot come in by a file either."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tracker.core import decks, inputs, wording
from tracker.core.errors import Unprocessable
from tracker.rulesets.engine.ruleset import Ruleset


def check(ruleset: Ruleset, party: Any, whole: bool = False) -> None:
    """Heroes the game has, each named once; ``whole``: a campaign's whole party, of the size the game's rules allow."""
    if not isinstance(party, list):
        raise Unprocessable("The party must be a list of hero ids", errors={"party": ["Not a list."]})
    for index, hero in enumerate(party):
        inputs.text(hero, f"party.{index}", inputs.ID_LENGTH, said="hero id")
    known = {c["id"] for c in ruleset.data.get("characters", [])}
    unknown = [hero for hero in party if hero not in known]
    if unknown:
        raise Unprocessable(
            f"Unknown hero '{unknown[0]}'",
            detail=f"Characters of {ruleset.name}: {wording.choices(sorted(known), ruleset.names, most=len(known))}.",
            errors={"party": [f"Unknown: {wording.listed(unknown)}"]},
        )
    twice = sorted({hero for hero in party if party.count(hero) > 1})
    if twice:
        raise Unprocessable(
            f"The party names {wording.named(twice[0], ruleset.names)} more than once; name each hero once",
            detail="Each hero has one sheet and one figure.",
            errors={"party": [f"Named more than once: {wording.listed(twice)}"]},
        )
    rules = ruleset.rules
    if rules.party_roles is not None:
        heroes = [c["id"] for c in ruleset.data.get("characters", []) if c.get("role") in rules.party_roles]
        others = [hero for hero in party if hero not in heroes]
        if others:
            raise Unprocessable(
                f"Only heroes are played: {wording.listed(others, ruleset.names)} "
                f"{'is' if len(others) == 1 else 'are'} not",
                detail=f"Heroes of {ruleset.name}: {wording.choices(heroes, ruleset.names, most=len(heroes))}.",
                errors={"party": [f"Not heroes: {wording.listed(others)}"]},
            )
    most, fewest = rules.most_heroes, rules.fewest_heroes
    if whole and most is not None and len(party) > most:
        raise Unprocessable(
            f"A party of {ruleset.name} has at most {most} heroes; choose {most}",
            detail=f"{len(party)} were named.",
            errors={"party": [f"{len(party)} heroes; at most {most}."]},
        )
    if whole and fewest is not None and len(party) < fewest:
        raise Unprocessable(
            f"A party of {ruleset.name} has at least {fewest} heroes; choose {fewest} to {most}"
            if most is not None else f"A party of {ruleset.name} has at least {fewest} heroes",
            detail=f"{len(party)} {'was' if len(party) == 1 else 'were'} named; each player plays one hero.",
            errors={"party": [f"{len(party)} heroes; at least {fewest}."]},
        )


def check_holder(party: Sequence[str], ruleset: Ruleset, holder: Any) -> None:
    """Who takes drawn cards must be one the game knows: a hero of the game, a side, or the table (decks.TABLE,
    where cards no one holds lie). A holder the game does not know would keep cards no one can play or return.
    Any of the game's heroes, not only the party's: a campaign may list no party, and a linked Journey campaign's
    heroes join on the way (Monk Sha, rescued in Quest 2), so the party at the start is not every hero who holds."""
    if holder is None:
        return
    inputs.text(holder, "holder", inputs.ID_LENGTH)
    heroes = [*party, *(c["id"] for c in ruleset.data.get("characters", []) if c["id"] not in party)]
    known = [*heroes, *ruleset.rules.sides, decks.TABLE]
    if holder not in known:
        raise Unprocessable(
            f"Unknown holder '{holder}'; give the cards to a hero of the game, a side or the table",
            detail=f"Holders in this game: {wording.choices(known, ruleset.names, most=len(known))}.",
            errors={"holder": [f"Not one of: {', '.join(known)}."]},
        )
