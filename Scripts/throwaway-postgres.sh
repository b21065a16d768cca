#!/usr/bin/env bash
# Starts a throwaway PostgreSQL cluster on loopback, for trying a fleet's store on PostgreSQL and
# for the tests that need one, and prints its address (postgres://navstore@127.0.0.1:PORT/navstore).
#
#   Scripts/throwaway-postgres.sh start [PORT]     # default port 54329; prints the address
#   Scripts/throwaway-postgres.sh standby [PORT]   # a hot standby of it (pg_basebackup -R), default
#                                                  # port 54339; prints its address
#   Scripts/throwaway-postgres.sh halt             # the primary stopped, its files kept
#                                                  # ('start' starts it again)
#   Scripts/throwaway-postgres.sh stop-standby     # the standby stopped, and its files ('standby'
#                                                  # makes a new one: the old one would need WAL
#                                                  # the primary may have recycled since)
#   Scripts/throwaway-postgres.sh stop             # both, and their files
#
# The cluster lives in $NAVSTORE_PG_DIR (default /tmp/navstore-postgres) and trusts loopback
# connections: never use it for anything but a test. PostgreSQL refuses to run as root, so
# under root the cluster belongs to the `postgres` user (made by Debian's package). Needs
# PostgreSQL's server programs (initdb, pg_ctl): Debian's postgresql-15 package.
set -euo pipefail

dir="${NAVSTORE_PG_DIR:-/tmp/navstore-postgres}"
command="${1:-start}"
port="${2:-54329}"

bin=""
for candidate in /usr/lib/postgresql/15/bin /usr/lib/postgresql/*/bin; do
  if [ -x "$candidate/initdb" ]; then bin="$candidate"; break; fi
done
if [ -z "$bin" ]; then
  bin="$(dirname "$(command -v initdb 2>/dev/null || echo /nonexistent/initdb)")"
fi
[ -x "$bin/initdb" ] || { echo "throwaway-postgres: no initdb; install postgresql-15 (apt-get install postgresql-15)" >&2; exit 1; }

as_owner() {
  if [ "$(id -u)" = 0 ]; then
    su postgres -s /bin/bash -c "$(printf '%q ' "$@")"
  else
    "$@"
  fi
}

case "$command" in
start)
  if [ ! -f "$dir/data/PG_VERSION" ]; then
    mkdir -p "$dir"
    [ "$(id -u)" = 0 ] && chown postgres "$dir"
    as_owner "$bin/initdb" -D "$dir/data" -U navstore --auth=trust --no-sync -E UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 \
      || { cat "$dir/initdb.log" >&2; exit 1; }
  fi
  if ! as_owner "$bin/pg_ctl" -D "$dir/data" status >/dev/null 2>&1; then
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
      -o "-p $port -c listen_addresses=127.0.0.1 -k $dir -c fsync=off -c max_connections=200 -c wal_level=replica -c max_wal_senders=4" \
      start >/dev/null || { cat "$dir/server.log" >&2; exit 1; }
  fi
  as_owner "$bin/psql" -h 127.0.0.1 -p "$port" -U navstore -d postgres -tAc \
    "SELECT 1 FROM pg_database WHERE datname = 'navstore'" | grep -q 1 \
    || as_owner "$bin/createdb" -h 127.0.0.1 -p "$port" -U navstore navstore
  echo "$port" >"$dir/port"
  echo "postgres://navstore@127.0.0.1:$port/navstore?sslmode=disable"
  ;;
standby)
  port="${2:-54339}"
  primary="$(cat "$dir/port" 2>/dev/null)" || { echo "throwaway-postgres: start the primary first" >&2; exit 1; }
  if [ ! -f "$dir/standby/PG_VERSION" ]; then
    as_owner "$bin/pg_basebackup" -h 127.0.0.1 -p "$primary" -U navstore -D "$dir/standby" -R -X stream --checkpoint=fast \
      >"$dir/basebackup.log" 2>&1 || { cat "$dir/basebackup.log" >&2; exit 1; }
  fi
  if ! as_owner "$bin/pg_ctl" -D "$dir/standby" status >/dev/null 2>&1; then
    as_owner "$bin/pg_ctl" -D "$dir/standby" -l "$dir/standby.log" -w -t 60 \
      -o "-p $port -c listen_addresses=127.0.0.1 -k $dir -c hot_standby=on -c max_connections=200" \
      start >/dev/null || { cat "$dir/standby.log" >&2; exit 1; }
  fi
  echo "postgres://navstore@127.0.0.1:$port/navstore?sslmode=disable"
  ;;
halt)
  as_owner "$bin/pg_ctl" -D "$dir/data" -m fast stop >/dev/null
  ;;
stop-standby)
  as_owner "$bin/pg_ctl" -D "$dir/standby" -m fast stop >/dev/null 2>&1 || true
  rm -rf "$dir/standby"
  ;;
stop)
  as_owner "$bin/pg_ctl" -D "$dir/standby" -m fast stop >/dev/null 2>&1 || true
  as_owner "$bin/pg_ctl" -D "$dir/data" -m fast stop >/dev/null 2>&1 || true
  rm -rf "$dir"
  ;;
*)
  echo "usage: throwaway-postgres.sh start [PORT] | standby [PORT] | halt | stop-standby | stop" >&2
  exit 2
  ;;
esac
