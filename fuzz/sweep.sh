#!/usr/bin/env bash
# Times the release binary on every input of the fuzz corpora, as a user would meet them:
# `robots check` on programs and boards, `robots run` on matches, `robots ricochet solve`
# and `check` on positions, `robots check` on Micro Robots files, `robots debug --script`
# on debugger scripts, `robots replay` on replays and `robots tournament merge --partial` on
# tournament parts (each as it is and gzip-compressed). Prints, per target, how many inputs
# ran, the slowest (seconds) and the most memory (MiB) with the input that took it, and any
# input that did not finish in 20 s or ended with a signal (a crash).
#
#   bash fuzz/sweep.sh [CORPORA] [ROBOTS]     # defaults: fuzz/corpus target/release/robots
set -uo pipefail
cd "$(dirname "$0")/.."
corpora=${1:-fuzz/corpus}
robots=$(realpath "${2:-target/release/robots}")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The files the fuzz targets serve, where matches and positions name them.
mkdir -p "$work/boards" "$work/programs" "$work/scenarios"
cp boards/*.yaml tests/boards/arena.yaml tests/boards/camps_only.yaml "$work/boards/"
cp tests/ricochet/boards/*.yaml boards/ricochet/ricochets-10x8.yaml "$work/scenarios/"
cp programs/*.robot tests/programs/*.robot "$work/programs/"
cp "$work"/boards/*.yaml "$work"/programs/*.robot "$work/scenarios/"

sweep() {
    local target=$1 ext=$2
    shift 2
    local dir="$corpora/$target"
    [ -d "$dir" ] || return 0
    local n=0 worst=0 worst_file="" most=0 most_file="" bad=0
    for f in "$dir"/*; do
        [ -f "$f" ] || continue
        local input="$work/scenarios/input.$ext"
        # An input swept as `.gz` is compressed first: the reader tells gzip by its bytes.
        case "$ext" in
            *.gz) gzip -c "$f" > "$input" ;;
            *) cp "$f" "$input" ;;
        esac
        local start end status kib
        start=$(date +%s%N)
        /usr/bin/time -f "%M" -o "$work/rss" timeout 20 "$@" "$input" >/dev/null 2>&1
        status=$?
        end=$(date +%s%N)
        kib=$(tail -n 1 "$work/rss" 2>/dev/null | tr -dc '0-9')
        n=$((n + 1))
        local ms=$(((end - start) / 1000000))
        if [ "$ms" -gt "$worst" ]; then worst=$ms; worst_file=$f; fi
        if [ "${kib:-0}" -gt "$most" ]; then most=${kib:-0}; most_file=$f; fi
        # 124: the timeout; above 128: a signal (abort, segfault); 0-2 are answers.
        if [ "$status" -eq 124 ] || [ "$status" -gt 128 ]; then
            echo "  $target: exit $status on $f"
            bad=$((bad + 1))
        fi
    done
    printf '%-18s %6d inputs  slowest %6.2f s (%s)  most memory %5d MiB (%s)  failures %d\n' \
        "$target/$ext" "$n" "$(echo "$worst / 1000" | bc -l)" "$(basename "$worst_file")" \
        $((most / 1024)) "$(basename "$most_file")" "$bad"
}

sweep program robot "$robots" check
sweep board yaml "$robots" check
sweep match_run yaml "$robots" run --allow-outside
sweep ricochet yaml "$robots" ricochet solve
sweep micro yaml "$robots" check --allow-outside
sweep debugger script "$robots" debug --script
sweep replay jsonl "$robots" replay
sweep replay jsonl.gz "$robots" replay
sweep parts jsonl "$robots" tournament merge --partial
sweep parts jsonl.gz "$robots" tournament merge --partial
