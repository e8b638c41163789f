"""Journey's special Demon cards through the REST API on SQLite and PostgreSQL: they stay face up until the next
Maintenance Phase unless they state a duration (L355-L358)."""

from __future__ import annotations

from tests.kit.journey import (
    COMPONENTS,
    DEMON_DECK,
    PILGRIMS,
    act,
    campaign,
    kinds,
    start,
)


def _q7(client):
    comps = {**COMPONENTS, "decks": {**COMPONENTS["decks"], "demon": {"cards": DEMON_DECK}}}
    sid, game = start(client, campaign(client, components=comps), "q7-demon-army", {"karma_upgrades": {p: ["good"] for p in PILGRIMS}})
    gates = sorted(game["gates"])
    act(client, sid, type="maintenance")
    act(client, sid, type="demon-phase")
    return sid, gates


def test_special_demon_cards_are_discarded_at_the_next_maintenance_unless_they_last(client):
    """L355-L358: special Demon cards stay face up until the next Maintenance Phase unless they state a duration."""
    sid, gates = _q7(client)
    spawned = act(client, sid, type="spawn-demons", gates=gates, drawn={"demon": ["Spawn Demon Lord", "Archers 1", "Bull General", "Archers 2"]})
    assert spawned["state"]["game"]["special_cards"] == ["Spawn Demon Lord"]
    act(client, sid, type="end-of-turn")
    kept = act(client, sid, type="maintenance", special_cards_lasting=["Spawn Demon Lord"])
    assert kept["state"]["game"]["special_cards"] == ["Spawn Demon Lord"] and "special-demon-cards-discarded" not in kinds(kept)
    for gate in gates[1:]:
        act(client, sid, type="gate-activation", gate=gate, state="inactive", reason="test: one Gate left to draw for")
    act(client, sid, type="demon-phase")
    act(client, sid, type="spawn-demons", gates=gates[:1], drawn={"demon": ["Bull General"]})
    act(client, sid, type="end-of-turn")
    gone = act(client, sid, type="maintenance")
    assert gone["state"]["game"]["special_cards"] == [] and "Spawn Demon Lord" in gone["state"]["decks"]["demon"]["discard_pile"]
