"""The pages' forms take posts only from this server's own pages, and behind a TLS proxy (only
when the operator says there is one) the sign-in cookie is Secure: on SQLite and on PostgreSQL."""

from __future__ import annotations

import pytest

from api import create_app
from tests.kit.clients import OwnerClient

NO_AUTH = {"Authorization": ""}
HERE = "http://localhost"  # the test client's own origin


def _owner_token(client) -> tuple[str, str]:
    made = client.post("/campaigns", json={"ruleset": "journey", "name": "Forms"}).json
    return made["id"], made["owner_token"]


@pytest.mark.parametrize(
    "headers",
    [{"Origin": "https://evil.example"}, {"Origin": "null"}, {"Origin": "null", "Sec-Fetch-Site": "cross-site"},
     {"Origin": "https://localhost"}, {"Sec-Fetch-Site": "cross-site"}],
    ids=["other-site", "opaque-origin", "opaque-origin-cross-site", "other-scheme", "fetch-metadata-only"],
)
def test_a_cross_site_sign_in_or_sign_out_is_refused_and_sets_no_cookie(client, headers):
    cid, token = _owner_token(client)
    signed_in = client.post("/pages/sign-in", data={"token": token}, headers={**NO_AUTH, "Origin": HERE})
    assert signed_in.status_code == 303
    forged = client.post("/pages/sign-in", data={"token": token}, headers={**NO_AUTH, **headers})
    assert forged.status_code == 403 and "Set-Cookie" not in forged.headers
    assert "not sent from this server" in forged.get_data(as_text=True)
    out = client.post("/pages/sign-out", headers={**NO_AUTH, **headers})
    assert out.status_code == 403 and "Set-Cookie" not in out.headers
    assert client.get(f"/pages/campaigns/{cid}", headers=NO_AUTH).status_code == 200  # still signed in


def test_posts_from_our_own_page_or_from_no_browser_are_taken(client):
    cid, token = _owner_token(client)
    # Chromium's own form under the pages' Referrer-Policy: no-referrer names no origin ("null") but says same-origin
    for headers in ({"Origin": HERE}, {"Sec-Fetch-Site": "same-origin"}, {"Origin": "null", "Sec-Fetch-Site": "same-origin"}, {}):
        signed = client.post("/pages/sign-in", data={"token": token}, headers={**NO_AUTH, **headers})
        assert signed.status_code == 303, headers
        assert client.post("/pages/sign-out", headers={**NO_AUTH, **headers}).status_code == 303


@pytest.fixture
def behind_proxy(database_url):
    flask_app = create_app({"TESTING": True, "DATABASE_URL": database_url, "PROJECTIONS_IN_PROCESS": False, "TRUSTED_PROXIES": 1})
    flask_app.test_client_class = OwnerClient
    yield flask_app
    flask_app.extensions["tracker"].close()
    flask_app.extensions["tracker_views"].store.datastore.close()


FORWARDED = {"X-Forwarded-Proto": "https", "X-Forwarded-Host": "tracker.example", "X-Forwarded-For": "203.0.113.9"}


def test_behind_a_trusted_proxy_the_cookie_is_secure_and_the_public_origin_counts(behind_proxy):
    client = behind_proxy.test_client()
    _, token = _owner_token(client)
    signed = client.post("/pages/sign-in", data={"token": token}, headers={**NO_AUTH, **FORWARDED, "Origin": "https://tracker.example"})
    assert signed.status_code == 303
    assert "; Secure" in signed.headers["Set-Cookie"]
    assert signed.headers["Location"].startswith("/pages/campaigns/")
    cross = client.post("/pages/sign-in", data={"token": token}, headers={**NO_AUTH, **FORWARDED, "Origin": "http://localhost"})
    assert cross.status_code == 403


def test_without_the_setting_forwarded_headers_are_ignored(client):
    _, token = _owner_token(client)
    signed = client.post("/pages/sign-in", data={"token": token}, headers={**NO_AUTH, **FORWARDED, "Origin": HERE})
    assert signed.status_code == 303 and "Secure" not in signed.headers["Set-Cookie"]
    # a client cannot claim the public address either: the origin it would need is the one it really reached
    spoofed = client.post("/pages/sign-in", data={"token": token}, headers={**NO_AUTH, **FORWARDED, "Origin": "https://tracker.example"})
    assert spoofed.status_code == 403
