"""Journey's Karma trades through the REST API on SQLite and PostgreSQL (line numbers: the seed's): a wheel at 20 or
more trades each time the level is met (L550, L553)."""

from __future__ import annotations

from tests.kit.journey import act, monkey_king_active


def test_a_wheel_at_20_trades_twice_as_the_data_says(client):
    """L550: mandatory trades are made when the level is met or exceeded; L553: 'each time'."""
    document = client.get("/rulesets/journey").json
    assert document["rules"]["karma"]["repeated_trades_at_20_or_more"] is True
    assert "karma.repeated_trades_at_20_or_more" not in document["rules"]["unknowns"]
    sid = monkey_king_active(client)
    hand = client.get(f"/sessions/{sid}").json["game"]["heroes"]["monkey-king"]["skills"]
    gained = act(client, sid, type="play-card", hero="monkey-king", deck="skill-monkey-king", card=hand[0]["name"], keep=True, effects={"good_karma": 20})
    trades = [e["payload"]["change"] for e in gained["events"] if e["type"] == "KarmaTraded"]
    assert [(t["trade"], t["before"], t["after"]) for t in trades] == [("permanent-skill", 20, 10), ("permanent-skill", 10, 0)]
