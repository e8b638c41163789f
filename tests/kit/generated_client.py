"""A client generated from the served /openapi.json by openapi-python-client, imported (a module's fixture)."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = "tracker_generated_client"
# JSON Lines has no generic reader in the generator: it hands the export and the import over as the text they are.
GENERATOR_CONFIG = "post_hooks: []\ncontent_type_overrides:\n  application/x-ndjson: application/octet-stream\n"


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    """The client package openapi-python-client generates from the served document, imported."""
    from api import create_app

    where = tmp_path_factory.mktemp("generated")
    served = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{where}/served.sqlite3"})
    document = served.test_client().get("/openapi.json")
    served.extensions["tracker"].close()
    (where / "openapi.json").write_text(document.get_data(as_text=True))
    (where / "config.yaml").write_text(GENERATOR_CONFIG)
    generator = Path(sys.executable).with_name("openapi-python-client")
    run = subprocess.run(
        [str(generator), "generate", "--path", str(where / "openapi.json"), "--meta", "none",
         "--output-path", str(where / PACKAGE), "--config", str(where / "config.yaml")],
        capture_output=True, text=True, timeout=300,
    )
    output = run.stdout + run.stderr
    assert run.returncode == 0, output
    assert "warning" not in output.lower(), output
    sys.path.insert(0, str(where))
    try:
        yield lambda name: importlib.import_module(f"{PACKAGE}.{name}")
    finally:
        sys.path.remove(str(where))
        for name in [m for m in sys.modules if m == PACKAGE or m.startswith(PACKAGE + ".")]:
            del sys.modules[name]
