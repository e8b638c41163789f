"""The WSGI entry point gunicorn loads in each worker (after the fork, so each has its own pool)."""

from api import create_app
from tracker.bootstrap import Settings

# gunicorn.conf.py's on_starting made the tables in the master, before the workers forked. The worker warms
# itself before it serves (api/warming.py: its connections, Flask's first dispatch, the collector frozen).
app = create_app(settings=Settings.from_environment(create_tables=False, warm_at_boot=True))
