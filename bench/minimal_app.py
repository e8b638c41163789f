"""The stack's own limit: the smallest Flask app that does what a roll request's envelope does.

It reads a JSON body and answers JSON, served by the same gunicorn configuration as the service
(gunicorn.conf.py: workers, gthread threads, keep-alive), driven by the same load generator with
the same request. Whatever the roll route costs beyond this is ours: the access check, the command,
the schemas, the database.
"""

from flask import Flask, request

app = Flask(__name__)


@app.post("/sessions/<session_id>/rolls")
def roll(session_id: str):
    body = request.get_json()
    return {"session_id": session_id, "dice": body["dice"], "results": [3, 5]}, 201


@app.get("/health")
def health():
    return {"status": "ok"}
