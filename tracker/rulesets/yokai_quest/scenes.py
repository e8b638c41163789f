"""A scene from set-up to its end: the heroes' standing as the campaign left it, chiefs and
objectives on the board, the turn's end, and the scene's end with its rewards or penalty."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from tracker.core import wording
from tracker.core import decks
from tracker.core.errors import Unprocessable
from tracker.rulesets.engine.ruleset import ActionContext
from tracker.rulesets.yokai_quest import campaign as campaign_rules
from tracker.rulesets.yokai_quest import energy, heroes, lookup, treasure, verdict, yokai_phase
from tracker.rulesets.yokai_quest.plan import Plan
from tracker.rulesets.yokai_quest.state import new_standing

def set_up(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    data = ctx.ruleset.data
    scene = ctx.ruleset.quest(params["quest"])
    story = lookup.story_of(data, scene["id"])
    campaign = params["campaign"]
    options, progress = campaign.get("options", {}), campaign.get("progress") or {}
    party = campaign.get("party") or []
    version = ctx.ruleset.rules.version  # the rules of the version the campaign pinned (versions.py)
    setup = version.setup_choices(params)
    if not party:
        raise Unprocessable("The campaign has no heroes", detail='Create the campaign with a "party" of heroes, e.g. ["ryo", "ami"].')
    _check_order(data, scene, options, progress)
    attempt = progress.get("attempt", 1) if progress.get("next_scene") == scene["id"] else 1
    policy = options.get("health_policy", campaign_rules.DEFAULT_HEALTH_POLICY)
    standing = copy.deepcopy(progress.get("heroes", {}))
    stated = setup.get("health", {})
    strangers = sorted(set(stated) - set(party))
    if strangers:
        raise Unprocessable(
            f"'{strangers[0]}' is not a hero of this party",
            detail=f"Heroes playing: {party}.",
            errors={"setup.health": [f"Not in the party: {', '.join(strangers)}"]},
        )
    for hero_id in party:
        if hero_id not in standing:
            health, source = lookup.starting_health(data, campaign.get("components", {}), hero_id, stated.get(hero_id))
            standing[hero_id] = new_standing(health, data["hero_rules"]["equipment_slots"], energy=data["hero_rules"].get("energy_at_first_scene", 0))
            version.hero_standing(standing[hero_id], source)
        if policy == "full-at-scene-start":
            standing[hero_id]["health"] = standing[hero_id]["max_health"]
        if progress.get("full_energy_next_story") and scene["number"] == 1:
            standing[hero_id]["energy"] = data["hero_rules"]["energy_max"]
    standing = {hero_id: standing[hero_id] for hero_id in party}
    for hero_id, chosen in setup.get("abilities", {}).items():
        standing[hero_id]["abilities"] = _chosen_abilities(data, party, hero_id, chosen)
    counts = version.objective_counts(scene, setup.get("objectives", {}))
    board_kept = bool(scene["keeps_board_from_previous"] and progress.get("board_kept"))
    # The yōkai on a board kept from the previous scene stay in play (L807, L1069); else the scene's own.
    in_play = dict(progress.get("in_play") or {}) if board_kept else yokai_phase.in_play_at_start(data, scene)
    game = {
        "story": story["id"],
        "scene": scene["id"],
        "attempt": attempt,
        "health_policy": policy,
        "board_kept": board_kept,
        "heroes": standing,
        "start_heroes": copy.deepcopy(standing),
        "foes": _foes_at_start(data, scene, counts or {}),
        **({} if counts is None else {"objective_counts": counts}),
        **version.yokai_phase_at_set_up(data, setup.get("coins", {}), in_play),
        "treasure_reserve": progress.get("treasure_reserve", 0),
        "treasure_owed": [],
        "defeated_yokai": [],
        "achievements": [],
        "energy_spent": 0,
        "swapped_this_turn": [],
        "consumable_used_this_turn": [],
        "scene_result": None,
        **version.kept_at_set_up(data, party),
    }
    plan = Plan(ctx)
    plan.add({"kind": "scene-set-up", "game": game})
    _appearance_deck(plan, scene)
    for hero_id, hero in standing.items():  # items the heroes carry in are out of this scene's treasure deck
        carried = hero["hand"] + [card for card in hero["equipped"].values() if card]
        if carried:
            plan.extend(decks.resolve_reported_draw(plan.decks[treasure.DECK], carried, holder=hero_id))
    return plan.changes


def _check_order(data: Mapping[str, Any], scene: Mapping[str, Any], options: Mapping[str, Any], progress: Mapping[str, Any]) -> None:
    expected = progress.get("next_scene")
    if expected and scene["id"] != expected:
        raise Unprocessable(
            f"The campaign plays {expected} next",
            detail=f"Scenes are played in order, a failed scene is reattempted once, and a lost story starts again from its first scene; {scene['id']} is not next.",
            errors={"quest": [f"Expected {expected}"]},
        )
    if not expected:
        story = options.get("story")
        firsts = [s["scenes"][0] for s in data["stories"] if not story or s["id"] == story]
        if scene["id"] not in firsts:
            raise Unprocessable(
                f"{scene['id']} is not the first scene of a story",
                detail=f"A story starts at its first scene: {firsts}.",
                errors={"quest": [f"Start with one of {firsts}"]},
            )


def _chosen_abilities(data: Mapping[str, Any], party: list[str], hero_id: str, chosen: list[str]) -> list[str]:
    """"Choose four abilities among those suitable for the hero" (L145): their own four and their class's six."""
    if hero_id not in party:
        raise Unprocessable(f"'{hero_id}' is not a hero of this party", detail=f"Heroes playing: {party}.", errors={"setup.abilities": [f"Not in the party: {hero_id}"]})
    suitable = lookup.hero_abilities(data, hero_id)
    count = data["hero_rules"]["abilities_chosen"]
    if len(set(chosen)) != count:
        raise Unprocessable(
            f"Choose {count} different abilities for {hero_id}",
            detail=f"\"Choose four abilities among those suitable for the hero\" (L145): {hero_id} chooses {count} of {wording.listed(sorted(suitable))}.",
            errors={f"setup.abilities.{hero_id}": [f"{len(set(chosen))} chosen, not {count}."]},
        )
    unsuitable = [a for a in chosen if a not in suitable]
    if unsuitable:
        raise Unprocessable(
            f"'{unsuitable[0]}' is not an ability suitable for {hero_id}",
            detail=f"{hero_id} chooses four of: {wording.listed(sorted(suitable))} (L145).",
            errors={f"setup.abilities.{hero_id}": [f"Not suitable: {', '.join(unsuitable)}"]},
        )
    return list(chosen)


