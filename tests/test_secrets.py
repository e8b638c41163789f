"""Secrets stay secret until the game reveals them, on SQLite and PostgreSQL (issue: the seed, face-down deck
orders, the overlord's hand).

``readable`` gathers everything one token can read of a campaign, through every channel (state, events,
the feed and its SSE stream, time travel, verification, timeline, standing, heroes, ledgers, export and the
pages), and ``assert_keeps_secrets`` checks that none of it holds the session's unrevealed seed, the order of
a face-down pile, or a card in the hand of a side the token does not play.
"""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.kit.journey import JOURNEY_TEST_COMPONENTS
from tests.kit.secrets import NDJSON, assert_keeps_secrets, bearer, compact, hand_of, readable, secrets_of, without_card_lists
from tests.kit.secrets import cli as _cli, mint as _mint, ok as _ok, verifier as _verifier
from tests.kit.descent import EVANS_PURCHASES, TEST_OVERLORD_DECK


# -- what a token can read ----------------------------------------------------------------------------------------


# -- Journey: the seed and the face-down piles, for every role ------------------------------------------------------


def _journey_in_play(client):
    cid = _ok(client.post("/campaigns", json={"ruleset": "journey", "name": "Secrets", "party": ["tripitaka", "monkey-king"],
                                               "components": JOURNEY_TEST_COMPONENTS})).json["id"]
    sid = _ok(client.post(f"/campaigns/{cid}/sessions", json={"quest": "q1-meeting"})).json["id"]
    _ok(client.post(f"/sessions/{sid}/rolls", json={"dice": {"attack": 2, "d6": 1}}))
    _ok(client.post(f"/sessions/{sid}/draws", json={"deck": "fortune", "count": 2}))  # shuffles first
    _ok(client.post(f"/sessions/{sid}/draws", json={"deck": "fortune", "count": 1}))
    _ok(client.post(f"/sessions/{sid}/undo"))  # an undo puts the drawn card back on the pile
    return cid, sid


def test_no_token_reads_the_seed_or_a_pile_order_while_the_session_is_in_play(app, client):
    cid, sid = _journey_in_play(client)
    tokens = {"owner": None, "player": _mint(client, cid, role="player"), "hero": _mint(client, cid, role="player", heroes=["tripitaka"]),
              "viewer": _mint(client, cid, role="viewer"), "integration": _mint(client, cid, role="integration")}
    tokens["owner"] = type(client).tokens[id(app)][cid]
    for token in tokens.values():
        assert_keeps_secrets(app, client, bearer(token), cid, sid, side=None)
    # and once the session ends, everything is revealed and verifies
    _ok(client.post(f"/sessions/{sid}/end", json={"outcome": "victory", "reported": {"house_cleared": True}}), 200)
    seed = app.extensions["tracker"]._session(sid).seed
    assert seed in client.get(f"/sessions/{sid}/verification", headers=bearer(tokens["viewer"])).get_data(as_text=True)
    shuffles = client.get(f"/sessions/{sid}/verification", headers=bearer(tokens["viewer"])).json["shuffles"]
    assert shuffles and all("order" in shuffle for shuffle in shuffles)


def test_the_export_holds_no_seed_and_no_order_of_a_session_in_play_even_for_the_owner(app, client):
    cid, sid = _journey_in_play(client)
    text = client.get(f"/campaigns/{cid}/export").get_data(as_text=True)
    session = app.extensions["tracker"]._session(sid)
    events = [json.loads(line)["event"] for line in text.splitlines()[1:-1]]
    assert session.seed not in text and not any("sealed" in event or "withheld" in event for event in events)
    shuffles = [e for e in events if e["topic"].endswith("DeckShuffled")]
    undos = [e for e in events if e["topic"].endswith("ActionUndone")]
    assert shuffles and all("order" not in e["state"]["change"] for e in shuffles)
    assert undos and all("decks" not in e["state"]["restored"] for e in undos)
    # the standalone verifier still checks the chain and the counters of what it holds
    verified = _verifier(text, client)
    assert verified.returncode == 0 and verified.stdout.splitlines()[1].startswith("PENDING"), verified.stdout


