"""Journey played through the REST API in tests: the test components a group might supply, and the session helpers
(tests/kit/session.py) with Journey's party, set-up and keyword actions."""

from __future__ import annotations

from tests.kit import session

PILGRIMS = ["tripitaka", "monkey-king", "cho-hakkai", "monk-sha"]
ORDER = ["monkey-king", "tripitaka", "cho-hakkai", "monk-sha"]
Q3_ORDER = ["monkey-king", "cho-hakkai", "monk-sha", "tripitaka"]  # Tripitaka holds Initiative Token 4 in Q3
CORRUPTION = ["Lure of Demons", "Demon Distraction", "Permanent Limp", "Curse of the Dead"] + [f"Corruption {n}" for n in range(5, 17)]

# Component data a group might supply for Journey, to exercise digital rolls and draws (the ``journey_campaign``
# fixture's). These are test inputs, not facts about the real components.
JOURNEY_TEST_COMPONENTS = {
    "dice": {"attack": {"faces": ["X", "1", "1", "2", "2", "3"]}},
    "decks": {"fortune": {"cards": [f"Fortune {n}" for n in range(1, 21)]}},
}

# Test inputs standing in for what a group would supply: not facts about the real components.
COMPONENTS = {
    "decks": {
        **{
            f"skill-{p}": {"cards": [{"name": f"{p} skill {n}", "kind": "one-time" if n % 2 else "permanent"} for n in range(1, 12)]}
            for p in PILGRIMS
        },
        "corruption": {"cards": CORRUPTION},
    },
    "characters": {
        **{p: {"stats": {"HP": 10}} for p in PILGRIMS},
        "berrok": {"stats": {"HP": 1, "BKR": 6, "GKR": 2, "SP": 2}},
    },
    "tables": {"demon-dice": {"koorogg": {"1": {"condition": "poisoned"}}}, "weapons": {"monkey-king": {"3": {"3": {"damage": 3}}}}},
}

# Quest 2 deals named Skill Cards, so the supplied decks must hold them.
Q2_COMPONENTS = {
    **COMPONENTS,
    "decks": {
        **COMPONENTS["decks"],
        "skill-tripitaka": {"cards": [{"name": "Shining Seal", "kind": "one-time"}, *[{"name": f"t{n}", "kind": "one-time" if n % 2 else "permanent"} for n in range(10)]]},
        "skill-monk-sha": {"cards": [{"name": "Healing Fellowship", "kind": "one-time"}, *[{"name": f"m{n}", "kind": "one-time" if n % 2 else "permanent"} for n in range(10)]]},
    },
}

DEMON_DECK = [
    {"name": "Rage Card", "kind": "rage"},
    {"name": "Bull General", "kind": "reinforcement", "spawns": ["borrack"]},
    {"name": "Bull General", "kind": "reinforcement", "spawns": ["borrack"]},
    {"name": "Warband", "kind": "reinforcement", "spawns": ["berrok"] * 14},
    {"name": "Spawn Demon Lord", "kind": "special"},
    {"name": "Kogaiji Rises", "kind": "unique", "spawns": ["kogaiji"]},
    *[{"name": f"Archers {n}", "kind": "reinforcement", "spawns": ["bharhaz"]} for n in range(44)],
]


def campaign(client, mode="individual", components=COMPONENTS) -> str:
    return session.campaign(client, "journey", PILGRIMS, components=components, options={"mode": mode})["id"]


def start(client, cid, quest, setup=None, initiative=ORDER) -> tuple[str, dict]:
    """A session of ``quest`` with the Initiative order given: its id and its game state."""
    started = session.start(client, cid, quest, {**({"initiative": initiative} if initiative else {}), **(setup or {})})
    return started["id"], started["state"]["game"]


def act(client, sid, **action) -> dict:
    return session.act(client, sid, action)


def refused(client, sid, status=422, **action) -> dict:
    return session.refused(client, sid, action, status=status)


kinds = session.change_kinds


def to_monkey(client, sid) -> None:
    """Maintenance, then Monkey King activates."""
    act(client, sid, type="maintenance")
    act(client, sid, type="activate-pilgrim", hero="monkey-king")


def verified(client, sid, outcome="victory") -> None:
    # These tests are about actions, not how the quest ends: the owner ends it by a table ruling, recorded as one
    # (tests/journey/test_quest_outcomes.py ends quests by the outcomes the rules give).
    session.ruled_and_verified(client, sid, outcome, ruling="the test stops the quest here")


def play_q1(client, cid) -> tuple[str, dict]:
    """Quest 1 played to its Heroic Victory (L711): the session and the end's answer."""
    sid, _ = start(client, cid, "q1-meeting")
    act(client, sid, type="maintenance")
    act(client, sid, type="activate-pilgrim", hero="monkey-king")
    kill = {"faces": {"attack": ["1", "X"], "pilgrim": ["X"]}, "outcome": "kill"}
    act(client, sid, type="pilgrim-attack", hero="monkey-king", target="berrok-1", **kill)  # 6 Bad Karma
    act(client, sid, type="activate-pilgrim", hero="tripitaka")
    act(client, sid, type="rescue-villager", hero="tripitaka", villager="villager-1")
    act(client, sid, type="meditate", hero="tripitaka", spin="black", drawn={"misfortune": ["Lose 2 Good Karma"]})
    cho = act(client, sid, type="activate-pilgrim", hero="cho-hakkai")["state"]["game"]["heroes"]["cho-hakkai"]
    act(client, sid, type="play-card", hero="cho-hakkai", deck="skill-cho-hakkai", card=cho["skills"][0]["name"])
    act(client, sid, type="demon-phase")
    act(client, sid, type="end-of-turn")
    act(client, sid, type="maintenance")
    act(client, sid, type="activate-pilgrim", hero="monkey-king")
    # 6 more Bad Karma (weapon level 2, a Corruption Card, 2 left), and the last Demon removed: the quest "ends
    # immediately" (L710) in the Heroic Victory the log shows (L711: the Villager rescued, Tripitaka Meditated, a Skill
    # Card played, the house cleared): the rules decide it at this attack, and the end agrees without naming a fact.
    last = act(client, sid, type="pilgrim-attack", hero="monkey-king", target="berrok-2", **kill)
    assert last["state"]["verdict"]["outcome"] == "heroic-victory", last["state"]["verdict"]
    return sid, session.end(client, sid, "heroic-victory")


def monkey_king_active(client, quest="q1-meeting", components=COMPONENTS, setup=None) -> str:
    """A session of ``quest`` past its first Maintenance, Monkey King activated."""
    sid, _ = start(client, campaign(client, components=components), quest, setup)
    to_monkey(client, sid)
    return sid
