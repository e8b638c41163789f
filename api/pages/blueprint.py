"""The pages' Flask blueprint, on its own so the modules that add routes to it (api/pages/__init__.py,
api/pages/play.py) import it without importing each other."""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint

HERE = Path(__file__).parent

bp = Blueprint("pages", "api.pages", template_folder=str(HERE / "templates"), static_folder=str(HERE / "static"), static_url_path="/pages/static")