def test_an_undo_shows_no_restored_pile_in_events_feed_or_stream(app, client):
    cid, sid = _journey_in_play(client)
    viewer = bearer(_mint(client, cid, role="viewer"))
    for path in (f"/sessions/{sid}/events?limit=100", "/events?limit=1000", "/events/stream?limit=1000&wait=0"):
        text = client.get(path, headers=viewer).get_data(as_text=True)
        assert "ActionUndone" in text
        pile = app.extensions["tracker"]._session(sid).decks["fortune"]["draw"]
        assert compact(json.dumps(pile[:3])[1:-1]) not in compact(text)
    undo = [e for e in client.get(f"/sessions/{sid}/events?limit=100", headers=viewer).json["events"] if e["type"] == "ActionUndone"][0]
    assert "decks" not in undo["payload"]["restored"] and undo["meta"]["sealed"] == ["restored.decks"]


def test_command_answers_and_their_replays_hold_no_order(app, client):
    cid = _ok(client.post("/campaigns", json={"ruleset": "journey", "name": "Replays", "components": JOURNEY_TEST_COMPONENTS})).json["id"]
    sid = _ok(client.post(f"/campaigns/{cid}/sessions", json={"quest": "q1-meeting"})).json["id"]
    first = _ok(client.post(f"/sessions/{sid}/actions", json={"type": "shuffle", "deck": "fortune"}, headers={"Idempotency-Key": "s1"}))
    again = _ok(client.post(f"/sessions/{sid}/actions", json={"type": "shuffle", "deck": "fortune"}, headers={"Idempotency-Key": "s1"}))
    assert again.headers["Idempotent-Replayed"] == "true"
    pile = app.extensions["tracker"]._session(sid).decks["fortune"]["draw"]
    for answer in (first, again):
        assert compact(json.dumps(pile[:3])[1:-1]) not in compact(answer.get_data(as_text=True))
        shuffled = [e for e in answer.json["events"] if e["type"] == "DeckShuffled"][0]
        assert "order" not in shuffled["payload"]["change"]


def test_undoing_a_reshuffle_does_not_put_back_an_order_the_reshuffle_showed(app, client):
    """A reshuffle records the cards it took (``before``); were they in the order they lay, undoing it would put
    back a pile whose order everyone had read. Shuffles take the cards sorted, so ``before`` tells nothing."""
    cid = _ok(client.post("/campaigns", json={"ruleset": "journey", "name": "Reshuffle", "components": JOURNEY_TEST_COMPONENTS})).json["id"]
    sid = _ok(client.post(f"/campaigns/{cid}/sessions", json={"quest": "q1-meeting"})).json["id"]
    for _ in range(2):
        _ok(client.post(f"/sessions/{sid}/actions", json={"type": "shuffle", "deck": "fortune"}))
    _ok(client.post(f"/sessions/{sid}/undo"))
    viewer = bearer(_mint(client, cid, role="viewer"))
    assert_keeps_secrets(app, client, viewer, cid, sid, side=None)
    shuffles = [e for e in client.get(f"/sessions/{sid}/events?limit=100").json["events"] if e["type"] == "DeckShuffled"]
    assert all(e["payload"]["change"]["before"] == sorted(e["payload"]["change"]["before"]) for e in shuffles)


# -- Descent: the overlord's hand and choices, for the heroes ------------------------------------------------------


def _descent_in_play(client):
    cid = _ok(client.post("/campaigns", json={"ruleset": "descent", "name": "Dungeon", "party": ["aurim"], "components": TEST_OVERLORD_DECK,
                                               "options": {"dark_glyph_payment": "any"}})).json["id"]
    return cid


