#!/usr/bin/env bash
# A throwaway MariaDB server for tests: Debian's `mariadb-server` binaries, a data folder in a temporary
# folder, listening on 127.0.0.1 only, no system service.
#   scripts/mariadb.sh start DIR PORT   → prints the URL of database `overseer` for user `overseer`, who may
#                                         create databases (mysql://…); a data folder already in DIR is
#                                         started again, as it was
#   scripts/mariadb.sh stop DIR
# mariadbd refuses to run as root unless told which user to be: as root it runs as `mysql`, owner of DIR.
set -euo pipefail
cmd=${1:?start|stop} dir=${2:?folder}
server=$(command -v mariadbd || ls /usr/sbin/mariadbd 2>/dev/null || true)
[ -n "$server" ] || { echo "MariaDB is not installed (Debian package mariadb-server)" >&2; exit 1; }
# The real clock for the server when the tests run under faketime (as scripts/postgres.sh does).
real_clock() { env -u LD_PRELOAD -u FAKETIME "$@"; }
client() { mariadb --no-defaults --protocol=socket --socket="$dir/mariadbd.sock" -uroot "$@"; }

case $cmd in
start)
  port=${3:?port}
  dir=$(realpath -m "$dir")
  owner=()
  [ "$(id -u)" != 0 ] || owner=(--user=mysql)
  fresh=false
  if [ ! -d "$dir/data" ]; then
    fresh=true
    mkdir -p "$dir"
    if [ "$(id -u)" = 0 ]; then
      chown mysql:mysql "$dir"
      runuser -u mysql -- test -w "$dir" || { echo "$dir: the mysql user cannot reach it (a parent folder closed to it?)" >&2; exit 1; }
    fi
    # root without a password, reachable only through the socket in DIR; no test database.
    real_clock mariadb-install-db --no-defaults "${owner[@]}" --datadir="$dir/data" --auth-root-authentication-method=normal \
      --skip-test-db >"$dir/install.log" 2>&1
  fi
  # Durability off and small buffers: a test server is thrown away. The server is its own process
  # group's leader (setsid), so that no signal for the caller's group reaches it.
  real_clock setsid "$server" --no-defaults "${owner[@]}" --datadir="$dir/data" --socket="$dir/mariadbd.sock" \
    --pid-file="$dir/mariadbd.pid" --log-error="$dir/server.log" --bind-address=127.0.0.1 --port="$port" \
    --skip-name-resolve --skip-log-bin --innodb-buffer-pool-size=32M --innodb-flush-log-at-trx-commit=0 \
    --innodb-doublewrite=0 --max-connections=200 </dev/null >/dev/null 2>&1 &
  for _ in $(seq 1 300); do
    client -e 'SELECT 1' >/dev/null 2>&1 && break
    kill -0 $! 2>/dev/null || { echo "mariadbd did not start: see $dir/server.log" >&2; exit 1; }
    sleep 0.1
  done
  client -e 'SELECT 1' >/dev/null 2>&1 || { echo "mariadbd did not answer within 30 s: see $dir/server.log" >&2; exit 1; }
  ! $fresh || client -e "CREATE DATABASE overseer; CREATE USER 'overseer'@'127.0.0.1' IDENTIFIED BY 'overseer';
    GRANT ALL ON *.* TO 'overseer'@'127.0.0.1' WITH GRANT OPTION;"
  echo "mysql://overseer:overseer@127.0.0.1:$port/overseer"
  ;;
stop)
  [ -f "$dir/mariadbd.pid" ] || exit 0
  pid=$(cat "$dir/mariadbd.pid")
  kill "$pid" 2>/dev/null || exit 0
  for _ in $(seq 1 300); do kill -0 "$pid" 2>/dev/null || exit 0; sleep 0.1; done
  echo "mariadbd ($pid) did not stop within 30 s" >&2
  exit 1
  ;;
*) echo "usage: $0 start DIR PORT | stop DIR" >&2; exit 2 ;;
esac
