"""The service's public signing keys, as a JSON Web Key Set: what a verifier checks export and receipt signatures with."""

from __future__ import annotations

from flask.views import MethodView

from api import access, schemas
from api.blueprint import Blueprint
from api.context import tracker

blp = Blueprint("keys", __name__, url_prefix="/.well-known", description="The keys the service signs exports and receipts with")


@blp.route("/jwks.json")
class KeySet(MethodView):
    @access.anyone
    @blp.doc(operationId="getSigningKeys")
    @blp.response(200, schemas.Jwks)
    def get(self):
        """Every Ed25519 key this service has signed with (OKP keys, RFC 8037), oldest first: the newest signs,
        the older ones stay so what they signed still verifies. Save a copy to verify offline (verifier.py --jwks)."""
        return tracker().jwks()
