#!/usr/bin/env python3
# The public declarations of the seven modules an app links (NavJSON, NavCore, NavContract, NavHistory,
# NavPersistence, NavReport, NavUpload), counted as lines that declare something public. An
# @_spi declaration, and every member of an @_spi type, counts too: an app that writes an @_spi
# import reaches it, and an app's binary carries it. What only the package's own targets use is
# `package`, which no app sees.
# A declaration marked `@available(*, deprecated ...)` is counted apart: kept for the one release
# that lets an app move off it, and then removed, so it is not part of the surface an app is
# offered.
# Fails when the total passes the ceiling, so the surface an app developer sees only grows by a
# decision to raise it.  python3 .ci/public-api-count.py [CHECKOUT]
import glob
import re
import sys

root = sys.argv[1] if len(sys.argv) > 1 else "."
declares_public = re.compile(r"^\s*(@[A-Za-z_]+(\([^)]*\))?\s+)*public\b")
total = {}
spi = {}
deprecated = 0


def attributes_before(lines, index):
    """The attribute lines just above lines[index] (an attribute may run over several lines)."""
    text = []
    while index > 0:
        index -= 1
        stripped = lines[index].strip()
        # Every public declaration has a doc comment, which ends the walk; so does a blank line
        # or the end of another declaration.
        if not stripped or stripped.startswith("//") or stripped.endswith(("{", "}")):
            break
        text.append(stripped)
    return " ".join(text)


for module in ("NavJSON", "NavCore", "NavContract", "NavHistory", "NavPersistence", "NavReport", "NavUpload"):
    total[module] = 0
    spi[module] = 0
    for path in glob.glob(f"{root}/Sources/{module}/**/*.swift", recursive=True):
        lines = open(path).read().split("\n")
        for index, line in enumerate(lines):
            if declares_public.match(line):
                if "deprecated" in line or "deprecated" in attributes_before(lines, index):
                    deprecated += 1
                    continue
                total[module] += 1
                spi[module] += "@_spi" in line
# Why 532 and not lower: docs/decisions.md, "The public surface's ceiling is what an app calls".
CEILING = 532
# NavTesting is linked by an app's tests, never by the app: counted apart, under a ceiling of its own.
testing = sum(
    1 for path in glob.glob(f"{root}/Sources/NavTesting/**/*.swift", recursive=True)
    for line in open(path).read().split("\n") if declares_public.match(line))
TESTING_CEILING = 40
print(f"NavTesting (an app's tests) {testing} (ceiling {TESTING_CEILING})")
if testing > TESTING_CEILING:
    sys.exit(f"public-api-count: NavTesting declares {testing} public lines, past its ceiling of {TESTING_CEILING}")
print(" ".join(f"{module} {count}" for module, count in total.items()), "- total", sum(total.values()),
      f"(ceiling {CEILING}; of which @_spi declarations: {sum(spi.values())}; deprecated, counted apart: {deprecated})")
if sum(total.values()) > CEILING:
    sys.exit(f"public-api-count: {sum(total.values())} lines declare something public, past the ceiling of {CEILING}")
