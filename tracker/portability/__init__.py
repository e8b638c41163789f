"""A campaign as a file: export and import (campaign_files.py), reading an import from disk, the shape an
imported event must have, the sealed values an import recovers, the Idempotency-Key answers a backup carries."""
