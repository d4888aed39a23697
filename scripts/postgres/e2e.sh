#!/usr/bin/env bash
# The arena past one machine, tested live (docs/SCALE.md): a private PostgreSQL cluster
# (initdb in a temporary folder, a free loopback port, stopped by pid on exit, failure
# included), two `robots serve --workers 0` and three `robots worker` processes on it. The
# shipped programs are submitted through both servers; one worker is killed with SIGKILL
# while it holds a piece of a placement, and another finishes that piece once its lease runs
# out. The standings, as both servers show them, must equal byte for byte those of one
# `robots serve` on a SQLite file given the same submissions, and the matches stored be the
# same, each stored once. Installs Debian's postgresql when missing.
#
# ROBOTS: the binary (default target/release/robots). Prints the time another worker took to
# finish the killed worker's piece.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROBOTS="$(readlink -f "${ROBOTS:-target/release/robots}")"
here="$(pwd)/scripts/postgres"
# shellcheck source=scripts/postgres/cluster.sh
source "$here/cluster.sh"
pg_install

work=$(mktemp -d /tmp/robots-pg-e2e.XXXXXX)
chmod 755 "$work"
pids=()
cleanup() {
    local status=$?
    for p in "${pids[@]}"; do kill -TERM "$p" 2>/dev/null || true; done
    for p in "${pids[@]}"; do
        for _ in $(seq 1 50); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
        kill -KILL "$p" 2>/dev/null || true
        wait "$p" 2>/dev/null || true
    done
    pg_stop
    if [ "$status" -ne 0 ]; then
        for log in "$work"/*.log; do
            [ -f "$log" ] && { echo "--- $(basename "$log")"; tail -15 "$log"; }
        done
    fi
    rm -rf "$work"
    exit "$status"
}
trap cleanup EXIT

HILL=e2e
SETTINGS=(--board classic --robots 2 --size 20 --seeds 1..16 --rounds 600)
PROGRAMS=(programs/*.robot)
LEASE=3

# A server on a free port: its pid in pids, its address in ADDR.
start_server() {
    local db="$1" log="$2" workers="$3"
    "$ROBOTS" serve --db "$db" --listen 127.0.0.1:0 --workers "$workers" --lease "$LEASE" \
        --submissions-per-hour 1000 >"$log" 2>&1 &
    pids+=($!)
    local i
    for i in $(seq 1 100); do
        local addr
        addr=$(sed -n 's/^robots arena: listening on \(http:[^ ]*\)\/$/\1/p' "$log")
        if [ -n "$addr" ]; then ADDR="$addr"; return 0; fi
        sleep 0.1
    done
    echo "a server did not start" >&2
    return 1
}

api() { python3 "$here/api.py" "$@"; }

# Waits until no job is left, asking with `$1` (a command printing the count), up to 300 s.
wait_done() {
    local i n
    for i in $(seq 1 3000); do
        n=$("$@")
        [ "$n" = 0 ] && return 0
        sleep 0.1
    done
    echo "placements not done after 300 s ($n jobs left)" >&2
    return 1
}

lite_sql() {
    python3 -c 'import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); print("\n".join("|".join(map(str,r)) for r in c.execute(sys.argv[2])))' "$1" "$2"
}

MATCHES="SELECT g.name, v.name, m.seed_index, m.seed, m.winner, m.rounds, m.reason FROM matches m
         JOIN programs g ON g.id = m.green JOIN programs v ON v.id = m.violet ORDER BY 1, 2, 3"
DUPLICATES="SELECT count(*) FROM (SELECT 1 FROM matches GROUP BY green, violet, seed_index HAVING count(*) > 1) d"

echo "== the reference: one robots serve on a SQLite file"
"$ROBOTS" serve hill create "$HILL" "${SETTINGS[@]}" --db "$work/ref.sqlite" >/dev/null
start_server "$work/ref.sqlite" "$work/ref.log" 1; ref=$ADDR
token=$(api "$ref" signup player player-password)
for p in "${PROGRAMS[@]}"; do api "$ref" submit "$token" "$HILL" "$p" >/dev/null; done
start=$(date +%s%N)
wait_done lite_sql "$work/ref.sqlite" "SELECT count(*) FROM jobs WHERE state != 'done'"
echo "placed in $(( ($(date +%s%N) - start) / 1000000 )) ms"
api "$ref" get "/api/v1/hills/$HILL/standings" >"$work/ref.standings.json"
lite_sql "$work/ref.sqlite" "$MATCHES" >"$work/ref.matches"
kill -TERM "${pids[0]}"; wait "${pids[0]}" || true; pids=()

echo "== PostgreSQL: a private cluster, two servers, three workers"
pg_start "$work/pg"
"$ROBOTS" serve hill create "$HILL" "${SETTINGS[@]}" --db "$PG_URL" >/dev/null
start_server "$PG_URL" "$work/server-a.log" 0; a=$ADDR
start_server "$PG_URL" "$work/server-b.log" 0; b=$ADDR
workers=()
start_worker() {
    "$ROBOTS" worker --db "$PG_URL" --jobs 1 --lease "$LEASE" >"$work/worker-$1.log" 2>&1 &
    pids+=($!); workers+=($!)
}
# An account made on one server signs in on the other (sessions and tokens are the database's).
token=$(api "$a" signup player player-password)
token_b=$(api "$b" token player player-password)
i=0
for p in "${PROGRAMS[@]}"; do
    if [ $((i % 2)) -eq 0 ]; then api "$a" submit "$token" "$HILL" "$p"; else api "$b" submit "$token_b" "$HILL" "$p"; fi >/dev/null
    i=$((i + 1))
done
start=$(date +%s%N)
# The submissions queued, the first worker starts alone; the two others once it holds a
# piece, so that the placements are still under way when a worker is killed.
start_worker 1
for i in $(seq 1 3000); do
    [ -n "$(pg_sql "SELECT id FROM pieces WHERE state = 'running' LIMIT 1")" ] && break
    sleep 0.01
done
start_worker 2
start_worker 3

echo "== SIGKILL to a worker holding a piece"
# Whichever worker holds a piece (a worker's name is HOST.PID.N).
victim=""
piece=""
for i in $(seq 1 3000); do
    held=$(pg_sql "SELECT id || ' ' || split_part(worker, '.', 2) FROM pieces WHERE state = 'running' ORDER BY id LIMIT 1")
    if [ -n "$held" ]; then
        read -r piece victim <<<"$held"
        case " ${workers[*]} " in *" $victim "*) ;; *) piece=""; sleep 0.02; continue ;; esac
        kill -STOP "$victim"
        # Still its piece once frozen (it may have finished it between the query and the stop).
        if [ -n "$(pg_sql "SELECT id FROM pieces WHERE id = $piece AND state = 'running' AND worker LIKE '%.$victim.%'")" ]; then
            kill -KILL "$victim"
            killed=$(date +%s%N)
            break
        fi
        kill -CONT "$victim"
        piece=""
    fi
    sleep 0.02
done
[ -n "$piece" ] || { echo "no worker was seen holding a piece"; exit 1; }
wait "$victim" 2>/dev/null || true
echo "worker $victim killed holding piece $piece"
for i in $(seq 1 3000); do
    [ "$(pg_sql "SELECT state FROM pieces WHERE id = $piece")" = done ] && break
    sleep 0.02
done
[ "$(pg_sql "SELECT state FROM pieces WHERE id = $piece")" = done ] || { echo "piece $piece never finished"; exit 1; }
echo "piece $piece finished by $(pg_sql "SELECT worker FROM pieces WHERE id = $piece") $(( ($(date +%s%N) - killed) / 1000000 )) ms after the kill (lease ${LEASE} s)"
wait_done pg_sql "SELECT count(*) FROM jobs WHERE state != 'done'"
echo "placed in $(( ($(date +%s%N) - start) / 1000000 )) ms"

echo "== the same standings, the same matches, each once"
api "$a" get "/api/v1/hills/$HILL/standings" >"$work/a.standings.json"
api "$b" get "/api/v1/hills/$HILL/standings" >"$work/b.standings.json"
pg_sql "$MATCHES" >"$work/pg.matches"
cmp "$work/ref.standings.json" "$work/a.standings.json"
cmp "$work/ref.standings.json" "$work/b.standings.json"
cmp "$work/ref.matches" "$work/pg.matches"
[ "$(pg_sql "$DUPLICATES")" = 0 ]
n=$(wc -l <"$work/pg.matches")
[ "$n" -gt 0 ]
grep -q '"rank":1' "$work/a.standings.json"
echo "standings of ${#PROGRAMS[@]} programs and $n matches equal to the SQLite run; no match stored twice"
echo "pieces by worker: $(pg_sql "SELECT worker || ':' || count(*) FROM pieces GROUP BY worker ORDER BY 1" | tr '\n' ' ')"
echo "postgres e2e: ok"
