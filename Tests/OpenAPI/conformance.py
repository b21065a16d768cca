#!/usr/bin/env python3
"""Holds a live `navstore serve` to docs/spec/openapi.yaml.

    python3 Tests/OpenAPI/conformance.py NAVSTORE-BINARY [--schemathesis N]

1. The document is valid OpenAPI 3.1 (openapi-spec-validator).
2. A demo store is served on loopback, twice: once with roomy limits, once with one open upload,
   one open read and one request a second, for the 503 and 429 answers.
3. Requests chosen to bring out every status the document lists, operation by operation: each
   answer's status must be documented for its operation, its content type documented for that
   status, its JSON body valid against the schema (JSON Lines: each line against the schema in
   `x-line-schema`), and its required headers present and valid. Every documented status of
   every operation must have been seen.
4. With `--schemathesis N`, schemathesis sends N generated requests per operation, with an
   ingest and then a read token, and checks the same things on what comes back.

Prints one line per check; exits 1 on the first problem with what was sent and received.
"""

import gzip
import http.client
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse

import jsonschema
import referencing
import yaml
from openapi_spec_validator import validate as validate_spec

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SPEC_PATH = os.path.join(ROOT, "docs", "spec", "openapi.yaml")
SPEC_URI = "urn:navstore:openapi"


def fail(message):
    print(f"openapi: FAILED: {message}", file=sys.stderr)
    sys.exit(1)


class Document:
    """The OpenAPI document, with its operations matched to request paths."""

    def __init__(self, path):
        with open(path) as file:
            self.spec = yaml.safe_load(file)
        validate_spec(self.spec)
        resource = referencing.Resource.from_contents(
            self.spec, default_specification=referencing.jsonschema.DRAFT202012)
        self.registry = referencing.Registry().with_resource(SPEC_URI, resource)
        self.operations = {}
        for template, item in self.spec["paths"].items():
            pattern = "^" + re.sub(r"\{[^/]+\}", "[^/]+", template) + "$"
            for method, operation in item.items():
                if method in ("get", "post", "put", "delete", "patch"):
                    self.operations[(method.upper(), template)] = (re.compile(pattern), operation)

    def operation(self, method, path):
        for (op_method, template), (pattern, operation) in self.operations.items():
            if op_method == method and pattern.match(path):
                return template, operation
        return None, None

    def resolve(self, node):
        while isinstance(node, dict) and "$ref" in node:
            pointer = node["$ref"].removeprefix("#/").split("/")
            node = self.spec
            for part in pointer:
                node = node[part]
        return node

    def errors(self, pointer, value):
        """What is wrong with `value` against the schema at `pointer` in the document."""
        validator = jsonschema.Draft202012Validator({"$ref": SPEC_URI + "#" + pointer}, registry=self.registry)
        return sorted(validator.iter_errors(value), key=lambda error: list(error.path))


class Answer:
    def __init__(self, status, headers, body):
        self.status = status
        self.headers = {name.lower(): value for name, value in headers}
        self.body = body


def request(base, method, path, headers=None, body=None):
    url = urllib.parse.urlsplit(base)
    connection = http.client.HTTPConnection(url.hostname, url.port, timeout=30)
    connection.request(method, path, body=body, headers=headers or {})
    response = connection.getresponse()
    answer = Answer(response.status, response.getheaders(), response.read())
    connection.close()
    return answer


