#!/usr/bin/env bash
# Seeds fuzz/corpus/TARGET/ from the files the repository ships (boards, programs, matches,
# the tests' inputs). The corpora are not committed: run this before fuzzing.
set -euo pipefail
cd "$(dirname "$0")/.."
seed() {
    local target=$1
    shift
    mkdir -p "fuzz/corpus/$target"
    local f
    for f in "$@"; do
        [ -f "$f" ] && cp "$f" "fuzz/corpus/$target/$(echo "$f" | tr '/' '_')"
    done
    # Regression inputs found before join the corpus, so every run replays them.
    if [ -d "fuzz/regressions/$target" ]; then
        for f in "fuzz/regressions/$target"/*; do
            [ -f "$f" ] && cp "$f" "fuzz/corpus/$target/regression_$(basename "$f")"
        done
    fi
    return 0
}
shopt -s nullglob
seed program programs/*.robot tests/programs/*.robot
seed board boards/*.yaml tests/boards/*.yaml
seed match_run matches/*.yaml tests/scenarios/*.yaml
seed ricochet boards/ricochet/*.yaml tests/ricochet/*.yaml tests/ricochet/boards/*.yaml
seed micro boards/micro/*.yaml tests/micro/*.yaml
# Game ids, one file each, for the ricochet target.
n=0
while read -r id; do
    case "$id" in ''|'#'*) continue ;; esac
    n=$((n + 1))
    [ "$n" -le 20 ] && printf '%s' "$id" > "fuzz/corpus/ricochet/game-id-$n"
done < boards/ricochet/bench/random-200.ids
seed debugger tests/debugger/*.script
seed table tests/play/*.script
seed replay tests/replays/*.jsonl
# The parts target: the regression inputs (a real part, forged headers) and the replays'
# lines, which are no parts. Compressed copies, so gzip is fuzzed from the start.
seed parts tests/replays/duel.jsonl
for target in replay parts; do
    for f in "fuzz/corpus/$target"/*; do
        case "$f" in *.gz) continue ;; esac
        gzip -c "$f" > "$f.gz"
    done
done
for d in fuzz/corpus/*; do
    echo "$d: $(find "$d" -type f | wc -l) files"
done
