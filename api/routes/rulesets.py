from __future__ import annotations

from flask.views import MethodView

from api import access, schemas
from api.blueprint import Blueprint
from tracker import rulesets

blp = Blueprint("rulesets", __name__, url_prefix="/rulesets", description="The games' rules as data")


@blp.route("")
class Rulesets(MethodView):
    @access.anyone
    @blp.doc(operationId="listRulesets")
    @blp.response(200, schemas.RulesetListing(many=True))
    def get(self):
        """Every ruleset this server knows, with its version and content hash."""
        return [{**ruleset.pin, "name": ruleset.name} for ruleset in rulesets.registry().values()]


@blp.route("/<ruleset_id>")
class RulesetDocument(MethodView):
    @access.anyone
    @blp.doc(operationId="getRuleset")
    @blp.response(200, schemas.RulesetDocument)
    def get(self, ruleset_id: str):
        """Dice, decks, characters, quests, action types and the component schema; lost facts are null with a reason."""
        return rulesets.get_or_404(ruleset_id).describe()