class Checker:
    def __init__(self, document):
        self.document = document
        self.seen = set()
        self.count = 0

    def pointer_of(self, template, method, status, media):
        escaped = template.replace("~", "~0").replace("/", "~1")
        return f"/paths/{escaped}/{method.lower()}/responses/{status}/content/{media.replace('/', '~1')}"

    def check(self, base, method, path, expected, headers=None, body=None, label=""):
        answer = request(base, method, path, headers, body)
        sent = f"{method} {path} {label}".strip()
        if answer.status != expected:
            fail(f"{sent}: expected {expected}, got {answer.status}: {answer.body[:300]!r}")
        self.validate(method, path, answer, sent)
        return answer

    def validate(self, method, path, answer, sent):
        template, operation = self.document.operation(method, urllib.parse.urlsplit(path).path)
        if operation is None:
            fail(f"{sent}: no operation in the document")
        responses = operation["responses"]
        status = str(answer.status)
        if status not in responses:
            fail(f"{sent}: status {status} is not documented for {method} {template}")
        response = self.document.resolve(responses[status])
        reference = responses[status].get("$ref")
        for name, header in (response.get("headers") or {}).items():
            header = self.document.resolve(header)
            value = answer.headers.get(name.lower())
            if header.get("required") and value is None:
                fail(f"{sent}: the required header {name} is missing")
            if value is not None:
                errors = list(jsonschema.Draft202012Validator(header["schema"]).iter_errors(value))
                if errors:
                    fail(f"{sent}: header {name}: {errors[0].message}")
        content = response.get("content") or {}
        media = (answer.headers.get("content-type") or "").split(";")[0].strip()
        if content and media not in content:
            fail(f"{sent}: content type {media!r} is not documented for {status} (documented: {list(content)})")
        if content:
            if reference:
                pointer = "/" + reference.removeprefix("#/") + "/content/" + media.replace("/", "~1")
            else:
                pointer = self.pointer_of(template, method, status, media)
            entry = content[media]
            if media == "application/json":
                try:
                    value = json.loads(answer.body)
                except ValueError as error:
                    fail(f"{sent}: the body is not JSON ({error})")
                errors = self.document.errors(pointer + "/schema", value)
                if errors:
                    fail(f"{sent}: the body does not match the schema: {errors[0].message} at {list(errors[0].path)}")
            elif media == "application/x-ndjson" and "x-line-schema" in entry:
                lines = [line for line in answer.body.decode("utf-8").split("\n") if line]
                if not lines and answer.status == 200:
                    fail(f"{sent}: no line in a JSON Lines answer")
                for number, line in enumerate(lines, 1):
                    errors = self.document.errors(pointer + "/x-line-schema", json.loads(line))
                    if errors:
                        fail(f"{sent}: line {number} does not match x-line-schema: {errors[0].message}")
        self.seen.add((method, template, status))
        self.count += 1

    def documented(self):
        return {(method, template, status)
                for (method, template), (_, operation) in self.document.operations.items()
                for status in operation["responses"]}


def navstore(binary, *arguments, cwd):
    result = subprocess.run([binary, *arguments], cwd=cwd, capture_output=True, text=True, timeout=120)
    if result.returncode != 0:
        fail(f"navstore {' '.join(arguments)} exited {result.returncode}: {result.stderr}")
    return result.stdout.strip()


