#!/usr/bin/env bash
# The real player under Xvfb (or, with --wayland, a headless sway) and a storm of reloads,
# skips, restarts and progress input:
#   scripts/soak.sh MINUTES [--wayland]   (default 10; CI runs 1 of each). Prints the figures the
#                                          README quotes.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --test
swift build -c release --product vitrine --static-swift-stdlib >&2
exec python3 scripts/soak.py "${1:-10}" "${@:2}"