def objective_counts(scene: Mapping[str, Any], stated: Mapping[str, int]) -> dict[str, int]:
    """How many of each objective stand on the board: the scene's number, or the table's where the text lost it
    (the Pillars of Energy of Final Destination 2: "Has 8 health points", L1066, but not how many)."""
    counts = {}
    for objective in scene.get("objectives", []):
        character = objective["character"]
        count = objective["count"] if objective["count"] is not None else stated.get(character)
        if count is None:
            raise Unprocessable(
                f"Say how many {character} stand on the board",
                detail=f'The rulebook lost their number ({scene["unknowns"].get("pillar_count", "not stated")}). '
                f'Start the session with "setup": {{"objectives": {{"{character}": <n>}}}}.',
                errors={f"setup.objectives.{character}": ["Missing: the text does not give it."]},
            )
        counts[character] = count
    unknown = sorted(set(stated) - set(counts))
    if unknown:
        raise Unprocessable(
            f"'{unknown[0]}' is not an objective of {scene['id']}",
            detail=f"Objectives of {scene['id']}: {wording.listed(sorted(counts), none='none')}.",
            errors={"setup.objectives": [f"Unknown: {', '.join(unknown)}"]},
        )
    return counts


def _foes_at_start(data: Mapping[str, Any], scene: Mapping[str, Any], counts: Mapping[str, int]) -> dict[str, Any]:
    foes = {}
    for present in scene["present_from_start"]:
        foe = _foe_spec(data, scene, present["character"])
        count = present["count"] if present["count"] is not None else counts.get(present["character"])
        if foe is not None and count is not None:
            for n in range(count):
                foes[present["character"] if count == 1 else f"{present['character']}-{n + 1}"] = foe
    return foes


def _foe_spec(data: Mapping[str, Any], scene: Mapping[str, Any], character_id: str) -> dict[str, Any] | None:
    chief = lookup.chief_stats(data, scene, character_id)  # the scene's, where the roster says "?" (per_scene, L743)
    if chief:
        return {"character": character_id, "health": chief["health"]}
    character = lookup.character(data, character_id)
    if character and character["role"] == "objective":
        return {"character": character_id, "health": character["stats"]["health"]}
    return None


