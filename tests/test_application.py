"""The application through its public methods, on SQLite and on PostgreSQL."""

from __future__ import annotations

import hashlib
import threading

import pytest

from tests.kit.journey import JOURNEY_TEST_COMPONENTS
from tracker import rulesets
from tracker.application.service import Request, Tracker
from tracker.core.errors import Conflict, NotFound, PreconditionFailed, Unprocessable
from tracker.core.randomness import RandomStream

JOURNEY_VERSION = rulesets.get("journey").version


def _campaign(tracker: Tracker, **kwargs) -> str:
    result = tracker.create_campaign("journey", "Tuesday group", components=JOURNEY_TEST_COMPONENTS, **kwargs)
    return result.body["id"]


def _session(tracker: Tracker, quest: str = "q1-meeting") -> str:
    return tracker.start_session(_campaign(tracker), quest).body["id"]


def test_a_campaign_pins_the_ruleset_version_hash_and_components(tracker):
    result = tracker.create_campaign("journey", "Tuesday group", party=["monkey-king"], components=JOURNEY_TEST_COMPONENTS)
    assert result.status == 201
    journey = rulesets.get("journey")
    assert result.body["ruleset"] == {"id": "journey", "version": journey.version, "hash": journey.hash}
    campaign = tracker.get_campaign(result.body["id"])
    assert campaign["ruleset"]["hash"] == journey.hash
    assert campaign["components"] == JOURNEY_TEST_COMPONENTS
    assert campaign["components_hash"].startswith("sha256:")
    assert campaign["party"] == ["monkey-king"]
    assert campaign["chain"][0] == "q1-meeting" and campaign["next_quest"] == "q1-meeting"


def test_component_data_may_only_supply_unknown_facts(tracker):
    with pytest.raises(Unprocessable) as error:
        tracker.create_campaign("journey", "x", components={"dice": {"attack": {"faces": ["X", "1", "7", "2", "2", "3"]}}})
    assert "components.dice.attack.faces.2" in error.value.errors
    with pytest.raises(Unprocessable):
        tracker.create_campaign("journey", "x", components={"dice": {"d6": {"faces": [1, 2, 3, 4, 5, 6]}}})


def test_starting_a_session_publishes_a_commitment_and_keeps_the_seed_secret(tracker):
    sid = _session(tracker)
    state = tracker.get_session(sid)
    assert state["seed"] is None and len(state["seed_commitment"]) == 64
    started = tracker.session_events(sid)["events"][0]
    assert started["type"] == "SessionStarted" and "seed" not in started["payload"]


def test_a_digital_roll_follows_the_stream_and_the_seed_revealed_at_the_end_matches(tracker):
    sid = _session(tracker)
    after_set_up = tracker.get_session(sid)["random_counter"]  # the quest set-up may draw (initiative)
    first = tracker.roll(sid, dice={"attack": 3, "d6": 2}).body
    second = tracker.roll(sid, dice={"d20": 1}).body
    assert first["counter_start"] == after_set_up and second["counter_start"] == first["counter_end"]
    ended = tracker.end_session(sid, "victory", reported={"house_cleared": True}).body
    seed = bytes.fromhex(ended["seed"])
    assert hashlib.sha256(seed).hexdigest() == ended["seed_commitment"]
    stream = RandomStream(seed, after_set_up)
    layout = JOURNEY_TEST_COMPONENTS["dice"]["attack"]["faces"]
    assert first["results"] == {"attack": [stream.roll(layout) for _ in range(3)], "d6": [stream.roll(list(range(1, 7))) for _ in range(2)]}
    assert second["results"] == {"d20": [stream.roll(list(range(1, 21)))]}


def test_physical_dice_are_recorded_as_reported_and_checked_against_the_faces(tracker):
    sid = _session(tracker)
    after_set_up = tracker.get_session(sid)["random_counter"]
    result = tracker.roll(sid, faces={"defense": ["3", "2"]}).body
    assert result["results"] == {"defense": ["3", "2"]} and result["source"] == "reported"
    assert tracker.get_session(sid)["random_counter"] == after_set_up  # nothing drawn from the stream
    with pytest.raises(Unprocessable) as error:
        tracker.roll(sid, faces={"defense": ["4"]})
    assert "no face '4'" in error.value.title


