"""Setting up a mission: heroes, dials, starting enemies and spawn points as the table lays them out,
and the Special Move cards the players hold."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tracker.core import wording
from tracker.core import decks
from tracker.core.errors import Unprocessable
from tracker.rulesets.kung_fu_panda import state as game_state
from tracker.rulesets.kung_fu_panda.plan import check_tile
from tracker.rulesets.kung_fu_panda.schemas import ENEMY_IDS, SETUP
from tracker.rulesets.kung_fu_panda.table_words import tile_name, tile_names
from tracker.rulesets.kung_fu_panda.verdict import failure
from tracker.rulesets.engine.ruleset import SET_UP_QUEST, ActionType
from tracker.rulesets.engine.working_copy import WorkingCopy

SCHEMA = SETUP  # the JSON Schema of a session's "setup" (schemas.py)


def set_up(ctx: Any, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    data = ctx.ruleset.data
    mission = ctx.ruleset.quest(params["quest"])
    setup = params.get("setup", {})
    campaign = params.get("campaign", {})
    options = campaign.get("options", {})
    progress = campaign.get("progress", {})
    party = list(campaign.get("party", []))
    # L46-50: one hero each, 2 to 4 players. A campaign is refused such a party when it is created (tracker/play/party.py,
    # from Rules.fewest_heroes, most_heroes and party_roles); this holds for a campaign created before that check.
    rules = ctx.ruleset.rules
    fewest, most = rules.fewest_heroes, rules.most_heroes
    heroes = [c["id"] for c in data["characters"] if c["role"] in rules.party_roles]
    if not fewest <= len(party) <= most:
        raise Unprocessable(
            f"Kung Fu Panda is played by {fewest} to {most} heroes",
            detail=f"The campaign's party has {len(party)}; create the campaign with {fewest}-{most} of {wording.listed(heroes)}.",
            errors={"party": [f"{fewest} to {most} heroes."]},
        )
    heroes_known = set(heroes)
    if set(party) - heroes_known:
        raise Unprocessable(
            f"Only heroes are played: {wording.listed(sorted(set(party) - heroes_known))} are not",
            detail=f"Heroes: {wording.listed(sorted(heroes_known))}.",
            errors={"party": ["Heroes only."]},
        )
    mode = options.get("mode", "standard")
    side = data["modes"].get(mode, {}).get("dial_side", "standard")
    dial_numbers = data["destiny"]["dials_by_players"][str(len(party))]
    dials = dict(setup.get("dials") or dict(zip(party, dial_numbers)))
    if sorted(dials) != sorted(party) or sorted(dials.values()) != sorted(dial_numbers):
        raise Unprocessable(
            f"With {len(party)} players the dials are {dial_numbers}, one per hero",
            detail=f"Give each of {party} one of the dials {dial_numbers}.",
            errors={"setup.dials": ["One dial each, from the player count's set."]},
        )
    _refuse_what_is_lacking(ctx, mission, setup, party, options, progress)
    tiles = setup.get("tiles", {})
    start = setup.get("start_tile")
    heroes = {}
    for hero in party:
        tile = tiles.get(hero, start)
        if tile is None:
            raise Unprocessable(
                f"Say where {hero} starts",
                detail='Send "start_tile" (every hero) or "tiles": {hero: tile} in the set-up: the mission maps are lost, so the table names the tiles.',
                errors={"setup.start_tile": ["Missing."]},
            )
        # "Heroes start on the highest health number on their board (usually 4)" (L130): each hero's own board
        health = next(c["starting_health"] for c in data["characters"] if c["id"] == hero)
        heroes[hero] = {"tile": tile, "health": health, "ko": False, "dial": 0, "dial_number": dials[hero]}
    enemies = {tile: {e: n for e, n in counts.items() if n} for tile, counts in setup.get("enemies", {}).items()}
    enemies = {tile: counts for tile, counts in enemies.items() if counts}
    figures = dict(setup.get("figures", {}))
    _check_tiles(mission, heroes, enemies, setup, figures, data["tiles"])
    _check_start_tiles(mission, heroes, data["tiles"])
    for figure in game_state.FIGURES_ON_THE_BOARD:
        # one place on the board for Tai Lung and the Wolf Boss: the enemy map Fight Back reads, and figures
        at = [tile for tile, counts in enemies.items() if counts.get(figure)]
        if figure in figures and not at:
            enemies.setdefault(figures[figure], {})[figure] = 1
        elif at:
            if figure in figures and figures[figure] != at[0]:
                raise Unprocessable(
                    f"The {figure} is placed on {tile_name(data['tiles'], at[0])} among the enemies and on {tile_name(data['tiles'], figures[figure])} among the figures",
                    detail="Place it once (figures or enemies), or on the same tile in both.",
                    errors={"setup.figures": [f"{figure} placed twice."]},
                )
            figures[figure] = at[0]
    end_tile = mission.get("end_tile") or setup.get("end_tile")
    if setup.get("end_tile") and mission.get("end_tile") and setup["end_tile"] != mission["end_tile"]:
        raise Unprocessable(
            f"The end tile of Mission {mission['number']} is {tile_name(data['tiles'], mission['end_tile'])}",
            detail=f"The text names it ({mission['source']}); leave setup.end_tile out.",
            errors={"setup.end_tile": ["Named by the text."]},
        )
    if end_tile is None and any(c["check"] == "heroes-on-end-tile" for c in mission.get("win_conditions", [])) or (
        end_tile is None and any(c.get("check") == "figure-on-end-tile" for c in mission["failure_conditions"])
    ):
        raise Unprocessable(
            f"Say which tile is the end tile of Mission {mission['number']}",
            detail='Send "end_tile" in the set-up: the text does not name it and the map is lost, and the mission is won there.',
            errors={"setup.end_tile": ["Missing."]},
        )
    _require_special_tiles(mission, setup, data)
    laid_out = {
        "enemies": enemies, "figures": figures, "end_tile": end_tile, "tokens": {},
        "villagers": {v: {"tile": tile, "rescued": False} for v, tile in setup.get("villagers", {}).items()},
    }
    failed = failure(mission, laid_out)
    if failed:
        # the tracker records a mission's own failure the moment the board shows it (L192): a board laid out
        # failing would be lost before its first round, so it is taken for a set-up mistake
        condition = next(c for c in mission["failure_conditions"] if c["id"] == failed)
        raise Unprocessable(
            f"The board as laid out already fails Mission {mission['number']}: {condition['text']}",
            detail=f"{condition['source']}. Place the villagers, enemies and figures as the mission shows.",
            errors={"setup": [failed]},
        )
    provisional = {"enemies": enemies}
    for enemy in ENEMY_IDS:
        total = next(c["miniatures"] for c in data["characters"] if c["id"] == enemy)
        if game_state.on_board(provisional, enemy) > total:
            raise Unprocessable(
                f"There are only {total} {enemy} miniatures",
                detail="The starting enemies come from the reserve supply, which is finite.",
                errors={"setup.enemies": [f"Too many {enemy}."]},
            )
    working = WorkingCopy(ctx, rng)  # the cards drawn through the deck engine, each moved once; the set-up folded once
    held = dict(progress.get("special_moves") or {})
    how = None
    if _receives_special_moves(mission, options, progress):
        how = _how_received(data, options, mode)
        _special_moves(working, party, setup.get("special_moves"), how)
        held = {change["holder"]: change["cards"][0] for change in working.changes if change["kind"] == "drawn"}
    elif setup.get("special_moves"):
        raise Unprocessable(
            "No Special Move cards are received before this mission",
            detail="Cards are drawn at set-up of a single mission, or before the next mission once a hero collected the dumplings and the mission was won.",
            errors={"setup.special_moves": ["Not earned."]},
        )
    working.add(
        {
            "kind": "mission-set-up",
            "mission": mission["id"],
            "mode": mode,
            "length": options.get("length", "single"),
            "dial_side": side,
            "players": len(party),
            "heroes": heroes,
            "enemies": enemies,
            "spawn_points": {str(k): v for k, v in setup.get("spawn_points", {}).items()},
            "figures": figures,
            "end_tile": end_tile,
            "villagers": dict(setup.get("villagers", {})),
            "carts": dict(setup.get("carts", {})),
            "guard_wall": setup.get("guard_wall"),
            **({"line": _line(mission, setup, heroes, figures, data["tiles"])} if setup.get("line") else {}),
            "special_moves": held,
            "special_moves_received": how,
        }
    )
    return working.changes


SET_UP = ActionType(
    SET_UP_QUEST,
    "Mission set-up: heroes with health 4 and dial counters on Play, the dials for the player count, starting enemies and spawn "
    "points as the table lays them out, and Special Move cards where they are received (L42-L63, L173-L182).",
    {"type": "object"},
    set_up,
    internal=True,
    random=True,
)


def _refuse_what_is_lacking(ctx: Any, mission: Mapping[str, Any], setup: Mapping[str, Any], party: list[str],
                            options: Mapping[str, Any], progress: Mapping[str, Any]) -> None:
    """Every set-up field the table must name and has not, refused at once: the lost maps and cards leave the
    tiles and the Special Move cards to the table, and a group should not meet them one refusal at a time."""
    lacking: dict[str, list[str]] = {}
    tiles = setup.get("tiles", {})
    unplaced = [hero for hero in party if tiles.get(hero, setup.get("start_tile")) is None]
    if unplaced:
        lacking["setup.start_tile"] = [f'Missing: where {", ".join(unplaced)} start ("start_tile" for every hero, or "tiles": {{hero: tile}}).']
    if mission.get("end_tile") is None and setup.get("end_tile") is None and (
        any(c["check"] == "heroes-on-end-tile" for c in mission.get("win_conditions", []))
        or any(c.get("check") == "figure-on-end-tile" for c in mission["failure_conditions"])
    ):
        lacking["setup.end_tile"] = ["Missing: the text does not name it and the map is lost, and the mission is decided there."]
    if mission.get("guard_wall") and not setup.get("guard_wall"):
        lacking["setup.guard_wall"] = ["Missing: the leftmost Great Wall tile (L334)."]
    points = {str(n) for n in (mission.get("levers") or {}).get("on_spawn_points", [])} | ({"6"} if mission.get("guard_wall") else set())
    unplaced_points = sorted(points - set(setup.get("spawn_points", {})))
    if unplaced_points:
        lacking["setup.spawn_points"] = [f"Missing: {unplaced_points} (the mission's specials act on their tiles, {mission['source']})."]
    if _receives_special_moves(mission, options, progress) and setup.get("special_moves") is None:
        mode = options.get("mode", "standard")
        how = _how_received(ctx.ruleset.data, options, mode)
        if how == "chosen" or ctx.deck("special-moves").cards is None:
            lacking["setup.special_moves"] = [f'Missing: one card per hero, {how} ({{hero: card}}); the twelve cards were lost from the rulebook text.']
    if len(lacking) > 1:
        raise Unprocessable(
            f"The set-up of Mission {mission['number']} lacks {len(lacking)} things only the table can name: {', '.join(sorted(lacking))}",
            detail="Send them together in the set-up; 'errors' says what each is. GET /rulesets/kung-fu-panda publishes each quest's setup_schema.",
            errors=lacking,
        )


def _receives_special_moves(mission: Mapping[str, Any], options: Mapping[str, Any], progress: Mapping[str, Any]) -> bool:
    if mission.get("training") or mission.get("special_moves_apply") is False:
        return False
    if options.get("length", "single") == "single":
        return True
    return bool(progress.get("earned_special_moves"))


def _how_received(data: Mapping[str, Any], options: Mapping[str, Any], mode: str) -> str:
    """How the Special Move cards come: drawn for a single mission (L179-L180); once earned, drawn in Standard mode,
    chosen in Young Masters mode (L205), dealt in Awesome mode (L209), as the mode's data says."""
    return "drawn" if options.get("length", "single") == "single" else data["modes"][mode]["special_moves_earned"]


