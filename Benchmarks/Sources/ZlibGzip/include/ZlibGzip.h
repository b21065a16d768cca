#ifndef ZLIB_GZIP_H
#define ZLIB_GZIP_H
#include <stddef.h>

/// Compresses `length` bytes at `input` as one gzip member (zlib's default level) into `output`,
/// which holds `capacity` bytes; returns the compressed length, or 0 when it did not fit or zlib
/// failed. `zlib_gzip_bound` is a capacity that always fits.
size_t zlib_gzip(const unsigned char *input, size_t length, unsigned char *output, size_t capacity);
size_t zlib_gzip_bound(size_t length);

#endif
