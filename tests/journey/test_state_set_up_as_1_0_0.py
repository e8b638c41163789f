"""A Journey quest set up under rules data 1.0.0 keeps 1.0.0's state and takes every change today's resolvers make
(Journey's fold, as a pure function)."""

from __future__ import annotations

from tracker.rulesets.journey import versions

FOLD_1_0_0 = versions.of("1.0.0").changes.fold  # the fold a session pinned to rules data 1.0.0 is given (versions.py)


def test_a_state_set_up_as_1_0_0_recorded_it_takes_every_change_later_code_makes():
    """A quest set up under rules data 1.0.0 keeps 1.0.0's state (no banished Lords, no Turn Tokens, no replaced
    Villagers: versions.PUBLISHED_1_0_0), while today's resolvers may still record those changes for its session:
    the fold starts each part as it is first needed instead of failing (a KeyError was a 500)."""
    set_up = {"kind": "quest-set-up", "quest": "q1-meeting", "mode": "individual", "initiative": ["tripitaka"],
              "demons": {"berrok-1": "berrok"}, "gates": {"gate-1": "active"}}
    game = FOLD_1_0_0({}, set_up)
    assert not {"banished", "villager_turn_tokens", "gate_turn_tokens", "villagers_replaced"} & set(game)
    for change in (
        {"kind": "demon-lord-banished", "character": "kogaiji", "turn_tokens": 2},
        {"kind": "demon-lord-turn-token-removed", "character": "kogaiji", "left": 1},
        {"kind": "villager-turn-token-removed", "villager": "villager-1", "left": 4},
        {"kind": "gate-turn-token-removed", "gate": "gate-1", "left": 1},
        {"kind": "villager-token-replaced", "villager": "villager-1"},
    ):
        game = FOLD_1_0_0(game, change)
    assert game["banished"] == {"kogaiji": 1} and game["villager_turn_tokens"] == {"villager-1": 4}
    assert game["gate_turn_tokens"] == {"gate-1": 1} and game["villagers_replaced"] == ["villager-1"]
    assert FOLD_1_0_0(game, {"kind": "demon-lord-returned", "character": "kogaiji"})["banished"] == {}