def test_the_heroes_own_command_answers_and_the_standing_hold_no_overlord_secret(app, client):
    cid = _descent_in_play(client)
    heroes = bearer(_mint(client, cid, role="player", side="heroes"))
    setup = {"starting_conquest": 8, "purchases": EVANS_PURCHASES, "dark_glyphs": [{"glyph": "sundered", "paid": {"trap": 1, "monster": 1}}]}
    started = _ok(client.post(f"/campaigns/{cid}/sessions", json={"quest": "the-trapped-ruins", "setup": setup}, headers=heroes))
    sid = started.json["id"]
    hand = hand_of(app.extensions["tracker"]._session(sid))
    assert compact(hand) not in compact(started.get_data(as_text=True))
    assert "Dance of the Monkey God" not in started.get_data(as_text=True)  # a swap the overlord bought
    rolled = _ok(client.post(f"/sessions/{sid}/rolls", json={"faces": {"red": ["X"]}}, headers=heroes))
    undone = _ok(client.post(f"/sessions/{sid}/undo", headers=heroes))
    for answer in (rolled, undone):
        assert compact(hand) not in compact(answer.get_data(as_text=True))
    standing = client.get(f"/campaigns/{cid}/standing", headers=heroes).get_data(as_text=True)
    assert "sundered" not in standing and "Dance of the Monkey God" not in standing
    for token in (heroes, bearer(_mint(client, cid, role="viewer")), bearer(_mint(client, cid, role="integration")),
                  bearer(_mint(client, cid, role="player", heroes=["aurim"]))):
        assert_keeps_secrets(app, client, token, cid, sid, side="heroes")
    owner = bearer(type(client).tokens[id(app)][cid])
    assert compact(hand) in compact(readable(app, client, owner, cid, sid))  # the check can see a hand where one is shown


def test_an_idempotency_key_reused_by_another_token_never_replays_the_first_answer(app, client):
    cid = _descent_in_play(client)
    heroes = bearer(_mint(client, cid, role="player", side="heroes"))
    overlord = bearer(_mint(client, cid, role="player", side="overlord"))
    sid = _ok(client.post(f"/campaigns/{cid}/sessions", json={"quest": "the-trapped-ruins", "setup": {"starting_conquest": 8}})).json["id"]
    drawn = _ok(client.post(f"/sessions/{sid}/draws", json={"deck": "overlord", "count": 1, "holder": "overlord"},
                            headers={**overlord, "Idempotency-Key": "k"}))
    card = drawn.json["cards"][0]
    other = client.post(f"/sessions/{sid}/rolls", json={"faces": {"red": ["X"]}}, headers={**heroes, "Idempotency-Key": "k"})
    assert other.status_code == 201 and "Idempotent-Replayed" not in other.headers
    assert card not in other.get_data(as_text=True) and "results" in other.json


def test_one_session_id_in_any_spelling_shares_its_idempotency_keys(app, client):
    cid = _ok(client.post("/campaigns", json={"ruleset": "journey", "name": "Spellings"})).json["id"]
    sid = _ok(client.post(f"/campaigns/{cid}/sessions", json={"quest": "q1-meeting"})).json["id"]
    first = _ok(client.post(f"/sessions/{sid}/rolls", json={"dice": {"d6": 2}}, headers={"Idempotency-Key": "once"}))
    for spelling in (sid.upper(), sid.replace("-", ""), f"urn:uuid:{sid}"):
        again = _ok(client.post(f"/sessions/{spelling}/rolls", json={"dice": {"d6": 2}}, headers={"Idempotency-Key": "once"}))
        assert again.headers.get("Idempotent-Replayed") == "true" and again.json["results"] == first.json["results"]
    assert client.get(f"/sessions/{sid}").json["rolls"] == 1


# -- undo and end obey the actor rules ---------------------------------------------------------------------------


def test_a_hero_bound_player_undoes_only_its_heroes_actions(app, client):
    cid = _ok(client.post("/campaigns", json={"ruleset": "journey", "name": "Undo", "party": ["tripitaka", "monkey-king"],
                                               "components": JOURNEY_TEST_COMPONENTS})).json["id"]
    sid = _ok(client.post(f"/campaigns/{cid}/sessions", json={"quest": "q1-meeting"})).json["id"]
    tripitaka = bearer(_mint(client, cid, role="player", heroes=["tripitaka"]))
    monkey = bearer(_mint(client, cid, role="player", heroes=["monkey-king"]))
    _ok(client.post(f"/sessions/{sid}/draws", json={"deck": "fortune", "count": 1, "holder": "monkey-king"}, headers=monkey))
    before = client.get(f"/sessions/{sid}").json["version"]
    refused = client.post(f"/sessions/{sid}/undo", headers=tripitaka)
    assert refused.status_code == 403 and refused.mimetype == "application/problem+json"
    assert "Monkey King" in refused.json["title"] and client.get(f"/sessions/{sid}").json["version"] == before
    _ok(client.post(f"/sessions/{sid}/undo", headers=monkey))
    # a roll names no hero: only the token that made it (or the owner) takes it back
    _ok(client.post(f"/sessions/{sid}/rolls", json={"dice": {"d6": 1}}, headers=monkey))
    assert client.post(f"/sessions/{sid}/undo", headers=tripitaka).status_code == 403
    _ok(client.post(f"/sessions/{sid}/undo"))  # the owner


