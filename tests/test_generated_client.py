"""A client generated from the served /openapi.json by openapi-python-client plays the README walk-through.

If the document leaves out a header, a status, a required field or a content type, the generator
warns or the generated client cannot make the call or read the answer, and this test fails.
The client talks to the Flask application on the database under test through httpx's WSGI transport.
"""

from __future__ import annotations

import io
import json

import attrs
import httpx
import pytest

from tests.kit.generated_client import generated  # noqa: F401 - the module's generated client

# The README's walk-through: Monkey King's weapon stack typed in as component data.
README_COMPONENTS = {"decks": {"weapon-monkey-king": {"cards": ["Level 1", "Level 2", "Level 3"]}}}


def _transport(app) -> dict:
    return {"transport": httpx.WSGITransport(app=app)}


def test_the_readme_walkthrough_through_the_generated_client(app, generated, tmp_path):
    client_module, models = generated("client"), generated("models")
    public = client_module.Client(base_url="http://tracker", httpx_args=_transport(app), raise_on_unexpected_status=True)

    # 1. A campaign: the answer carries the owner token, typed.
    created = generated("api.campaigns.create_campaign").sync_detailed(
        client=public,
        body=models.CampaignCreate(
            ruleset=models.CampaignCreateRuleset.JOURNEY,
            name="Tuesday group",
            party=["tripitaka", "monkey-king"],
            components=models.JourneyComponents.from_dict(README_COMPONENTS),
        ),
    )
    assert created.status_code == 201, created.content
    campaign = created.parsed
    assert isinstance(campaign, models.CampaignCreated) and campaign.owner_token
    owner = client_module.AuthenticatedClient(
        base_url="http://tracker", token=campaign.owner_token, httpx_args=_transport(app), raise_on_unexpected_status=True
    )
    sessions = "api.sessions."

    # 2. A session of Quest 1, with its seed commitment.
    started = generated("api.campaigns.start_session").sync_detailed(campaign.id, client=owner, body=models.SessionCreate(quest=models.SessionCreateQuest("q1-meeting")))
    assert started.status_code == 201, started.content
    session = started.parsed
    assert len(session.seed_commitment) == 64

    # 3. A digital roll with an Idempotency-Key, then the same request again: the first answer, nothing rolled twice.
    roll_dice = generated(sessions + "roll_dice")
    initiative = models.DigitalRoll(dice=models.DigitalRollDice.from_dict({"d6": 2, "d20": 1}), purpose="initiative")
    first = roll_dice.sync_detailed(session.id, client=owner, body=initiative, idempotency_key="roll-initiative")
    again = roll_dice.sync_detailed(session.id, client=owner, body=initiative, idempotency_key="roll-initiative")
    assert first.status_code == again.status_code == 201
    assert again.headers.get("Idempotent-Replayed") == "true"
    assert again.parsed.to_dict() == first.parsed.to_dict()
    state = generated(sessions + "get_session").sync(session.id, client=owner)
    assert state.rolls == 1 and state.version == first.parsed.version

    # 4. Faces rolled on the table.
    reported = roll_dice.sync(session.id, client=owner, body=models.ReportedRoll(faces=models.ReportedRollFaces.from_dict({"attack": ["2", "X"]})))
    assert reported.source == "reported" and reported.results.to_dict() == {"attack": ["2", "X"]}

    # If-Match with a version the session has moved past: 412, with a title that says what happened.
    stale = roll_dice.sync_detailed(session.id, client=owner, body=initiative, if_match=str(first.parsed.version))
    assert stale.status_code == 412
    assert isinstance(stale.parsed, models.Problem) and "version" in stale.parsed.title
    current = roll_dice.sync_detailed(session.id, client=owner, body=initiative, if_match=str(reported.version))
    assert current.status_code == 201

    # 5. A digital draw from the supplied weapon stack, and a card drawn from the physical Fortune deck.
    draw_cards = generated(sessions + "draw_cards")
    weapon = draw_cards.sync(session.id, client=owner, body=models.Draw(deck="weapon-monkey-king", count=1, holder="monkey-king"))
    assert weapon.cards == ["Level 1"] and weapon.source == "digital"
    fortune = draw_cards.sync(session.id, client=owner, body=models.Draw(deck="fortune", cards=["Wild Herbs"], holder="monkey-king"))
    assert fortune.cards == ["Wild Herbs"] and fortune.source == "reported"

    # A ruleset action, typed by its type; its answer's events are typed by theirs.
    acted = generated(sessions + "take_action").sync(
        session.id, client=owner, body=models.LookAction(type_=models.LookActionType.LOOK, deck="weapon-monkey-king", count=1)
    )
    assert isinstance(acted, models.ActionResult), acted
    assert [type(event).__name__ for event in acted.events] == ["ActionTakenEvent", "TopCardsLookedEvent"]
    assert acted.events[1].payload.change.cards == ["Level 2"]
    assert acted.events[0].payload.action.to_dict()["type"] == "look"
    # The game state is the ruleset's own typed model, chosen by the ruleset it names, not a free-form dict; so is each
    # event's meta (EventMeta), whoever answers events.
    game = acted.state.game
    assert isinstance(game, models.JourneyGameState) and game.ruleset == models.JourneyGameStateRuleset.JOURNEY
    monkey_king = game.heroes["monkey-king"]
    assert isinstance(monkey_king, models.JourneyGameStateHeroesAdditionalProperty)
    assert isinstance(monkey_king.good, int) and monkey_king.status == models.JourneyGameStateHeroesAdditionalPropertyStatus.CONSCIOUS
    assert isinstance(game.record, models.JourneyGameStateRecord) and game.phase == "maintenance"
    unions = [str(field.type) for field in attrs.fields(models.SessionState) if field.name == "game"]
    assert unions and all(f"{ruleset}GameState" in unions[0] for ruleset in ("Descent", "Journey", "KungFuPanda", "YokaiQuest")), unions
    latest = [str(field.type) for field in attrs.fields(models.LatestSession) if field.name == "game"]  # the standing's
    assert latest and all(f"{ruleset}GameState" in latest[0] for ruleset in ("Descent", "Journey", "KungFuPanda", "YokaiQuest")), latest
    meta = acted.events[0].meta
    assert isinstance(meta, models.EventMeta) and meta.issued_by == campaign.owner_token_id and isinstance(meta.correlation_id, str)
    logged = generated(sessions + "list_session_events").sync(session.id, client=owner).events
    assert all(isinstance(event.meta, models.EventMeta) and isinstance(event.meta.command, int) for event in logged)
    assert isinstance(generated(sessions + "get_session").sync(session.id, client=owner).game, models.JourneyGameState)

    # 6. The end reveals the seed. Quest 1 is won when the table says the Villagers' house is cleared: a fact of the
    #    quest's own reported schema (one model per quest, named by the game and the quest's name).
    won = models.End(outcome=models.EndOutcome("victory"), reported=models.JourneyMeetingReported(house_cleared=True))
    ended = generated(sessions + "end_session").sync(session.id, client=owner, body=won)
    assert len(ended.seed) == 64 and ended.next_quest == "q2-rescue"

    # 7. The event log, oldest first, typed.
    page = generated(sessions + "list_session_events").sync(session.id, client=owner, after=0, limit=50)
    types_seen = [event.type_ for event in page.events]  # "type" is type_ in Python
    assert types_seen[0] == "SessionStarted" and types_seen[-1] == "SessionEnded" and "DiceRolled" in types_seen

    # 8. Verification: the seed against its commitment, every roll and draw re-derived.
    report = generated(sessions + "verify_session").sync(session.id, client=owner)
    assert report.status == "verified" and report.first_mismatch is None and report.checked.to_dict()

    # The export, as text, and the import: refused where the campaign already is, loaded on another server.
    exported = generated("api.campaigns.export_campaign").sync_detailed(campaign.id, client=owner)
    assert exported.status_code == 200 and exported.headers["Content-Type"].startswith("application/x-ndjson")
    export_file = exported.parsed  # a File: the generator reads JSON Lines as the bytes they are
    lines = export_file.payload.read().decode().splitlines()
    assert json.loads(lines[0])["header"]["campaign_id"] == campaign.id and "trailer" in json.loads(lines[-1])
    import_campaign = generated("api.campaigns.import_campaign")
    upload = generated("types").File(payload=io.BytesIO("\n".join(lines).encode() + b"\n"), file_name="campaign.jsonl")
    here = import_campaign.sync_detailed(client=public, body=upload)
    assert here.status_code == 409 and isinstance(here.parsed, models.Problem) and here.parsed.title

    from api import create_app

    elsewhere = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path}/elsewhere.sqlite3"})
    try:
        other = client_module.Client(base_url="http://elsewhere", httpx_args=_transport(elsewhere), raise_on_unexpected_status=True)
        upload.payload.seek(0)
        loaded = import_campaign.sync_detailed(client=other, body=upload)
        assert loaded.status_code == 201, loaded.content
        assert loaded.parsed.campaign_id == campaign.id and loaded.parsed.sessions.to_dict() == {session.id: "verified"}
        assert loaded.parsed.owner_token and loaded.parsed.owner_token != campaign.owner_token
    finally:
        elsewhere.extensions["tracker"].close()
