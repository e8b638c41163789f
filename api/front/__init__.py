"""The production front: nginx buffering each request whole before gunicorn's threads see it
(launcher.py starts both as one command, nginx.conf is its configuration), and a gunicorn worker
whose own refusals of unreadable requests are problem+json like every other error (worker.py)."""