def test_the_heroes_cannot_undo_the_overlords_draw_nor_end_a_two_sided_quest(app, client):
    cid = _descent_in_play(client)
    heroes = bearer(_mint(client, cid, role="player", side="heroes"))
    overlord = bearer(_mint(client, cid, role="player", side="overlord"))
    sid = _ok(client.post(f"/campaigns/{cid}/sessions", json={"quest": "the-trapped-ruins", "setup": {"starting_conquest": 8}})).json["id"]
    _ok(client.post(f"/sessions/{sid}/draws", json={"deck": "overlord", "count": 1, "holder": "overlord"}, headers=overlord))
    refused = client.post(f"/sessions/{sid}/undo", headers=heroes)
    assert refused.status_code == 403 and "overlord" in refused.json["title"]
    for token in (heroes, overlord):
        ended = client.post(f"/sessions/{sid}/end", json={"outcome": "victory", "reported": {"house_cleared": True}}, headers=token)
        assert ended.status_code == 403 and "owner" in ended.json["title"]
    assert client.get(f"/sessions/{sid}").json["status"] == "in-progress"
    _ok(client.post(f"/sessions/{sid}/undo", headers=overlord))
    _ok(client.post(f"/sessions/{sid}/end", json={"outcome": "defeat", "ruling": "the table stops here"}), 200)


# -- nothing a viewer reads predicts the next digital result ------------------------------------------------------

STEPS = st.lists(st.sampled_from(["roll", "draw", "reported-draw", "shuffle", "undo", "end-turn"]), min_size=1, max_size=6)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=STEPS)
def test_nothing_a_viewer_reads_before_the_end_predicts_the_next_digital_result(app, client, steps):
    cid = _ok(client.post("/campaigns", json={"ruleset": "journey", "name": "Property", "party": ["tripitaka"],
                                               "components": JOURNEY_TEST_COMPONENTS})).json["id"]
    sid = _ok(client.post(f"/campaigns/{cid}/sessions", json={"quest": "q1-meeting"})).json["id"]
    viewer = bearer(_mint(client, cid, role="viewer"))
    for step in steps:
        pile = app.extensions["tracker"]._session(sid).decks["fortune"]
        if step == "roll":
            client.post(f"/sessions/{sid}/rolls", json={"dice": {"attack": 1, "d20": 1}})
        elif step == "draw" and len(pile["draw"]) > 0:
            client.post(f"/sessions/{sid}/draws", json={"deck": "fortune", "count": 1})
        elif step == "reported-draw" and pile["draw"]:
            client.post(f"/sessions/{sid}/draws", json={"deck": "fortune", "cards": [sorted(pile["draw"])[0]]})
        elif step == "shuffle":
            client.post(f"/sessions/{sid}/actions", json={"type": "shuffle", "deck": "fortune"})
        elif step == "undo":
            client.post(f"/sessions/{sid}/undo")
        else:
            client.post(f"/sessions/{sid}/actions", json={"type": "end-turn"})
    text = compact(readable(app, client, viewer, cid, sid))
    session = app.extensions["tracker"]._session(sid)
    # the seed predicts every roll; the pile's order (once shuffled) every draw
    assert session.seed not in text
    pile = session.decks["fortune"]["draw"]
    if not session.decks["fortune"]["needs_shuffle"] and len(pile) > 2:
        # The top of the pile in its shuffled order. Three cards alone can fall in the order some
        # public list gives them (the ruleset's card list, a sorted shuffle input), which would
        # prove nothing; six cards in a row in a public order is a leak, not a coincidence.
        top = compact(json.dumps(pile[:6])[1:-1])
        public_orders = compact(json.dumps([sorted(pile), client.get("/rulesets/journey").get_json()]))
        if top not in public_orders:
            assert top not in text, (steps, text[max(0, text.find(top) - 400):][:500])
    # the next three face-down cards, looked for outside the campaign's public card lists: three in a row can lie in
    # the list's order by chance (Fortune10, Fortune11, Fortune12 after a shuffle), and the list says nothing of the pile
    listless = without_card_lists(app, cid, text)
    for secret in secrets_of(app, sid, None):
        assert compact(secret) not in listless, (steps, listless[max(0, listless.find(compact(secret)) - 400):][:500])


