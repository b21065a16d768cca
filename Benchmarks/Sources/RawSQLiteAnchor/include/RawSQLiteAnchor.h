// The physical-limit anchor: the same inserts NavStore makes, written directly against
// libsqlite3 with no validation, hashing or encoding (all precomputed by the caller).
#ifndef RAW_SQLITE_ANCHOR_H
#define RAW_SQLITE_ANCHOR_H

#include <stdint.h>

/// One event row, precomputed: the text and bytes NavStore would write.
typedef struct {
  int64_t seq;
  int64_t at;
  const char *origin;
  const char *op;
  const uint8_t *hash;   // 32 bytes
  const char *snapshot;  // the state to snapshot after this event, or NULL
  int64_t depth;
} raw_event;

/// Appends `count` events of `session` to the store at `path`, one transaction per event
/// (`per_event_transactions` = 1) or all in one transaction (0). Returns 0, or the SQLite error.
int raw_append(const char *path, const char *session, const raw_event *events, int64_t count,
               int per_event_transactions);

/// Folds the store's write-ahead log into the database file, so the file's size is the data's
/// (`PRAGMA wal_checkpoint(TRUNCATE)`). Returns 0, or the SQLite error.
int raw_checkpoint(const char *path);

#endif
