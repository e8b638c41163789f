"""The Yōkai phase: the yōkai-wind coins turn, yōkai appear, they activate by initiative, and their tokens expire.

"At the beginning of the Yōkai phase, the Red/Blue yōkai winds coin is turned every time"; the Green/Yellow one "only
... if so indicated in the scenario" (L166). "When the color of an appearance point matches that shown on the yōkai
wind coin(s), a player draws a card from the appearance deck and places the indicated yōkai on that appearance point"
(L166, L786). "If you find there are no more miniatures to represent more appearances of yōkai, discard the new
apparitions" (L166). Activation goes from the highest initiative down; ties, "the players decide" (L168, L582-L588).
"At the end of the Yōkai phase in each turn, all paralysis and empowerment tokens are removed" (L614). When the victory
conditions are fulfilled, "the appearance points stop working" (L753).

The coins' starting faces and the appearance cards' contents were lost (digest §12.8, §12.12): the table states the
faces (at set-up or the first Yōkai phase) and what each drawn card places; the tracker checks everything else.
Basic yōkai are counted by type in play ("in_play"); defeating one that is not in play is refused.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tracker.core import decks
from tracker.core import wording
from tracker.core.errors import Unprocessable
from tracker.rulesets.engine.ruleset import ActionContext
from tracker.rulesets.yokai_quest import lookup, verdict
from tracker.rulesets.yokai_quest.plan import Plan

DECK = "appearance"
COINS = {"red-blue": ("red", "blue"), "green-yellow": ("green", "yellow")}
TOKENS = ("paralysis", "champion")


def at_set_up(data: Mapping[str, Any], coins: Mapping[str, str], in_play: Mapping[str, int]) -> dict[str, Any]:
    """What a scene's state keeps of the Yōkai phase (the rules of versions that keep one, versions.py)."""
    return {
        "phase": "hero",
        "coins": {coin: coins.get(coin) for coin in COINS},
        "in_play": dict(in_play),
        "start_in_play": dict(in_play),
        "yokai_tokens": {name: {} for name in TOKENS},
        "appearances_left": [],
        "spawns_left": [],
        "refill_left": 0,
        "pending_appearances": [],
    }


def in_play_at_start(data: Mapping[str, Any], scene: Mapping[str, Any]) -> dict[str, int]:
    """Basic yōkai present from the beginning (chiefs and objectives are tracked as foes)."""
    counts: dict[str, int] = {}
    for present in scene["present_from_start"]:
        character = lookup.character(data, present["character"])
        if character and character["role"] == "yokai" and present["count"]:
            counts[present["character"]] = counts.get(present["character"], 0) + present["count"]
    return counts


def _flip(face: str | None, coin: str) -> str | None:
    if face is None:
        return None
    first, second = COINS[coin]
    return second if face == first else first


def _scene(plan: Plan) -> Mapping[str, Any]:
    return plan.ctx.ruleset.quest(plan.game["scene"])


def _require_phase(plan: Plan, what: str) -> None:
    if plan.game.get("phase") != "yokai":
        raise Unprocessable(
            f"{what} happens in the Yōkai phase",
            detail="Begin it with the 'begin-yokai-phase' action once every hero has activated (L152, L164).",
        )


