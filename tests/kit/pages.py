"""The campaign pages read through the Flask test client: a request with no token (the page's cookie speaks for it),
from the client's own origin, and a sign-in that sets that cookie."""

from __future__ import annotations

NO_AUTH = {"Authorization": ""}  # the OwnerClient sends no token for this request
HERE = {**NO_AUTH, "Origin": "http://localhost"}  # and it comes from the test client's own origin


def signed_in(client, token: str) -> None:
    """The page's cookie set for ``token``, by the sign-in form."""
    assert client.post("/pages/sign-in", data={"token": token}, headers=HERE).status_code == 303
