#!/usr/bin/env bash
# The Slurm end-to-end test (docs/SCALE.md, "Slurm"): a single-node cluster on loopback in a
# temporary folder, a 4-shard tournament of the shipped programs submitted as a job array by
# the script of `robots tournament … --slurm-script 4`, its merge job's standings compared
# byte for byte with the same tournament played in one process.
#
# Installs slurm-wlm and munge with apt-get when they are missing (as root, or through
# sudo). Starts munged, slurmctld and slurmd with their own key, sockets, ports, state and
# logs in the temporary folder, and stops them by pid on the way out, on failure too.
# Exits non-zero, saying why, when the cluster does not start (the daemons' logs shown).
# Uses the release binary: ${CARGO_TARGET_DIR:-target}/release/robots (ROBOTS overrides).
set -euo pipefail
cd "$(dirname "$0")/../.."
robots=${ROBOTS:-${CARGO_TARGET_DIR:-target}/release/robots}
robots=$(readlink -f -- "$robots")
# The tournament: the shipped programs with the defaults of `robots tournament` (20 seeds,
# 4,800 matches; the README's standings), in 4 shards. E2E_SEEDS=N plays N seeds instead
# (a longer run, to time the array; docs/SCALE.md).
field=(programs/ --seeds "${E2E_SEEDS:-20}")
shards=4
start=$(date +%s)

say() { echo "slurm e2e: $*"; }
# Milliseconds since the epoch, and a span of them in seconds.
now() { echo $(($(date +%s%N) / 1000000)); }
seconds() { printf '%d.%02d' $((($(now) - $1) / 1000)) $((($(now) - $1) % 1000 / 10)); }
fail() {
    echo "slurm e2e: FAILED: $*" >&2
    exit 1
}
as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

[ -x "$robots" ] || fail "no release binary at $robots (cargo build --release)"
if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null ||
    ! command -v sbatch >/dev/null || ! command -v munged >/dev/null; then
    say "installing slurm-wlm and munge"
    as_root apt-get update -q
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q slurm-wlm munge
fi
[ "$(id -u)" -eq 0 ] || fail "the test cluster runs its daemons as root (SlurmUser=root): run as root"

tmp=$(mktemp -d /tmp/robots-slurm-e2e.XXXXXX)
chmod 755 "$tmp"
pids=()
cleanup() {
    local status=$?
    # Stop every daemon this script started, by pid, then wait for them to go.
    for pid in "${pids[@]}"; do
        kill "$pid" 2>/dev/null || true
    done
    for pid in "${pids[@]}"; do
        for _ in $(seq 50); do
            kill -0 "$pid" 2>/dev/null || break
            sleep 0.1
        done
        kill -9 "$pid" 2>/dev/null || true
    done
    if [ "$status" -eq 0 ]; then
        rm -rf "$tmp"
    else
        echo "slurm e2e: logs kept in $tmp" >&2
    fi
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# The pid a daemon wrote in its pid file, waited for up to 10 s.
pid_of() {
    for _ in $(seq 100); do
        if [ -s "$1" ]; then
            cat "$1"
            return
        fi
        sleep 0.1
    done
    return 1
}
logs() {
    for log in "$tmp"/munged.log "$tmp"/slurmctld.log "$tmp"/slurmd.log; do
        [ -f "$log" ] || continue
        echo "--- last lines of $log" >&2
        tail -n 25 "$log" >&2
    done
}

# munged: its own key, socket, pid, seed and log.
dd if=/dev/urandom of="$tmp/munge.key" bs=1024 count=1 status=none
chmod 400 "$tmp/munge.key"
mkdir -m 755 "$tmp/munge"
socket="$tmp/munge/munge.socket"
munged --force --key-file="$tmp/munge.key" --socket="$socket" --pid-file="$tmp/munged.pid" \
    --seed-file="$tmp/munged.seed" --log-file="$tmp/munged.log" ||
    {
        logs
        fail "munged did not start"
    }
pid=$(pid_of "$tmp/munged.pid") || fail "munged wrote no pid"
pids+=("$pid")

# Two free ports (a cluster left over from another run keeps its own).
free() {
    ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}
base=$((20000 + RANDOM % 20000))
until free "$base" && free "$((base + 1))"; do
    base=$((20000 + RANDOM % 20000))
done

node=$(hostname -s)
hardware=$(slurmd -C 2>/dev/null | head -n 1 | tr ' ' '\n' |
    grep -E '^(CPUs|Boards|SocketsPerBoard|CoresPerSocket|ThreadsPerCore)=' | tr '\n' ' ' || true)
hardware=${hardware% }
[ -n "$hardware" ] || hardware="CPUs=$(nproc)"
mkdir -p "$tmp/state" "$tmp/spool"
export SLURM_CONF="$tmp/slurm.conf"
cat >"$SLURM_CONF" <<EOF
ClusterName=robots-e2e
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$base
SlurmdPort=$((base + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$socket
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
ReturnToService=2
MailProg=/bin/true
MaxArraySize=10001
NodeName=$node NodeAddr=127.0.0.1 $hardware RealMemory=1024 State=UNKNOWN
PartitionName=e2e Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF

say "starting slurmctld and slurmd on 127.0.0.1:$base and :$((base + 1)) (node $node, $hardware)"
slurmctld -i || {
    logs
    fail "slurmctld did not start"
}
pid=$(pid_of "$tmp/slurmctld.pid") || {
    logs
    fail "slurmctld wrote no pid"
}
pids+=("$pid")
slurmd || {
    logs
    fail "slurmd did not start"
}
pid=$(pid_of "$tmp/slurmd.pid") || {
    logs
    fail "slurmd wrote no pid"
}
pids+=("$pid")

state=""
for _ in $(seq 60); do
    state=$(sinfo -h -N -n "$node" -o %T 2>/dev/null || true)
    [ "$state" = idle ] && break
    sleep 0.5
done
if [ "$state" != idle ]; then
    logs
    fail "the cluster did not start: node $node is '${state:-unknown}', not idle, after 30 s"
fi
say "cluster up in $(($(date +%s) - start)) s"

# The tournament in one process, then as the array.
expected="$tmp/expected.txt"
one=$(now)
"$robots" tournament "${field[@]}" >"$expected"
one=$(seconds "$one")
results="$tmp/results"
"$robots" tournament "${field[@]}" --slurm-script "$shards" --results "$results" \
    >"$tmp/tournament.sh"
array_start=$(now)
submitted=$(bash "$tmp/tournament.sh")
say "$submitted"
merge=$(sed -n 's/.*merge job \([0-9]*\).*/\1/p' <<<"$submitted")
[ -n "$merge" ] || fail "no merge job in: $submitted"
for _ in $(seq 1200); do
    [ -z "$(squeue -h -o %i 2>/dev/null)" ] && break
    sleep 0.1
done
array_time=$(seconds "$array_start")
if [ -n "$(squeue -h -o %i)" ]; then
    squeue >&2
    logs
    fail "the jobs did not end within 120 s"
fi
if [ ! -f "$results/standings.txt" ]; then
    for out in "$results"/*.out; do
        echo "--- $out" >&2
        tail -n 20 "$out" >&2
    done
    logs
    fail "the merge job wrote no standings"
fi
cmp "$expected" "$results/standings.txt" ||
    fail "the array's standings differ from the one-process run's (diff $expected $results/standings.txt)"
say "$(head -n 1 "$expected")"
say "one process: ${one} s; the $shards-task array (submitted to merged): ${array_time} s"
say "passed in $(($(date +%s) - start)) s"
