"""What every game is built on: the Ruleset and GameRules, the skeleton a game package follows, one declaration
per kind of change, the working copy, the rules data and its archive, the deck actions, views, corrections."""
