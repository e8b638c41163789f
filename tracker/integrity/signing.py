"""The service's signing keys: what it signs with (Ed25519, through `cryptography`), and the key set it publishes.

An export anyone can edit and re-chain proves nothing about the table; one whose trailer the service signed
does (tracker/integrity/verify_export.py checks it with its own RFC 8032 code). The private keys live in one JSON file,
never in the database, an export or a backup:

    {"keys": [{"kid": "...", "created": "ISO 8601", "private_key": "<base64url of the 32-byte seed>"}, ...]}

The last key signs; every key stays in the published set (GET /.well-known/jwks.json), so what an older key
signed still verifies after `tracker keys rotate`. The file is named by TRACKER_SIGNING_KEYS (default
var/signing-keys.json), made with mode 0600 on first need and refused when others may read it. Every gunicorn
worker reads the same file, and one that changed (a rotation) is read again before the next signature; the
servers of one deployment share it as they share a TLS key (the same file on each, or on shared storage).
"""

from __future__ import annotations

import base64
import fcntl
import hashlib
import json
import os
import stat
import tempfile
import threading
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import (
    Encoding,
    NoEncryption,
    PrivateFormat,
    PublicFormat,
)

from tracker.integrity.verify_export import canonical_json, signed_bytes

DEFAULT_KEYS_FILE = Path("var") / "signing-keys.json"


class KeysFileError(Exception):
    """The key file cannot be used (unreadable, damaged, or readable by others): the service will not sign."""


def keys_file(explicit: str | None = None) -> Path:
    """The key file named (TRACKER_SIGNING_KEYS, read by tracker/settings.py), else var/signing-keys.json."""
    return Path(explicit or DEFAULT_KEYS_FILE)


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _public(private: Ed25519PrivateKey) -> bytes:
    return private.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)


def thumbprint(public: bytes) -> str:
    """The key's id: its RFC 7638 JWK thumbprint (SHA-256 of its required members, canonical JSON)."""
    return b64url(hashlib.sha256(canonical_json({"crv": "Ed25519", "kty": "OKP", "x": b64url(public)})).digest())


def _new_entry() -> dict[str, str]:
    private = Ed25519PrivateKey.generate()
    seed = private.private_bytes(Encoding.Raw, PrivateFormat.Raw, NoEncryption())
    return {"kid": thumbprint(_public(private)), "created": datetime.now(UTC).isoformat(timespec="seconds"), "private_key": b64url(seed)}


class KeyRing:
    """The keys in one file, read again whenever the file changed (another worker's or server's rotation)."""

    def __init__(self, path: str | Path | None = None, trusted: Iterable[str | Path] = ()) -> None:
        """``trusted``: the key sets of other servers an import trusts besides this one's (TRACKER_TRUSTED_JWKS)."""
        self.path = keys_file(str(path) if path else None)
        self.trusted = tuple(trusted)
        self._lock = threading.Lock()
        self._seen: tuple[int, int, int] | None = None
        self._keys: list[tuple[str, Ed25519PrivateKey, str]] = []

    # -- the file --------------------------------------------------------------

    def _write_new(self, entries: list[dict[str, str]], replace: bool) -> None:
        """Write the whole file under a temporary name with mode 0600, then put it in place at once: a reader
        never sees half a file. A first file is linked into place, so two workers creating it at once keep one."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd, temporary = tempfile.mkstemp(prefix=".signing-keys-", dir=self.path.parent)  # mkstemp makes it 0600
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump({"keys": entries}, f, indent=1)
                f.flush()
                os.fsync(f.fileno())
            if replace:
                os.replace(temporary, self.path)
            else:
                try:
                    os.link(temporary, self.path)
                except FileExistsError:
                    pass  # another process made it first: that file is the one
        finally:
            if os.path.exists(temporary):
                os.unlink(temporary)

    def _read(self) -> list[dict[str, str]]:
        try:
            info = self.path.stat()
        except FileNotFoundError:
            self._write_new([_new_entry()], replace=False)
            info = self.path.stat()
        if stat.S_IMODE(info.st_mode) & 0o077:
            raise KeysFileError(f"The signing key file {self.path} may be read by others (mode {stat.S_IMODE(info.st_mode):o}): chmod 600 it")
        seen = (info.st_ino, info.st_mtime_ns, info.st_size)
        if seen == self._seen:
            return []
        try:
            entries = json.loads(self.path.read_text(encoding="utf-8"))["keys"]
            keys = []
            for entry in entries:
                private = Ed25519PrivateKey.from_private_bytes(base64.urlsafe_b64decode(entry["private_key"] + "=" * (-len(entry["private_key"]) % 4)))
                keys.append((entry["kid"], private, entry.get("created", "")))
        except (OSError, ValueError, KeyError, TypeError) as error:
            raise KeysFileError(f"The signing key file {self.path} cannot be read: {error}") from None
        if not keys:
            raise KeysFileError(f"The signing key file {self.path} holds no key")
        self._keys, self._seen = keys, seen
        return entries

    def _current(self) -> list[tuple[str, Ed25519PrivateKey, str]]:
        with self._lock:
            self._read()
            return list(self._keys)

    # -- what the service does with them ---------------------------------------

    def sign(self, value: dict[str, Any]) -> dict[str, str]:
        """The signature of ``value`` (without any "signature" field it has) by the newest key."""
        kid, private, _ = self._current()[-1]
        return {"kid": kid, "sig": b64url(private.sign(signed_bytes(value)))}

    def signed(self, value: dict[str, Any]) -> dict[str, Any]:
        return {**value, "signature": self.sign(value)}

    def jwks(self) -> dict[str, Any]:
        """Every key's public half, oldest first, as a JSON Web Key Set (RFC 7517; Ed25519 as OKP, RFC 8037)."""
        return {"keys": [_jwk(kid, _public(private), created) for kid, private, created in self._current()]}

    def rotate(self) -> str:
        """A new key signs from now on; the old ones stay in the set. Held under a lock file, so two rotations at
        once each add their key."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with open(self.path.with_name(self.path.name + ".lock"), "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            with self._lock:
                self._seen = None
                self._read()
                entries = json.loads(self.path.read_text(encoding="utf-8"))["keys"]
                entry = _new_entry()
                self._write_new([*entries, entry], replace=True)
                self._seen = None
        return entry["kid"]


def _jwk(kid: str, public: bytes, created: str) -> dict[str, str]:
    return {"kty": "OKP", "crv": "Ed25519", "x": b64url(public), "kid": kid, "use": "sig", "alg": "EdDSA", "created": created}


def trusted_set(own: KeyRing, files: Iterable[str | Path] = ()) -> dict[str, Any]:
    """The keys an import trusts: this service's own, and those of key sets the operator saved (another server's,
    for a campaign moving here: TRACKER_TRUSTED_JWKS, given to the ring, or ``tracker import --jwks``)."""
    keys = list(own.jwks()["keys"])
    for name in [*files, *own.trusted]:
        try:
            saved = json.loads(Path(name).read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            raise KeysFileError(f"The trusted key set {name} cannot be read: {error}") from None
        keys += [key for key in saved.get("keys", []) if isinstance(key, dict)] if isinstance(saved, dict) else []
    return {"keys": keys}