def serve(binary, cwd, *options, db="collector.sqlite"):
    process = subprocess.Popen(
        [binary, "serve", "--db", db, "--listen", "127.0.0.1:0", *options],
        cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    line = process.stdout.readline()
    if not line.startswith("listening on "):
        process.kill()
        fail(f"navstore serve did not say it was listening: {line!r}")
    return process, line.removeprefix("listening on ").strip()


def bearer(token):
    return {"Authorization": f"Bearer {token}"}


def long_lines(session, count):
    lines = [{"session": session, "seq": 1, "at": "2026-11-21T10:00:00.000Z",
              "op": {"op": "start", "state": {"routes": [{"screen": "home", "style": "root", "withNavigation": True}]}}}]
    for seq in range(2, count + 1):
        op = {"op": "push", "screen": "detail"} if seq % 2 == 0 else {"op": "pop"}
        lines.append({"session": session, "seq": seq, "at": "2026-11-21T10:00:00.000Z", "op": op})
    return "".join(json.dumps(line) + "\n" for line in lines).encode()


def upload_lines(session, count):
    lines = [{"session": session, "seq": 1, "at": "2026-11-21T10:00:00.000Z",
              "op": {"op": "start", "state": {"routes": [{"screen": "home", "style": "root", "withNavigation": True}]}}}]
    for seq in range(2, count + 1):
        lines.append({"session": session, "seq": seq, "at": f"2026-11-21T10:00:{seq:02d}.000Z",
                      "op": {"op": "push", "screen": f"s{seq}"}})
    return "".join(json.dumps(line) + "\n" for line in lines).encode()


def main():
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    binary = os.path.abspath(sys.argv[1])
    examples = int(sys.argv[3]) if len(sys.argv) > 3 and sys.argv[2] == "--schemathesis" else 0
    document = Document(SPEC_PATH)
    print(f"openapi: {os.path.relpath(SPEC_PATH, ROOT)} is valid OpenAPI {document.spec['openapi']}")
    work = tempfile.mkdtemp(prefix="navstore-openapi-")
    servers = []
    try:
        navstore(binary, "demo", "--db", "collector.sqlite", "--no-wait", cwd=work)
        ingest = navstore(binary, "token", "create", "--app", "default", "--role", "ingest",
                          "--db", "collector.sqlite", cwd=work)
        read = navstore(binary, "token", "create", "--app", "default", "--role", "read",
                        "--db", "collector.sqlite", cwd=work)
        other = navstore(binary, "token", "create", "--app", "other", "--role", "read",
                         "--db", "collector.sqlite", cwd=work)
        revoked = navstore(binary, "token", "create", "--app", "default", "--role", "read",
                           "--db", "collector.sqlite", cwd=work)
        navstore(binary, "token", "revoke", revoked.split("_")[1], "--db", "collector.sqlite", cwd=work)
        # A long session (a push and its pop, over and over), whose history a reader that stops
        # reading cannot take at once.
        with open(os.path.join(work, "long.jsonl"), "wb") as file:
            file.write(long_lines("openapi-long", 40000))
        navstore(binary, "import", "long.jsonl", "--db", "collector.sqlite", cwd=work)
        roomy, base = serve(binary, work, "--rate", "10000", "--burst", "10000", "--wrong-tokens", "10000")
        servers.append(roomy)
        checker = Checker(document)
        every_status(checker, base, ingest, read, other, revoked)
        tight, tight_base = serve(binary, work, "--max-open-uploads", "1", "--max-open-reads", "1",
                                  "--rate", "1", "--burst", "1", "--request-timeout", "3")
        servers.append(tight)
        backpressure(checker, tight_base, ingest, read)
        broken, broken_base = serve(binary, work)
        servers.append(broken)
        not_ready(checker, broken_base, other, work)
        postgres_url = os.environ.get("NAVSTORE_POSTGRES_URL", "")
        if postgres_url:
            shared, shared_base = serve(binary, work, db=postgres_url)
            servers.append(shared)
            on_postgres(checker, binary, shared_base, postgres_url, work)
        else:
            print("openapi: no PostgreSQL (NAVSTORE_POSTGRES_URL): the collector on PostgreSQL was not checked")
        missing = sorted(checker.documented() - checker.seen)
        if missing:
            fail("documented but never seen: " + ", ".join(f"{m} {t} {s}" for m, t, s in missing))
        print(f"openapi: {checker.count} answers checked; all {len(checker.seen)} documented "
              f"(operation, status) pairs seen, each matching its schema")
        if examples:
            fuzz(base, ingest, read, examples, work)
    finally:
        for process in servers:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
        shutil.rmtree(work, ignore_errors=True)


def every_status(checker, base, ingest, read, other, revoked):
    ndjson = {"Content-Type": "application/x-ndjson"}
    body = upload_lines("openapi-1", 5)
    # Uploads: every status but 429 and 503.
    answer = checker.check(base, "POST", "/v1/events", 200, {**bearer(ingest), **ndjson}, body)
    if json.loads(answer.body)["accepted"] != 5:
        fail(f"the first upload did not accept its 5 lines: {answer.body!r}")
    gzipped = gzip.compress(upload_lines("openapi-2", 3) + b"not json\n")
    answer = checker.check(base, "POST", "/v1/events", 200,
                           {**bearer(ingest), **ndjson, "Content-Encoding": "gzip"}, gzipped, "(gzip, a bad line)")
    if json.loads(answer.body)["rejected"][0]["reason"] != "invalid":
        fail(f"a line that is not JSON was not rejected as invalid: {answer.body!r}")
    checker.check(base, "POST", "/v1/events", 200, {**bearer(ingest), **ndjson}, body, "(a resend)")
    checker.check(base, "POST", "/v1/events", 400,
                  {**bearer(ingest), **ndjson, "Content-Encoding": "gzip"}, b"plain text", "(not gzip)")
    checker.check(base, "POST", "/v1/events", 401, ndjson, body, "(no token)")
    checker.check(base, "POST", "/v1/events", 401, {**bearer(revoked), **ndjson}, body, "(revoked)")
    checker.check(base, "POST", "/v1/events", 401, {**bearer("nvs_" + "0" * 16 + "_" + "0" * 64), **ndjson}, body,
                  "(unknown token)")
    checker.check(base, "POST", "/v1/events", 401,
                  {**bearer(ingest), **ndjson, "NavStore-Device-Key": "A" * 43}, body, "(a key without a signature)")
    checker.check(base, "POST", "/v1/events", 403, {**bearer(read), **ndjson}, body, "(read token)")
    checker.check(base, "POST", "/v1/events", 413, {**bearer(ingest), **ndjson}, b"\n" * 5001, "(5,001 lines)")
    checker.check(base, "POST", "/v1/events", 415,
                  {**bearer(ingest), "Content-Type": "text/plain"}, body, "(text/plain)")
    checker.check(base, "GET", "/v1/limits", 200, bearer(ingest))
    checker.check(base, "GET", "/v1/limits", 401)
    # The listing, and a walk through its pages.
    answer = checker.check(base, "GET", "/v1/sessions?limit=3", 200, bearer(read))
    page = json.loads(answer.body)
    while page["next"]:
        answer = checker.check(base, "GET", "/v1/sessions?limit=3&after=" + page["next"], 200, bearer(read))
        page = json.loads(answer.body)
    checker.check(base, "GET", "/v1/sessions?since=2026-11-21T09:40:00.000Z", 200, bearer(read))
    checker.check(base, "GET", "/v1/sessions?limit=0", 400, bearer(read))
    checker.check(base, "GET", "/v1/sessions?after=nonsense", 400, bearer(read))
    checker.check(base, "GET", "/v1/sessions", 401)
    checker.check(base, "GET", "/v1/sessions", 403, bearer(ingest))
    # One session's reads.
    for reader in (ingest, read):
        checker.check(base, "GET", "/v1/sessions/demo-numbers/head", 200, bearer(reader))
    checker.check(base, "GET", "/v1/sessions/demo-numbers/head", 401)
    checker.check(base, "GET", "/v1/sessions/demo-numbers/head", 404, bearer(other), label="(another app)")
    checker.check(base, "GET", "/v1/sessions/no-such-session/head", 404, bearer(read))
    # Many heads in one request.
    json_type = {"Content-Type": "application/json"}
    asked = json.dumps({"sessions": ["demo-numbers", "no-such-session"]}).encode()
    for reader in (ingest, read):
        answer = checker.check(base, "POST", "/v1/heads", 200, {**bearer(reader), **json_type}, asked)
        heads = json.loads(answer.body)["heads"]
        if heads["demo-numbers"]["seq"] < 1 or heads["no-such-session"] != {"seq": 0, "hash": None}:
            fail(f"POST /v1/heads: wrong heads {answer.body!r}")
    answer = checker.check(base, "POST", "/v1/heads", 200, {**bearer(other), **json_type}, asked, "(another app)")
    if json.loads(answer.body)["heads"]["demo-numbers"]["seq"] != 0:
        fail(f"POST /v1/heads told another app's head: {answer.body!r}")
    checker.check(base, "POST", "/v1/heads", 400, {**bearer(read), **json_type}, b"[1, 2]", "(not the object)")
    checker.check(base, "POST", "/v1/heads", 401, json_type, asked, "(no token)")
    many = json.dumps({"sessions": [f"s-{n}" for n in range(5001)]}).encode()
    checker.check(base, "POST", "/v1/heads", 413, {**bearer(read), **json_type}, many, "(5,001 ids)")
    checker.check(base, "POST", "/v1/heads", 415, {**bearer(read), "Content-Type": "text/plain"}, asked,
                  "(text/plain)")
    for path, bad_query in (("history", "?from=9999"), ("state", "?at=9999"), ("report", "?at=9999"),
                            ("bundle", "?keep_personal=maybe")):
        checker.check(base, "GET", f"/v1/sessions/demo-numbers/{path}", 200, bearer(read))
        if bad_query:
            checker.check(base, "GET", f"/v1/sessions/demo-numbers/{path}{bad_query}", 400, bearer(read))
        checker.check(base, "GET", f"/v1/sessions/demo-numbers/{path}", 401)
        checker.check(base, "GET", f"/v1/sessions/demo-numbers/{path}", 403, bearer(ingest))
        checker.check(base, "GET", f"/v1/sessions/demo-numbers/{path}", 404, bearer(other), label="(another app)")
    checker.check(base, "GET", "/v1/sessions/demo-numbers/history?from=2&to=4", 200, bearer(read))
    checker.check(base, "GET", "/v1/sessions/demo-numbers/state?at=3", 200, bearer(read))
    checker.check(base, "GET", "/v1/sessions/demo-killed-relaunch/bundle?keep_personal=true", 200, bearer(read))
    checker.check(base, "GET", "/v1/sessions/demo-numbers/report?at=3&omit_payloads=true", 200, bearer(read))
    checker.check(base, "GET", "/v1/sessions?app_version=2.3.1&sort=id&since=2026-11-21&omit_payloads=true", 200,
                  bearer(read))
    checker.check(base, "GET", "/v1/sessions?appversion=2.3.1", 400, bearer(read), label="(a parameter it does not take)")
    # Exports: every table in both formats.
    for table in ("events", "sessions", "screen-views", "transitions"):
        for format in ("csv", "jsonl"):
            checker.check(base, "GET", f"/v1/export/{table}?format={format}", 200, bearer(read))
    checker.check(base, "GET", "/v1/export/events?format=jsonl&session=demo-numbers", 200, bearer(read))
    checker.check(base, "GET", "/v1/export/events", 400, bearer(read), label="(no format)")
    checker.check(base, "GET", "/v1/export/events?format=xml", 400, bearer(read))
    checker.check(base, "GET", "/v1/export/events?format=csv", 401)
    checker.check(base, "GET", "/v1/export/events?format=csv", 403, bearer(ingest))
    checker.check(base, "GET", "/v1/export/events?format=csv&session=demo-numbers", 404, bearer(other),
                  "(another app's session)")
    # Operating.
    for path in ("/healthz", "/readyz", "/metrics"):
        checker.check(base, "GET", path, 200)
    # What the document does not list: 404, and under /v1/ a 401 first.
    for method, path, headers, status in (("DELETE", "/healthz", {}, 404), ("GET", "/v1/nope", {}, 401),
                                          ("GET", "/v1/nope", bearer(read), 404),
                                          ("DELETE", "/v1/limits", bearer(read), 404)):
        answer = request(base, method, path, headers)
        code = json.loads(answer.body).get("error") if answer.body else None
        if answer.status != status or code != {404: "not-found", 401: "unauthorized"}[status]:
            fail(f"{method} {path}: expected {status}, got {answer.status} {answer.body!r}")
    print("openapi: every status of every operation brought out on a roomy collector")


def not_ready(checker, base, other, work):
    """A store file taken away while serving: not ready, for good (until a restart), and its
    app's requests 503. (It is put back after, for the collectors that start later.)"""
    checker.check(base, "GET", "/v1/sessions", 200, bearer(other), label="(before its store is taken away)")
    app_file = os.path.join(work, "collector.apps", "other.sqlite")
    os.rename(app_file, app_file + ".aside")
    checker.check(base, "GET", "/readyz", 503, label="(a store file removed)")
    checker.check(base, "GET", "/v1/sessions", 503, bearer(other), label="(its app's store removed)")
    os.rename(app_file + ".aside", app_file)
    print("openapi: 503 from /readyz and from the app's endpoints once its store file is taken away")


def on_postgres(checker, binary, base, url, work):
    """A collector on PostgreSQL: an upload, and each read, answered as the document says."""
    app = "openapi-" + os.urandom(4).hex()
    read = navstore(binary, "token", "create", "--app", app, "--role", "read", "--db", url, cwd=work)
    ingest = navstore(binary, "token", "create", "--app", app, "--role", "ingest", "--db", url, cwd=work)
    label = "(on PostgreSQL)"
    checker.check(base, "POST", "/v1/events", 200,
                  {**bearer(ingest), "Content-Type": "application/x-ndjson"}, upload_lines("pg-1", 3), label=label)
    for path in ["/v1/sessions", "/v1/sessions?screen=s2", "/v1/sessions/pg-1/head", "/v1/sessions/pg-1/history",
                 "/v1/sessions/pg-1/state", "/v1/sessions/pg-1/report", "/v1/export/events?format=csv",
                 "/v1/export/screen-views?format=jsonl", "/readyz"]:
        checker.check(base, "GET", path, 200, bearer(read), label=label)
    checker.check(base, "GET", "/v1/sessions/nobody/head", 404, bearer(read), label=label)
    print("openapi: a collector on PostgreSQL answers an upload and every read as the document says")


def backpressure(checker, base, ingest, read):
    """503 while the one open upload and the one open read are held (the probes still answer);
    then 429 past one request a second."""
    url = urllib.parse.urlsplit(base)
    held = socket.create_connection((url.hostname, url.port), timeout=30)
    held.sendall((f"POST /v1/events HTTP/1.1\r\nHost: {url.hostname}\r\nAuthorization: Bearer {ingest}\r\n"
                  "Content-Type: application/x-ndjson\r\nContent-Length: 100000\r\n\r\n").encode())
    held.sendall(b"\n")
    # A reader that stops reading a long history holds the one read until the request timeout.
    reader = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    reader.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    reader.connect((url.hostname, url.port))
    reader.sendall((f"GET /v1/sessions/openapi-long/history HTTP/1.1\r\nHost: {url.hostname}\r\n"
                    f"Authorization: Bearer {read}\r\n\r\n").encode())
    time.sleep(0.5)
    reads = [("GET", "/v1/limits"), ("GET", "/v1/sessions"), ("GET", "/v1/sessions/demo-numbers/head"),
             ("GET", "/v1/sessions/demo-numbers/history"), ("GET", "/v1/sessions/demo-numbers/state"),
             ("GET", "/v1/sessions/demo-numbers/report"), ("GET", "/v1/sessions/demo-numbers/bundle"),
             ("GET", "/v1/export/events?format=csv")]
    uploads = [("POST", "/v1/events")]
    heads = json.dumps({"sessions": ["demo-numbers"]}).encode()
    for method, path in reads + [("POST", "/v1/heads")] + uploads:
        headers = bearer(ingest if path == "/v1/events" else read)
        if method == "POST":
            headers["Content-Type"] = "application/x-ndjson" if path == "/v1/events" else "application/json"
        checker.check(base, method, path, 503, headers, (b"" if path == "/v1/events" else heads) if method == "POST"
                      else None, "(one upload and one read held open)")
    for path in ("/healthz", "/readyz", "/metrics"):
        checker.check(base, "GET", path, 200, label="(never refused for load)")
    reader.close()
    # The held request's body never comes: past the request timeout, a 408, and the slot is free.
    answer = raw_answer(held)
    if answer.status != 408:
        fail(f"the held upload: expected 408, got {answer.status}: {answer.body!r}")
    checker.validate("POST", "/v1/events", answer, "POST /v1/events (a body that never arrives)")
    # A heads request whose body never arrives: a 408 too (after a second, for the rate).
    time.sleep(1.1)
    slow = socket.create_connection((url.hostname, url.port), timeout=30)
    slow.sendall((f"POST /v1/heads HTTP/1.1\r\nHost: {url.hostname}\r\nAuthorization: Bearer {read}\r\n"
                  "Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{").encode())
    answer = raw_answer(slow)
    if answer.status != 408:
        fail(f"the held heads request: expected 408, got {answer.status}: {answer.body!r}")
    checker.validate("POST", "/v1/heads", answer, "POST /v1/heads (a body that never arrives)")
    time.sleep(0.5)
    for method, path in reads + [("POST", "/v1/heads")] + uploads:
        headers = bearer(ingest if path == "/v1/events" else read)
        if method == "POST":
            headers["Content-Type"] = "application/x-ndjson" if path == "/v1/events" else "application/json"
        body = {"/v1/events": upload_lines("openapi-3", 1), "/v1/heads": heads}.get(path)
        for attempt in range(5):
            request(base, "GET", "/v1/limits", headers)
            answer = request(base, method, path, headers, body)
            if answer.status == 429:
                checker.validate(method, path, answer, f"{method} {path} (over the rate)")
                break
        else:
            fail(f"{method} {path}: never answered 429 at one request a second")
    print("openapi: 503 with one upload and one read held open (the probes answering), 408 for that upload, "
          "and 429 past the rate, on every operation they apply to")


def raw_answer(connection):
    """What the server sends on `connection` until it closes it (within 15 s), as an Answer."""
    raw = b""
    connection.settimeout(15)
    while True:
        chunk = connection.recv(65536)
        if not chunk:
            break
        raw += chunk
    connection.close()
    head, _, body = raw.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    if not lines[0].startswith("HTTP/1.1 "):
        fail(f"a held request got no HTTP answer: {raw[:200]!r}")
    headers = [tuple(part.strip() for part in line.split(":", 1)) for line in lines[1:] if ":" in line]
    return Answer(int(lines[0].split()[1]), headers, body)


def fuzz(base, ingest, read, examples, work):
    """schemathesis: generated requests, each answer held to the document."""
    checks = ",".join(["not_a_server_error", "status_code_conformance", "content_type_conformance",
                       "response_headers_conformance", "response_schema_conformance"])
    for token, role in ((ingest, "ingest"), (read, "read")):
        command = ["schemathesis", "run", SPEC_PATH, "--url", base, "--header", f"Authorization: Bearer {token}",
                   "--checks", checks, "--max-examples", str(examples), "--no-color"]
        hooks = {"SCHEMATHESIS_HOOKS": "schemathesis_hooks", "PYTHONDONTWRITEBYTECODE": "1",
                 "PYTHONPATH": os.path.dirname(os.path.abspath(__file__))}
        # Run in the scratch folder: schemathesis leaves a cache folder where it runs.
        result = subprocess.run(command, capture_output=True, text=True, timeout=600, cwd=work,
                                env={**os.environ, **hooks})
        if result.returncode != 0:
            print(result.stdout[-6000:], file=sys.stderr)
            fail(f"schemathesis with the {role} token found answers the document does not describe")
        summary = [line for line in result.stdout.splitlines() if "passed" in line or "generated" in line.lower()]
        print(f"openapi: schemathesis, {role} token: " + (summary[-1].strip() if summary else "passed"))


if __name__ == "__main__":
    main()
