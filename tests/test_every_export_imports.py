"""Every genuine export imports, on SQLite and on PostgreSQL (issue 30): sessions of every game played at random
(digital and reported rolls, digital and reported draws, discards, reshuffles with the discards, undos, a deck
listed in play, the Descent overlord's secret roll, a game's own random action), left in play, ended or abandoned,
exported publicly or as a backup, verify with the standalone verifier and import into a fresh database.

Seeded and bounded (derandomized, a few examples per backend), so the suite runs it every time."""

from __future__ import annotations

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tests.kit import forgery_kit as forging
from tests.kit.forgery_kit import GAMES
from tracker.integrity.verify_export import verify_lines


@settings(max_examples=10, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(
    game=st.sampled_from(sorted(GAMES)),
    steps=st.lists(st.tuples(st.integers(0, 8), st.integers(0, 5)), min_size=1, max_size=10),
    ending=st.sampled_from(["in play", "ended", "abandoned"]),
    backup=st.booleans(),
)
@example(game="journey", steps=[(2, 1), (4, 1), (5, 0)], ending="in play", backup=False)  # issue 30's refused file
@example(game="descent", steps=[(2, 0), (3, 2), (4, 0), (5, 0), (3, 0), (8, 0), (7, 0)], ending="in play", backup=True)
@example(game="kung-fu-panda", steps=[(2, 0), (3, 0), (4, 0), (3, 0)], ending="ended", backup=False)
@example(game="yokai-quest", steps=[(2, 0), (0, 1), (3, 0)], ending="abandoned", backup=True)
def test_every_genuine_export_verifies_and_imports_into_a_fresh_database(app, client, request, game, steps, ending, backup):
    cid, sid = forging.play(client, game, steps, ending)
    text = forging.backup(app, cid) if backup else forging.export(client, cid)
    report = verify_lines(text.splitlines())
    assert report["status"] == ("pending" if ending == "in play" else "verified"), report
    with forging.fresh_app(request) as target:
        response = forging.imported(target, text)
        assert response.status_code == 201, (game, steps, ending, backup, response.json)
        assert response.json["sessions"] == {sid: report["sessions"][sid]["status"]}
