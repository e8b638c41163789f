"""Timeline lines for Descent's own events, in the game's words."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tracker.rulesets.engine import correction


def describe(change: Mapping[str, Any]) -> str | None:
    kind = change.get("kind")
    if kind == correction.KIND:
        return correction.describe(change)
    c = change
    lines = {
        "chest-opened": lambda: f"{c['opener']} opened {c['chest']} ({c['colour']}): +{c['conquest']} conquest",
        "coins-changed": lambda: f"{c['hero']}'s coins {c['amount']:+d} ({c['reason']})",
        "cursed-item-equipped": lambda: f"{c['hero']} equipped the cursed {c['item']}",
        "curses-gained": lambda: f"{c['hero']} gained {c['count']} curse(s) ({c['source']})",
        "dark-relic-equipped": lambda: f"{c['hero']} equipped the dark relic {c['relic']}",
        "frost-gained": lambda: f"{c['hero']} gained {c['count']} frost",
        "frost-shaken": lambda: f"{c['hero']} shook off {c['count']} frost",
        "invulnerability-used": lambda: f"{c['hero']} used invulnerability (+{c['armour_bonus']} armour)",
        "item-shattered": lambda: f"{c['hero']}'s {c['item']} shattered ({c['trigger']})",
        "potion-drunk": lambda: f"{c['hero']} drank a {c['potion']} potion",
        "potion-gained": lambda: f"{c['hero']} gained {c['count']} {c['potion']} potion(s) ({c['source']})",
        "potion-packed": lambda: f"{c['hero']} packed {c['count']} {c['potion']} potion(s) ({c['source']})",
        "prolonged-action-completed": lambda: f"{', '.join(c['heroes'])} completed {c['task']} ({c['progress']} progress)",
        "prolonged-action-disrupted": lambda: f"{c['task']} was disrupted ({c['reason']})",
        "prolonged-progress-made": lambda: f"{c['hero']} made progress on {c['task']}: {c['progress']}" if "progress" in c else None,
        "treasure-bought": lambda: f"{c['hero']} bought {c['card']} ({c['colour']}) for {-c['coins']} coins" if c["coins"] < 0 else f"{c['hero']} bought {c['card']} ({c['colour']})",
        "treasure-sold": lambda: f"{c['hero']} sold {c['card']} for {c['value']} coins",
        "monsters-placed": lambda: f"Monsters entered play ({c['source']}): {', '.join(f['id'] for f in c['figures'])}",
        "monsters-moved": lambda: "Monsters moved: " + ", ".join(f"{m['figure']} to {m['zone'].replace('-', ' ').capitalize()}" for m in c["moves"]),
        "attack-made": lambda: f"{c['attacker']} attacked {c['target']}: " + (f"miss ({c['miss']})" if not c["hit"] else f"{c['wounds']} wound(s)" if c["wounds"] is not None else "wounds not known")
        + (f", {c['wounds_left']} left" if c["wounds_left"] is not None else "") + (f" (stated: {', '.join(sorted(c['stated']))})" if c["stated"] else ""),
        "monster-killed": lambda: f"{c['figure']} was killed by {c['by']}",
        "wounds-stated": lambda: f"The table stated {c['figure']}'s " + ", ".join(f"{k} {c[k]}" for k in ("wounds", "fatigue") if k in c),
        "fatigue-spent": lambda: f"{c['hero']} spent {c['count']} fatigue ({c['purpose']})",
        "wounds-recovered": lambda: f"{c['hero']} recovered {c['wounds']} wound(s) and {c['fatigue']} fatigue ({c['source']})",
        "hero-readied": lambda: f"{c['hero']} took {' and '.join(c['half_actions'])}" + (f" ({c['order']} order)" if c['order'] else ""),
        # the set-up's own line says the quest was set up (timeline.py): this one says what the quest starts with, once
        "quest-set-up": lambda: f"The quest starts with {c['conquest']} conquest and the overlord's treachery "
        + (", ".join(f"{kind} {count}" for kind, count in c["treachery"].items()) if isinstance(c["treachery"], Mapping) else str(c["treachery"])),
        "treachery-card-swapped": lambda: f"Overlord bought {c['added']} for {c['cost']} {c['colour']} treachery, removing {c['removed']}",
        "dark-glyph-bought": lambda: f"Overlord bought a {c['glyph']} dark glyph",
        "opening-hand-set": lambda: f"Overlord's opening hand: {c['hand_size']} cards ({c['unspent']} treachery unspent)",
        "glyph-placed": lambda: f"Overlord placed a {c['glyph']} dark glyph",
        "glyph-activated": lambda: f"A {c['glyph']} glyph was activated (+{c['conquest']} conquest)",
        "threat-gained": lambda: f"Overlord gained {c['amount']} threat ({c['source']})",
        "threat-spent": lambda: f"Overlord spent {c['amount']} threat ({c['purpose']})",
        "conquest-changed": lambda: f"Conquest {c['delta']:+d} ({c['reason']}): {c['total']}",
        "quest-lost": lambda: f"The heroes lost the quest ({c['reason']})",
        "quest-won": lambda: f"The heroes won the quest ({c['award']}) with {c['conquest']} conquest",
        "glyph-damaged": lambda: f"Glyph {c['glyph']} took {c['wounds']} wound(s): {c['remaining']} left",
        "glyph-destroyed": lambda: f"Glyph {c['glyph']} was destroyed ({c['destroyed']} of {c['of']})",
        "glyph-restored": lambda: f"{c['hero']} restored glyph {c['glyph']} by {c['healed']}: {c['remaining']}",
        "town-travelled": lambda: f"{c['hero']} travelled {c['direction']} by a {c['glyph']} glyph",
        "monsters-spawned": lambda: f"Overlord spawned {', '.join(c['monsters'])} ({c['source']})",
        "zorek-gazed": lambda: f"Zorek turned from {c['from']} to {c['facing']}; gaze hit {', '.join(c['heroes_hit']) or 'no hero'}",
        "stone-door-closed": lambda: f"{c['hero']} closed stone door {c['door']}",
        "stone-doors-rolled": lambda: f"Stone doors rolled: {', '.join(c['opened']) or 'none'} opened",
        "cell-opened": lambda: (f"{c['hero']} opened {c['cell']}: saved {c['saved'] or 'no one'}" if c.get("hero") else f"The Thing smashed {c['cell']}"),
        "sacrifice-clock-ticked": lambda: f"Sacrifice clock on turn {c['turn']}: {c['wounds']} wound token(s)" + (" (a cell was opened)" if c["cells_opened"] else ""),
        "prisoner-sacrificed": lambda: f"Prisoner {c['prisoner']} was sacrificed ({c['sacrificed']} so far; the Thing has +{c['thing_extra_wounds']} wounds)",
        "thing-struck": lambda: f"{c['hero']} dealt the Thing {c['wounds']} wound(s)" + (" and was cursed" if c["cursed"] else ""),
        "condition-tokens-placed": lambda: f"{c['hero']} received {c['count']} {c['condition']} token(s) ({c['source']})",
        "condition-tokens-resolved": lambda: f"{c['hero']}'s tokens at turn start: discarded {c['discarded'] or 'none'}, {c['wounds']} wound(s), left {c['left'] or 'none'}",
        "monkey-kings-line-struck": lambda: f"The Monkey Kings' line struck {', '.join(c['heroes'])}: {c['result']}",
        "hero-transformed": lambda: f"{c['hero']} was transformed into a {c['into']}",
        "fissures-moved": lambda: f"The fissures moved to positions {c['positions']}",
        "fissures-stilled": lambda: f"{c['hero']} opened {c['door']}: the fissures became normal pits",
        "temple-altars-counted": lambda: f"The map has {c['count']} altar(s)",
        "temple-altar-activated": lambda: f"{c['hero']} activated {c['altar']}: {c['wounds']} wounds and {c['burn']} burn to enemies within {c['within_spaces']}",
        "turn-description-read": lambda: f"Turn {c['turn']}: " + ("; ".join(f"{s['zone']} spawns {s['monsters']}" for s in c["spawns"]) or ("no description is printed" if not c["printed"] else "no spawns")),
        "spirits-counted": lambda: f"The quest's spirits: {', '.join(c['ids'])}",
        "spirit-angered": lambda: f"{c['spirit']} turned on the heroes ({c['cause']})",
        "spirit-killed": lambda: f"{c['spirit']} was " + ("destroyed" if c["destroyed"] else f"revived by Superior Undying ({c['result']})"),
        "spirit-convinced": lambda: f"{c['hero']} convinced {c['spirit']} to leave",
        "crushing-trap-sprung": lambda: f"{c['hero']} sprang the crushing-wall trap: the walls stand {c['apart']} spaces apart",
        "crushing-walls-moved": lambda: f"The south crushing wall moved north: {c['apart']} spaces apart",
        "crushing-wall-pushed": lambda: f"{c['hero']} pushed the south wall back {c['spaces']} space(s): {c['apart']} apart",
        "crushing-trap-disarmed": lambda: f"{c['hero']} disarmed the crushing-wall trap ({c['by']})",
        "power-glyph-used": lambda: f"Overlord drew two cards by the Power glyph ({c['draws_left']} draw(s) left)",
        "troll-ambush-sprung": lambda: f"Overlord sprang troll ambush {c['ambush']} of {c['of']} on turn {c['turn']}",
        "villager-spell-broken": lambda: f"The villager {c['villager']} was {c['fate']} by {c['hero']}",
        "altar-destroyed": lambda: f"{' and '.join(c['heroes'])} destroyed {c['altar']} ({c['destroyed']} of {c['of']})",
        "hero-killed": lambda: f"{c['hero']} was killed: conquest value {c['conquest_value']}",
        "secret-room-marked": lambda: f"The overlord noted the real encounter marker: {c['marker']} ({c['face']})",
        "secret-room-searched": lambda: f"{c['hero']} searched the encounter marker {c['marker']}: " + ("a hidden staircase, Zone 3 revealed" if c["real"] else "a false alarm"),
        "undying-rolled": lambda: f"{c['figure']} rolled for Undying: {c['face']}, " + ("restored to full health" if c["restored"] else "it stays dead"),
        "leeched": lambda: f"{c['attacker']} leeched {c['target']}: {c['fatigue_lost']} fatigue lost, {c['attacker_healed']} wound(s) healed",
        "dark-glyph-cleansed": lambda: f"Sharr the Brightwing cleansed the {c['glyph']} dark glyph: an activated normal glyph now",
        "monster-tokens-placed": lambda: f"{c['figure']} received {c['count']} {c['condition']} token(s) ({c['source']})",
        "monster-tokens-resolved": lambda: f"{c['figure']}'s tokens at turn start: discarded {c['discarded'] or 'none'}, {c['wounds']} wound(s), left {c['left'] or 'none'}",
        "hero-turn-started": lambda: f"Turn {c['turn']}: {c['hero']}'s turn began",
        "hero-turn-ended": lambda: f"Turn {c['turn']}: {c['hero']}'s turn ended" + (" (the prolonged order token removed)" if c["orders_removed"] else ""),
        "overlord-turn-started": lambda: f"Turn {c['turn']}: the heroes have had their turns; the overlord's turn began",
        "overlord-turn-ended": lambda: f"Turn {c['turn']}: the overlord's turn ended, and with it the turn",
        "aura-wounded": lambda: f"{c['figure']} moved next to {c['by']}'s Aura: 1 wound" + (f", {c['wounds_left']} left" if c["wounds_left"] is not None else ""),
    }
    line = lines.get(kind)
    try:
        return line() if line else None
    except (KeyError, TypeError):
        return None  # a change of an older shape: the generic line says its fields
