"""A session in play: what a resolver reads of it and how its changes are recorded (resolving.py), and who plays
(party.py). Below integrity, which re-derives sessions with the same code."""
