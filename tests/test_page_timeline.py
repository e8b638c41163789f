"""The timeline as the pages group it: by turn or round, one line per command, undone lines and corrections marked."""

from __future__ import annotations

from api.pages.reads import timeline_groups


def _entry(position, kind, summary, undone_by=None):
    return {"position": position, "event_type": kind, "summary": summary, "undone_by": undone_by, "who": "owner", "when": "", "occurred_at": ""}


def test_turns_group_the_lines_and_a_command_is_one_line():
    entries = [
        _entry(1, "SessionStarted", "Quest Meeting began"),
        _entry(2, "ActionTaken", "Pilgrim attack: hero monkey-king"),
        _entry(3, "DemonKilled", "monkey-king killed berrok-1 (+6 Bad Karma)"),
        _entry(4, "KarmaGained", "monkey-king gained 6 bad Karma"),
        _entry(5, "ActionTaken", "End turn"),
        _entry(6, "TurnEnded", "Turn 1 ended"),
        _entry(7, "DiceRolled", "Rolled 4 on 1d6", undone_by=8),
        _entry(8, "ActionUndone", "Undid roll (events 7 to 7)"),
    ]
    commands = {1: 1, 2: 2, 3: 2, 4: 2, 5: 5, 6: 5, 7: 7, 8: 8}
    groups = timeline_groups(entries, {"monkey-king": "Monkey King"}, commands)
    assert [g["label"] for g in groups] == ["Turn 1", "Turn 2"]
    attack = groups[0]["lines"][1]
    assert attack["label"] == "Pilgrim attack: hero Monkey King" and attack["said"] == "Monkey King killed berrok-1 (+6 Bad Karma); Monkey King gained 6 bad Karma"
    assert [p["position"] for p in attack["parts"]] == [3, 4]
    assert len(groups[0]["lines"]) == 3  # the start, the attack, the end of the turn: one line each
    assert groups[1]["lines"][0]["undone_by"] == 8


def test_rounds_open_with_the_action_that_started_them_and_corrections_are_marked():
    entries = [
        _entry(1, "SessionStarted", "Quest began"),
        _entry(2, "ActionTaken", "Start round: entry detail"),
        _entry(3, "RoundStarted", "Round 1: 1, 2, KUNG FU!"),
        _entry(4, "ActionTaken", "Correct: refers to 3; reason miscounted"),
        _entry(5, "EntryCorrected", "Correction of event 3: miscounted"),
        _entry(6, "OutcomeRuled", "Table ruling: victory, because we agreed"),
    ]
    groups = timeline_groups(entries, {}, {1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 6})
    assert [g["label"] for g in groups] == ["Setting up", "Round 1"]
    assert groups[1]["lines"][0]["label"] == "Start round: entry detail"
    correction, ruling = groups[1]["lines"][1], groups[1]["lines"][2]
    assert correction["correction"] and not correction["ruling"]
    assert ruling["ruling"] and not ruling["correction"]
