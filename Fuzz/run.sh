#!/usr/bin/env bash
# Builds the fuzz targets with libFuzzer and AddressSanitizer, then runs each for SECONDS
# (default 60) from the corpus kept in Corpus/; new inputs go to a scratch folder, not into
# the corpus. Exits non-zero when a target crashes, hangs (10 s on one input) or passes 2 GiB.
#   Fuzz/run.sh          about a minute each, as continuous integration runs it
#   Fuzz/run.sh 3600     an hour each
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
seconds=${1:-60}
swiftc=$(readlink -f "$(command -v swiftc)")
runtime=$(ls "$(dirname "$swiftc")"/../lib/clang/*/lib/linux/libclang_rt.fuzzer_no_main-"$(uname -m)".a 2>/dev/null | head -n 1)
[[ -n $runtime ]] || { echo "run.sh: libFuzzer's runtime (libclang_rt.fuzzer_no_main) is not beside swiftc" >&2; exit 1; }
scratch=../.build-fuzz
echo "==> Building the fuzz targets (in .build-fuzz)"
build_log=$(mktemp)
if ! swift build --scratch-path "$scratch" -Xswiftc -sanitize=address \
    -Xswiftc -sanitize-coverage=edge,inline-8bit-counters,pc-table,trace-cmp \
    -Xlinker "$runtime" -Xlinker -lstdc++ >"$build_log" 2>&1; then
    grep -E 'error' "$build_log" | head -n 20
    echo "run.sh: the build of the fuzz targets failed (log: $build_log)" >&2
    exit 1
fi
rm -f "$build_log"
status=0
for target in fuzz-log fuzz-cloud-json fuzz-sealed fuzz-interchange fuzz-images fuzz-history-line; do
    work=$(mktemp -d)
    echo "==> $target for $seconds s"
    if "$scratch/debug/$target" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 -max_len=65536 \
        -artifact_prefix="$work/" -print_final_stats=1 "$work" "Corpus/${target#fuzz-}" >"$work/log" 2>&1; then
        grep -E '^Done |stat::number_of_executed_units' "$work/log" | head -n 2
        rm -rf "$work"
    else
        status=1
        tail -n 40 "$work/log"
        echo "run.sh: $target failed; the input and the log are in $work" >&2
    fi
done
exit "$status"
