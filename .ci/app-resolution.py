#!/usr/bin/env python3
# What an app resolves: the packages in the graph of an app that depends on NavStore's libraries
# with `traits: []` (Examples/RestoringApp: NavCore, NavPersistence and NavUpload), as
# `swift package show-dependencies` lists them (NavStore itself, a path dependency, aside). Fails when anything but the libraries' own
# dependencies is there: the collector's server stack must never reach an app's graph.
#   python3 .ci/app-resolution.py [APP_FOLDER]
import json
import subprocess
import sys

folder = sys.argv[1] if len(sys.argv) > 1 else "Examples/RestoringApp"
EXPECTED = {"swift-crypto", "swift-asn1"}
shown = subprocess.run(
    ["swift", "package", "show-dependencies", "--format", "json"],
    cwd=folder, check=True, capture_output=True, text=True).stdout
resolved = set()


def walk(node):
    for child in node.get("dependencies", []):
        if child.get("url", "").startswith(("http://", "https://")):  # not NavStore itself, by path
            resolved.add(child["identity"])
        walk(child)


walk(json.loads(shown))
print(f"app-resolution: {folder} resolves {len(resolved)} packages: {', '.join(sorted(resolved))}")
if resolved != EXPECTED:
    print(f"app-resolution: expected {', '.join(sorted(EXPECTED))}; "
          f"extra {sorted(resolved - EXPECTED)}, missing {sorted(EXPECTED - resolved)}", file=sys.stderr)
    sys.exit(1)
