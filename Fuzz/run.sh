#!/usr/bin/env bash
# Builds the fuzz targets with libFuzzer and AddressSanitizer, then runs each for SECONDS
# (default 60), as many at once as there are cores, from the corpus kept in Corpus/; new
# inputs go to a scratch folder, not into the corpus. Exits non-zero when a target crashes,
# hangs (10 s on one input) or passes 2 GiB.
#   Fuzz/run.sh          a minute each
#   Fuzz/run.sh 10       10 seconds each, as the test command (install.sh --test) runs it
#   Fuzz/run.sh 3600     an hour each
# It builds in .build-fuzz, or in the folder NOTES_FUZZ_BUILD_PATH names: the test command
# gives its own, where the C libraries are already compiled with the same flags.
set -euo pipefail
scratch=${NOTES_FUZZ_BUILD_PATH:-$(dirname "${BASH_SOURCE[0]}")/../.build-fuzz}
[[ $scratch == /* ]] || scratch="$PWD/$scratch"
cd "$(dirname "${BASH_SOURCE[0]}")"
seconds=${1:-60}
swiftc=$(readlink -f "$(command -v swiftc)")
runtime=$(ls "$(dirname "$swiftc")"/../lib/clang/*/lib/linux/libclang_rt.fuzzer_no_main-"$(uname -m)".a 2>/dev/null | head -n 1)
[[ -n $runtime ]] || { echo "run.sh: libFuzzer's runtime (libclang_rt.fuzzer_no_main) is not beside swiftc" >&2; exit 1; }
echo "==> Building the fuzz targets (in ${NOTES_FUZZ_BUILD_PATH:-.build-fuzz})"
build_log=$(mktemp)
# The release configuration without optimization (each module compiled whole, in one job),
# and line tables alone of the debug information (enough for AddressSanitizer's reports):
# it builds in two thirds of the time of the debug configuration. Only Swift is instrumented;
# C is compiled as the test command compiles it (no optimization, no debug information), so
# that in its folder the C libraries (BoringSSL, a minute of the build) are not compiled again.
if ! swift build -c release -Xswiftc -Onone --scratch-path "$scratch" \
    -Xswiftc -gline-tables-only -Xcc -g0 -Xcc -O0 -Xswiftc -sanitize=address \
    -Xswiftc -sanitize-coverage=edge,inline-8bit-counters,pc-table,trace-cmp \
    -Xlinker "$runtime" -Xlinker -lstdc++ >"$build_log" 2>&1; then
    grep -E 'error' "$build_log" | head -n 20
    echo "run.sh: the build of the fuzz targets failed (log: $build_log)" >&2
    exit 1
fi
rm -f "$build_log"
targets=(fuzz-log fuzz-cloud-json fuzz-sealed fuzz-interchange fuzz-images fuzz-history-line)
# As many targets at once as there are cores; each target runs on one.
at_once=$(nproc 2>/dev/null || echo 1)
declare -A works pids
status=0
# Targets still running when the script ends early (interrupted, or a failure of its own).
trap 'kill $(jobs -p) 2>/dev/null || true' EXIT

# Waits for a target started by start_target and reports it.
finish_target() {
    local target=$1 work=${works[$1]}
    if wait "${pids[$target]}"; then
        echo "==> $target: fuzzed for $seconds s"
        grep -E '^Done |stat::number_of_executed_units' "$work/log" | head -n 2 || true
        rm -rf "$work"
    else
        status=1
        echo "==> $target: failed"
        tail -n 40 "$work/log"
        echo "run.sh: $target failed; the input and the log are in $work" >&2
    fi
}

start_target() {
    local target=$1 work
    work=$(mktemp -d)
    works[$target]=$work
    "$scratch/release/$target" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 -max_len=65536 \
        -artifact_prefix="$work/" -print_final_stats=1 "$work" "Corpus/${target#fuzz-}" >"$work/log" 2>&1 &
    pids[$target]=$!
}

echo "==> Fuzzing ${#targets[@]} targets for $seconds s each, $at_once at a time"
for ((index = 0; index < ${#targets[@]}; index++)); do
    ((index < at_once)) || finish_target "${targets[index - at_once]}"
    start_target "${targets[index]}"
done
for ((index = ${#targets[@]} - at_once; index < ${#targets[@]}; index++)); do
    ((index < 0)) || finish_target "${targets[index]}"
done
exit "$status"
