#!/usr/bin/env bash
# The real player under Xvfb and a storm of reloads, skips, restarts and progress input:
#   scripts/soak.sh MINUTES      (default 10; CI runs 1). Prints the figures the README quotes.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --test
swift build -c release --product vitrine >&2
exec python3 scripts/soak.py "${1:-10}"
