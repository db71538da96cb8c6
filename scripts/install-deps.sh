#!/usr/bin/env bash
# Installs the Debian/Ubuntu packages Linnet needs to build and test, only those missing.
# Idempotent and quick when everything is present; uses sudo when not root.
# `--bench` adds what `make bench` compares against and builds with (mpv, mpv-mpris, a C compiler).
set -euo pipefail

packages=(
  pkg-config
  libdbus-1-dev dbus-daemon dbus-bin
  libglib2.0-dev libglib2.0-bin
  libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev
  gstreamer1.0-plugins-base gstreamer1.0-plugins-good gstreamer1.0-tools
  pulseaudio pulseaudio-utils libpulse-dev
  libtag1-dev libsqlite3-dev libstdc++-12-dev
  playerctl
  desktop-file-utils
)
if [[ ${1:-} == --bench ]]; then packages+=(mpv mpv-mpris gcc libc6-dev); fi

missing=()
for package in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$package")
done

if ((${#missing[@]})); then
  echo "Installing missing packages: ${missing[*]}"
  sudo=()
  if [[ $(id -u) -ne 0 ]]; then sudo=(sudo); fi
  export DEBIAN_FRONTEND=noninteractive
  "${sudo[@]}" apt-get update -q
  "${sudo[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

if ! command -v swift >/dev/null 2>&1 && [[ ! -x /opt/swift/usr/bin/swift ]]; then
  echo "error: no Swift toolchain found (install Swift 6 and put it on PATH)" >&2
  exit 1
fi
