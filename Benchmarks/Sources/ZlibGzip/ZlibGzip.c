// gzip through the system's zlib, for the load driver's bodies (what a device's uploader sends).
#include "ZlibGzip.h"
#include <string.h>
#include <zlib.h>

size_t zlib_gzip_bound(size_t length) { return length + length / 1000 + 64; }

size_t zlib_gzip(const unsigned char *input, size_t length, unsigned char *output, size_t capacity) {
  z_stream stream;
  memset(&stream, 0, sizeof stream);
  // windowBits 15 + 16: a gzip header and trailer rather than zlib's.
  if (deflateInit2(&stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) return 0;
  stream.next_in = (unsigned char *)input;
  stream.avail_in = (uInt)length;
  stream.next_out = output;
  stream.avail_out = (uInt)capacity;
  int status = deflate(&stream, Z_FINISH);
  size_t written = stream.total_out;
  deflateEnd(&stream);
  return status == Z_STREAM_END ? written : 0;
}