def test_rolling_a_die_whose_faces_were_lost_says_how_to_supply_them(tracker):
    sid = _session(tracker)
    version = tracker.get_session(sid)["version"]
    with pytest.raises(Unprocessable) as error:
        tracker.roll(sid, dice={"defense": 2})
    assert "faces of the Defense Die are unknown" in error.value.title
    assert '"components"' in error.value.detail and '"faces"' in error.value.detail
    assert tracker.get_session(sid)["version"] == version


def test_draws_digital_and_reported(tracker):
    sid = _session(tracker)
    drawn = tracker.draw(sid, "fortune", count=3, holder="monkey-king").body
    assert len(drawn["cards"]) == 3 and drawn["events"][0]["type"] == "DeckShuffled"
    state = tracker.get_session(sid)
    assert state["decks"]["fortune"]["draw_pile"] == 17
    assert state["decks"]["fortune"]["held"] == {"monkey-king": drawn["cards"]}
    reported = tracker.draw(sid, "misfortune", cards=["Ambush"]).body
    assert reported["cards"] == ["Ambush"] and reported["source"] == "reported"
    assert tracker.get_session(sid)["decks"]["misfortune"]["draw_pile"] == 19
    with pytest.raises(Unprocessable) as error:
        tracker.draw(sid, "misfortune", count=1)
    assert "card list of Misfortune Cards is unknown" in error.value.title


def test_a_physical_draw_is_checked_against_what_the_deck_can_still_hold(tracker):
    sid = _session(tracker)
    tracker.draw(sid, "fortune", cards=["Fortune 1"])
    with pytest.raises(Unprocessable, match="cannot hold"):
        tracker.draw(sid, "fortune", cards=["Fortune 1"])


def test_actions_are_validated_against_their_schema_and_recorded_with_their_effects(tracker):
    sid = _session(tracker)
    tracker.draw(sid, "fortune", count=2)
    held = tracker.get_session(sid)["decks"]["fortune"]["held"]["table"]
    result = tracker.act(sid, {"type": "discard", "deck": "fortune", "cards": [held[0]]}).body
    assert [e["type"] for e in result["events"]] == ["ActionTaken", "CardsDiscarded"]
    assert result["state"]["decks"]["fortune"]["discard_pile"] == [held[0]]
    with pytest.raises(Unprocessable) as error:
        tracker.act(sid, {"type": "discard", "deck": "fortune", "cards": "not a list"})
    assert "cards" in error.value.errors
    with pytest.raises(Unprocessable, match="Unknown action type"):
        tracker.act(sid, {"type": "teleport"})


def test_the_skill_reward_draws_until_the_needed_kind(tracker):
    cards = [{"name": f"One-time {n}", "kind": "one-time"} for n in range(4)] + [{"name": "Cloud Step", "kind": "permanent"}]
    campaign = tracker.create_campaign("journey", "x", components={"decks": {"skill-monkey-king": {"cards": cards}}}).body["id"]
    # Monkey's two set-up Skill Cards, drawn at the table and reported, leave Cloud Step in the deck.
    sid = tracker.start_session(campaign, "q1-meeting", {"drawn": {"skill-monkey-king": ["One-time 0", "One-time 1"]}}).body["id"]
    result = tracker.act(sid, {"type": "skill-reward", "pilgrim": "monkey-king", "kind": "permanent"}).body
    deck = result["state"]["decks"]["skill-monkey-king"]
    assert deck["held"] == {"monkey-king": ["One-time 0", "One-time 1", "Cloud Step"]}
    assert all(card.startswith("One-time") for card in deck["discard_pile"])


def test_idempotent_retries_return_the_first_answer_and_append_nothing(tracker):
    sid = _session(tracker)
    request = Request(idempotency_key="roll-1")
    first = tracker.roll(sid, dice={"d6": 3}, request=request)
    version = tracker.get_session(sid)["version"]
    again = tracker.roll(sid, dice={"d6": 3}, request=request)
    assert again.replayed and again.status == first.status and again.body == first.body
    assert tracker.get_session(sid)["version"] == version
    with pytest.raises(Unprocessable, match="different request"):
        tracker.roll(sid, dice={"d6": 4}, request=request)
    assert tracker.get_session(sid)["version"] == version


