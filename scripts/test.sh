#!/usr/bin/env bash
# Set-up command 2: install what is missing (Xvfb, ImageMagick, fonts …), build, run the tests.
# Slow soak and fuzz runs are separate: VITRINE_SOAK=1 swift test --filter SoakTests (see README)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --test
# The code follows .swift-format (swift-format comes with the toolchain); any finding fails.
swift format lint --strict --recursive Sources Tests Package.swift
swift build --build-tests
# The suite is XCTest only; Swift Testing's empty run would otherwise close the output.
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
swift test --skip-build --disable-swift-testing 2>&1 | tee "$log" || status=$?
# A minute of the real player under a storm of reloads, skips and progress input, on X11 and on
# Wayland (the long soak is scripts/soak.sh MINUTES [--wayland]); the debug build is optimised,
# so no second build is needed. Each counts as one more test in the closing line.
soak_passed=0 soak_failed=0
for under in xvfb sway; do
    if VITRINE=.build/debug/vitrine python3 scripts/soak.py 1 $([[ $under == sway ]] && echo --wayland); then
        soak_passed=$((soak_passed + 1))
    else
        soak_failed=$((soak_failed + 1)); status=1
    fi
done
# One plain closing line: "tests: N passed, N failed, N skipped".
summary=$(grep -E '^[[:space:]]*Executed [0-9]+ tests?, with' "$log" | tail -n 1 || true)
if [[ -n "$summary" ]]; then
    executed=$(sed -E 's/.*Executed ([0-9]+) test.*/\1/' <<<"$summary")
    failed=$(sed -E 's/.* ([0-9]+) failures?.*/\1/' <<<"$summary")
    skipped=$(grep -oE '[0-9]+ tests? skipped' <<<"$summary" | grep -oE '^[0-9]+' || echo 0)
    echo "tests: $((executed - failed - skipped + soak_passed)) passed, $((failed + soak_failed)) failed, $skipped skipped"
fi
exit "$status"
