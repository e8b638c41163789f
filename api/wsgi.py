"""The WSGI entry point gunicorn loads in each worker (after the fork, so each has its own pool)."""

import gc

from api import create_app
from tracker.bootstrap import Settings

# gunicorn.conf.py's on_starting made the tables in the master, before the workers forked.
app = create_app(settings=Settings.from_environment(create_tables=False))

# What the worker built to start (modules, rulesets, schemas) stays for its life: frozen, the
# collector no longer walks it. A request makes a few thousand short-lived objects, so the
# youngest generation is collected every 20,000 allocations rather than 700. Together about
# 7% of a worker's CPU per request in bench/ (HTTP section), at a few MB of memory.
gc.freeze()
gc.set_threshold(20_000, 20, 50)