# -- backups: moving a campaign between servers with its secrets -------------------------------------------------


def test_a_backup_moves_a_session_in_play_with_its_stream_and_its_tokens(app, client, database_url, tmp_path):
    cid, sid = _journey_in_play(client)
    player = _mint(client, cid, role="player", heroes=["monkey-king"])
    backup = tmp_path / "backup.jsonl"
    exported = _cli("--database-url", database_url, "export", cid, "--backup", "-o", str(backup))
    assert exported.returncode == 0, exported.stderr
    lines = [json.loads(line) for line in backup.read_text().splitlines()]
    assert lines[0]["header"]["backup"] is True and {g["role"] for g in lines[0]["header"]["grants"]} == {"owner", "player"}
    assert all("token" not in g for g in lines[0]["header"]["grants"])  # hashes only
    assert any("sealed" in line.get("event", {}) for line in lines)
    assert _verifier(backup.read_text(), client).returncode == 0  # the public part verifies as any export does

    target = f"sqlite:///{tmp_path}/target.sqlite3"
    imported = _cli("--database-url", target, "import", str(backup))
    assert imported.returncode == 0, imported.stderr
    from api import create_app

    there = create_app({"TESTING": True, "DATABASE_URL": target, "PROJECTIONS_IN_PROCESS": False})
    try:
        moved = there.test_client()
        # the same stream: the next digital roll on the new server is the one the old server would have rolled
        roll = {"dice": {"attack": 2, "d20": 1}}
        here = _ok(moved.post(f"/sessions/{sid}/rolls", json=roll, headers=bearer(player)))
        home = _ok(client.post(f"/sessions/{sid}/rolls", json=roll))
        assert here.json["results"] == home.json["results"] and here.json["counter_start"] == home.json["counter_start"]
        draw = {"deck": "fortune", "count": 2, "holder": "monkey-king"}
        assert _ok(moved.post(f"/sessions/{sid}/draws", json=draw, headers=bearer(player))).json["cards"] == \
            _ok(client.post(f"/sessions/{sid}/draws", json=draw)).json["cards"]
    finally:
        there.extensions["tracker"].close()
        there.extensions["tracker_views"].store.datastore.close()


def test_a_backup_whose_seed_does_not_match_its_commitment_is_refused(app, client, tmp_path):
    cid, sid = _journey_in_play(client)
    lines = app.extensions["tracker"].export_campaign(cid, backup=True)
    forged = []
    for line in lines:
        item = json.loads(line)
        sealed = item.get("event", {}).get("sealed", {})
        if "seed" in sealed:
            sealed["seed"] = "00" * 32  # a seed the forger knows, so the importing server would roll predictably
        forged.append(json.dumps(item) + "\n")
    refused = client.post("/campaigns/import", data="".join(forged), headers={**NDJSON, "Authorization": ""})
    # the verifier's check of every seed copy refuses it first; the reason is in the detail
    assert refused.status_code == 422 and "commitment" in refused.json["detail"]


def test_the_http_export_never_carries_a_backup(app, client):
    cid, _ = _journey_in_play(client)
    for query in ("?backup=1", "?backup=true"):  # no parameter asks the HTTP export for a backup: it is refused
        refused = client.get(f"/campaigns/{cid}/export{query}")
        assert refused.status_code == 422 and refused.mimetype == "application/problem+json", refused.json
    for query in ("",):
        text = client.get(f"/campaigns/{cid}/export{query}").get_data(as_text=True)
        lines = [json.loads(line) for line in text.splitlines()]
        assert "backup" not in lines[0]["header"] and "grants" not in lines[0]["header"]
        assert not any("sealed" in line.get("event", {}) for line in lines)
