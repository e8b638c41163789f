"""The README is enough to write a verifier (issue 30), on SQLite and on PostgreSQL.

A small verifier written here from the README's sentences alone, not from tracker/integrity/verify_export.py: each fact it
relies on is first looked up in the README, word for word, then applied to real exports and backups of every game
(in play, ended by the rules' verdict or a ruling, abandoned). It must pass them all, and it must find the forged
verdict the standalone verifier finds."""

from __future__ import annotations

import copy
import hashlib
import hmac
import json
from pathlib import Path

import pytest

from tests.kit import forgery_kit as forging

README = " ".join((Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8").replace("**", "").split())

# Each sentence the verifier below relies on, as the README says it.
SAID = {
    "name": "An event's name is the last part of its `topic`, after the last `.` and `:`",
    "pin": "The ruleset pin is `CampaignCreated`'s `state.ruleset`, `{id, version, hash}`, and the header's `ruleset` equals it.",
    "seed": "`seed_commitment` is the SHA-256 hex of `bytes.fromhex(seed)`, and the HMAC key is those bytes.",
    "sealed": "A backup's sealed values sit in the line's `sealed` object, beside `state` and outside the hash, keyed by the dotted paths `meta.sealed` lists",
    "carried": "A backup's in-play seed is to be used: it must hash to the commitment, and with it every digital roll and shuffle so far, and every sealed order, is checked",
    "head": "`QuestStarted.session_head` is the hash of the session's last set-up event: the last event whose `meta.command` is 1.",
    "top": "A shuffle's `order` lists the pile from the top: `order[0]` is the next card drawn.",
    "setup": "`QuestSetUp`'s `change.counter_start` and `change.counter_end` equal its `change.shuffle.counter_start` and `change.shuffle.counter_end`",
    "abandoned": "An abandoned session ends with `SessionAbandoned`, then `SessionEnded` with `outcome` `\"abandoned\"`",
    "abandoned-campaign": "the campaign records `QuestAbandoned` instead of `QuestEnded`, its `session_head` that `SessionEnded`.",
    "verdict": "A session's verdict is its last `QuestDecided` (`change.outcome`), or what a later `ActionUndone` puts back (`restored.verdict`; none if it names none).",
    "verdict-end": "A session with one ends with that outcome, unless the owner overruled the rules (an `OutcomeRuled` before the end, whose `outcome` the end records) or it was abandoned; the campaign's `QuestEnded.outcome` is its session's `SessionEnded.outcome`.",
    "hash": 'json.dumps(v, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()',
    "block": "`block(counter) = HMAC-SHA256(key = seed, message = counter as 8-byte big-endian)`",
    "shuffle": "A shuffle is Fisher-Yates: for `i` from `n-1` down to `1`, `j = uniform(i + 1)`, swap items `i` and `j`.",
}


def test_the_readme_says_each_fact_the_verifier_relies_on():
    missing = [key for key, sentence in SAID.items() if sentence not in README]
    assert not missing, [SAID[key] for key in missing]


# -- the verifier, from those sentences --------------------------------------------------------------------


def name(topic: str) -> str:
    return topic.rsplit(".", 1)[-1].rsplit(":", 1)[-1]


def hashed(event: dict) -> str:
    if "_hash" in event:
        return event["_hash"]
    body = {key: event[key] for key in ("stream", "position", "topic", "state")}
    return hashlib.sha256(json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()).hexdigest()


class Stream:
    def __init__(self, seed: bytes, counter: int) -> None:
        self.seed, self.counter = seed, counter

    def uniform(self, n: int) -> int:
        while True:
            x = int.from_bytes(hmac.new(self.seed, self.counter.to_bytes(8, "big"), hashlib.sha256).digest()[:8], "big")
            self.counter += 1
            if x < 2**64 - (2**64 % n):
                return x % n

    def shuffle(self, items: list) -> list:
        items = list(items)
        for i in range(len(items) - 1, 0, -1):
            j = self.uniform(i + 1)
            items[i], items[j] = items[j], items[i]
        return items


def _opened(event: dict) -> dict:
    """The event as the checks read it: each value its line's ``opened`` reveals checked against the commitment in
    ``state.meta.commitments`` (SHA-256 of the salt's bytes then the canonical JSON of the value) and put back at
    its path; the hash is still of the line's ``state`` as it stands (kept under ``_hash``)."""
    shown = {**event, "_hash": hashed(event), "state": json.loads(json.dumps(event["state"]))}
    for path, opening in (event.get("opened") or {}).items():
        salted = hashlib.sha256(bytes.fromhex(opening["salt"]) + json.dumps(opening["value"], sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()).hexdigest()
        assert salted == event["state"]["meta"]["commitments"][path], (path, event["topic"])
        *parents, leaf = path.split(".")
        holder = shown["state"]
        for part in parents:
            holder = holder.setdefault(part, {})
        holder[leaf] = opening["value"]
    return shown


def readme_verifier(parsed: list[dict]) -> list[str]:
    """What the README's sentences let a reader check; returns the problems found."""
    problems: list[str] = []
    header, events = parsed[0]["header"], forging.events(parsed)
    events = [_opened(event) for event in events]
    created = next(e for e in events if name(e["topic"]) == "CampaignCreated")
    if created["state"]["ruleset"] != header["ruleset"]:
        problems.append("pin")
    streams: dict[str, list[dict]] = {}
    for event in events:
        streams.setdefault(event["stream"], []).append(event)
        for path in event.get("sealed", {}):  # beside state, outside the hash, listed in meta.sealed
            *parents, leaf = path.split(".")
            holder = event["state"]
            for part in parents:
                holder = holder.get(part, {})
            assert path in event["state"]["meta"]["sealed"] and leaf not in holder, (path, event["topic"])
    ended: dict[str, str] = {}
    for sid in header["sessions"]:
        session = streams[sid]
        commitment = session[0]["state"]["seed_commitment"]
        revealed = next((e["state"]["seed"] for e in session if name(e["topic"]) == "SessionEnded"), None)
        seed_hex = revealed or session[0].get("sealed", {}).get("seed")
        if seed_hex is not None:
            if hashlib.sha256(bytes.fromhex(seed_hex)).hexdigest() != commitment:
                problems.append(f"seed of {sid}")
            assert hashlib.sha256(seed_hex.encode()).hexdigest() != commitment  # the bytes, not the hex text
        seed = bytes.fromhex(seed_hex) if seed_hex else None
        setup = [e for e in session if e["state"]["meta"]["command"] == 1]
        started = next(e for e in events if name(e["topic"]) == "QuestStarted" and e["state"]["session_id"] == sid)
        if started["state"]["meta"]["session_head"] != hashed(setup[-1]):
            problems.append(f"QuestStarted.session_head of {sid}")
        verdict, ruled, abandoned = None, None, False
        for index, event in enumerate(session):
            kind, state = name(event["topic"]), event["state"]
            if kind == "QuestSetUp" and "counter_start" in state.get("change", {}):
                change = state["change"]
                if (change["counter_start"], change["counter_end"]) != (change["shuffle"]["counter_start"], change["shuffle"]["counter_end"]):
                    problems.append("QuestSetUp counters")
            elif kind == "DiceRolled" and state["roll"]["source"] == "digital" and seed is not None:
                roll, stream = state["roll"], Stream(seed, state["roll"]["counter_start"])
                rolled = {die: [roll["layouts"][die][stream.uniform(len(roll["layouts"][die]))] for _ in range(roll["dice"][die])] for die in roll["order"]}
                if rolled != roll["results"]:
                    problems.append(f"roll at {sid} {event['position']}")
            elif kind == "DeckShuffled" and seed is not None:
                change = state["change"]
                order = Stream(seed, change["counter_start"]).shuffle(change["before"])
                if event.get("sealed", {}).get("change.order", order) != order:
                    problems.append(f"sealed order at {sid} {event['position']}")
                # the top: the next event of this deck, when a digital draw, takes the cards from order[0] on
                later = next((e for e in session[index + 1:] if e["state"].get("change", {}).get("deck") == change["deck"]), None)
                if later is not None and name(later["topic"]) == "CardsDrawn" and later["state"]["change"]["source"] == "digital":
                    cards = later["state"]["change"]["cards"]
                    if cards != order[: len(cards)]:
                        problems.append(f"draw from the top at {sid} {later['position']}")
            elif kind == "QuestDecided":
                verdict = state["change"]["outcome"]
            elif kind == "ActionUndone":
                verdict = (state["restored"].get("verdict") or {}).get("outcome")
            elif kind == "OutcomeRuled":
                ruled = state["outcome"]
            elif kind == "SessionAbandoned":
                abandoned = True
            elif kind == "SessionEnded":
                outcome = state["outcome"]
                if abandoned != (outcome == "abandoned") or (ruled is not None and ruled != outcome):
                    problems.append(f"end of {sid}")
                elif verdict is not None and ruled is None and not abandoned and outcome != verdict:
                    problems.append(f"end of {sid} against the verdict")
                ended[sid] = outcome
    for event in events:
        kind, state = name(event["topic"]), event["state"]
        if kind == "QuestEnded" and state["outcome"] != ended.get(state["session_id"]):
            problems.append(f"QuestEnded of {state['session_id']}")
        if kind == "QuestAbandoned" and (ended.get(state["session_id"]) != "abandoned" or state["meta"]["session_head"] != hashed(streams[state["session_id"]][-1])):
            problems.append(f"QuestAbandoned of {state['session_id']}")
    return problems


# -- against real files ---------------------------------------------------------------------------------------

PLAYS = [  # (game, steps as tests/kit/forgery_kit.py plays them, ending)
    ("journey", [(2, 1), (4, 1), (5, 0), (2, 2), (6, 0)], "ended"),
    ("journey", [(0, 0), (2, 0), (4, 0), (5, 0), (2, 1)], "in play"),
    ("descent", [(2, 0), (3, 2), (4, 0), (5, 0), (8, 0)], "in play"),
    ("descent", [(0, 0), (8, 0)], "abandoned"),
    ("kung-fu-panda", [(2, 0), (3, 0), (4, 0), (3, 0)], "in play"),
    ("yokai-quest", [(2, 0), (0, 1)], "ended"),
]


def _lost_and_ended(client) -> tuple[str, str]:
    """Kung Fu Panda 1.1's mission lost as it happens (L246): a QuestDecided, then the end that agrees."""
    body = {"ruleset": "kung-fu-panda", "name": "K", "party": ["po", "tigress"], "options": {"length": "single", "mission": "m1-1"}, "components": forging.KUNG_FU_PANDA}
    cid = forging.created(client, body)
    setup = {"special_moves": {"po": "A", "tigress": "B"}, "start_tile": "t", "spawn_points": {"1": "n"}, "villagers": {"mei": "n"},
             "enemies": {"n": {"wolf-spearman": 1, "ox-grunt": 1}}}
    sid = forging.started(client, cid, "m1-1", setup)
    for action in ({"type": "start-round"}, {"type": "roll", "hero": "po", "faces": ["Claws", "Kick", "Kick", "Move"]},
                   {"type": "resolve-claws", "hero": "po", "spaces": [{"space": "spawn", "enemy": "wolf-slasher", "spawn_point": 1}]}):
        assert client.post(f"/sessions/{sid}/actions", json=action).status_code == 201
    assert client.post(f"/sessions/{sid}/end", json={"outcome": "defeat"}).status_code == 200
    return cid, sid


def test_a_verifier_written_from_the_readme_passes_real_exports_and_backups_of_every_game(app, client):
    files = []
    for game, steps, ending in PLAYS:
        cid, _ = forging.play(client, game, steps, ending)
        files += [forging.lines_of(forging.export(client, cid)), forging.lines_of(forging.backup(app, cid))]
    cid, _ = _lost_and_ended(client)
    files.append(forging.lines_of(forging.export(client, cid)))
    for parsed in files:
        assert readme_verifier(parsed) == [], parsed[0]["header"]["ruleset"]
    kinds = {name(e["topic"]) for parsed in files for e in forging.events(parsed)}
    assert {"QuestSetUp", "DeckShuffled", "CardsDrawn", "QuestDecided", "SessionAbandoned", "QuestAbandoned", "DeckListed", "ActionUndone"} <= kinds
    assert any(e.get("sealed", {}).get("change.order") for parsed in files for e in forging.events(parsed))


@pytest.mark.parametrize("forgery", ["verdict", "sealed order", "in-play roll"])
def test_the_readme_verifier_finds_what_the_standalone_verifier_finds(app, client, forgery):
    from tracker.integrity.verify_export import verify_lines

    if forgery == "verdict":
        cid, sid = _lost_and_ended(client)
        forged = forging.lines_of(forging.export(client, cid))
        forging.of(forged, "SessionEnded", sid)[0]["state"]["outcome"] = "victory"
        next(e for e in forging.of(forged, "QuestEnded") if e["state"]["session_id"] == sid)["state"]["outcome"] = "victory"
    else:
        cid, sid = forging.play(client, "journey", [(0, 0), (2, 2), (0, 1)], "in play" if forgery == "in-play roll" else "ended")
        forged = copy.deepcopy(forging.lines_of(forging.backup(app, cid)))
        if forgery == "sealed order":
            order = forging.of(forged, "DeckShuffled", sid)[0]["sealed"]["change.order"]
            order[0], order[1] = order[1], order[0]
        else:
            roll = forging.of(forged, "DiceRolled", sid)[0]["state"]["roll"]
            roll["results"]["d6"][0] = 7 - roll["results"]["d6"][0]
    forging.rechain(forged)
    assert readme_verifier(forged), forgery
    assert verify_lines(forging.text_of(forged).splitlines())["status"] == "failed", forgery
