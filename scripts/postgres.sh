#!/usr/bin/env bash
# A throwaway PostgreSQL server for tests and benchmarks: Debian's `postgresql` binaries, a cluster in a
# temporary folder, listening on loopback only, no system service.
#   scripts/postgres.sh start DIR PORT   → prints the URL of database `overseer` (postgres://…); a
#                                          cluster already in DIR is started again, as it was
#   scripts/postgres.sh stop DIR
# PostgreSQL refuses to run as root: as root the cluster belongs to the `postgres` user (runuser).
set -euo pipefail
cmd=${1:?start|stop} dir=${2:?folder}
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -n "$bin" ] || { echo "PostgreSQL is not installed (Debian package postgresql)" >&2; exit 1; }
# PostgreSQL keeps the real clock when the tests run under faketime: libfaketime preloaded into the
# cluster stops its lock_timeout from firing, and the clock under test is the server's, not the engine's.
as_owner() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- env -u LD_PRELOAD -u FAKETIME "$@"; else env -u LD_PRELOAD -u FAKETIME "$@"; fi; }

case $cmd in
start)
  port=${3:?port}
  fresh=false
  if [ ! -d "$dir/data" ]; then
    fresh=true
    mkdir -p "$dir"
    [ "$(id -u)" != 0 ] || chown postgres:postgres "$dir"
    as_owner "$bin/initdb" -D "$dir/data" -U postgres --auth=trust -E UTF8 --no-sync >"$dir/initdb.log"
  fi
  # Durability off: a test cluster is thrown away; max_connections covers parallel test files, each
  # server holding a few connections.
  as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -o "-c listen_addresses=127.0.0.1 -p $port -k $dir \
    -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=400 -c shared_buffers=128MB" start >/dev/null
  ! $fresh || as_owner "$bin/createdb" -h 127.0.0.1 -p "$port" -U postgres overseer
  echo "postgres://postgres@127.0.0.1:$port/overseer"
  ;;
stop)
  [ -d "$dir/data" ] && as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null || true
  ;;
*) echo "usage: $0 start DIR PORT | stop DIR" >&2; exit 2 ;;
esac
