#!/usr/bin/env bash
# The test suite under the sanitizers, each in its own build folder:
#   scripts/sanitize.sh                 AddressSanitizer, then ThreadSanitizer
#   scripts/sanitize.sh address|thread  one of them
# Any report fails the run (halt_on_error). Leak checking is off: the Swift runtime keeps type
# metadata and caches for the life of the process, which LeakSanitizer reports at exit.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --test
kinds=("$@")
[[ ${#kinds[@]} -gt 0 ]] || kinds=(address thread)
export ASAN_OPTIONS="detect_leaks=0:halt_on_error=1:abort_on_error=1"
export TSAN_OPTIONS="halt_on_error=1:abort_on_error=1"
for kind in "${kinds[@]}"; do
    echo "== ${kind} sanitizer" >&2
    # Tests that bound a time leave the bound out under instrumentation.
    export VITRINE_SANITIZER="$kind"
    swift build --build-tests --sanitize="$kind" --scratch-path ".build-$kind"
    swift test --skip-build --sanitize="$kind" --scratch-path ".build-$kind" --disable-swift-testing
done
