#!/usr/bin/env bash
# Regenerates the Wayland protocol code kept in Sources/CWaylandProtocols from the XML of the
# installed wayland-protocols (Debian: wayland-protocols, libwayland-bin for wayland-scanner).
# The build never runs this: the generated files are committed.
set -euo pipefail

cd "$(dirname "$0")/.."
protocols=$(pkg-config --variable=pkgdatadir wayland-protocols 2>/dev/null || echo /usr/share/wayland-protocols)
out=Sources/CWaylandProtocols

# name: the file stem of the generated code; path: the XML under $protocols.
for entry in \
    xdg-shell:stable/xdg-shell/xdg-shell.xml \
    presentation-time:stable/presentation-time/presentation-time.xml \
    idle-inhibit-unstable-v1:unstable/idle-inhibit/idle-inhibit-unstable-v1.xml; do
    name=${entry%%:*}
    xml=$protocols/${entry#*:}
    wayland-scanner client-header "$xml" "$out/include/$name-client-protocol.h"
    wayland-scanner private-code "$xml" "$out/$name-protocol.c"
done
echo "generated from $protocols with $(wayland-scanner --version 2>&1)"
