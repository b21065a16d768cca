#include "RawSQLiteAnchor.h"

#include <sqlite3.h>
#include <stdio.h>

static int fail(sqlite3 *db, int code) {
  fprintf(stderr, "raw anchor: %s\n", sqlite3_errmsg(db));
  return code;
}

int raw_append(const char *path, const char *session, const raw_event *events, int64_t count,
               int per_event_transactions) {
  sqlite3 *db = NULL;
  int code = sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, NULL);
  if (code != SQLITE_OK) return fail(db, code);
  sqlite3_exec(db, "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;", NULL, NULL, NULL);
  sqlite3_stmt *insert_session = NULL, *insert_event = NULL, *update_session = NULL, *insert_snapshot = NULL;
  sqlite3_prepare_v3(db, "INSERT OR IGNORE INTO sessions (id) VALUES (?)", -1, SQLITE_PREPARE_PERSISTENT, &insert_session, NULL);
  sqlite3_prepare_v3(db, "INSERT INTO events (session_id, seq, at, origin, op, cause, hash) VALUES (?, ?, ?, ?, ?, NULL, ?)", -1,
                     SQLITE_PREPARE_PERSISTENT, &insert_event, NULL);
  sqlite3_prepare_v3(db,
                     "UPDATE sessions SET event_count = ?, first_at = coalesce(first_at, ?), last_at = ?, head_hash = ?, depth = ? WHERE id = ?",
                     -1, SQLITE_PREPARE_PERSISTENT, &update_session, NULL);
  sqlite3_prepare_v3(db, "INSERT INTO snapshots (session_id, seq, state) VALUES (?, ?, ?)", -1, SQLITE_PREPARE_PERSISTENT,
                     &insert_snapshot, NULL);
  if (!per_event_transactions) sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL);
  for (int64_t i = 0; i < count; i++) {
    const raw_event *event = &events[i];
    if (per_event_transactions) sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL);
    if (event->seq == 1) {
      sqlite3_bind_text(insert_session, 1, session, -1, SQLITE_STATIC);
      if (sqlite3_step(insert_session) != SQLITE_DONE) return fail(db, 1);
      sqlite3_reset(insert_session);
    }
    sqlite3_bind_text(insert_event, 1, session, -1, SQLITE_STATIC);
    sqlite3_bind_int64(insert_event, 2, event->seq);
    sqlite3_bind_int64(insert_event, 3, event->at);
    sqlite3_bind_text(insert_event, 4, event->origin, -1, SQLITE_STATIC);
    sqlite3_bind_text(insert_event, 5, event->op, -1, SQLITE_STATIC);
    sqlite3_bind_blob(insert_event, 6, event->hash, 32, SQLITE_STATIC);
    if (sqlite3_step(insert_event) != SQLITE_DONE) return fail(db, 2);
    sqlite3_reset(insert_event);
    sqlite3_bind_int64(update_session, 1, event->seq);
    sqlite3_bind_int64(update_session, 2, event->at);
    sqlite3_bind_int64(update_session, 3, event->at);
    sqlite3_bind_blob(update_session, 4, event->hash, 32, SQLITE_STATIC);
    sqlite3_bind_int64(update_session, 5, event->depth);
    sqlite3_bind_text(update_session, 6, session, -1, SQLITE_STATIC);
    if (sqlite3_step(update_session) != SQLITE_DONE) return fail(db, 3);
    sqlite3_reset(update_session);
    if (event->snapshot) {
      sqlite3_bind_text(insert_snapshot, 1, session, -1, SQLITE_STATIC);
      sqlite3_bind_int64(insert_snapshot, 2, event->seq);
      sqlite3_bind_text(insert_snapshot, 3, event->snapshot, -1, SQLITE_STATIC);
      if (sqlite3_step(insert_snapshot) != SQLITE_DONE) return fail(db, 4);
      sqlite3_reset(insert_snapshot);
    }
    if (per_event_transactions) sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
  }
  if (!per_event_transactions) sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
  sqlite3_finalize(insert_session);
  sqlite3_finalize(insert_event);
  sqlite3_finalize(update_session);
  sqlite3_finalize(insert_snapshot);
  sqlite3_close_v2(db);
  return 0;
}

int raw_checkpoint(const char *path) {
  sqlite3 *db = NULL;
  int code = sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, NULL);
  if (code != SQLITE_OK) return fail(db, code);
  code = sqlite3_exec(db, "PRAGMA wal_checkpoint(TRUNCATE)", NULL, NULL, NULL);
  if (code != SQLITE_OK) return fail(db, code);
  return sqlite3_close(db);
}
