"""What makes the log trustworthy: the hash chain, sealed and hidden values, the one redaction on the way out,
re-derivation, signatures, receipts, and the standalone verifier (verify_export.py, standard library only)."""
