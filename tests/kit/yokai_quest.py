"""Helpers for playing Yōkai Quest through the REST API in tests."""

from __future__ import annotations

from tests.kit import session

S1, S2, S3 = "shake-them-skeleton-bones-1", "shake-them-skeleton-bones-2", "shake-them-skeleton-bones-3"

# Component data a group might supply: the heroes' Health from their control panels.
# These are test inputs, not facts about the real components.
YOKAI_TEST_COMPONENTS = {"characters": {"ryo": {"stats": {"health": 6}}, "ami": {"stats": {"health": 5}}}}

HIT = {"red": ["katana"]}
MISS = {"blue": ["blank"]}


def create_campaign(client, options=None, components=YOKAI_TEST_COMPONENTS, party=("ryo", "ami")):
    body = {"ruleset": "yokai-quest", "name": "Friday group", "party": list(party), "components": components}
    if options is not None:
        body["options"] = options
    response = client.post("/campaigns", json=body)
    assert response.status_code == 201, response.json
    return response.json


# The four abilities each hero's player chooses when the heroes are prepared (L145): the table's choice.
LOADOUTS = {"ryo": ["kiri-susumu", "senpuu", "moui", "suchu-ryouku"], "ami": ["kami-no-ibuki", "chiyute", "kaminari", "soukatsui"]}
# Abilities that strike many yōkai at once: Senpuu "hitting all the yōkai" (L331), Soukatsui "harms all yōkai on the
# board" (L362). Their action costs were lost with their cards; these tests' table reads one action.
AREA = {"ryo": "senpuu", "ami": "soukatsui"}


def start(client, campaign_id, scene):
    party = client.get(f"/campaigns/{campaign_id}").json["party"]
    setup = {"abilities": {hero: LOADOUTS[hero] for hero in party if hero in LOADOUTS}}
    response = client.post(f"/campaigns/{campaign_id}/sessions", json={"quest": scene, "setup": setup})
    assert response.status_code == 201, response.json
    return response.json["id"]


# A hero's action that L214 refuses while the hero waits at the entrance point: those the helpers let the hero enter for.
_ENTERED_FIRST = {"use-ability", "use-item"}


def enter(client, session_id, hero):
    """The hero enters the board with its basic movement if it still waits at the entrance point (L214), as every hero
    does in its first activation of a scene; nothing if it has entered (or the scene keeps no entrance)."""
    if hero in game(client, session_id).get("at_entrance", []):
        act(client, session_id, {"type": "move", "hero": hero, "movement": "basic"})


def act(client, session_id, action, status=201):
    """One action. A hero's attack, ability or item expected to be accepted comes after the hero entered the board: the
    helper makes the entering basic movement first where the hero still waits at the entrance (L214)."""
    if status == 201:
        hero = action.get("attacker") if action["type"] == "attack" else action.get("hero") if action["type"] in _ENTERED_FIRST else None
        if action["type"] == "move" and action.get("movement") == "run":
            hero = action["hero"]
        if hero is not None:
            enter(client, session_id, hero)
    response = client.post(f"/sessions/{session_id}/actions", json=action)
    assert response.status_code == status, response.json
    return response.json


def game(client, session_id):
    return client.get(f"/sessions/{session_id}").json["game"]


def strike(client, session_id, attacker, defenders):
    """The attacker hits every defender with one katana against no helmet (reported dice): a hero strikes one defender
    with a basic attack (one action), several with their area ability (used first, one action)."""
    targets = [{"defender": d, "attack_faces": HIT, "defense_faces": MISS} for d in defenders]
    body = {"type": "attack", "attacker": attacker, "source": "test", "targets": targets}
    if attacker in AREA and len(defenders) > 1 and "activation" in game(client, session_id):
        act(client, session_id, {"type": "use-ability", "hero": attacker, "ability": AREA[attacker], "actions": 1})
        body["ability"] = AREA[attacker]
    return act(client, session_id, body)


def finish_hero_phase(client, session_id):
    """The activation under way ends, and every hero standing who has not activated takes an activation renouncing
    everything (L400): the Yōkai phase follows the Hero phase (L152)."""
    state = game(client, session_id)
    if state.get("activation"):
        act(client, session_id, {"type": "end-activation", "hero": state["activation"]["hero"]})
    for hero, standing in sorted(state["heroes"].items()):
        if not standing["defeated"] and hero not in state.get("activated", []) and (state.get("activation") or {}).get("hero") != hero:
            act(client, session_id, {"type": "end-activation", "hero": hero})


def end(client, session_id, outcome, status=200):
    response = client.post(f"/sessions/{session_id}/end", json={"outcome": outcome})
    assert response.status_code == status, response.json
    return response.json


def draw_owed(client, session_id):
    """Draw every treasure card owed, as Nigiri, refusing it once the hand is full."""
    while owed := game(client, session_id)["treasure_owed"]:
        hero = owed[0]["hero"]
        full = len(game(client, session_id)["heroes"][hero]["hand"]) >= 4
        act(client, session_id, {"type": "draw-treasure", "hero": hero, "card": "Nigiri", **({"discard": "Nigiri"} if full else {})})


