"""Helpers the test files share, each module named for what it holds (no test file imports another's private names)."""
