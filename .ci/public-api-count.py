#!/usr/bin/env python3
# The public declarations of the seven modules an app links (NavJSON, NavCore, NavContract, NavHistory,
# NavPersistence, NavReport, NavUpload), counted as lines that declare something public. An
# @_spi declaration, and every member of an @_spi type, counts too: an app that writes an @_spi
# import reaches it, and an app's binary carries it. What only the package's own targets use is
# `package`, which no app sees.
# Fails when the total passes the ceiling, so the surface an app developer sees only grows by a
# decision to raise it.  python3 .ci/public-api-count.py [CHECKOUT]
import glob
import re
import sys

root = sys.argv[1] if len(sys.argv) > 1 else "."
declares_public = re.compile(r"^\s*(@[A-Za-z_]+(\([^)]*\))?\s+)*public\b")
total = {}
spi = {}
for module in ("NavJSON", "NavCore", "NavContract", "NavHistory", "NavPersistence", "NavReport", "NavUpload"):
    total[module] = 0
    spi[module] = 0
    for path in glob.glob(f"{root}/Sources/{module}/**/*.swift", recursive=True):
        for line in open(path):
            if declares_public.match(line):
                total[module] += 1
                spi[module] += "@_spi" in line
CEILING = 541
print(" ".join(f"{module} {count}" for module, count in total.items()), "- total", sum(total.values()),
      f"(ceiling {CEILING}; of which @_spi declarations: {sum(spi.values())})")
if sum(total.values()) > CEILING:
    sys.exit(f"public-api-count: {sum(total.values())} lines declare something public, past the ceiling of {CEILING}")
