"""The test client most API tests use (the ``client`` fixture of tests/conftest.py): it checks every answer against the
served document (tests/kit/contract.py) and acts as the owner of the campaigns it created."""

from __future__ import annotations

from tests.kit.contract import ContractClient


class OwnerClient(ContractClient):
    """A test client that acts as the owner of the campaigns it created.

    Most tests are about the rules, not about tokens: the owner token of the
    campaign (or of the session's campaign) a request is about is sent for them,
    else that of the campaign created last. A request that sets its own
    Authorization header (or an empty one, to send none) is left alone.
    """

    tokens: dict[int, dict[str, str]] = {}  # per application: campaign or session id -> owner token
    last: dict[int, str] = {}  # per application: the owner token of the campaign created last

    def open(self, *args, **kwargs):
        headers = dict(kwargs.pop("headers", None) or {})
        path = str(args[0]) if args else str(kwargs.get("path", ""))
        tokens = OwnerClient.tokens.setdefault(id(self.application), {})
        if "Authorization" not in headers:
            token = next((t for key, t in tokens.items() if key in path), OwnerClient.last.get(id(self.application)))
            if token:
                headers["Authorization"] = f"Bearer {token}"
        elif headers.get("Authorization") == "":
            del headers["Authorization"]
        response = super().open(*args, headers=headers, **kwargs)
        body = response.json if response.is_json else None
        if response.status_code == 201 and isinstance(body, dict):
            if body.get("owner_token"):
                OwnerClient.last[id(self.application)] = body["owner_token"]
                tokens[body.get("id") or body.get("campaign_id")] = body["owner_token"]
            elif body.get("id") and body.get("campaign_id") in tokens:
                tokens[body["id"]] = tokens[body["campaign_id"]]
        return response
