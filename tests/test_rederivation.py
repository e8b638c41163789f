"""What the verifier and the import re-derive beyond the dice, on SQLite and on PostgreSQL (issue 30):

- the rules' verdicts: an end that contradicts the quest-decided the log records is FAILED by the standalone
  verifier (which reads the recorded decision) and a 422 on import (which re-runs every action with the rules);
- backups: a sealed shuffle order against the seed, and a session in play checked with the seed the backup carries;
- a genuine file always imports, the reshuffle a public import of a session in play cannot order included.

Each forgery is built as a forger with the README would: edit, then recompute every hash (tests/kit/forgery_kit.py)."""

from __future__ import annotations

import copy

import pytest

from tests.kit import forgery_kit as forging
from tests.kit.journey import JOURNEY_TEST_COMPONENTS
from tests.kit.kung_fu_panda import TEST_COMPONENTS as KUNG_FU_PANDA_COMPONENTS
from tests.kit.session import post as _post
from tracker.integrity.verify_export import verify_lines


def _journey_campaign(client) -> str:
    return _post(client, "/campaigns", {"ruleset": "journey", "name": "J", "party": ["tripitaka", "monkey-king"], "components": JOURNEY_TEST_COMPONENTS})["id"]


def _lost_on_the_board(client) -> tuple[str, str]:
    """Kung Fu Panda 1.1 lost as it happens: 'If a villager is sharing a tile with 3 enemies of any type, you lose the
    game immediately' (L246): MissionLost, then the rules' verdict (quest-decided), then the end that agrees."""
    body = {"ruleset": "kung-fu-panda", "name": "K", "party": ["po", "tigress"], "options": {"length": "single", "mission": "m1-1"}, "components": KUNG_FU_PANDA_COMPONENTS}
    cid = _post(client, "/campaigns", body)["id"]
    setup = {"special_moves": {"po": "A", "tigress": "B"}, "start_tile": "t", "spawn_points": {"1": "n"}, "villagers": {"mei": "n"},
             "enemies": {"n": {"wolf-spearman": 1, "ox-grunt": 1}}}
    sid = _post(client, f"/campaigns/{cid}/sessions", {"quest": "m1-1", "setup": setup})["id"]
    _post(client, f"/sessions/{sid}/actions", {"type": "start-round"})
    _post(client, f"/sessions/{sid}/actions", {"type": "roll", "hero": "po", "faces": ["Claws", "Kick", "Kick", "Move"]})
    lost = _post(client, f"/sessions/{sid}/actions", {"type": "resolve-claws", "hero": "po", "spaces": [{"space": "spawn", "enemy": "wolf-slasher", "spawn_point": 1}]})
    assert [e["type"] for e in lost["events"]][-2:] == ["MissionLost", "QuestDecided"]
    return cid, sid


def _won_instead(lines: list[dict], sid: str, campaign_too: bool = True) -> list[dict]:
    forged = copy.deepcopy(lines)
    forging.of(forged, "SessionEnded", sid)[0]["state"]["outcome"] = "victory"
    if campaign_too:
        quest_end = next(e for e in forging.of(forged, "QuestEnded") if e["state"]["session_id"] == sid)
        quest_end["state"]["outcome"] = "victory"
    return forging.rechain(forged)


# -- 1. the rules' verdicts -----------------------------------------------------------------------------


def test_an_end_rewritten_against_the_rules_verdict_is_refused_by_the_verifier_and_the_import(app, client):
    cid, sid = _lost_on_the_board(client)
    _post(client, f"/sessions/{sid}/end", {"outcome": "defeat"}, 200)
    genuine = forging.lines_of(forging.export(client, cid))
    assert verify_lines(forging.text_of(genuine).splitlines())["status"] == "verified"

    forged = _won_instead(genuine, sid)
    ended = forging.of(forged, "SessionEnded", sid)[0]
    failure = forging.refused_by_verifier(forging.text_of(forged), "but the rules decided the quest at event")
    assert (failure["stream"], failure["position"]) == (sid, ended["position"])
    forging.refused_by_import(app, client, forging.text_of(forged), "the rules decided the quest")

    # Only the campaign's record rewritten: the session still says defeat.
    campaign_only = copy.deepcopy(genuine)
    next(e for e in forging.of(campaign_only, "QuestEnded") if e["state"]["session_id"] == sid)["state"]["outcome"] = "victory"
    forging.rechain(campaign_only)
    failure = forging.refused_by_verifier(forging.text_of(campaign_only), "records the quest of session")
    assert failure["stream"] == cid
    forging.refused_by_import(app, client, forging.text_of(campaign_only))


