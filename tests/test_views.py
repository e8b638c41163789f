"""The read views as modules (issue 19), through the API on SQLite and PostgreSQL: the games' own views (Journey's
hero progress and karma, Descent's ledger kept secret from the heroes), read your writes (log_position on command
answers, ?min_position= on view reads, 503 when the views cannot get there), a rebuild whose digest covers the
games' views, a rebuild killed part-way, and the runner woken by NOTIFY on PostgreSQL."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from projections import views as registered_views
from projections.runner import ProjectionRunner
from projections.store import open_view_store
from tests.kit.descent import (
    TEST_OVERLORD_DECK,
    act as descent_act,
    campaign as descent_campaign,
    start as descent_start,
)
from tests.kit.journey import PILGRIMS, Q2_COMPONENTS, act, campaign, play_q1, start
from tests.kit.secrets import bearer, mint
from tests.kit.yokai_quest import (
    LOADOUTS,
    S1,
    act as yokai_act,
    create_campaign as yokai_campaign,
    defeat as yokai_defeat,
    end as yokai_end,
    spawn,
    start as yokai_start,
    strike,
)
from tracker.adapters.config import persistence_env
from tracker.rulesets.engine.view import CampaignFold

ROOT = Path(__file__).resolve().parents[1]
DEADLINE_SECONDS = 20.0


def _written(client) -> int:
    return client.get("/health").json["notifications"]


# -- read your writes ----------------------------------------------------------------------------------------------


def test_every_command_answer_carries_the_log_position_it_reached(client):
    created = client.post("/campaigns", json={"ruleset": "journey", "name": "Positions", "party": ["tripitaka", "monkey-king"]})
    assert created.status_code == 201 and created.json["log_position"] == _written(client)
    cid = created.json["id"]
    started = client.post(f"/campaigns/{cid}/sessions", json={"quest": "q1-meeting"})
    assert started.json["log_position"] > created.json["log_position"]
    rolled = client.post(f"/sessions/{started.json['id']}/rolls", json={"faces": {"d6": [4]}}, headers={"Idempotency-Key": "roll-once"})
    assert rolled.status_code == 201 and rolled.json["log_position"] == _written(client)
    # The position of the roll within its session is still "position": the log position is another field.
    assert rolled.json["position"] < rolled.json["log_position"]
    again = client.post(f"/sessions/{started.json['id']}/rolls", json={"faces": {"d6": [4]}}, headers={"Idempotency-Key": "roll-once"})
    assert again.headers["Idempotent-Replayed"] == "true" and again.json["log_position"] >= rolled.json["log_position"]
    minted = client.post(f"/campaigns/{cid}/tokens", json={"role": "viewer"})
    assert minted.json["log_position"] == _written(client)


def test_a_read_with_min_position_sees_the_write_it_names_without_anyone_catching_up(client, app):
    runner = app.extensions["tracker_views"]
    cid = campaign(client, components=Q2_COMPONENTS)
    sid, _ = start(client, cid, "q2-rescue", initiative=None)
    act(client, sid, type="maintenance")
    act(client, sid, type="activate-pilgrim", hero="monkey-king")
    rescued = act(client, sid, type="rescue-villager", hero="monkey-king", villager="villager-1")
    assert runner.position < rescued["log_position"]  # nothing projected these yet
    stale = client.get(f"/campaigns/{cid}/heroes")
    assert stale.status_code == 200 and stale.json["heroes"] == {}  # without min_position: what the views hold now
    fresh = client.get(f"/campaigns/{cid}/heroes?min_position={rescued['log_position']}")
    assert fresh.status_code == 200 and fresh.json["projected_to"] >= rescued["log_position"]
    assert fresh.json["heroes"]["monkey-king"]["good_karma"] == 3
    timeline = client.get(f"/sessions/{sid}/timeline?min_position={rescued['log_position']}&limit=1000").json
    assert timeline["entries"][-1]["position"] == rescued["version"]


def test_a_read_the_views_cannot_bring_up_to_date_in_time_is_a_503_with_retry_after(client, app):
    app.config["VIEWS_WAIT_SECONDS"] = 0.3
    cid = campaign(client)
    beyond = _written(client) + 1000  # a position the log has not reached
    for path in (f"/campaigns/{cid}/heroes", f"/campaigns/{cid}/standing", f"/campaigns/{cid}/dice-statistics"):
        late = client.get(f"{path}?min_position={beyond}")
        assert late.status_code == 503, path
        assert late.mimetype == "application/problem+json" and late.headers["Retry-After"] == "1"
        assert f"position {beyond}" in late.json["title"]
    refused = client.get(f"/campaigns/{cid}/heroes?min_position=-1")
    assert refused.status_code == 422 and refused.mimetype == "application/problem+json"


# -- the games' views --------------------------------------------------------------------------------------------


def test_journey_hero_progress_is_a_view_and_names_the_events_behind_each_value(client, app):
    cid = campaign(client, mode="linked", components=Q2_COMPONENTS)
    q1, ended = play_q1(client, cid)
    monkey = client.get(f"/campaigns/{cid}/heroes/monkey-king?min_position={ended['log_position']}").json
    assert (monkey["bad_karma"], monkey["weapon_level"], monkey["quests_won"]) == (2, 2, ["q1-meeting"])
    behind = monkey["events_behind"]
    # The weapon level came from the set-up and the upgrade: the same events its history names.
    assert [(r["session_id"], r["position"]) for r in behind["weapon_level"]] == [(q1, h["position"]) for h in monkey["weapon_history"]]
    events = {e["position"]: e for e in client.get(f"/sessions/{q1}/events?limit=1000").json["events"]}
    for ref in behind["bad_karma"]:
        assert events[ref["position"]]["type"] == ref["event"] and events[ref["position"]]["payload"]["change"]["hero"] == "monkey-king"
    assert {events[ref["position"]]["type"] for ref in behind["bad_karma"]} >= {"PilgrimSetUp", "KarmaGained"}
    # The view holds the fold: one row per campaign, read without the log.
    view = registered_views.of_game("journey", "hero-progress")
    store = app.extensions["tracker_views"].store
    assert view.read(store, cid)["monkey-king"] == {k: v for k, v in monkey.items() if k not in ("campaign_id", "projected_to")}
    # The karma series: both wheels after every change, each point with its event.
    series = registered_views.of_game("journey", "karma-series").read(store, cid)["monkey-king"]
    assert (series[-1]["good"], series[-1]["bad"]) == (monkey["good_karma"], monkey["bad_karma"])
    assert all(events[p["position"]]["type"] == p["event"] for p in series)


NO_AUTH = {"Authorization": ""}  # the pages read the cookie, not the bearer token


def test_journey_pages_draw_karma_and_link_the_sheet_from_the_views_alone(client, app):
    made = client.post("/campaigns", json={"ruleset": "journey", "name": "Table", "party": PILGRIMS, "components": Q2_COMPONENTS,
                                           "options": {"mode": "linked"}}).json
    cid, owner = made["id"], made["owner_token"]
    q1, _ = play_q1(client, cid)
    assert client.post("/pages/sign-in", data={"token": owner}, headers=NO_AUTH).status_code == 303
    # Nothing is folded from the log per request: until the views reach the quest, the page shows no Karma.
    assert 'id="karma-monkey-king"' not in client.get(f"/pages/campaigns/{cid}", headers=NO_AUTH).get_data(as_text=True)
    app.extensions["tracker_views"].catch_up()
    store = app.extensions["tracker_views"].store
    series = registered_views.of_game("journey", "karma-series").read(store, cid)["monkey-king"]
    page = client.get(f"/pages/campaigns/{cid}", headers=NO_AUTH).get_data(as_text=True)
    chart = page.split('id="karma-monkey-king"', 1)[1].split("</div>", 1)[0]
    assert f"now {series[-1]['good']} Good and {series[-1]['bad']} Bad" in chart and "Traded 10 Bad Karma" in chart
    for point in series:  # every point of the view is a row linking to its event
        assert f'/pages/sessions/{q1}#e{point["position"]}' in chart
    # The hero sheet: each wheel links to the last event that changed it, each card held to the event that gave it.
    tripitaka = client.get(f"/campaigns/{cid}/heroes/tripitaka").json
    sheet = client.get(f"/pages/campaigns/{cid}/heroes/tripitaka", headers=NO_AUTH).get_data(as_text=True)
    good = tripitaka["events_behind"]["good_karma"][-1]
    assert f'class="wheel good" data-value="{tripitaka["good_karma"]}"><a href="/pages/sessions/{q1}#e{good["position"]}"' in sheet
    held = tripitaka["skills"]["one-time"] + tripitaka["skills"]["permanent"]
    assert held and set(held) <= set(tripitaka["cards_behind"])
    events = {e["position"]: e for e in client.get(f"/sessions/{q1}/events?limit=1000").json["events"]}
    for card in held:
        ref = tripitaka["cards_behind"][card]
        assert events[ref["position"]]["type"] == "CardTaken" and events[ref["position"]]["payload"]["change"]["card"] == card
        assert f'<a href="/pages/sessions/{ref["session_id"]}#e{ref["position"]}">{card}</a>' in sheet


def test_yokai_quest_standing_is_its_own_view_of_scenes_reattempts_and_heroes(client, app):
    made = yokai_campaign(client)
    cid, owner = made["id"], made["owner_token"]
    s1 = yokai_start(client, cid, S1)
    yokai_defeat(client, s1, "hone-bushi", 8)
    spawn(client, s1, {"hone-bushi": 4})
    strike(client, s1, "ryo", ["hone-bushi"] * 4)  # twelve before turn 5: the achievement (L809)
    yokai_act(client, s1, {"type": "draw-treasure", "hero": "ryo", "card": "Hibana"})
    yokai_act(client, s1, {"type": "draw-treasure", "hero": "ryo", "card": "Tenpura"})
    assert client.post(f"/sessions/{s1}/undo").status_code == 201  # the undone draw is no card of Ryo's
    for hero, card in (("ryo", "Tenpura"), ("ami", "Mochi"), ("ami", "Gyoza")):
        yokai_act(client, s1, {"type": "draw-treasure", "hero": hero, "card": card})
    yokai_act(client, s1, {"type": "end-scene", "outcome": "victory", "achievements": ["12-hone-bushi-before-turn-5"]})
    yokai_end(client, s1, "victory")
    attempts = []
    for _ in (1, 2):  # the second scene failed, reattempted once and failed again: the story is lost
        sid = yokai_start(client, cid, "shake-them-skeleton-bones-2")
        yokai_act(client, sid, {"type": "end-scene", "outcome": "failed"})
        attempts.append(sid)
        last = yokai_end(client, sid, "defeat")
    third = yokai_start(client, cid, S1)  # in play: not yet a scene played
    answer = client.get(f"/campaigns/{cid}/standing?min_position={last['log_position'] + 2}")
    assert answer.status_code == 200, answer.json
    standing = answer.json["standing"]
    assert [(p["scene"], p["attempt"], p["reattempt"], p["result"], p["outcome"]) for p in standing["scenes"]] == [
        (S1, 1, False, "victory", "victory"),
        ("shake-them-skeleton-bones-2", 1, False, "failed", "defeat"),
        ("shake-them-skeleton-bones-2", 2, True, "failed", "defeat"),
        (S1, 1, False, None, None),
    ]
    assert [p["session_id"] for p in standing["scenes"]] == [s1, *attempts, third]
    story = standing["stories"]["shake-them-skeleton-bones"]
    assert (story["scenes_played"], story["scenes_won"], story["reattempts"]) == (3, 1, 1)
    assert story["scenes"]["shake-them-skeleton-bones-2"] == {"played": 2, "won": 0, "reattempts": 1}
    assert [a["achievement"] for a in standing["achievements"]] == ["12-hone-bushi-before-turn-5"]
    ryo = standing["heroes"]["ryo"]
    assert ryo["abilities"] == LOADOUTS["ryo"] and ryo["treasures_drawn"] == 2  # Hibana and Tenpura; the undone draw is not counted
    assert ryo["scenes"] == 4 and ryo["latest"]["session_id"] == third
    assert standing["heroes"]["ami"]["treasures_drawn"] == 2
    # One row per campaign in the game's own table, read without the log; the page reads the same view.
    view = registered_views.of_game("yokai-quest", "standing")
    assert view.table == "view_yokai_quest_standing" and view.read(app.extensions["tracker_views"].store, cid) == standing
    assert client.post("/pages/sign-in", data={"token": owner}, headers=NO_AUTH).status_code == 303
    page = client.get(f"/pages/campaigns/{cid}", headers=NO_AUTH).get_data(as_text=True)
    assert "1 of 3 scene(s) played won, 1 reattempt(s)" in page and "kiri-susumu" in page


def test_descent_ledger_rows_keep_the_overlords_secrets_from_the_heroes_until_the_quest_ends(client, app):
    store = app.extensions["tracker_views"].store
    cid = descent_campaign(client, ["runewitch-astarra", "aurim"], components=TEST_OVERLORD_DECK)
    sid = descent_start(client, cid, "thing-in-the-pit", {"purchases": [{"card": "Dark Power", "remove": "Aim"}]})
    played = descent_act(client, sid, type="gain-threat", source="corrupted-wound", count=2)
    heroes, overlord = bearer(mint(client, cid, role="player", side="heroes")), bearer(mint(client, cid, role="player", side="overlord"))
    at = played["log_position"]
    shown = client.get(f"/campaigns/{cid}/treachery-ledger?min_position={at}", headers=heroes)
    assert shown.status_code == 200 and shown.json["quests"][0]["swaps"] == []
    assert "Dark Power" not in shown.get_data(as_text=True)
    seen = client.get(f"/campaigns/{cid}/treachery-ledger?min_position={at}", headers=overlord).json["quests"][0]
    assert [(s["added"], s["removed"]) for s in seen["swaps"]] == [("Dark Power", "Aim")]
    (row,) = store.query("SELECT secret_to, answer, public_answer FROM {view_descent_treachery_ledger} WHERE campaign_id = %s", (cid,))
    assert row["secret_to"] == "overlord" and "Dark Power" in row["answer"] and "Dark Power" not in row["public_answer"]
    # The conquest and threat show the same to both sides.
    threat = client.get(f"/campaigns/{cid}/conquest", headers=heroes).json["quests"][0]["threat"]
    assert threat and threat == client.get(f"/campaigns/{cid}/conquest", headers=overlord).json["quests"][0]["threat"]
    ended = client.post(f"/sessions/{sid}/end", json={"outcome": "victory", "ruling": "the test ends the quest here"})
    after = client.get(f"/campaigns/{cid}/treachery-ledger?min_position={ended.json['log_position']}", headers=heroes).json["quests"][0]
    assert [(s["added"], s["removed"]) for s in after["swaps"]] == [("Dark Power", "Aim")]  # revealed with the quest's end
    (row,) = store.query("SELECT secret_to FROM {view_descent_treachery_ledger} WHERE campaign_id = %s", (cid,))
    assert row["secret_to"] is None


def test_every_game_view_is_declared_in_its_games_package_and_registered():
    kinds = {(view.game, view.kind) for view in registered_views.registered() if isinstance(view, CampaignFold)}
    assert {("journey", "hero-progress"), ("journey", "karma-series"), ("descent", "treachery-ledger"), ("descent", "conquest"),
            ("descent", "hero-progress"), ("kung-fu-panda", "standing"), ("yokai-quest", "standing")} <= kinds
    for view in registered_views.registered():
        if isinstance(view, CampaignFold):
            assert type(view).__module__ == f"tracker.rulesets.{view.game.replace('-', '_')}.views"


# -- rebuild -----------------------------------------------------------------------------------------------------


def test_the_rebuild_digest_covers_the_games_views(client, app, database_url):
    runner = app.extensions["tracker_views"]
    cid = campaign(client, mode="linked", components=Q2_COMPONENTS)
    play_q1(client, cid)
    digest = runner.rebuild()
    store = runner.store
    with store.datastore.transaction(commit=True) as cursor:  # a hero's progress changed behind the runner's back
        cursor.execute(store._sql("UPDATE {view_journey_hero_progress} SET answer = %s WHERE campaign_id = %s"), ("{}", cid))
    assert store.digest() != digest and store.digest(cid) != digest
    assert runner.rebuild() == digest  # the log puts it back


def test_a_rebuild_killed_part_way_finishes_with_the_same_digest(client, app, database_url):
    runner = app.extensions["tracker_views"]
    cid = campaign(client, mode="linked", components=Q2_COMPONENTS)
    play_q1(client, cid)
    end = _written(client)
    digest = runner.rebuild()
    command = [sys.executable, "-m", "tracker.cli", "--database-url", database_url, "rebuild", "--batch-size", "2", "--pause", "0.2"]
    rebuilding = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env={**os.environ})
    try:
        deadline = time.monotonic() + DEADLINE_SECONDS
        while not 0 < runner.position < end - 4:  # cleared, and some batches in, many still to come
            assert rebuilding.poll() is None and time.monotonic() < deadline, "the rebuild ended before it could be killed"
            time.sleep(0.02)
    finally:
        rebuilding.send_signal(signal.SIGKILL)
        rebuilding.wait()
    stopped_at = runner.position
    assert 0 < stopped_at < end
    assert runner.store.digest() != digest  # the views hold part of the log
    fresh = ProjectionRunner(app.extensions["tracker"], open_view_store(persistence_env(database_url)))
    try:
        assert fresh.catch_up() == end - stopped_at  # what `tracker project` does: on from the tracked position
        assert fresh.store.digest() == digest
    finally:
        fresh.store.datastore.close()


# -- the runner waits for NOTIFY on PostgreSQL ------------------------------------------------------------------------


@pytest.mark.postgres
def test_on_postgresql_the_runner_wakes_on_notify_rather_than_its_poll_interval(postgres_url):
    from api import create_app

    app = create_app({"TESTING": True, "DATABASE_URL": postgres_url, "PROJECTIONS_IN_PROCESS": False})
    runner = app.extensions["tracker_views"]
    tracker = app.extensions["tracker"]
    stop = threading.Event()
    # Polled, this runner would look for new events once a minute; NOTIFY wakes it when a commit lands.
    thread = threading.Thread(target=runner.run_forever, args=(stop, 60.0), daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + DEADLINE_SECONDS
        while not runner.running:
            assert time.monotonic() < deadline
            time.sleep(0.01)
        time.sleep(0.3)  # caught up with the empty log, and waiting
        created = tracker.create_campaign("journey", "Woken", ["tripitaka"])
        assert runner.wait_for(created.log_position, DEADLINE_SECONDS) is not None
        assert runner.position >= created.log_position
    finally:
        stop.set()
        thread.join(DEADLINE_SECONDS)
        tracker.close()
        runner.store.datastore.close()
    assert not thread.is_alive()
