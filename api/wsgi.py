"""The WSGI entry point gunicorn loads in each worker (after the fork, so each has its own pool)."""

from api import create_app

app = create_app()