def test_a_verdict_removed_with_the_end_rewritten_is_found_by_the_imports_re_run_of_the_action(app, client):
    """The standalone verifier reads only the decision the file records (it has no rules); the import re-runs the
    action that decided the quest and finds its verdict missing."""
    cid, sid = _lost_on_the_board(client)
    _post(client, f"/sessions/{sid}/end", {"outcome": "defeat"}, 200)
    forged = _won_instead(forging.lines_of(forging.export(client, cid)), sid)
    decided = {id(e) for e in forging.of(forged, "QuestDecided", sid)}
    forged = forging.rechain([line for line in forged if id(line.get("event")) not in decided])
    assert verify_lines(forging.text_of(forged).splitlines())["status"] == "verified"  # the file alone cannot tell
    refused = forging.refused_by_import(app, client, forging.text_of(forged), "does not re-derive")
    assert "QuestDecided" in refused["detail"] or "quest-decided" in refused["detail"], refused


def test_a_genuine_ruling_over_the_verdict_and_a_genuine_abandon_import(request, client):
    cid, sid = _lost_on_the_board(client)
    _post(client, f"/sessions/{sid}/end", {"outcome": "victory", "ruling": "the villager was never really in danger"}, 200)
    other, abandoned = _lost_on_the_board(client)
    _post(client, f"/sessions/{abandoned}/abandon", {"reason": "we stopped for dinner"}, 200)
    for campaign, session in ((cid, sid), (other, abandoned)):
        text = forging.export(client, campaign)
        assert verify_lines(text.splitlines())["status"] == "verified"
        with forging.fresh_app(request) as target:
            response = forging.imported(target, text)
            assert response.status_code == 201 and response.json["sessions"] == {session: "verified"}, response.json
    # A ruling's outcome is the one the end records: rewriting the end alone is found.
    forged = _won_instead(forging.lines_of(forging.export(client, cid)), sid)
    forging.of(forged, "SessionEnded", sid)[0]["state"]["outcome"] = "defeat"
    next(e for e in forging.of(forged, "QuestEnded") if e["state"]["session_id"] == sid)["state"]["outcome"] = "defeat"
    forging.refused_by_verifier(forging.text_of(forging.rechain(forged)), "but the owner's ruling before it says victory")


# -- 2. backups --------------------------------------------------------------------------------------------


def test_a_backups_sealed_shuffle_order_of_an_ended_session_is_checked_against_the_seed(app, client):
    """The order sits outside the hash (a backup's ``sealed``): nothing to recompute, the seed finds it, while
    another session in play leaves the file as a whole pending."""
    cid = _journey_campaign(client)
    ended = _post(client, f"/campaigns/{cid}/sessions", {"quest": "q1-meeting"})["id"]
    _post(client, f"/sessions/{ended}/draws", {"deck": "fortune", "count": 2})
    _post(client, f"/sessions/{ended}/end", {"outcome": "victory", "reported": {"house_cleared": True}}, 200)
    in_play = _post(client, f"/campaigns/{cid}/sessions", {"quest": "q2-rescue"})["id"]
    _post(client, f"/sessions/{in_play}/rolls", {"dice": {"d6": 1}})
    genuine = forging.lines_of(forging.backup(app, cid))
    assert verify_lines(forging.text_of(genuine).splitlines())["status"] == "pending"
    forged = copy.deepcopy(genuine)
    shuffled = forging.of(forged, "DeckShuffled", ended)[0]
    order = shuffled["sealed"]["change.order"]
    order[0], order[-1] = order[-1], order[0]
    failure = forging.refused_by_verifier(forging.text_of(forged), "The seed shuffles the cards into a different order")
    assert (failure["stream"], failure["position"]) == (ended, shuffled["position"])
    forging.refused_by_import(app, client, forging.text_of(forged))


def test_a_backup_of_a_session_in_play_has_every_digital_roll_checked_with_the_seed_it_carries(app, client, request):
    cid = _journey_campaign(client)
    sid = _post(client, f"/campaigns/{cid}/sessions", {"quest": "q1-meeting"})["id"]
    for _ in range(3):
        _post(client, f"/sessions/{sid}/rolls", {"dice": {"d6": 2, "attack": 1}})
    genuine = forging.lines_of(forging.backup(app, cid))
    report = verify_lines(forging.text_of(genuine).splitlines())
    assert report["status"] == "pending"
    assert report["sessions"][sid]["seed"] == "carried by the backup" and report["sessions"][sid]["checked"]["digital_rolls"] == 3
    forged = copy.deepcopy(genuine)
    roll = forging.of(forged, "DiceRolled", sid)[1]
    results = roll["state"]["roll"]["results"]["d6"]
    results[0] = "6" if results[0] != "6" else "1"
    forging.rechain(forged)
    failure = forging.refused_by_verifier(forging.text_of(forged), "The seed rolls")
    assert (failure["stream"], failure["position"]) == (sid, roll["position"])
    forging.refused_by_import(app, client, forging.text_of(forged))
    # The genuine backup imports, its session still in play.
    with forging.fresh_app(request) as target:
        response = forging.imported(target, forging.text_of(genuine))
        assert response.status_code == 201 and response.json["sessions"] == {sid: "pending"}, response.json


