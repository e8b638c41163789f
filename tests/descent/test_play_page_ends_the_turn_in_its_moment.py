"""On the Descent play page the step that ends the current turn is among the actions of the moment (issue 32): the
hero's end-hero-turn in his turn, and end-turn in the overlord's turn (turn.py: the overlord's turn, and with it the
turn, ends with end-turn; L273, L528, digest §10.2 item 6). end-turn is every game's deck action, and the page folded
all of those under "Other actions", so the overlord's turn could not be ended without hunting for it."""

from __future__ import annotations

from tests.kit.descent import TEST_OVERLORD_DECK

HERE = {"Authorization": "", "Origin": "http://localhost"}


def _sections(client, sid) -> tuple[str, str]:
    html = client.get(f"/pages/sessions/{sid}/play", headers={"Authorization": ""}).get_data(as_text=True)
    now = html[html.index('<section aria-labelledby="actions-h" id="actions">'):]
    return now[: now.index("</section>")], html


def test_the_turns_end_is_among_the_moments_actions(client):
    made = client.post("/campaigns", json={"ruleset": "descent", "name": "Dungeon", "party": ["aurim", "tahlia"], "components": TEST_OVERLORD_DECK}).json
    sid = client.post(f"/campaigns/{made['id']}/sessions", json={"quest": "mists-of-time", "setup": {}}).json["id"]
    assert client.post("/pages/sign-in", data={"token": made["owner_token"]}, headers=HERE).status_code == 303
    assert client.post(f"/sessions/{sid}/actions", json={"type": "start-hero-turn", "hero": "aurim"}).status_code == 201
    now, _ = _sections(client, sid)
    assert 'id="action-end-hero-turn"' in now
    for body in ({"type": "end-hero-turn", "hero": "aurim"}, {"type": "start-hero-turn", "hero": "tahlia"},
                 {"type": "end-hero-turn", "hero": "tahlia"}, {"type": "start-overlord-turn"}):
        answer = client.post(f"/sessions/{sid}/actions", json=body)
        assert answer.status_code == 201, answer.json
    now, html = _sections(client, sid)
    assert 'id="action-end-turn"' in now, now[:3000]
    assert html.count('id="action-end-turn"') == 1  # there, and so not folded under "Other actions"
