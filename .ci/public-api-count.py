#!/usr/bin/env python3
# The public declarations of the JSON, model and store modules, counted as lines that declare
# something public: not @_spi declarations, nor the members of an @_spi type (reachable only
# through an @_spi import).  python3 .ci/public-api-count.py [CHECKOUT]
import re, glob, sys
