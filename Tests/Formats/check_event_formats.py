#!/usr/bin/env python3
"""Checks the event-shaped exports against the definitions their tools read.

usage: check_event_formats.py OTLP_FILE SEGMENT_FILE VIEWS_CSV
       check_event_formats.py --otlp-only OTLP_FILE   (a forwarder's requests: the first check alone)

- Every line of OTLP_FILE parses, with no unknown field, into OpenTelemetry's own
  ExportLogsServiceRequest (opentelemetry-proto from PyPI, json_format.Parse), and its records
  carry the attributes the mapping promises.
- Every line of SEGMENT_FILE is a Segment call with what the HTTP tracking API requires:
  type, userId or anonymousId, name (screen) or event (track), an ISO 8601 timestamp, a
  messageId of its own, objects for properties and context, at most 32 KB.
- Both hold one screen event per visit of VIEWS_CSV (its rows whose view_id is their visit_id),
  and one session start per session.

Prints a line of counts and exits 0, or prints each problem and exits 1.
"""
import csv
import datetime
import json
import sys

from google.protobuf import json_format
from opentelemetry.proto.collector.logs.v1.logs_service_pb2 import ExportLogsServiceRequest

SCREEN_EVENT = "navstore.screen.view"
EVENT_NAMES = {"session.start", "session.end", "device.app.lifecycle", SCREEN_EVENT}
SEGMENT_TRACKS = {"Application Opened", "Application Backgrounded", "Session Ended"}
problems = []


def problem(text):
    problems.append(text)


def attributes(pairs):
    values = {}
    for pair in pairs:
        kind = pair.value.WhichOneof("value")
        values[pair.key] = getattr(pair.value, kind)
    return values


def check_otlp(path):
    counts = {name: 0 for name in EVENT_NAMES}
    sessions = set()
    with open(path, encoding="utf-8") as lines:
        for number, line in enumerate(lines, 1):
            request = ExportLogsServiceRequest()
            try:
                json_format.Parse(line, request)  # unknown fields are an error
            except json_format.ParseError as error:
                problem(f"otlp line {number}: {error}")
                continue
            for resource_logs in request.resource_logs:
                for scope_logs in resource_logs.scope_logs:
                    if scope_logs.scope.name != "navstore":
                        problem(f"otlp line {number}: scope {scope_logs.scope.name!r}")
                    for record in scope_logs.log_records:
                        name = record.event_name
                        if name not in EVENT_NAMES:
                            problem(f"otlp line {number}: event {name!r}")
                            continue
                        counts[name] += 1
                        values = attributes(record.attributes)
                        if "session.id" not in values:
                            problem(f"otlp line {number}: no session.id")
                        if record.time_unix_nano < 10**18:
                            problem(f"otlp line {number}: time {record.time_unix_nano} is not in nanoseconds")
                        if name == "session.start":
                            sessions.add(values.get("session.id"))
                        if name == SCREEN_EVENT and not {"app.screen.name", "app.screen.id"} <= values.keys():
                            problem(f"otlp line {number}: a screen view without app.screen.name and app.screen.id")
                        if name == "device.app.lifecycle" and values.get("ios.app.state") not in ("background", "foreground"):
                            problem(f"otlp line {number}: lifecycle without ios.app.state")
    return counts, sessions


def check_segment(path):
    screens = 0
    opened = set()
    ids = set()
    with open(path, encoding="utf-8") as lines:
        for number, line in enumerate(lines, 1):
            if len(line.encode("utf-8")) > 32 * 1024:
                problem(f"segment line {number}: over 32 KB")
            call = json.loads(line)
            kind = call.get("type")
            if kind not in ("screen", "track"):
                problem(f"segment line {number}: type {kind!r}")
            if not (isinstance(call.get("userId"), str) or isinstance(call.get("anonymousId"), str)):
                problem(f"segment line {number}: neither userId nor anonymousId")
            if kind == "track" and call.get("event") not in SEGMENT_TRACKS:
                problem(f"segment line {number}: track event {call.get('event')!r}")
            if kind == "screen":
                screens += 1
                if not isinstance(call.get("name"), str):
                    problem(f"segment line {number}: a screen call without a name")
            if kind == "track" and call.get("event") == "Application Opened" and not call["properties"].get("from_background"):
                opened.add(call["properties"].get("session_id"))
            try:
                datetime.datetime.fromisoformat(call["timestamp"].replace("Z", "+00:00"))
            except (KeyError, ValueError):
                problem(f"segment line {number}: timestamp {call.get('timestamp')!r}")
            message = call.get("messageId")
            if not isinstance(message, str) or message in ids:
                problem(f"segment line {number}: messageId {message!r} missing or repeated")
            ids.add(message)
            for member in ("properties", "context"):
                if not isinstance(call.get(member), dict):
                    problem(f"segment line {number}: {member} is not an object")
    return screens, opened


def main():
    if sys.argv[1] == "--otlp-only":
        counts, sessions = check_otlp(sys.argv[2])
        for text in problems:
            print(text)
        print(f"{sum(counts.values())} OTLP records ({counts[SCREEN_EVENT]} screen views, {len(sessions)} sessions)")
        return 1 if problems else 0
    otlp_path, segment_path, views_path = sys.argv[1:4]
    counts, sessions = check_otlp(otlp_path)
    screens, opened = check_segment(segment_path)
    with open(views_path, encoding="utf-8", newline="") as views:
        rows = list(csv.DictReader(views))
    visits = sum(1 for row in rows if row["view_id"] == row["visit_id"])
    view_sessions = {row["session"] for row in rows}
    if counts[SCREEN_EVENT] != visits or screens != visits:
        problem(f"{visits} visits, {counts[SCREEN_EVENT]} OTLP screen views, {screens} Segment screen calls")
    if not view_sessions <= sessions or sessions != opened:
        problem(f"sessions: {len(view_sessions)} with views, {len(sessions)} OTLP starts, {len(opened)} Segment opens")
    for text in problems:
        print(text)
    print(
        f"{sum(counts.values())} OTLP records ({counts[SCREEN_EVENT]} screen views, {len(sessions)} sessions), "
        f"{screens} Segment screen calls, {visits} visits")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
