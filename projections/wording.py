"""The timeline's words for values: they live in tracker/wording.py, so a game's package can say its own views in
them (rulesets never import the projections); kept here under its old name for the modules that read it so."""

from tracker.wording import NOT_STATED, details_said, key_said, names_said, plain, value_said

__all__ = ["NOT_STATED", "details_said", "key_said", "names_said", "plain", "value_said"]
