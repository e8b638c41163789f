"""The end-scene refusals of Yōkai Quest say their lists in words (issue 31: "Refusals in pieces and in Python"): the
victory conditions to choose from, the facts the scene asks for, in the title, the detail and each field's errors,
never as Python writes a list ("Choose one of ['defeat-12-hone-bushi']")."""

from __future__ import annotations

from tests.kit import refusals
from tests.kit.yokai_quest_table import Table

WRONG = (
    {"type": "end-scene", "outcome": "victory", "victory_condition": "no-such-condition"},
    {"type": "end-scene", "outcome": "victory", "reported": {"no-such-fact": "seen"}},
    {"type": "end-scene", "outcome": "victory"},
    {"type": "end-scene", "outcome": "victory", "achievements": ["no-such-achievement"]},
)


def test_every_end_scene_refusal_of_the_first_scene_is_said_in_words(client):
    table = Table(client)
    sid = table.begin()
    problems = []
    for body in WRONG:
        answer = client.post(f"/sessions/{sid}/actions", json=body)
        assert answer.status_code in (409, 422), answer.json
        problems.append((body, answer.json))
    assert not refusals.sweep(problems, refusals.names(table.rules)), "\n".join(refusals.sweep(problems, refusals.names(table.rules)))
    chosen = problems[0][1]
    condition = table.scene["victory"][0]["id"]
    assert f'"{condition}"' in chosen["detail"] and f'"{condition}"' in chosen["errors"]["victory_condition"][0], chosen
