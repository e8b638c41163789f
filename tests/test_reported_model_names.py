"""Each quest's reported schema is titled by its game and its name, which a generated client names its model by
(api/ruleset_schemas.py): one title per quest, and two quests of one title are refused at start-up."""

from __future__ import annotations

import pytest

from api import ruleset_schemas


def test_every_quest_s_reported_schema_has_a_title_of_its_own():
    titles = [schema["title"] for name, component in ruleset_schemas.per_ruleset_schemas().items() if name.endswith("Reported")
              for schema in component["anyOf"]]
    assert len(titles) == len(set(titles)) and "KungFuPandaAcrossTheRooftopsReported" in titles
    assert "YokaiQuestASnowCoveredVillageReported" in titles and "JourneyIronFansInterruptionReported" in titles


def test_two_quests_with_one_title_are_refused():
    twice = {"JourneyReported": {"anyOf": [{"title": "JourneyMeetingReported"}, {"title": "JourneyMeetingReported"}]}}
    with pytest.raises(ValueError, match="share a title: JourneyMeetingReported"):
        ruleset_schemas._titles_once(twice)
