"""Who is looking at a page: the tokens a visitor pasted once, kept in an HttpOnly, SameSite=Strict cookie.

Pages answer to the same grants as the API (api/access.py): a campaign page needs a token of
that campaign, and reads take the side the token plays. A token travels only in the sign-in
form's POST body and in the cookie, never in a URL or a page, so it stays out of server logs,
browser history and page source. One cookie holds a few tokens, one per campaign the visitor follows.
"""

from __future__ import annotations

from typing import Any

from flask import Response, g, request

from api.context import authenticate, tracker
from tracker.domain import Grant
from tracker.core.errors import NotFound, TrackerError

COOKIE = "tracker_tokens"
MAX_TOKENS = 20  # a few campaigns; cookies hold 4 kB and a token is 43 characters
MAX_AGE = 90 * 24 * 3600  # pasted once, kept for a season of play


class RefusedHere(TrackerError):
    status = 403


def cross_site_refusal() -> str | None:
    """Why a form post did not come from this server's own pages, or None.

    SameSite=Strict keeps the cookie off another site's posts, but not another site's post that
    signs a visitor in with the attacker's token, or out of everything. A browser names the page a
    form came from in Origin (older ones in Sec-Fetch-Site only); a client that sends neither is
    no browser, and no browser can be made to post for it."""
    origin = request.headers.get("Origin")
    site = request.headers.get("Sec-Fetch-Site")
    if origin is None:
        return None if site in (None, "same-origin", "none") else f"a page of another site ({site})"
    if origin == "null":
        # The pages send Referrer-Policy: no-referrer, under which Chromium names no origin even for its own
        # form ("null"); Sec-Fetch-Site, which no page can set, still says where the post came from.
        return None if site in ("same-origin", "none") else f"a page of another site ({site or 'not said'})"
    here = f"{request.scheme}://{request.host}"
    return None if origin == here else f"{origin}, not {here}"


def cookie_tokens() -> list[str]:
    raw = request.cookies.get(COOKIE, "")
    return [t for t in raw.split(".") if t][:MAX_TOKENS]


def signed_in() -> list[tuple[str, Grant]]:
    """The live grants of the visitor's tokens (revoked or unknown ones are left out)."""
    found = []
    for token in cookie_tokens():
        grant = authenticate(token)
        if grant is not None:
            found.append((token, grant))
    return found


def sign_in(token: str) -> Grant | None:
    return authenticate(token.strip()) if token and token.strip() else None


def remember(response: Response, tokens: list[str]) -> Response:
    """Keep the tokens in the cookie (the newest first; at most MAX_TOKENS)."""
    kept = list(dict.fromkeys(tokens))[:MAX_TOKENS]
    if not kept:
        response.delete_cookie(COOKIE, path="/", httponly=True, samesite="Strict", secure=request.is_secure)
        return response
    response.set_cookie(
        COOKIE, ".".join(kept), max_age=MAX_AGE, path="/", httponly=True, samesite="Strict", secure=request.is_secure
    )
    return response


def grant_for_campaign(campaign_id: str) -> Grant:
    """The visitor's grant for this campaign, set up as api/access.py does for the API's reads
    (g.grant and g.viewer_side), so api.context.viewer_for/viewer_side apply to pages too."""
    grant = next((grant for _, grant in signed_in() if grant.campaign_id == campaign_id), None)
    if grant is None:
        # As in the API: a campaign out of reach looks exactly like a missing one.
        raise NotFound(f"No campaign with id '{campaign_id}' for your tokens", detail="Sign in with a token of this campaign.")
    if grant.role == "integration":
        raise RefusedHere("Integration tokens may only read the event log", detail="Sign in with an owner, player or viewer token.")
    g.grant = grant
    g.viewer_side = None if grant.role == "owner" else (grant.side or "heroes")
    return grant


def grant_for_session(session_id: str) -> tuple[str, Grant]:
    campaign_id = tracker().campaign_of_session(session_id)  # NotFound -> 404
    try:
        return campaign_id, grant_for_campaign(campaign_id)
    except NotFound:
        raise NotFound(f"No session with id '{session_id}' for your tokens", detail="Sign in with a token of its campaign.") from None


def describe_grant(grant: Grant) -> dict[str, Any]:
    side = None if grant.role == "owner" else (grant.side or "heroes")
    return {"role": grant.role, "side": side, "heroes": list(grant.heroes), "label": grant.label}


def token_of(grant: Grant) -> str | None:
    """The visitor's own token behind a grant (from the cookie): the key of the forms' CSRF tokens."""
    return next((token for token, signed in signed_in() if signed.token_id == grant.token_id), None)