def _special_moves(working: WorkingCopy, party: list[str], reported: Mapping[str, str] | None, how: str) -> None:
    """One Special Move card per hero, drawn on the set-up's working copy (reported, or from the session's stream)."""
    spec = working.ctx.deck("special-moves")
    if reported is not None:
        if sorted(reported) != sorted(party):
            raise Unprocessable(
                "Name one Special Move card for each hero",
                detail=f"The cards are {how} one per player: {party}.",
                errors={"setup.special_moves": ["One card per hero."]},
            )
        for hero in party:
            working.extend(decks.resolve_reported_draw(working.decks[spec.id], [reported[hero]], hero))
        return
    if how == "chosen":
        raise Unprocessable(
            "In Young Masters mode each player chooses a Special Move card",
            detail='Send "special_moves": {hero: card} in the set-up.',
            errors={"setup.special_moves": ["Missing."]},
        )
    if spec.cards is None:
        raise Unprocessable(
            "The Special Move cards must be reported",
            detail=(
                'The twelve cards were lost from the rulebook text: send "special_moves": {hero: card} as drawn from the '
                'physical deck, or supply the deck as component data ("components": {"decks": {"special-moves": {"cards": [...]}}}).'
            ),
            errors={"setup.special_moves": ["Missing."]},
        )
    for hero in party:
        working.extend(decks.resolve_draw(working.decks[spec.id], spec.name, 1, working.rng, hero))


