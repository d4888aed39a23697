# A private PostgreSQL cluster for the tests (sourced, not run): `pg_install` installs
# Debian's postgresql when missing; `pg_start DIR` runs initdb in DIR (a new folder), starts
# the server on a free loopback port, its socket in DIR, and sets PG_PID, PG_PORT and PG_URL;
# `pg_stop` stops it by its pid (a fast shutdown, then SIGKILL after 20 s). As root, the
# cluster belongs to the user `postgres` (PostgreSQL refuses to run as root).

pg_bin() {
    local bin
    bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
    [ -n "$bin" ] && echo "$bin"
}

pg_install() {
    if [ -z "$(pg_bin)" ]; then
        echo "== installing postgresql"
        local sudo=""
        [ "$(id -u)" -eq 0 ] || sudo=sudo
        $sudo apt-get update
        $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y postgresql postgresql-client
    fi
}

pg_as_owner() {
    if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

free_port() {
    python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'
}

pg_start() {
    local dir="$1" bin
    bin=$(pg_bin)
    mkdir -p "$dir"
    [ "$(id -u)" -eq 0 ] && chown postgres "$dir"
    pg_as_owner "$bin/initdb" -D "$dir/data" -U robots -A trust --no-sync -E UTF8 >"$dir/initdb.log" 2>&1 \
        || { cat "$dir/initdb.log"; return 1; }
    PG_PORT=$(free_port)
    pg_as_owner "$bin/postgres" -D "$dir/data" -p "$PG_PORT" -k "$dir" \
        -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200 \
        >"$dir/postgres.log" 2>&1 &
    PG_PID=$!
    PG_URL="postgres://robots@127.0.0.1:$PG_PORT/postgres"
    local i
    for i in $(seq 1 200); do
        if "$bin/pg_isready" -q -h 127.0.0.1 -p "$PG_PORT"; then
            # The postmaster's own pid (as root, $! is runuser's).
            PG_PID=$(head -1 "$dir/data/postmaster.pid")
            return 0
        fi
        kill -0 "$PG_PID" 2>/dev/null || break
        sleep 0.1
    done
    echo "PostgreSQL did not start:"; cat "$dir/postgres.log"
    return 1
}

pg_stop() {
    [ -n "${PG_PID:-}" ] || return 0
    kill -INT "$PG_PID" 2>/dev/null || true
    local i
    for i in $(seq 1 200); do
        kill -0 "$PG_PID" 2>/dev/null || { PG_PID=""; return 0; }
        sleep 0.1
    done
    kill -KILL "$PG_PID" 2>/dev/null || true
    PG_PID=""
}

pg_sql() {
    "$(pg_bin)/psql" -X -q -A -t -h 127.0.0.1 -p "$PG_PORT" -U robots -d postgres -c "$1"
}
