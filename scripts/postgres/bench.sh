#!/usr/bin/env bash
# Placement throughput on PostgreSQL (docs/SCALE.md): for W = 1, 2, 3 `robots worker`
# processes (one match at a time each) on a private cluster, the shipped programs are
# queued on a fresh hill with no worker running; then the workers start, and the matches
# stored per second until every placement is done are printed. Then the time another
# worker takes to finish the piece of a worker killed with SIGKILL, for a few kills.
#
#   scripts/postgres/bench.sh [SEEDS]     (SEEDS: the hill's seeds, default 1..40)
#
# ROBOTS: the binary (default target/release/robots). Installs Debian's postgresql when
# missing. Not part of scripts/test: a measure, not a check.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROBOTS="$(readlink -f "${ROBOTS:-target/release/robots}")"
here="$(pwd)/scripts/postgres"
# shellcheck source=scripts/postgres/cluster.sh
source "$here/cluster.sh"
pg_install
SEEDS="${1:-1..40}"
LEASE=3

work=$(mktemp -d /tmp/robots-pg-bench.XXXXXX)
chmod 755 "$work"
pids=()
cleanup() {
    for p in "${pids[@]}"; do kill -KILL "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done
    pg_stop
    rm -rf "$work"
}
trap cleanup EXIT
pg_start "$work/pg"

ms() { echo $(( $(date +%s%N) / 1000000 )); }

# Queues the shipped programs on hill $1 through a server with no workers.
queue_hill() {
    local hill="$1"
    "$ROBOTS" serve hill create "$hill" --board classic --robots 3 --size 30 --seeds "$SEEDS" --rounds 400 \
        --db "$PG_URL" >/dev/null
    local token p
    token=$(python3 "$here/api.py" "$SERVER" token bench bench-password)
    for p in programs/*.robot; do python3 "$here/api.py" "$SERVER" submit "$token" "$hill" "$p" >/dev/null; done
}

"$ROBOTS" serve --db "$PG_URL" --listen 127.0.0.1:0 --workers 0 --queue 1000 \
    --submissions-per-hour 100000 >"$work/server.log" 2>&1 &
pids+=($!)
for _ in $(seq 1 100); do
    SERVER=$(sed -n 's/^robots arena: listening on \(http:[^ ]*\)\/$/\1/p' "$work/server.log")
    [ -n "$SERVER" ] && break
    sleep 0.1
done
python3 "$here/api.py" "$SERVER" signup bench bench-password >/dev/null

echo "workers  matches  seconds  matches/s"
for w in 1 2 3; do
    hill="w$w"
    queue_hill "$hill"
    hill_id=$(pg_sql "SELECT id FROM hills WHERE name = '$hill'")
    start=$(ms)
    started=()
    for i in $(seq 1 "$w"); do
        "$ROBOTS" worker --db "$PG_URL" --jobs 1 --lease "$LEASE" >"$work/w$w-$i.log" 2>&1 &
        pids+=($!); started+=($!)
    done
    while [ "$(pg_sql "SELECT count(*) FROM jobs j JOIN programs p ON p.id = j.program WHERE p.hill = $hill_id AND j.state != 'done'")" != 0 ]; do
        sleep 0.05
    done
    elapsed=$(( $(ms) - start ))
    n=$(pg_sql "SELECT count(*) FROM matches WHERE hill = $hill_id")
    for p in "${started[@]}"; do kill -TERM "$p"; wait "$p" 2>/dev/null || true; done
    printf "%7d  %7d  %7.2f  %9.0f\n" "$w" "$n" "$(echo "$elapsed / 1000" | bc -l)" "$(echo "$n * 1000 / $elapsed" | bc -l)"
done

echo
echo "kill  piece  finished after (ms, lease ${LEASE} s)"
survivors=()
for i in 1 2; do
    "$ROBOTS" worker --db "$PG_URL" --jobs 1 --lease "$LEASE" >"$work/k-$i.log" 2>&1 &
    pids+=($!); survivors+=($!)
done
for k in 1 2 3; do
    "$ROBOTS" worker --db "$PG_URL" --jobs 1 --lease "$LEASE" >"$work/victim-$k.log" 2>&1 &
    victim=$!
    pids+=($victim)
    sleep 0.5
    queue_hill "kill$k"
    piece=""
    for _ in $(seq 1 1500); do
        piece=$(pg_sql "SELECT id FROM pieces WHERE state = 'running' AND worker LIKE '%.$victim.%' LIMIT 1")
        if [ -n "$piece" ]; then
            kill -STOP "$victim"
            [ -n "$(pg_sql "SELECT id FROM pieces WHERE id = $piece AND state = 'running' AND worker LIKE '%.$victim.%'")" ] && break
            kill -CONT "$victim"; piece=""
        fi
        sleep 0.02
    done
    [ -n "$piece" ] || { echo "worker $victim never held a piece"; exit 1; }
    kill -KILL "$victim"; killed=$(ms); wait "$victim" 2>/dev/null || true
    while [ "$(pg_sql "SELECT state FROM pieces WHERE id = $piece")" != done ]; do sleep 0.02; done
    printf "%4d  %5d  %d\n" "$k" "$piece" "$(( $(ms) - killed ))"
done