def _require_special_tiles(mission: Mapping[str, Any], setup: Mapping[str, Any], data: Mapping[str, Any]) -> None:
    """Tiles a mission's specials act on, which the lost map would show: 1.2's levers sit on the tiles of spawn
    points 2 and 4 (L268); 2.2's gongs and pause move Ox Grunts between the guard wall and spawn point 6 (L334, L346)."""
    points = {str(n) for n in (mission.get("levers") or {}).get("on_spawn_points", [])}
    if mission.get("guard_wall"):
        points.add("6")
        if not setup.get("guard_wall"):
            raise Unprocessable(
                f"Say which tile is the guard wall of Mission {mission['number']}",
                detail='Send "guard_wall": the leftmost Great Wall tile (L334); the map is lost.',
                errors={"setup.guard_wall": ["Missing."]},
            )
        terrain = (data["tiles"].get(setup["guard_wall"]) or {}).get("terrain")
        if terrain != "great-wall":
            # "the guard wall (the leftmost Great Wall tile)" (L334): which Great Wall is leftmost is the lost map's
            # to say, but a tile of another kind cannot be it
            walls = sorted(t for t in mission["tiles"] if (data["tiles"].get(t) or {}).get("terrain") == "great-wall")
            said = wording.either(walls, tile_names(data["tiles"]))
            raise Unprocessable(
                f"The guard wall of Mission {mission['number']} is a Great Wall tile, not {tile_name(data['tiles'], setup['guard_wall'])}",
                detail=f"'the guard wall (the leftmost Great Wall tile)' (L334): {said}.",
                errors={"setup.guard_wall": [f"One of {said}."]},
            )
    missing = sorted(points - set(setup.get("spawn_points", {})))
    if missing:
        raise Unprocessable(
            f"Place spawn points {', '.join(missing)} of Mission {mission['number']}",
            detail=f"The mission's specials act on their tiles ({mission['source']}); send them in setup.spawn_points.",
            errors={"setup.spawn_points": [f"Missing: {missing}"]},
        )


