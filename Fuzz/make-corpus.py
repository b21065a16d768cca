#!/usr/bin/env python3
"""Writes the seed corpus (Corpus/TARGET/) from the demo's events and the spec's examples.

    python3 make-corpus.py EVENTS.jsonl

EVENTS.jsonl is the demo store's events in the wire format:
    navstore demo --db demo.sqlite
    navstore export --db demo.sqlite --table events --format jsonl > EVENTS.jsonl
"""
import gzip, hashlib, json, os, pathlib, re, sys

here = pathlib.Path(__file__).parent
events = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]

def write(target, text):
    folder = here / "Corpus" / target
    folder.mkdir(parents=True, exist_ok=True)
    data = text.encode()
    (folder / hashlib.sha1(data).hexdigest()[:16]).write_bytes(data)

def write_bytes(target, data):
    folder = here / "Corpus" / target
    folder.mkdir(parents=True, exist_ok=True)
    (folder / hashlib.sha1(data).hexdigest()[:16]).write_bytes(data)

def compact(value):
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)

# Event lines: every demo event, some without seq and hash, as the import reads them.
for index, event in enumerate(events):
    if index % 2 == 0:
        write("event-line", compact(event))
    else:
        write("event-line", compact({k: v for k, v in event.items() if k not in ("seq", "hash")}))

# JSON: the spec's examples (every JSON object in the wire format's code blocks) and a few events.
spec = (here.parent / "docs" / "spec" / "wire-format.md").read_text()
for block in re.findall(r"```json\n(.*?)```", spec, re.S):
    write("json", block)
for event in events[::10]:
    write("json", json.dumps(event, indent=1))
write("json", '[1, -0.5, 1e21, 9007199254740992, "\\u00e9\\ud83d\\ude00", true, false, null, {}]')

# States and operations: each session's start state with each of its later operations.
starts = {}
for event in events:
    op = event["op"]
    if op.get("op") == "start":
        starts[event["session"]] = op["state"]
    elif event["session"] in starts:
        write("apply", compact({"state": starts[event["session"]], "op": op}))

# Plans: every pair of start states, both ways.
states = list(starts.values())
for first in states:
    for second in states:
        if first is not second:
            write("planner", compact({"from": first, "to": second}))

# Reports: each session's events as JSON Lines, and the first of them again with ids, names,
# payloads and causes that HTML and file systems treat specially.
by_session = {}
for event in events:
    by_session.setdefault(event["session"], []).append(event)
for session_events in by_session.values():
    write("report", "\n".join(compact(event) for event in session_events[:24]))
# Hostile names, and the same with marks that join the character before them (U+0338, U+0301)
# or after them (U+0600) into one grapheme, which a search by character would not split.
hostiles = ["<b a=\"x\" b='y'>&amp;</b>\u0007../index", ">\u0338<\u0301&\u0600\"b\u0338'</b\u0301>"]
for hostile in hostiles:
    for session_events in list(by_session.values())[:2]:
        text = "\n".join(compact({k: v for k, v in e.items() if k != "hash"}) for e in session_events[:6])
        for name in ("home", "numbersList", "numberDetail", "settings"):
            text = text.replace('"' + name + '"', json.dumps(name + hostile, ensure_ascii=False))
        write("report", text.replace(session_events[0]["session"], "index"))

# Uploads: a byte of flags (bit 0: the body is the gzip stream itself), a byte choosing the size
# of the pieces it is read in, then the body, within the target's limits (16 KiB, 48 lines of at
# most 4 KiB): a session's lines as sent, gzip'd, without seq and hash, with CRLF and blank
# lines, two gzip members one after another, a session sent twice in one body, and a line over
# the limit.
for index, session_events in enumerate(list(by_session.values())[:4]):
    lines = [compact(event) for event in session_events[:16]]
    body = ("\n".join(lines) + "\n").encode()
    write_bytes("upload", bytes([0, 6]) + body)
    write_bytes("upload", bytes([1, 40]) + gzip.compress(body, mtime=0))
    bare = [compact({k: v for k, v in e.items() if k not in ("seq", "hash")}) for e in session_events[:16]]
    write_bytes("upload", bytes([0, 255]) + ("\r\n\r\n".join(bare) + "\r\n").encode())
    if index == 0:
        half = len(body) // 2
        write_bytes("upload", bytes([1, 3]) + gzip.compress(body[:half], mtime=0) + gzip.compress(body[half:], mtime=0))
        write_bytes("upload", bytes([0, 17]) + body + body)
        write_bytes("upload", bytes([2, 9]) + body + b'{"session":"' + b"x" * 600 + b'"}\n')

# Deep trees, at the wire format's limits and one past them: a start whose flows nest 63
# coordinators deep, then a push that brings a flow in at the deepest one (64: taken) and one
# that would bring two (65: refused); pushes of screens nested 507 levels (the state's deepest
# level is then 510: taken) and 508 (refused).
def nested_state(depth):
    tree = {"routes": [{"style": "root", "withNavigation": True, "screen": "leaf"}]}
    for _ in range(depth - 1):
        tree = {"routes": [{"style": "root", "screen": "host", "child": tree}]}
    return tree
flow = {"routes": [{"style": "root", "withNavigation": True, "screen": "flow"}]}
deepest = [{"route": 0}] * 62
deep_lines = [
    {"session": "deep", "at": "2026-11-21T10:00:00.000Z", "op": {"op": "start", "state": nested_state(63)}},
    {"session": "deep", "at": "2026-11-21T10:00:01.000Z", "op": {"op": "push", "screen": "in", "child": flow, "path": deepest}},
    {"session": "deep", "at": "2026-11-21T10:00:02.000Z",
     "op": {"op": "push", "screen": "in", "child": {"routes": [{"style": "root", "screen": "x", "child": flow}]}, "path": deepest}},
]
write_bytes("upload", bytes([0, 64]) + ("\n".join(compact(l) for l in deep_lines) + "\n").encode())
def nested_screen(levels):
    return "[" * levels + "]" * levels
for levels in (507, 508):
    start = compact({"session": "s%d" % levels, "at": "2026-11-21T10:00:00.000Z",
                     "op": {"op": "start", "state": {"routes": [{"style": "root", "withNavigation": True, "screen": "home"}]}}})
    push = '{"session":"s%d","at":"2026-11-21T10:00:01.000Z","op":{"op":"push","screen":%s}}' % (levels, nested_screen(levels))
    write_bytes("upload", bytes([0, 200]) + (start + "\n" + push + "\n").encode())

# Store files and checkpoints come from the CLI, and were made once by hand:
#   Corpus/store-file/: `navstore init` and the demo store, each `VACUUM INTO` a single file in
#     rollback-journal mode (`PRAGMA journal_mode=DELETE`), made again with each new schema
#     (a test in swift test checks they are at the latest); demo-store-schema-4 is the demo
#     store of schema 4, which the target migrates;
#   Corpus/checkpoint/: `navstore keygen --name fuzz`, `navstore checkpoint --key` on the demo
#     store (the signed note, and its first five lines alone), and `navstore prove` of one of its
#     sessions. fuzz-checkpoint holds that key's verifier half.
print({p.name: len(list(p.iterdir())) for p in (here / "Corpus").iterdir()})