def _spawn_count(count: int | str, heroes: int) -> int | list[int]:
    """A scripted spawn's number: fixed, "as many ... as heroes playing" (L820) or "half the heroes" (L806)."""
    if count == "heroes":
        return heroes
    if count == "half-heroes":  # "half the heroes represented": the rounding is not stated (digest §12.19)
        return sorted({heroes // 2, -(-heroes // 2)})
    return count


def _due(scene: Mapping[str, Any], turn: int) -> list[str]:
    """Scripted spawns this phase may place: every turn, on the turns named, or when a chief's ability calls them."""
    return [s["id"] for s in scene.get("spawns", []) if s["turns"] in ("every", "when-used") or isinstance(s["turns"], list) and turn in s["turns"]]


def _appearances_stopped(plan: Plan, scene: Mapping[str, Any]) -> str | None:
    """The victory conditions the log shows fulfilled stop the appearance points (L753)."""
    conditions = scene["victory"]
    met = [c for c in conditions if verdict.unmet(plan.game, c, plan.turn, {}) is None]
    if met and (len(met) == len(conditions) or not verdict.victory_needs_all(scene)):
        return "; ".join(verdict.quoted(c) for c in met)
    return None


def initiative(plan: Plan, scene: Mapping[str, Any]) -> list[list[str]]:
    """Who activates in what order: groups of equal initiative, highest first (players order each group, L168)."""
    data = plan.ctx.ruleset.data
    ranks: dict[int, list[str]] = {}
    for yokai, count in sorted(plan.game["in_play"].items()):
        if count:
            ranks.setdefault(lookup.character(data, yokai)["stats"]["initiative"], []).append(yokai)
    for foe_id, foe in sorted(plan.game["foes"].items()):
        rank = lookup.chief_stats(data, scene, foe["character"]).get("initiative")  # the scene's, where the roster says "?" (L743)
        if rank is not None:
            ranks.setdefault(rank, []).append(foe_id)
    return [ranks[rank] for rank in sorted(ranks, reverse=True)]


def begin(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    """The coins turn (red/blue always; green/yellow where the scene says so every turn) and the phase begins."""
    plan = Plan(ctx)
    plan.require_scene()
    if plan.game["phase"] == "yokai":
        raise Unprocessable(f"The Yōkai phase of turn {plan.turn} has begun", detail="End the turn with 'end-turn' when the yōkai have activated.")
    plan.ctx.ruleset.rules.version.hero_phase_over(plan)
    scene = _scene(plan)
    stated = params.get("coins", {})
    turned = ["red-blue"] + (["green-yellow"] if scene.get("green_yellow_turns") == "every-turn" else [])
    faces = {}
    for coin in COINS:
        face = _flip(plan.game["coins"][coin], coin) if coin in turned else plan.game["coins"][coin]
        if coin in stated:
            if face is not None and stated[coin] != face:
                raise Unprocessable(
                    f"The {coin} coin shows {face}",
                    detail=f"The log knows its face; leave \"{coin}\" out of \"coins\".",
                    errors={f"coins.{coin}": [f"The log says {face}"]},
                )
            face = stated[coin]
        faces[coin] = face
    unknown = [coin for coin, face in faces.items() if face is None and any(point in COINS[coin] for point in scene["appearance_points"])]
    if unknown:
        # Every coin the scene's points read is named at once, so the table states them in one request.
        raise Unprocessable(
            f"Say which face the {unknown[0]} coin shows" if len(unknown) == 1 else f"Say which faces the {wording.listed(unknown)} coins show",
            detail="The scene's starting coin faces were lost (digest §12.12): send "
                   + ", ".join(f'"coins": {{"{coin}": <{" or ".join(COINS[coin])}>}}' for coin in unknown) + " once.",
            errors={f"coins.{coin}": [f"Unknown: state it ({wording.either(COINS[coin])})."] for coin in unknown},
        )
    # Once the victory conditions are fulfilled "the appearance points stop working" (L753): the scripted spawns and the
    # refill come through appearance points too, so they stop with them (a reading: digest §12.21 asks).
    stopped = _appearances_stopped(plan, scene)
    matching = [] if stopped else [point for point in scene["appearance_points"] if point in faces.values()]
    plan.add(
        {
            "kind": "yokai-phase-began",
            "turn": plan.turn,
            "turned": turned,
            "coins": faces,
            "appearance_points": matching,
            "spawns_due": [] if stopped else _due(scene, plan.turn),
            "refill_due": 0 if stopped else _refill_due(plan, scene),
            "appearances_stopped": stopped,
            "initiative": initiative(plan, scene),
            "source": "L164-L172, L784-L788",
        }
    )
    return plan.changes


def _refill_due(plan: Plan, scene: Mapping[str, Any]) -> int:
    refill = scene.get("refill")
    if not refill:
        return 0
    return 1 if plan.game["in_play"].get(refill["yokai"], 0) < refill["below"] else 0  # "place one" (L935)


def draw_appearance(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    """A card from the appearance deck for a point whose colour matches a coin: digital, or the card drawn on the table."""
    plan = Plan(ctx)
    plan.require_scene()
    _require_phase(plan, "Drawing an appearance card")
    scene = _scene(plan)
    stopped = _appearances_stopped(plan, scene)
    if stopped:
        raise Unprocessable("The appearance points have stopped working", detail=f"The victory conditions are fulfilled ({stopped}); no more cards are drawn (L753).")
    point = params["point"]
    left = list(plan.game["appearances_left"])
    if point not in left:
        raise Unprocessable(
            f"No appearance card is due at the {point} point",
            detail=f"Cards due this Yōkai phase, one per point matching a coin: {left or 'none'} (L166, L786).",
            errors={"point": [f"Choose one of {left}" if left else "None due."]},
        )
    card = params.get("card")
    drawn = decks.resolve_reported_draw(plan.decks[DECK], [card]) if card else decks.resolve_draw(plan.decks[DECK], DECK, 1, rng)
    plan.extend(drawn)
    card = next(c for change in drawn if change["kind"] == "drawn" for c in change["cards"])
    plan.add({"kind": "appearance-drawn", "point": point, "card": card})
    return plan.changes


def appear(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    """Yōkai placed: what a drawn appearance card shows (the table reads it), a scripted spawn of the scene, or the
    scene's refill; the miniature cap discards the rest (L166)."""
    plan = Plan(ctx)
    plan.require_scene()
    _require_phase(plan, "A yōkai appearance")
    scene = _scene(plan)
    data = ctx.ruleset.data
    wanted = params["yokai"]
    for yokai in wanted:
        character = lookup.character(data, yokai)
        if character is None or character["role"] != "yokai":
            basics = sorted(c["id"] for c in data["characters"] if c["role"] == "yokai")
            raise Unprocessable(f"'{yokai}' is not a yōkai", detail=f"Yōkai: {basics}; chiefs arrive with 'foe-appeared'.", errors={"yokai": [f"Unknown: {yokai}"]})
    by = params["by"]
    if by == "appearance-card":
        pending = plan.game["pending_appearances"]
        if not pending:
            raise Unprocessable("No appearance card waits to be placed", detail="Draw one with 'draw-appearance' first.")
        card = pending[0]["card"]
        reason, where = f"appearance card {card}", pending[0]["point"]
    elif by == "refill":
        due = plan.game["refill_left"]
        refill = scene.get("refill")
        if not due or wanted != {refill["yokai"]: 1}:
            raise Unprocessable(
                "No refill is due" if not due else f"The refill places one {refill['yokai']}",
                detail=f"{scene['id']}: {refill['text'] if refill else 'no refill rule'}",
                errors={"yokai": ["Does not match the refill."]},
            )
        reason, where = f"{refill['text']} ({refill['source']})", refill["at"]
    else:
        spec = next((s for s in scene.get("spawns", []) if s["id"] == by), None)
        if spec is None or by not in plan.game["spawns_left"]:
            raise Unprocessable(
                f"'{by}' is not an appearance due now",
                detail=f"Due this Yōkai phase: appearance-card (drawn cards), {plan.game['spawns_left'] or 'no scripted spawns'}"
                + (", refill" if plan.game["refill_left"] else "") + ".",
                errors={"by": [f"Not due: {by}"]},
            )
        counts = {yokai: _spawn_count(n, len(plan.game["heroes"])) for yokai, n in spec["yokai"].items()}
        for yokai, count in counts.items():
            allowed = count if isinstance(count, list) else [count]
            if wanted.get(yokai) not in allowed or set(wanted) != set(counts):
                raise Unprocessable(
                    f"{spec['text']} ({spec['source']}) places {' or '.join(map(str, allowed))} {yokai}",
                    detail=f"Send \"yokai\": {{\"{yokai}\": {allowed[0]}}}" + (" (the text does not say how half rounds: either is accepted)" if len(allowed) > 1 else "") + ".",
                    errors={"yokai": ["Does not match the scene's rule."]},
                )
        reason, where = f"{spec['text']} ({spec['source']})", spec["at"]
    if by != "refill":
        stopped = _appearances_stopped(plan, scene)
        if stopped:
            raise Unprocessable("The appearance points have stopped working", detail=f"The victory conditions are fulfilled ({stopped}) (L753).")
    placed, discarded = {}, {}
    for yokai, count in sorted(wanted.items()):
        room = max(0, lookup.character(data, yokai)["miniatures"] - plan.game["in_play"].get(yokai, 0))
        placed[yokai], discarded[yokai] = min(count, room), max(0, count - room)
    plan.add({"kind": "yokai-appeared", "by": by, "at": where, "reason": reason, "yokai": placed, "discarded": {k: v for k, v in discarded.items() if v}})
    if by == "appearance-card":  # the used card is discarded, and the discards make a new deck when it runs out (data: readings)
        plan.extend(decks.resolve_move(plan.decks[DECK], "discarded", [card], "held"))
    return plan.changes


def token(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    """A paralysis token (a hero's Fubuki no Majo, Makibishi, Mahi Fuuin) or a champion's empowerment token on yōkai in
    play; both stay until the end of the Yōkai phase (L607-L614)."""
    plan = Plan(ctx)
    plan.require_scene()
    target, count = params["yokai"], params.get("count", 1)
    in_play = plan.game["in_play"].get(target, 0) if target not in plan.game["foes"] else 1
    held = plan.game["yokai_tokens"][params["token"]].get(target, 0)
    if in_play - held < count:
        raise Unprocessable(
            f"{count} {target} without a {params['token']} token are not in play",
            detail=f"In play: {_listing(plan)}; already holding a {params['token']} token: {plan.game['yokai_tokens'][params['token']] or 'none'}.",
            errors={"yokai": [f"Not enough in play: {target}"]},
        )
    plan.add({"kind": "yokai-token-placed", "token": params["token"], "yokai": target, "count": count, "source": params.get("source")})
    return plan.changes


def _listing(plan: Plan) -> dict[str, int]:
    return {**{k: v for k, v in sorted(plan.game["in_play"].items()) if v}, **{f: 1 for f in sorted(plan.game["foes"])}}


def require_in_play(plan: Plan, yokai: str, field: str = "defender") -> None:
    """Only a yōkai on the board (or waiting at its point) attacks or can be defeated; under a version that counted no
    yōkai in play (versions.py), any yōkai could."""
    plan.ctx.ruleset.rules.version.require_in_play(plan, yokai, field)


def require_counted_in_play(plan: Plan, yokai: str, field: str) -> None:
    """The yōkai counted in play (rules 1.1.0 on: versions.py)."""
    if plan.game["in_play"].get(yokai, 0) < 1:
        raise Unprocessable(
            f"No {yokai} is in play",
            detail=f"Yōkai in play: {_listing(plan) or 'none'}. Yōkai come into play in the Yōkai phase ('yokai-appear').",
            errors={field: [f"Not in play: {yokai}"]},
        )


def coin_on_defeat(plan: Plan, yokai: str) -> None:
    """Scenes that turn the green/yellow coin 'every time' a yōkai (of a type) is defeated (e.g. L887, L931)."""
    trigger = _scene(plan).get("green_yellow_turns")
    if isinstance(trigger, Mapping) and trigger.get("on_defeat") in ("any", yokai):
        face = _flip(plan.game["coins"]["green-yellow"], "green-yellow")
        plan.add({"kind": "coin-turned", "coin": "green-yellow", "face": face, "reason": f"{yokai} defeated ({trigger['source']})"})


def end_phase(plan: Plan) -> None:
    """At the end of the turn's Yōkai phase, paralysis and champion tokens come off (L614)."""
    if plan.game["phase"] != "yokai":
        raise Unprocessable(
            f"The Yōkai phase of turn {plan.turn} is not recorded",
            detail="A turn is a Hero phase, then a Yōkai phase (L152): begin it with 'begin-yokai-phase', place the yōkai that appear, then end the turn.",
        )
    if plan.game["pending_appearances"]:
        raise Unprocessable(
            "An appearance card waits to be placed",
            detail=f"Place what {plan.game['pending_appearances'][0]['card']} shows with 'yokai-appear' (by 'appearance-card') first.",
        )
    game = plan.game
    # What the phase left undone stays in the log, named, rather than vanishing with the turn.
    undone = {"appearance_points": game["appearances_left"], "spawns": game["spawns_left"], "refill": game["refill_left"]}
    plan.add(
        {
            "kind": "yokai-phase-ended",
            "turn": plan.turn,
            "tokens_removed": {k: v for k, v in game["yokai_tokens"].items() if v},
            "not_placed": {k: v for k, v in undone.items() if v},
        }
    )
