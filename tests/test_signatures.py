"""Signed exports and session receipts, on SQLite and on PostgreSQL: the verifier's own Ed25519 (RFC 8032) against
the RFC's test vectors and the library's signatures, the published key set and its rotation, forged signatures
through the verifier and the import, the receipts a player keeps against an operator who rewrites the database,
and the legacy path for files made before exports were signed."""

from __future__ import annotations

import copy
import hashlib
import json
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from werkzeug.serving import make_server

from api import create_app
from tests.kit.clients import OwnerClient
from tests.kit.forgery_kit import NDJSON, StoredRows, events, export, jwks_of, lines_of, notifications, of, play_journey, rechain, resign, text_of
from tests.kit.forgery_kit import empty_postgres_url, target  # noqa: F401  (fixtures: an empty PostgreSQL to import into)
from tracker.integrity import signing
from tracker.bootstrap import Settings
from tracker.integrity.verify_export import _ED_L, b64url_decode, ed25519_verify, header_hash, verify_lines

ROOT = Path(__file__).resolve().parents[1]
VERIFIER = ROOT / "tracker" / "integrity" / "verify_export.py"
PROBLEM = "application/problem+json"
NOT_TRUSTED = "The export file is not signed by a key this server trusts; nothing was imported"


# -- Ed25519 as RFC 8032 has it -----------------------------------------------------------------------------

# RFC 8032 section 7.1, TEST 1, 2, 3 and SHA(abc): (secret key, public key, message, signature), hex.
RFC_8032 = [
    ("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60", "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a", "",
     "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"),
    ("4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb", "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c", "72",
     "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00"),
    ("c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7", "fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025", "af82",
     "6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a"),
]


@pytest.mark.parametrize("secret, public, message, signature", RFC_8032, ids=["test-1", "test-2", "test-3"])
def test_the_verifier_accepts_rfc_8032s_test_vectors_and_nothing_changed(secret, public, message, signature):
    public, message, signature = bytes.fromhex(public), bytes.fromhex(message), bytes.fromhex(signature)
    assert ed25519_verify(public, message, signature)
    # the library makes the same signature from the same secret (Ed25519 is deterministic): the vectors are right
    assert Ed25519PrivateKey.from_private_bytes(bytes.fromhex(secret)).sign(message) == signature
    assert not ed25519_verify(public, message + b"x", signature)
    for at in (0, 31, 32, 63):  # a bit of R, of S
        flipped = bytearray(signature)
        flipped[at] ^= 1
        assert not ed25519_verify(public, message, bytes(flipped))
    assert not ed25519_verify(bytes.fromhex(RFC_8032[0][1] if public != bytes.fromhex(RFC_8032[0][1]) else RFC_8032[1][1]), message, signature)
    assert not ed25519_verify(public, message, signature[:63])
    # S + L is the same point arithmetic but a second encoding of the signature: refused (malleability)
    s = int.from_bytes(signature[32:], "little") + _ED_L
    assert s < 2**256 and not ed25519_verify(public, message, signature[:32] + s.to_bytes(32, "little"))


def test_the_verifier_accepts_what_the_library_signs_and_refuses_what_it_did_not():
    for n in range(24):  # keys and messages of many lengths, made the same way each run
        private = Ed25519PrivateKey.from_private_bytes(hashlib.sha256(b"key %d" % n).digest())
        public = private.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
        message = hashlib.sha512(b"message %d" % n).digest() * n
        signature = private.sign(message)
        assert ed25519_verify(public, message, signature), n
        other = Ed25519PrivateKey.from_private_bytes(hashlib.sha256(b"other %d" % n).digest()).sign(message)
        assert not ed25519_verify(public, message, other), n
        assert not ed25519_verify(public, message[:-1] + b"!", signature) if message else True


# -- the key set --------------------------------------------------------------------------------------------


