"""schemathesis hooks for the collector's document (loaded through SCHEMATHESIS_HOOKS).

An upload's body is JSON Lines, which schemathesis has no serializer for: the generated value
(a string, as the document's schema says) is sent as it is, in UTF-8.
"""

import schemathesis


@schemathesis.serializer("application/x-ndjson")
def json_lines(context, value):
    if isinstance(value, bytes):
        return value
    return str(value).encode("utf-8", "surrogatepass")
