"""The standalone verifier, served so a player can fetch it from the server they want to check."""

from __future__ import annotations

from pathlib import Path

from flask import Response
from flask.views import MethodView

from api import access
from api.blueprint import Blueprint
from tracker.integrity import verify_export

blp = Blueprint("verifier", __name__, url_prefix="/verifier.py", description="The standalone export verifier")


@blp.route("")
class Verifier(MethodView):
    @access.anyone
    @blp.doc(operationId="getVerifier")
    @blp.doc(responses={"200": {"description": "tracker/integrity/verify_export.py: run `python verifier.py campaign.jsonl`", "content": {"text/x-python": {"schema": {"type": "string"}}}}})
    def get(self):
        """tracker/integrity/verify_export.py, standard library only: `python verifier.py campaign.jsonl`."""
        source = Path(verify_export.__file__).read_text(encoding="utf-8")
        return Response(source, mimetype="text/x-python", headers={"Content-Disposition": 'attachment; filename="verifier.py"'})
