"""The suite's multi-campaign API tests again, on a service whose campaigns spread over two PostgreSQL servers.

The `app` fixture here is sharded: the home database on the suite's server and the shard "b" on a
second, throwaway one (tests/kit/second_cluster.py). New campaigns go to the least loaded shard (ties by
name), so the first campaign of a test lands on "b" and the next on "home": a test that makes two
campaigns plays across both servers, with tokens, sessions and the feed resolved through placement.
"""

from __future__ import annotations

import pytest

from api import create_app
from tests.kit.shards import two_shards
from tests.test_access import (  # noqa: F401 - collected here again, on the sharded app
    secret_ruleset,
    test_a_campaign_outside_the_tokens_reach_is_404_as_if_missing,
    test_every_event_records_the_token_that_issued_it,
    test_roles_are_enforced_with_403,
    test_secrets_are_shown_only_to_their_side_until_the_quest_ends,
    test_the_feed_state_at_and_export_keep_secrets_too,
    test_the_owner_mints_lists_and_revokes_tokens,
    test_without_a_valid_token_reads_and_writes_are_401,
)

pytestmark = pytest.mark.postgres


@pytest.fixture
def app(postgres_base_url: str, second_postgres_url: str):
    with two_shards(postgres_base_url, second_postgres_url) as (home, _):
        flask_app = create_app({"TESTING": True, "DATABASE_URL": home, "PROJECTIONS_IN_PROCESS": False})
        yield flask_app
        placed = {p.shard for p in flask_app.extensions["tracker_router"].placement.placed()}
        flask_app.extensions["tracker_router"].close()
        assert "b" in placed  # the test's campaigns were on the second server
