#!/usr/bin/env bash
# Installs the Debian packages Vitrine needs that are not installed yet.
#   scripts/install-deps.sh          what building and playing need
#   scripts/install-deps.sh --test   also what the test suite needs (Xvfb, xwd, ImageMagick, systemd-analyze,
#                                    python3 for the storm soak, the Wayland compositors sway, cage
#                                    (with Xwayland) and weston, grim for screenshots, wayvnc for a
#                                    virtual pointer)
# Regenerating the Wayland protocol code (scripts/generate-wayland-protocols.sh) also needs
# wayland-protocols and libwayland-bin; building does not.
set -euo pipefail

packages=(libx11-dev libxext-dev libxrandr-dev libwayland-dev libpng-dev libturbojpeg0-dev libfreetype-dev
          libfontconfig-dev
          pkg-config fonts-dejavu-core)
if [[ "${1:-}" == "--test" ]]; then
    packages+=(xvfb x11-apps x11-xserver-utils imagemagick systemd fonts-droid-fallback libxfixes3 python3
               sway cage xwayland weston grim wayvnc)
fi

missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

echo "Installing: ${missing[*]}" >&2
sudo=()
[[ $(id -u) -eq 0 ]] || sudo=(sudo)
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
