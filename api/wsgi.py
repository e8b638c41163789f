"""The WSGI entry point gunicorn loads in each worker (after the fork, so each has its own pool)."""

import gc

from api import create_app

app = create_app()

# What the worker built to start (modules, rulesets, schemas) stays for its life: frozen, the
# collector no longer walks it. A request makes a few thousand short-lived objects, so the
# youngest generation is collected every 20,000 allocations rather than 700. Together about
# 7% of a worker's CPU per request in bench/ (HTTP section), at a few MB of memory.
gc.freeze()
gc.set_threshold(20_000, 20, 50)
