"""Journey's Red Line squares through the REST API on SQLite and PostgreSQL (line numbers: the seed's): they damage
the Pilgrims entering or standing on them (L571), and a Pilgrim needs the health to enter them (L566)."""

from __future__ import annotations

from tests.kit.journey import act, monkey_king_active, refused


def test_red_line_squares_damage_pilgrims_and_need_the_health_to_enter(client):
    sid = monkey_king_active(client)
    act(client, sid, type="report-health", hero="monkey-king", hp=2)
    hurt = act(client, sid, type="red-line-damage", hero="monkey-king", squares=1)
    change = next(e["payload"]["change"] for e in hurt["events"] if e["type"] == "DamageTaken")
    assert (change["amount"], change["hp_after"], change["cause"]) == (1, 1, "red-line (entered)")  # L571
    problem = refused(client, sid, type="red-line-damage", hero="monkey-king", squares=2)
    assert "cannot enter 2 Red Line" in problem["title"] and "L566" in problem["detail"]
    down = act(client, sid, type="red-line-damage", hero="monkey-king", squares=1, how="stationary")
    assert down["state"]["game"]["heroes"]["monkey-king"]["status"] == "face-down"  # 0 HP: Unconscious (L557)
