#!/usr/bin/env bash
# Fuzzes one input surface with libFuzzer:  scripts/fuzz.sh TARGET SECONDS
#   TARGET: toml | config | pathdata | drawspec | png | jpeg | progress | font | json
# Builds vitrine-fuzz with -sanitize=fuzzer,address into .build-fuzz (once), starts from the
# seed corpus in Tests/Fuzz/corpus/TARGET (new inputs go to .build-fuzz/corpus/TARGET), and
# stops at the first crash, at an input that runs over 1 s (a hang) or makes the process
# grow past 512 MB. Reproducers land in .build-fuzz/findings/TARGET; replay one with
#   swift build --product vitrine-fuzz && .build/debug/vitrine-fuzz TARGET FILE
set -euo pipefail
cd "$(dirname "$0")/.."
target=${1:?usage: scripts/fuzz.sh TARGET SECONDS}
seconds=${2:?usage: scripts/fuzz.sh TARGET SECONDS}
scripts/install-deps.sh
binary=.build-fuzz/vitrine-libfuzzer
if [[ ! -x $binary || -n $(find Sources -newer "$binary" -name '*.swift' | head -n 1) ]]; then
    # SwiftPM links executables with its own main (--defsym main=…); a fuzzer takes
    # libFuzzer's. Build the objects with SwiftPM, then link them again without that alias.
    log=$(mktemp)
    swift build --product vitrine-fuzz --scratch-path .build-fuzz \
        -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING -v >"$log" 2>&1 || true
    link=$(grep -E -- "^[^ ]*swiftc .*-o [^ ]*/.build-fuzz/[^ ]*/vitrine-fuzz " "$log" | head -n 1)
    rm -f "$log"
    [[ -n $link ]] || { echo "fuzz.sh: the build did not reach the link step" >&2; exit 1; }
    link=${link//-Xlinker --defsym -Xlinker main=vitrine_fuzz_main/}
    eval "${link/ -o [^ ]*\/vitrine-fuzz / -o $binary }" 2> >(grep -v "Cannot export local symbol" >&2)
fi
corpus=.build-fuzz/corpus/$target findings=.build-fuzz/findings/$target
mkdir -p "$corpus" "$findings"
dictionary=()
[[ $target == toml || $target == config || $target == drawspec ]] && dictionary=(-dict=Tests/Fuzz/toml.dict)
# A small ASan quarantine, so the 512 MB limit measures the input's growth, not freed memory
# kept for use-after-free checks; the Swift runtime's lifetime caches are not leaks.
export ASAN_OPTIONS="quarantine_size_mb=16:detect_leaks=0:${ASAN_OPTIONS:-}"
VITRINE_FUZZ_TARGET=$target exec "$binary" "${dictionary[@]}" -max_total_time="$seconds" -timeout=1 \
    -rss_limit_mb=512 -malloc_limit_mb=512 -max_len=8192 -detect_leaks=0 -print_final_stats=1 \
    -artifact_prefix="$findings/" "$corpus" "Tests/Fuzz/corpus/$target"
