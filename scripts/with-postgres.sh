#!/usr/bin/env bash
# Runs a command against a throwaway PostgreSQL cluster: initdb in a temporary folder as a
# non-root user, start it on a free local port, export ASSIST_TEST_DATABASE_URL, run the
# command, then stop and remove the cluster whatever the command's outcome.
set -euo pipefail
PG_BIN=${PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)}
[ -x "$PG_BIN/initdb" ] || { echo "with-postgres: PostgreSQL is not installed (apt-get install -y postgresql)" >&2; exit 2; }
RUN_AS=()
if [ "$(id -u)" = 0 ]; then RUN_AS=(runuser -u postgres --); fi
DIR=$(mktemp -d /tmp/assist-pg.XXXXXX)
chmod 777 "$DIR"
PORT=$(node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
cleanup() { "${RUN_AS[@]}" "$PG_BIN/pg_ctl" -D "$DIR/data" -m immediate stop >/dev/null 2>&1 || true; rm -rf "$DIR"; }
trap cleanup EXIT
"${RUN_AS[@]}" "$PG_BIN/initdb" -D "$DIR/data" -U assist --auth=trust -E UTF8 >/dev/null
"${RUN_AS[@]}" "$PG_BIN/pg_ctl" -D "$DIR/data" -l "$DIR/log" -w \
  -o "-p $PORT -k $DIR -c listen_addresses=127.0.0.1 -c max_connections=300 -c fsync=off -c synchronous_commit=off -c full_page_writes=off" start >/dev/null
export ASSIST_TEST_DATABASE_URL="postgres://assist@127.0.0.1:$PORT/postgres"
echo "with-postgres: PostgreSQL on port $PORT"
"$@"
