// The system zlib (Debian: zlib1g-dev; part of every Apple SDK), exposed to Swift as the CZlib
// module: the uploader's gzip, without SwiftNIO.
#include <zlib.h>
