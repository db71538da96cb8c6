#!/usr/bin/env bash
# Installs linnet for the current user (PREFIX defaults to ~/.local): the binary, the D-Bus
# activation files (io.linnet.Linnet for the desktop, org.mpris.MediaPlayer2.linnet for MPRIS
# clients), the systemd user unit and the desktop entry.
# LINNET_BINARY=<path> installs that binary instead of building one (the tests install the
# binary they test into a scratch prefix this way).
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v swift >/dev/null 2>&1; then export PATH="/opt/swift/usr/bin:$PATH"; fi
prefix="${PREFIX:-$HOME/.local}"
bindir="$prefix/bin"
datadir="$prefix/share"

if [[ -n ${LINNET_BINARY:-} ]]; then
  binary="$LINNET_BINARY"
else
  scripts/install-deps.sh
  # The Swift runtime and FoundationEssentials linked into the binary: it reaches its bus name
  # sooner and holds less memory than the dynamically linked build (README, "Startup and
  # memory"). Its own build folder, so `swift build -c release` (tests, `make bench`) and this
  # one do not rebuild each other's objects.
  # Laid out by the recorded function order (scripts/code-order/flags.sh).
  source scripts/code-order/flags.sh
  static=(-c release --static-swift-stdlib --scratch-path .build/static "${layout_flags[@]}")
  swift build "${static[@]}" --product linnet 2> >(grep -v "prohibited flag" >&2)
  binary="$(swift build "${static[@]}" --show-bin-path)/linnet"
fi

install -Dm755 "$binary" "$bindir/linnet"
for name in io.linnet.Linnet org.mpris.MediaPlayer2.linnet; do
  sed "s|@BINDIR@|$bindir|g" "dbus/$name.service.in" \
    | install -Dm644 /dev/stdin "$datadir/dbus-1/services/$name.service"
done
sed "s|@BINDIR@|$bindir|g" dbus/linnet.service.in \
  | install -Dm644 /dev/stdin "$datadir/systemd/user/linnet.service"
install -Dm644 dbus/io.linnet.Linnet.desktop "$datadir/applications/io.linnet.Linnet.desktop"
# The entry was linnet.desktop before it was named after the application's bus name.
rm -f "$datadir/applications/linnet.desktop"
if command -v update-desktop-database >/dev/null 2>&1; then update-desktop-database -q "$datadir/applications" || true; fi

echo "Installed linnet into $prefix."
echo "Start it now and at every login:  systemctl --user daemon-reload && systemctl --user enable --now linnet"
echo "Or let D-Bus start it on demand:   gapplication launch io.linnet.Linnet   (playerctl never starts a player)"