def _scene(client, session_id):
    rules = client.get("/rulesets/yokai-quest").json
    return next(q for q in rules["quests"] if q["id"] == game(client, session_id)["scene"])


def begin_yokai_phase(client, session_id):
    """Begin the Yōkai phase, stating a coin's face while the log does not know it (red/blue: a colour of the scene's points)."""
    if game(client, session_id)["phase"] == "yokai":
        return None  # already begun: the yōkai are acting
    finish_hero_phase(client, session_id)
    coins = game(client, session_id)["coins"]
    points = _scene(client, session_id)["appearance_points"]
    stated = {}
    if coins["red-blue"] is None:
        stated["red-blue"] = "red" if "red" in points else "blue"
    if coins["green-yellow"] is None and ("green" in points or "yellow" in points):
        stated["green-yellow"] = "green" if "green" in points else "yellow"
    return act(client, session_id, {"type": "begin-yokai-phase", **({"coins": stated} if stated else {})})


def yokai_phase(client, session_id, appear=None):
    """One Yōkai phase: the coins turn, the first appearance card due places ``appear`` (the table reads the card),
    any other card due places nothing; then the turn ends. Returns the end-turn answer."""
    begin_yokai_phase(client, session_id)
    appear = dict(appear or {})
    while left := game(client, session_id)["appearances_left"]:
        act(client, session_id, {"type": "draw-appearance", "point": left[0]})
        act(client, session_id, {"type": "yokai-appear", "by": "appearance-card", "yokai": appear})
        appear = {}
    assert not appear, "no appearance card was due to place them"
    return act(client, session_id, {"type": "end-turn"})


def spawn(client, session_id, counts):
    """Bring basic yōkai into play the way the game does: one Yōkai phase (the turn moves on), up to the miniatures."""
    yokai_phase(client, session_id, counts)
    return game(client, session_id)["in_play"]


def striker(client, session_id, preferred="ryo"):
    """A hero who can take an action now (L398): the one whose activation is under way while it has an action left,
    else the next to activate (``preferred`` first); None when every hero standing has activated this turn."""
    state = game(client, session_id)
    if "activation" not in state:
        return preferred  # a scene set up before activations were kept
    limit = client.get("/rulesets/yokai-quest").json["rules"]["hero_rules"]["activation"]["actions"]
    current = state["activation"]
    if current and current["actions_used"] < limit:
        return current["hero"]
    if current:
        act(client, session_id, {"type": "end-activation", "hero": current["hero"]})
        state = game(client, session_id)
    for hero in [preferred] + sorted(state["heroes"]):
        if hero in state["heroes"] and not state["heroes"][hero]["defeated"] and hero not in state["activated"] and state["phase"] == "hero":
            return hero
    return None


def defeat(client, session_id, yokai, count, hero="ryo"):
    """Defeat ``count`` yōkai of a type, bringing them into play a Yōkai phase at a time as the miniatures allow, the
    heroes striking with the actions their activations have (two each, L398)."""
    rules = client.get("/rulesets/yokai-quest").json
    cap = next(c["miniatures"] for c in rules["characters"] if c["id"] == yokai)
    while count:
        ready = game(client, session_id)["in_play"].get(yokai, 0)
        if not ready:
            spawn(client, session_id, {yokai: min(count, cap)})
            continue
        who = striker(client, session_id, hero)
        if who is None:
            yokai_phase(client, session_id)
            continue
        strike(client, session_id, who, [yokai] * min(count, ready))
        count -= min(count, ready)


def clear(client, session_id, hero="ryo"):
    """Strike every basic yōkai still in play: a scene ends when none are left to fight (L753)."""
    left = [yokai for yokai, count in game(client, session_id)["in_play"].items() for _ in range(count)]
    if left:
        who = striker(client, session_id, hero)
        if who is None:
            yokai_phase(client, session_id)
            return clear(client, session_id, hero)
        strike(client, session_id, who, left)


def refused(client, session_id, action, title_part):
    """An action the rules refuse: a 422 problem whose title holds ``title_part``, nothing appended."""
    return session.refused(client, session_id, action, title_part)


def refused_saying(client, session_id, action, words):
    """An action the rules refuse, its title or detail saying ``words`` (in any case), nothing appended."""
    return session.refused(client, session_id, action, words, or_detail=True)


verified = session.verified


def turns(client, session_id, count):
    """Whole turns with a Yōkai phase in which the appearance cards place nothing."""
    answer = None
    for _ in range(count):
        answer = yokai_phase(client, session_id)
    return answer


def win_scene(client, session_id, **body):
    """The scene ended in victory, the treasure owed drawn, and the session ended so."""
    act(client, session_id, {"type": "end-scene", "outcome": "victory", **body})
    draw_owed(client, session_id)
    return end(client, session_id, "victory")