def test_a_random_actions_effect_in_a_backup_of_a_session_in_play_is_re_derived_with_the_carried_seed(app, client, request):
    """Kung Fu Panda's Action Dice rolled digitally inside an action: the pool it records follows from the dice,
    which only the rules know. A public export cannot re-run it before the seed is revealed; a backup can."""
    body = {"ruleset": "kung-fu-panda", "name": "K", "party": ["po", "tigress"], "options": {"length": "single", "mission": "m2-1"}, "components": KUNG_FU_PANDA_COMPONENTS}
    cid = _post(client, "/campaigns", body)["id"]
    setup = {"start_tile": "F", "end_tile": "s", "enemies": {"F": {"ox-grunt": 1}}, "special_moves": {"po": "A", "tigress": "B"}}
    sid = _post(client, f"/campaigns/{cid}/sessions", {"quest": "m2-1", "setup": setup})["id"]
    _post(client, f"/sessions/{sid}/actions", {"type": "start-round"})
    _post(client, f"/sessions/{sid}/actions", {"type": "roll", "hero": "tigress"})
    forged = forging.lines_of(forging.backup(app, cid))
    pool = forging.of(forged, "DicePoolRolled", sid)[0]["state"]["change"]
    faces = KUNG_FU_PANDA_COMPONENTS["dice"]["action-die"]["faces"]
    pool["pool"] = pool["results"] = [next(face for face in faces if face != pool["pool"][0])] + pool["pool"][1:]
    forged_text = forging.text_of(forging.rechain(forged))
    assert verify_lines(forged_text.splitlines())["status"] == "pending"  # the dice themselves are as the seed rolls
    forging.refused_by_import(app, client, forged_text, "does not re-derive")


# -- 3. a genuine file always imports ----------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["public", "backup"])
def test_a_session_in_play_that_reshuffled_its_discards_imports(app, client, request, kind):
    """A public export leaves the pile face down after the set-up's shuffle; the reshuffle takes those cards and
    the two discarded, which the import cannot name in order, only count."""
    cid = _journey_campaign(client)
    sid = _post(client, f"/campaigns/{cid}/sessions", {"quest": "q1-meeting"})["id"]
    drawn = _post(client, f"/sessions/{sid}/draws", {"deck": "fortune", "count": 2})["cards"]
    _post(client, f"/sessions/{sid}/actions", {"type": "discard", "deck": "fortune", "cards": drawn})
    _post(client, f"/sessions/{sid}/actions", {"type": "shuffle", "deck": "fortune", "with_discard": True})
    _post(client, f"/sessions/{sid}/draws", {"deck": "fortune", "cards": ["Fortune 3"]})  # drawn at the table after the move
    text = forging.export(client, cid) if kind == "public" else forging.backup(app, cid)
    with forging.fresh_app(request) as target:
        response = forging.imported(target, text)
        assert response.status_code == 201 and response.json["sessions"] == {sid: "pending"}, response.json
        owner = {"Authorization": f"Bearer {forging.owner_token(app, cid)}"} if kind == "backup" else {}  # a backup's tokens work on
        moved = target.test_client().get(f"/sessions/{sid}", headers=owner).json["decks"]["fortune"]
        assert moved["draw_pile"] == 19 and moved["discard_pile"] == []  # twenty cards, one drawn at the table


def test_the_progress_a_quest_end_carries_over_is_re_derived_on_import(app, client):
    """The campaign counts what QuestEnded carries over (Kung Fu Panda's missions won and lost): the import gives
    it again from the session's final state with the rules, so a file cannot carry on what its session did not give."""
    cid, sid = _lost_on_the_board(client)
    _post(client, f"/sessions/{sid}/end", {"outcome": "defeat"}, 200)
    forged = forging.lines_of(forging.export(client, cid))
    quest_end = next(e for e in forging.of(forged, "QuestEnded") if e["state"]["session_id"] == sid)
    assert quest_end["state"]["progress"] is not None
    quest_end["state"]["progress"] = {**quest_end["state"]["progress"], "carried": "a mission nobody played"}
    forged_text = forging.text_of(forging.rechain(forged))
    assert verify_lines(forged_text.splitlines())["status"] == "verified"  # the verifier has no rules to carry it over
    forging.refused_by_import(app, client, forged_text, "the progress the campaign carries over is not what the rules give")