def test_the_key_set_is_published_and_in_the_openapi_document(client, journey_campaign):
    keys = jwks_of(client)["keys"]
    assert keys and all((k["kty"], k["crv"], k["alg"], k["use"]) == ("OKP", "Ed25519", "EdDSA", "sig") for k in keys)
    assert all(signing.thumbprint(b64url_decode(k["x"])) == k["kid"] for k in keys)  # RFC 7638 thumbprints
    assert all(set(k) == {"kty", "crv", "x", "kid", "use", "alg", "created"} for k in keys)  # no private member ("d")
    lines = lines_of(export(client, journey_campaign["id"]))
    assert lines[-1]["trailer"]["signature"]["kid"] == keys[-1]["kid"]
    assert lines[-1]["trailer"]["campaign_id"] == journey_campaign["id"] and lines[-1]["trailer"]["header_hash"] == header_hash(lines[0]["header"])
    assert lines[0]["header"]["service"] == "http://localhost"
    document = client.get("/openapi.json").json
    operation = document["paths"]["/.well-known/jwks.json"]["get"]
    assert operation["operationId"] == "getSigningKeys" and operation["security"] == []
    assert "/sessions/{session_id}/receipt" in document["paths"]


def test_the_key_file_is_private_made_once_and_refused_when_others_may_read_it(tmp_path):
    path = tmp_path / "keys" / "signing-keys.json"
    first, second = signing.KeyRing(path), signing.KeyRing(path)
    made = [None, None]
    threads = [threading.Thread(target=lambda i=i, ring=ring: made.__setitem__(i, ring.sign({"a": 1}))) for i, ring in enumerate((first, second))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert made[0] == made[1]  # both workers sign with the one key the file holds
    assert path.stat().st_mode & 0o777 == 0o600
    assert "private_key" in path.read_text() and "private_key" not in json.dumps(first.jwks())
    rotated = second.rotate()  # another worker (or server sharing the file) rotates: this one signs with the new key next
    assert first.sign({"a": 1})["kid"] == rotated and [k["kid"] for k in first.jwks()["keys"]] == [made[0]["kid"], rotated]
    assert path.stat().st_mode & 0o777 == 0o600
    path.chmod(0o644)
    with pytest.raises(signing.KeysFileError, match="chmod 600"):
        signing.KeyRing(path).sign({"a": 1})


@pytest.fixture
def own_keys(database_url, tmp_path):
    """The service with a key file of its own, so a test may rotate it."""
    keys = tmp_path / "own-signing-keys.json"
    flask_app = create_app({"TESTING": True, "DATABASE_URL": database_url, "PROJECTIONS_IN_PROCESS": False},
                           settings=Settings(database_url=database_url, signing_keys=str(keys)))
    flask_app.test_client_class = OwnerClient
    yield flask_app
    flask_app.extensions["tracker"].close()
    flask_app.extensions["tracker_views"].store.datastore.close()


def test_a_rotated_key_signs_from_then_on_and_what_the_old_one_signed_still_verifies_and_imports(own_keys, target, tmp_path, capsys):
    from tracker.cli import main

    client = own_keys.test_client()
    cid = client.post("/campaigns", json={"ruleset": "journey", "name": "R", "party": ["monkey-king"]}).json["id"]
    before = export(client, cid)
    old_kid = lines_of(before)[-1]["trailer"]["signature"]["kid"]
    assert main(["keys", "rotate", "--keys-file", str(tmp_path / "own-signing-keys.json")]) == 0
    new_kid = json.loads(capsys.readouterr().out)["signing_with"]
    keys = jwks_of(client)
    assert [k["kid"] for k in keys["keys"]] == [old_kid, new_kid]  # the old key stays in the set
    after = export(client, cid)
    assert lines_of(after)[-1]["trailer"]["signature"]["kid"] == new_kid
    for text in (before, after):
        report = verify_lines(text.splitlines(), keys=keys)
        assert report["status"] == "verified" and report["signature"]["status"] == "verified", report
    # this service trusts its own keys, old and new; another server trusts them once given the saved set
    assert client.post("/campaigns/import", data=before, headers=NDJSON).status_code == 409  # trusted, and already here
    other = target.test_client()
    refused = other.post("/campaigns/import", data=before, headers=NDJSON)
    assert refused.status_code == 422 and refused.json["title"] == NOT_TRUSTED and old_kid in refused.json["detail"]
    saved = tmp_path / "their-jwks.json"
    saved.write_text(json.dumps(keys))
    file = tmp_path / "before.jsonl"
    file.write_text(before)
    url = target.config["DATABASE_URL"]
    assert main(["--database-url", url, "import", str(file), "--jwks", str(saved)]) == 0, capsys.readouterr().err
    assert json.loads(capsys.readouterr().out)["campaign_id"] == cid


# -- forged signatures ------------------------------------------------------------------------------------------


def _forged_signature(client, app, lines: list[dict], reason: str, keys=None) -> None:
    """Refused by the verifier (naming the trailer's line) and by the import (422, nothing written)."""
    text = text_of(lines)
    report = verify_lines(text.splitlines(), keys=keys or jwks_of(client))
    assert report["status"] == "failed" and reason in report["failure"]["reason"], report
    assert report["failure"]["line"] in (1, len(lines))
    before = notifications(app)
    imported = client.post("/campaigns/import", data=text, headers=NDJSON)
    assert imported.status_code == 422 and imported.mimetype == PROBLEM and imported.json["title"] == NOT_TRUSTED, imported.json
    assert reason in imported.json["detail"]
    assert notifications(app) == before


def test_a_trailer_signed_with_an_unknown_kid_a_bad_sig_or_no_signature_is_refused(app, client, journey_campaign):
    play_journey(client, journey_campaign["id"], "q1-meeting")
    genuine = lines_of(export(client, journey_campaign["id"]))
    wrong_kid = copy.deepcopy(genuine)
    wrong_kid[-1]["trailer"]["signature"]["kid"] = "not-a-key-of-this-service"
    _forged_signature(client, app, wrong_kid, "signed with key not-a-key-of-this-service, which is not among the trusted keys")
    bad_sig = copy.deepcopy(genuine)
    sig = b64url_decode(bad_sig[-1]["trailer"]["signature"]["sig"])
    bad_sig[-1]["trailer"]["signature"]["sig"] = signing.b64url(bytes([sig[0] ^ 1]) + sig[1:])
    _forged_signature(client, app, bad_sig, "does not verify")
    not_base64 = copy.deepcopy(genuine)
    not_base64[-1]["trailer"]["signature"]["sig"] = "!!"
    _forged_signature(client, app, not_base64, "does not verify")
    stripped = copy.deepcopy(genuine)
    del stripped[-1]["trailer"]["signature"]
    _forged_signature(client, app, stripped, "The trailer carries no signature")
    header = copy.deepcopy(genuine)  # the header edited, the trailer's hash of it left: named at line 1
    header[0]["header"]["service"] = "https://forger.example"
    _forged_signature(client, app, header, "The header is not the one the trailer's signature covers")


def test_a_key_carried_only_inside_the_file_is_never_trusted(app, client, journey_campaign, tmp_path):
    """A forger signs the edited file with a key of its own and carries that key in the file: nothing trusts it."""
    sid = play_journey(client, journey_campaign["id"], "q1-meeting")
    forged = lines_of(export(client, journey_campaign["id"]))
    of(forged, "DiceRolled", sid)[1]["state"]["roll"]["results"] = {"defense": ["2"]}  # a reported face changed
    forger = signing.KeyRing(tmp_path / "forger.json")
    forged[0]["header"]["jwks"] = forger.jwks()
    rechain(forged)
    trailer = {**{key: value for key, value in forged[-1]["trailer"].items() if key != "signature"}, "jwks": forger.jwks()}
    forged[-1] = {"trailer": forger.signed(trailer)}
    assert verify_lines(text_of(forged).splitlines(), keys=forger.jwks())["status"] == "verified"  # only with the forger's key set
    _forged_signature(client, app, forged, "which is not among the trusted keys")


# -- receipts ---------------------------------------------------------------------------------------------------


def _receipt(client, sid: str, token: str | None = None) -> dict:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    response = client.get(f"/sessions/{sid}/receipt", headers=headers)
    assert response.status_code == 200, response.json
    return response.json


def test_every_token_holder_gets_the_sessions_start_receipt_in_play_and_its_end_receipt_once_ended(client, journey_campaign):
    cid = journey_campaign["id"]
    sid = play_journey(client, cid, "q1-meeting", end=False)
    tokens = {role: client.post(f"/campaigns/{cid}/tokens", json={"role": role}).json["token"] for role in ("viewer", "integration")}
    started = _receipt(client, sid, tokens["viewer"])
    assert started == _receipt(client, sid, tokens["integration"]) == _receipt(client, sid)  # the same for every holder
    assert started["receipt"] == "session-started" and started["session_id"] == sid and started["campaign_id"] == cid
    assert started["seed_commitment"] == client.get(f"/sessions/{sid}").json["seed_commitment"]
    assert "seed" not in started and "outcome" not in started
    lines = lines_of(export(client, cid))
    quest_started = of(lines, "QuestStarted")[0]
    assert (started["campaign_position"], started["campaign_head"]) == (quest_started["position"], quest_started["hash"])
    assert started["session_head"] == quest_started["state"]["meta"]["session_head"]
    other = client.post("/campaigns", json={"ruleset": "journey", "name": "Others", "party": ["monkey-king"]}).json["owner_token"]
    assert client.get(f"/sessions/{sid}/receipt", headers={"Authorization": f"Bearer {other}"}).status_code == 404
    assert client.get(f"/sessions/{sid}/receipt", headers={"Authorization": ""}).status_code == 401

    assert client.post(f"/sessions/{sid}/end", json={"outcome": "victory", "reported": {"house_cleared": True}}).status_code == 200
    ended = _receipt(client, sid, tokens["viewer"])
    lines = lines_of(export(client, cid))
    session_end, quest_end = of(lines, "SessionEnded", sid)[0], of(lines, "QuestEnded")[0]
    assert ended["receipt"] == "session-ended" and (ended["outcome"], ended["counter_end"]) == ("victory", session_end["state"]["counter_end"])
    assert (ended["session_position"], ended["session_head"]) == (session_end["position"], session_end["hash"])
    assert (ended["campaign_position"], ended["campaign_head"]) == (quest_end["position"], quest_end["hash"])
    assert ended["ruling"] is None and ended["verdict"] is None
    report = verify_lines(export(client, cid).splitlines(), keys=jwks_of(client), receipts=[("start.json", started), ("end.json", ended)])
    assert report["status"] == "verified" and [r["receipt"] for r in report["receipts"]] == ["session-started", "session-ended"], report


def test_the_session_page_offers_its_receipt_and_the_key_set_for_download(client, journey_campaign):
    sid = play_journey(client, journey_campaign["id"], "q1-meeting")
    signed_in = client.post("/pages/sign-in", data={"token": OwnerClient.last[id(client.application)]}, headers={"Authorization": ""})
    assert signed_in.status_code in (302, 303), signed_in.status_code
    page = client.get(f"/pages/sessions/{sid}", headers={"Authorization": ""}).get_data(as_text=True)
    assert f'href="/pages/sessions/{sid}/receipt" download' in page and 'href="/.well-known/jwks.json"' in page
    downloaded = client.get(f"/pages/sessions/{sid}/receipt", headers={"Authorization": ""})
    assert downloaded.status_code == 200 and "attachment" in downloaded.headers["Content-Disposition"]
    assert json.loads(downloaded.data) == _receipt(client, sid)


def test_a_receipt_finds_a_session_the_operator_rewrote_in_the_database_and_re_chained(app, client, database_url, journey_campaign, tmp_path):
    """SQL on the stored events: a reported face changed, every later hash and the campaign's record of the session
    recomputed, as a forger would. The service's export of it is signed (the service signs what it holds), and its
    content checks pass; the receipt the players kept finds it."""
    cid = journey_campaign["id"]
    sid = play_journey(client, cid, "q1-meeting")
    kept = _receipt(client, sid)
    genuine = lines_of(export(client, cid))
    forged = copy.deepcopy(genuine)
    reported = of(forged, "DiceRolled", sid)[1]
    assert reported["state"]["roll"]["source"] == "reported"
    reported["state"]["roll"]["results"] = {"defense": ["1"]}
    rechain(forged)
    rows = StoredRows(app, database_url)
    for old, new in zip(events(genuine), events(forged)):
        if old["state"] != new["state"]:
            rows.edit(old["stream"], old["position"], lambda state, new=new: _keep_sealed(state, new["state"]))
    rewritten = export(client, cid)
    assert verify_lines(rewritten.splitlines(), keys=jwks_of(client))["status"] == "verified"  # signed by the service itself
    report = verify_lines(rewritten.splitlines(), keys=jwks_of(client), receipts=[("end.json", kept)])
    assert report["status"] == "failed" and "Receipt end.json" in report["failure"]["reason"] and "rewritten" in report["failure"]["reason"], report
    assert report["failure"]["stream"] == sid

    # the same through the verifier a player runs, with the key set and receipt saved as files
    (tmp_path / "campaign.jsonl").write_text(rewritten)
    (tmp_path / "jwks.json").write_text(json.dumps(jwks_of(client)))
    (tmp_path / "end.json").write_text(json.dumps(kept))
    run = _verifier(tmp_path, "--jwks", "jwks.json", "--receipt", "end.json")
    assert run.returncode == 1 and "FAILED: Receipt end.json" in run.stdout, run.stdout + run.stderr


def _keep_sealed(stored: dict, public: dict) -> None:
    """The row takes the forged public form and keeps the sealed values it held (the seed, a shuffle's order)."""
    from tracker.core import sealing

    new = sealing.restore(public, sealing.values(stored))
    stored.clear()
    stored.update(new)


def test_a_receipt_that_is_forged_or_of_another_campaign_fails(client, journey_campaign):
    cid = journey_campaign["id"]
    sid = play_journey(client, cid, "q1-meeting")
    kept = _receipt(client, sid)
    text = export(client, cid).splitlines()
    keys = jwks_of(client)
    bettered = {**kept, "outcome": "defeat"}
    report = verify_lines(text, keys=keys, receipts=[("mine.json", bettered)])
    assert report["status"] == "failed" and "Receipt mine.json: its signature" in report["failure"]["reason"] and "does not verify" in report["failure"]["reason"]
    unsigned = {key: value for key, value in kept.items() if key != "signature"}
    report = verify_lines(text, keys=keys, receipts=[("mine.json", unsigned)])
    assert report["status"] == "failed" and "carries no signature" in report["failure"]["reason"]
    other = client.post("/campaigns", json={"ruleset": "journey", "name": "Others", "party": ["tripitaka", "monkey-king"],
                                            "components": client.get(f"/campaigns/{cid}").json["components"]}).json["id"]
    theirs = _receipt(client, play_journey(client, other, "q1-meeting"))
    report = verify_lines(text, keys=keys, receipts=[("theirs.json", theirs)])
    assert report["status"] == "failed" and "it is a receipt of campaign" in report["failure"]["reason"]
    # a session removed from the file, re-signed by an operator holding the key: the receipt finds it gone
    lines = lines_of("\n".join(text))
    cut = [line for line in lines if not ("event" in line and line["event"]["stream"] == sid)]
    report = verify_lines(text_of(cut).splitlines(), keys=keys, receipts=[("mine.json", kept)])
    assert report["status"] == "failed"


# -- the verifier a player runs -----------------------------------------------------------------------------


def _verifier(where: Path, *args: str) -> subprocess.CompletedProcess:
    # -I: isolated from the project, as a player's copy of the one file runs
    return subprocess.run([sys.executable, "-I", str(VERIFIER), "campaign.jsonl", *args], capture_output=True, text=True, cwd=where, timeout=120)


def test_the_verifier_fetches_the_key_set_from_the_service_the_file_names_and_says_which_keys_it_trusted(app, journey_campaign, client, tmp_path):
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        import urllib.request

        base = f"http://127.0.0.1:{server.server_port}"
        cid = journey_campaign["id"]
        sid = play_journey(client, cid, "q1-meeting")
        token = OwnerClient.tokens[id(app)][cid]
        request = urllib.request.Request(f"{base}/campaigns/{cid}/export", headers={"Authorization": f"Bearer {token}"})
        with urllib.request.urlopen(request, timeout=30) as response:  # over real HTTP: the header names this address
            text = response.read().decode("utf-8")
        assert json.loads(text.splitlines()[0])["header"]["service"] == base
        (tmp_path / "campaign.jsonl").write_text(text)
        (tmp_path / "end.json").write_text(json.dumps(_receipt(client, sid)))
        run = _verifier(tmp_path, "--receipt", "end.json")
        kid = jwks_of(client)["keys"][-1]["kid"]
        assert run.returncode == 0, run.stdout + run.stderr
        assert run.stdout.splitlines()[0] == f"Trusted keys (from {base}/.well-known/jwks.json): {', '.join(sorted(k['kid'] for k in jwks_of(client)['keys']))}"
        assert f"VERIFIED: {len(text.splitlines()) - 2} events, hash chain intact, signed with key {kid}" in run.stdout
        assert f"receipt session-ended of session {sid}: agrees" in run.stdout
    finally:
        server.shutdown()


def test_a_file_made_before_exports_were_signed_verifies_and_imports_only_by_the_explicit_legacy_path(client, journey_campaign, target, tmp_path, capsys):
    """An old server wrote no service, campaign id, header hash or signature. The verifier fails it unless told
    --allow-unsigned (and then says UNSIGNED); the API never imports it; the operator's `tracker import
    --allow-unsigned` does, after every other check."""
    from tracker.cli import main

    cid = journey_campaign["id"]
    sid = play_journey(client, cid, "q1-meeting")
    old = lines_of(export(client, cid))
    del old[0]["header"]["service"]
    old[-1] = {"trailer": {"events": old[-1]["trailer"]["events"], "heads": old[-1]["trailer"]["heads"]}}
    text = text_of(old)
    (tmp_path / "campaign.jsonl").write_text(text)
    (tmp_path / "jwks.json").write_text(json.dumps(jwks_of(client)))
    refused = _verifier(tmp_path, "--jwks", "jwks.json")
    assert refused.returncode == 1 and "FAILED: The trailer carries no signature" in refused.stdout and f"(line {len(old)})" in refused.stdout
    allowed = _verifier(tmp_path, "--jwks", "jwks.json", "--allow-unsigned")
    assert allowed.returncode == 0 and "VERIFIED" in allowed.stdout and "UNSIGNED: nothing shows who wrote it" in allowed.stdout
    assert _verifier(tmp_path).returncode == 2  # names no service to fetch keys from, and no --jwks
    api = target.test_client().post("/campaigns/import", data=text, headers=NDJSON)
    assert api.status_code == 422 and api.json["title"] == NOT_TRUSTED
    url = target.config["DATABASE_URL"]
    assert main(["--database-url", url, "import", str(tmp_path / "campaign.jsonl")]) == 1
    assert "not signed" in capsys.readouterr().err
    assert main(["--database-url", url, "import", str(tmp_path / "campaign.jsonl"), "--allow-unsigned"]) == 0
    assert json.loads(capsys.readouterr().out)["sessions"] == {sid: "verified"}


def test_an_operator_re_signing_a_forgery_with_the_services_own_key_is_still_refused_by_re_derivation(app, client, journey_campaign):
    """The key proves who wrote a file, not that the table played it: the import still re-derives every session."""
    sid = play_journey(client, journey_campaign["id"], "q1-meeting")
    forged = lines_of(export(client, journey_campaign["id"]))
    digital = of(forged, "DiceRolled", sid)[0]["state"]["roll"]
    digital["results"] = {die: [faces[0]] * len(digital["results"][die]) for die, faces in digital["layouts"].items()}
    resign(rechain(forged), app.extensions["tracker"].signing)
    report = verify_lines(text_of(forged).splitlines(), keys=jwks_of(client))
    assert report["status"] == "failed" and "The seed rolls" in report["failure"]["reason"]


# -- the stored fixtures ------------------------------------------------------------------------------------

FIXTURES = sorted((ROOT / "tests" / "fixtures").glob("stored_events_v*.json"))
BEFORE_CHAINS = {"stored_events_v1.json", "stored_events_v2.json", "stored_events_v4.json"}  # stored before hash chains existed


@pytest.mark.parametrize("fixture", [f for f in FIXTURES if f.name not in BEFORE_CHAINS], ids=lambda p: p.name)
def test_a_stored_fixtures_campaign_exports_signed_and_verifies_and_its_unsigned_form_only_by_the_legacy_path(fixture, tmp_path):
    from uuid import UUID

    from eventsourcing.persistence import StoredEvent

    from tracker.application.service import Tracker
    from tracker.adapters.config import persistence_env

    data = json.loads(fixture.read_text())
    app = Tracker(env=persistence_env(f"sqlite:///{tmp_path}/fixture.sqlite3"), signing=signing.KeyRing(tmp_path / "keys.json"))
    try:
        app.recorder.insert_events([
            StoredEvent(originator_id=UUID(r["originator_id"]), originator_version=r["originator_version"], topic=r["topic"],
                        state=json.dumps(r["state"], separators=(",", ":")).encode())
            for r in data["records"]
        ])
        lines = lines_of("".join(app.export_campaign(data["expected"]["campaign"]["id"])))
        keys = app.jwks()
    finally:
        app.close()
    report = verify_lines(text_of(lines).splitlines(), keys=keys)
    assert report["status"] in ("verified", "pending") and report["signature"]["status"] == "verified", report
    old = copy.deepcopy(lines)  # as a server before signing wrote it
    old[-1] = {"trailer": {key: old[-1]["trailer"][key] for key in ("events", "heads")}}
    assert verify_lines(text_of(old).splitlines(), keys=keys)["status"] == "failed"
    assert verify_lines(text_of(old).splitlines(), keys=keys, allow_unsigned=True)["signature"]["status"] == "unsigned"
