"""What the tests share, in one place: playing a session through the API (session.py), each game's test
components and its way of being played (journey.py, descent.py, kung_fu_panda.py, yokai_quest.py), the secrets
readers (secrets.py), a real server (server.py) and the production front (front.py), sharded set-ups (shards.py),
hostile files (hostile_files.py), and the small helpers the suite's checks use (schema_checks.py, audit_ruleset.py,
pages_browser.py). A test file imports from here, never from another test file (tests/test_layout.py holds that)."""