def test_if_match_makes_a_command_conditional(tracker):
    sid = _session(tracker)
    version = tracker.get_session(sid)["version"]
    tracker.roll(sid, dice={"d6": 1}, request=Request(if_match=version))
    with pytest.raises(PreconditionFailed):
        tracker.roll(sid, dice={"d6": 1}, request=Request(if_match=version))


def test_concurrent_commands_never_lose_an_event_or_reuse_a_counter(tracker):
    sid = _session(tracker)
    start = tracker.get_session(sid)["version"]
    results, errors = [], []

    def roll():
        try:
            results.append(tracker.roll(sid, dice={"d6": 1}).body)
        except Exception as error:  # noqa: BLE001 - collected and asserted below
            errors.append(error)

    threads = [threading.Thread(target=roll) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert len({r["counter_start"] for r in results}) == 8
    assert sorted(r["position"] for r in results) == list(range(start + 1, start + 9))
    assert tracker.get_session(sid)["rolls"] == 8


def test_ending_reveals_the_seed_records_the_outcome_and_moves_the_campaign_on(tracker):
    campaign = _campaign(tracker)
    sid = tracker.start_session(campaign, "q1-meeting").body["id"]
    ended = tracker.end_session(sid, "defeat", reported={"defeated": ["tripitaka"]}).body
    assert ended["next_quest"] == "q1-meeting"  # a lost quest is played again
    sid = tracker.start_session(campaign, "q1-meeting").body["id"]
    assert tracker.end_session(sid, "heroic-victory", ruling="test: how the quest ended is not what this test is about").body["next_quest"] == "q2-rescue"
    state = tracker.get_campaign(campaign)
    assert [s["outcome"] for s in state["sessions"]] == ["defeat", "heroic-victory"]
    with pytest.raises(Conflict, match="has ended"):
        tracker.roll(sid, dice={"d6": 1})


def test_events_are_paged_oldest_first(tracker):
    sid = _session(tracker)
    start = tracker.get_session(sid)["version"]
    for _ in range(5):
        tracker.roll(sid, dice={"d4": 1})
    page = tracker.session_events(sid, after=start + 1, limit=2)
    assert [e["position"] for e in page["events"]] == [start + 2, start + 3]
    assert page["next_after"] == start + 3 and page["total"] == start + 5
    assert all(e["meta"]["ruleset_version"] == JOURNEY_VERSION for e in page["events"])


def test_every_event_records_who_issued_it_and_the_correlation_id(tracker):
    sid = _session(tracker)
    tracker.roll(sid, dice={"d6": 1}, request=Request(issued_by="token-7", correlation_id="req-42"))
    event = tracker.session_events(sid)["events"][-1]
    who = {"issued_by": "token-7", "correlation_id": "req-42", "ruleset_version": JOURNEY_VERSION, "ruleset_id": "journey"}
    assert {key: event["meta"][key] for key in who} == who  # beside the hash chain's prev_hash and command


def test_unknown_ids_are_reported_plainly(tracker):
    with pytest.raises(Unprocessable, match="Unknown ruleset 'chess'"):
        tracker.create_campaign("chess", "x")
    with pytest.raises(NotFound):
        tracker.get_session("00000000-0000-0000-0000-000000000000")
    with pytest.raises(NotFound):
        tracker.get_session("not-a-uuid")
    campaign = _campaign(tracker)
    with pytest.raises(Unprocessable, match="Unknown quest"):
        tracker.start_session(campaign, "q99")
    sid = tracker.start_session(campaign, "q1-meeting").body["id"]
    with pytest.raises(Unprocessable, match="Unknown die"):
        tracker.roll(sid, dice={"d7": 1})
    with pytest.raises(Unprocessable, match="Unknown deck"):
        tracker.draw(sid, "tarot", count=1)