def _line(mission: Mapping[str, Any], setup: Mapping[str, Any], heroes: Mapping[str, Any], figures: Mapping[str, str], tiles: Mapping[str, Any]) -> list[str]:
    """1.3's tiles 'in a single line running from the Start Tile, through the Wolf Boss Start Tile, to the final tile
    at the right of the board' (L304), left to right: what the rickshaw's moves and shifts follow (L289-L291)."""
    line = list(setup["line"])
    if not mission.get("line"):
        raise Unprocessable(f"Mission {mission['number']} is not laid out as a line", detail="Only 1.3 is (L304).", errors={"setup.line": ["No line here."]})
    for tile in line:
        check_tile(mission, tile, "setup.line", tiles)
    off = sorted({h["tile"] for h in heroes.values()} - set(line)) + ([figures["wolf-boss"]] if figures.get("wolf-boss") not in line else [])
    if len(set(line)) != len(line) or off:
        raise Unprocessable(
            "The line must name each tile once, with every hero and the Wolf Boss on it",
            detail=f"Line: {wording.listed(line, tile_names(tiles))}; off the line: {wording.listed(off, tile_names(tiles))}.",
            errors={"setup.line": ["Each tile once; heroes and Wolf Boss on it."]},
        )
    return line


def _check_start_tiles(mission: Mapping[str, Any], heroes: Mapping[str, Any], tiles: Mapping[str, Any]) -> None:
    """Where the mission's data names the heroes' start ("start_tiles"), they start there: the lessons' "your heroes
    must start on the Training Grounds scene tile" (L218, L226), and Mission 1.2's "each hero begins on a Monastery Bed
    tile of their player's choosing" (L281, from rules data 1.2.0 on: an older version's data names none there). Other
    missions' Start Tiles were on their lost maps: the table names them."""
    allowed = mission.get("start_tiles")
    if not allowed:
        return
    wrong = {hero: h["tile"] for hero, h in heroes.items() if h["tile"] not in allowed}
    if wrong:
        hero, tile = next(iter(wrong.items()))
        where = wording.either([tile_name(tiles, t) for t in allowed])
        raise Unprocessable(
            f"In Mission {mission['number']} the heroes start on {where}, not {tile_name(tiles, tile)}",
            detail=f"The mission's text says where the heroes start ({mission['start_tiles_source']}); set each hero's start tile there.",
            errors={f"setup.tiles.{h}": [f"Start on {where}."] for h in wrong},
        )


def _check_tiles(mission: Mapping[str, Any], heroes: Mapping[str, Any], enemies: Mapping[str, Any], setup: Mapping[str, Any], figures: Mapping[str, str],
                 tiles: Mapping[str, Any]) -> None:
    """Every tile the table names at set-up is one of the mission's scene tiles (L216 and each mission's list)."""
    for hero, h in heroes.items():
        check_tile(mission, h["tile"], f"setup.tiles.{hero}", tiles)
    for tile in enemies:
        check_tile(mission, tile, "setup.enemies", tiles)
    for field in ("spawn_points", "villagers", "carts"):
        for key, tile in setup.get(field, {}).items():
            check_tile(mission, tile, f"setup.{field}.{key}", tiles)
    for figure, tile in figures.items():
        check_tile(mission, tile, f"setup.figures.{figure}", tiles)
    for field in ("end_tile", "guard_wall"):
        if setup.get(field):
            check_tile(mission, setup[field], f"setup.{field}", tiles)
