#!/usr/bin/env bash
# Coverage-guided fuzzing of every decoder: builds `inkwell-fuzz` (libFuzzer, `swiftc -sanitize=fuzzer`)
# in .build-fuzz and runs each target for SECONDS (default 60) from the seed corpus in Fuzz/Corpus.
#
#   bash Scripts/fuzz.sh [SECONDS] [TARGET...]
#
# Inputs found along the way go to a scratch folder, not the repository; a failing input is kept as
# .build-fuzz/findings/<target>/crash-<hash> and the run fails. Replay one with
#   INKWELL_FUZZ_TARGET=<target> .build-fuzz/debug/inkwell-fuzz <file>
# Prints a line per target: its executions, coverage and corpus size, for BENCHMARKS.md's Faults table.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${1:-60}"
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    targets=(change pack snapshot client-frame server-frame interop folder)
fi

echo "== building inkwell-fuzz"
# libFuzzer without its own main, from the toolchain's clang runtime: inkwell-fuzz's main starts its driver.
toolchain="$(dirname "$(dirname "$(readlink -f "$(command -v swift)")")")"
library="$(ls "$toolchain"/lib/clang/*/lib/linux/libclang_rt.fuzzer_no_main-"$(uname -m)".a 2>/dev/null | head -1)"
[ -n "$library" ] || { echo "no libclang_rt.fuzzer_no_main in $toolchain: this toolchain cannot fuzz" >&2; exit 2; }
INKWELL_FUZZ=1 swift build --product inkwell-fuzz --scratch-path .build-fuzz \
    -Xlinker --whole-archive -Xlinker "$library" -Xlinker --no-whole-archive -Xlinker -lstdc++
binary=".build-fuzz/debug/inkwell-fuzz"

scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
failed=0
for target in "${targets[@]}"; do
    [ -d "Fuzz/Corpus/$target" ] || { echo "no seed corpus Fuzz/Corpus/$target" >&2; exit 2; }
    findings=".build-fuzz/findings/$target"
    mkdir -p "$scratch/$target" "$findings"
    log="$scratch/$target.log"
    # -rss_limit_mb: the decoders' limits keep memory bounded; a leak or a runaway allocation fails.
    # Without Swift's backtracer, whose signal handlers would keep libFuzzer's from saving the input.
    if SWIFT_BACKTRACE=enable=no INKWELL_FUZZ_TARGET="$target" "$binary" "$scratch/$target" "Fuzz/Corpus/$target" \
        -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 \
        -artifact_prefix="$findings/" >"$log" 2>&1; then
        status=ok
    else
        status=FAILED
        failed=1
        grep -E "Fatal error|ERROR: libFuzzer|SUMMARY|Test unit written" "$log" >&2 || tail -20 "$log" >&2
    fi
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    coverage=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
    corpus=$(grep -o 'corp: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
    echo "fuzz $target: $status, ${runs:-0} executions in ${seconds} s, coverage ${coverage:-?}, corpus ${corpus:-?}"
done
exit "$failed"
