#!/usr/bin/env python3
# The public declarations of the seven modules an app links (NavJSON, NavCore, NavContract, NavHistory,
# NavPersistence, NavReport, NavUpload), counted as lines that declare something public: not
# @_spi declarations, nor the members of an @_spi type (reachable only through an @_spi import).
# Fails when the total passes the ceiling, so the surface an app developer sees only grows by a
# decision to raise it.  python3 .ci/public-api-count.py [CHECKOUT]
import glob
import re
import sys

root = sys.argv[1] if len(sys.argv) > 1 else "."
declares_public = re.compile(r"^\s*(@[A-Za-z_]+(\([^)]*\))?\s+)*public\b")
opens_type = re.compile(r"\b(struct|enum|class|extension)\b")
total = {}
for module in ("NavJSON", "NavCore", "NavContract", "NavHistory", "NavPersistence", "NavReport", "NavUpload"):
    count = 0
    for path in glob.glob(f"{root}/Sources/{module}/**/*.swift", recursive=True):
        spi_depth = None  # the brace depth at which an @_spi type began, while inside it
        depth = 0
        for line in open(path):
            if spi_depth is None and declares_public.match(line) and "@_spi" not in line:
                count += 1
            if spi_depth is None and "@_spi" in line and opens_type.search(line):
                spi_depth = depth
            depth += line.count("{") - line.count("}")
            if spi_depth is not None and depth <= spi_depth and "}" in line:
                spi_depth = None
    total[module] = count
CEILING = 526
print(" ".join(f"{module} {count}" for module, count in total.items()), "- total", sum(total.values()), f"(ceiling {CEILING})")
if sum(total.values()) > CEILING:
    sys.exit(f"public-api-count: {sum(total.values())} lines declare something public, past the ceiling of {CEILING}")
