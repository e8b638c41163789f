"""Persistence beside the layers: the store's settings from a database URL, PostgreSQL's fast paths, the
repository that gives each aggregate what it is given, the grant cache, the write limits. Imports no game."""
