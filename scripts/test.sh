#!/usr/bin/env bash
# Set-up command 2: install what is missing (Xvfb, ImageMagick, fonts …), build, run the tests.
# Slow soak and fuzz runs are separate: VITRINE_SOAK=1 swift test --filter SoakTests (see README)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --test
swift build --build-tests
swift test --skip-build
