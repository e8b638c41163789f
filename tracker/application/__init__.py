"""The service layer: the Tracker (service.py) composed of its commands, queries, loading and write path, with
authorization asked by every command whatever channel called it."""