def _appearance_deck(plan: Plan, scene: Mapping[str, Any]) -> None:
    """The scene's appearance cards (ranges like A1-A8) stay; the rest leave the deck for the scene."""
    wanted = set()
    for span in scene["appearance_cards"]:
        first, last = span.split("-")
        wanted |= {f"{first[0]}{n}" for n in range(int(first[1:]), int(last[1:]) + 1)}
    deck = plan.decks["appearance"]
    unused = [card for card in deck["draw"] if card not in wanted]
    if unused and deck["unknown"] == 0:
        plan.extend(decks.resolve_move(deck, "removed", unused, "draw"))


def foe_appeared(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    """A chief or objective arrives (e.g. the Undead Dark Champion on turn 5, each Pillar of Energy)."""
    plan = Plan(ctx)
    plan.require_scene()
    scene = ctx.ruleset.quest(plan.game["scene"])
    spec = _foe_spec(ctx.ruleset.data, scene, params["foe"])
    if spec is None:
        raise Unprocessable(
            f"'{params['foe']}' is not a chief or objective of this scene",
            detail="Only the scene's chief and objectives have tracked health; basic yōkai have Health 1 and are named by type when attacked.",
            errors={"foe": ["Not tracked in this scene."]},
        )
    if ctx.ruleset.data["scene_rules"].get("foe_arrivals"):
        _require_arrival(plan, scene, params["foe"])
    instance = params["foe"]
    n = 1
    while instance in plan.game["foes"]:
        n += 1
        instance = f"{params['foe']}-{n}"
    plan.add({"kind": "foe-appeared", "foe": instance, **spec})
    return plan.changes


def _require_arrival(plan: Plan, scene: Mapping[str, Any], character_id: str) -> None:
    """A foe on the board from the beginning does not arrive again; a chief the scene brings in arrives once, in the
    Yōkai phase of the turn its text names (L166; the Undead Dark Champion "On turn 5", L1014)."""
    if any(present["character"] == character_id for present in scene["present_from_start"]):
        raise Unprocessable(
            f"{character_id} is on the board from the beginning of {scene['id']}",
            detail=f"Chiefs and objectives on the board: {wording.listed(sorted(plan.game['foes']), none='none')}; a defeated one does not come back.",
            errors={"foe": [f"Present from the start: {character_id}"]},
        )
    arrives = (scene.get("chief") or {}).get("arrives")
    if arrives is None:
        raise Unprocessable(f"{scene['id']} does not bring {character_id} in", detail="No scripted arrival in the scene's text.", errors={"foe": ["No arrival."]})
    arrived = character_id in {foe["character"] for foe in plan.game["foes"].values()} or any(d["yokai"] == character_id for d in plan.game["defeated_yokai"])
    if arrived or plan.turn != arrives["turn"] or plan.game["phase"] != "yokai":
        raise Unprocessable(
            f"{character_id} arrives in the Yōkai phase of turn {arrives['turn']}" + (", once" if arrived else ""),
            detail=f"\"{arrives['text']}\" ({arrives['source']}); scripted appearances come in the Yōkai phase (L166). "
            f"This is turn {plan.turn}, {plan.game['phase']} phase" + ("; it has arrived already." if arrived else "."),
            errors={"foe": [f"Not due now: {character_id}"]},
        )


def foe_recovered(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    """A chief recovers health by its own ability (the Tengu's "March of the true lord!": "the Tengu recovers 4 health
    points", L1109), as the scene's data gives it, up to the Health the scene sets for it."""
    plan = Plan(ctx)
    plan.require_scene()
    scene = ctx.ruleset.quest(plan.game["scene"])
    foe = plan.game["foes"].get(params["foe"])
    if foe is None:
        raise Unprocessable(
            f"'{params['foe']}' is not on the board",
            detail=f"Chiefs and objectives on the board: {wording.listed(sorted(plan.game['foes']), none='none')}.",
            errors={"foe": [f"Not on the board: {params['foe']}"]},
        )
    chief = scene.get("chief") or {}
    abilities = {a["ability"]: a for a in chief.get("recovers", [])} if foe["character"] == chief.get("character") else {}
    ability = abilities.get(params["ability"])
    if ability is None:
        raise Unprocessable(
            f"{params['foe']} has no ability '{params['ability']}' that recovers health in {scene['id']}",
            detail=f"Its abilities that recover health here: {wording.listed(sorted(abilities), none='none')}.",
            errors={"ability": [f"Choose one of {wording.choices(sorted(abilities))}." if abilities else "None in this scene."]},
        )
    health = min(lookup.chief_stats(ctx.ruleset.data, scene, foe["character"])["health"], foe["health"] + ability["health"])
    plan.add({"kind": "foe-recovered", "foe": params["foe"], "ability": ability["name"], "amount": health - foe["health"], "health": health, "source": ability["source"]})
    return plan.changes


def end_turn(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    """The turn ends: empowerments expire, the once-a-turn swap and consumable resource renew,
    and energy cards kept beside the panels as reminders are discarded."""
    plan = Plan(ctx)
    plan.require_scene()
    ctx.ruleset.rules.version.end_yokai_phase(plan)
    plan.add({"kind": "turn-ended", "turn": ctx.state["turn"]})
    plan.add({"kind": "turn-effects-expired", "turn": ctx.state["turn"]})
    held = plan.decks[energy.DECK]["held"]
    for hero_id in sorted(held):
        if held[hero_id]:
            plan.extend(decks.resolve_move(plan.decks[energy.DECK], "discarded", list(held[hero_id]), "held", hero_id))
    # scene_rules.before_turn came with 1.1.0: under 1.0.0 a turn limit passed failed a scene only by the table's end-scene (versions.py)
    ctx.ruleset.rules.version.fail_past_turn_limit(plan, ctx.ruleset.quest(plan.game["scene"]), ctx.state["turn"] + 1)
    return plan.changes


def end_scene(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    plan = Plan(ctx)
    plan.require_scene()
    scene = ctx.ruleset.quest(plan.game["scene"])
    _check_reported(scene, params.get("reported", {}))
    ctx.ruleset.rules.version.refuse_contradicted_end(plan, scene, params["outcome"])  # 1.4.0 on: the log's verdict stands
    if params["outcome"] == "failed":
        verdict.fail(plan, scene, ctx.ruleset.rules.version.failure_reason(params))
    else:
        _win(plan, scene, params)
    return plan.changes


def _win(plan: Plan, scene: Mapping[str, Any], params: Mapping[str, Any]) -> None:
    game = plan.game
    if all(hero["defeated"] for hero in game["heroes"].values()):
        raise Unprocessable("Every hero is defeated", detail="A scene whose heroes are all defeated fails: end it with outcome 'failed'.")
    reported = params.get("reported", {})
    met = _victory_conditions(plan, scene, params.get("victory_condition"), reported)
    _require_board_clear(plan, scene)
    earned = []
    for achievement_id in params.get("achievements", []):
        achievement = next((a for a in scene["achievements"] if a["id"] == achievement_id), None)
        if achievement is None:
            raise Unprocessable(
                f"'{achievement_id}' is not an achievement of {scene['id']}",
                detail=f"Achievements: {wording.choices([a['id'] for a in scene['achievements']]) if scene['achievements'] else 'none'}.",
                errors={"achievements": [f"Unknown: {achievement_id}"]},
            )
        _require_met(plan, achievement, "achievement", reported)
        earned.append(achievement)
    rewards = [effect for a in earned for effect in a["reward"]] + list(scene["reward"] or [])
    owed = []
    for effect in rewards:
        if "draw_treasure" not in effect and "search_treasure" not in effect:
            continue
        who = sorted(game["heroes"]) if effect.get("who") == "all" else [_searcher(plan, params)]
        if "draw_treasure" in effect:
            owed += [treasure.owe(plan, h, f"{scene['id']} reward") for h in who for _ in range(effect["draw_treasure"])]
        if "search_treasure" in effect:
            owed += [treasure.owe(plan, h, f"{scene['id']} reward", effect["search_treasure"], effect.get("equip", False)) for h in who]
    for achievement in earned:
        plan.add({"kind": "achievement-earned", "achievement": achievement["id"], "scene": scene["id"], "reward": achievement["reward"]})
    plan.add(
        {
            "kind": "scene-ended",
            "outcome": "victory",
            "victory_condition": met[0]["id"],
            **plan.ctx.ruleset.rules.version.victory_recorded(met, reported),
            "completes_story": any(c.get("completes_story") for c in met),
            "full_energy_next_story": any(effect.get("full_energy_next_story") for effect in rewards),
            "treasure_owed": owed,
        }
    )
    for hero_id, hero in sorted(game["heroes"].items()):
        if plan.game["heroes"][hero_id]["defeated"]:
            plan.add({"kind": "hero-returned", "hero": hero_id, "health": 1})
    for effect in rewards:
        if "heal" in effect:
            for hero_id in sorted(plan.game["heroes"]):
                heroes.heal(plan, hero_id, effect["heal"], f"{scene['id']} reward")
        if "treasure_tokens" in effect:
            treasure.add_tokens(plan, effect["treasure_tokens"], f"{scene['id']} achievement")


def _searcher(plan: Plan, params: Mapping[str, Any]) -> str:
    searcher = params.get("searcher")
    if searcher not in plan.game["heroes"]:
        raise Unprocessable(
            "Say which hero takes the reward",
            detail=f'This reward goes to one hero: send "searcher", one of {wording.either(sorted(plan.game["heroes"]))}.',
            errors={"searcher": ["Missing or not a hero of the party."]},
        )
    return searcher


def _victory_conditions(plan: Plan, scene: Mapping[str, Any], chosen: str | None, reported: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The conditions the victory rests on: every one of them (L753, L755), unless the data reads the scene's
    bullets as alternatives, when the one the table names."""
    conditions = scene["victory"]
    ids = [c["id"] for c in conditions]
    if chosen is not None and chosen not in ids:
        raise Unprocessable(
            f"'{chosen}' is not a victory condition of {scene['id']}",
            detail=f"Victory conditions of {scene['id']}: {wording.choices(ids)}.",
            errors={"victory_condition": [f"Choose one of {wording.choices(ids)}."]},
        )
    if plan.ctx.ruleset.rules.version.every_bullet_needed(scene):
        needed = conditions
    else:
        if chosen is None and len(conditions) > 1:
            raise Unprocessable(
                "Say which victory condition was met",
                detail=f"The victory conditions of {scene['id']} are alternatives ({scene.get('readings', {}).get('victory_bullets', 'either')}): send \"victory_condition\", one of {wording.choices(ids)}.",
                errors={"victory_condition": ["Missing."]},
            )
        needed = [next(c for c in conditions if c["id"] == (chosen or ids[0]))]
    for condition in needed:
        _require_met(plan, condition, "victory condition", reported)
    return needed


def _require_met(plan: Plan, condition: Mapping[str, Any], what: str, reported: Mapping[str, Any]) -> None:
    why = verdict.unmet(plan.game, condition, plan.turn, reported)
    if why is not None:
        raise Unprocessable(f"The {what} {verdict.quoted(condition)} is not met", detail=f"{why[0].upper()}{why[1:]}.")


def _require_board_clear(plan: Plan, scene: Mapping[str, Any]) -> None:
    """"When there are no more yōkai left to fight, the scene ends" (L753): the basic yōkai in play and the chief;
    except where the next scene follows "immediately, keeping the board and miniatures on it" (L807, L1069)."""
    plan.ctx.ruleset.rules.version.require_board_clear(plan, scene)  # it came with 1.1.0: 1.0.0 ended a scene with yōkai left (versions.py)


def yokai_left(data: Mapping[str, Any], scene: Mapping[str, Any], game: Mapping[str, Any]) -> dict[str, int]:
    """The yōkai left to fight before the scene may end (L753): the basic yōkai in play and the chief; none where the
    next scene follows "immediately, keeping the board and miniatures on it" (L807, L1069)."""
    story = lookup.story_of(data, scene["id"])["scenes"]
    position = story.index(scene["id"])
    if position + 1 < len(story) and next(q for q in data["quests"] if q["id"] == story[position + 1])["keeps_board_from_previous"]:
        return {}
    left = {yokai: n for yokai, n in game.get("in_play", {}).items() if n}
    chief = (scene.get("chief") or {}).get("character")
    left.update({foe_id: 1 for foe_id, foe in game["foes"].items() if foe["character"] == chief})
    return left


def require_board_clear(plan: Plan, scene: Mapping[str, Any]) -> None:
    """No yōkai left to fight at a scene's end (L753; rules 1.1.0 on: versions.py)."""
    left = yokai_left(plan.ctx.ruleset.data, scene, plan.game)
    if left:
        raise Unprocessable(
            "Yōkai are still left to fight",
            detail=("With the victory conditions met no more appear, and the scene ends when no yōkai are left (L753): "
                    f"{wording.listed([f'{n} {wording.named(y, plan.ctx.ruleset.names)}' for y, n in sorted(left.items())])} left."),
        )


def _check_reported(scene: Mapping[str, Any], reported: Mapping[str, Any]) -> None:
    """Facts the table states name the scene's conditions that ask for them; anything else is a mistake to fix."""
    askable = [c["id"] for c in scene["victory"] + scene["achievements"] if c.get("reported")]
    unknown = sorted(set(reported) - set(askable))
    if unknown:
        raise Unprocessable(
            f"'{unknown[0]}' is not a fact this scene asks the table to state",
            detail=f"Facts the table states in {scene['id']}: {wording.choices(askable) if askable else 'none'}.",
            errors={"reported": [f"Unknown: {', '.join(unknown)}"]},
        )
