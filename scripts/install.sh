#!/usr/bin/env bash
# Installs linnet for the current user (PREFIX defaults to ~/.local): the binary, the D-Bus
# activation file, the systemd user unit and the desktop entry.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v swift >/dev/null 2>&1; then export PATH="/opt/swift/usr/bin:$PATH"; fi
prefix="${PREFIX:-$HOME/.local}"
bindir="$prefix/bin"
datadir="$prefix/share"

scripts/install-deps.sh
swift build -c release --product linnet 2> >(grep -v "prohibited flag" >&2)
binary="$(swift build -c release --show-bin-path)/linnet"

install -Dm755 "$binary" "$bindir/linnet"
sed "s|@BINDIR@|$bindir|g" dbus/org.mpris.MediaPlayer2.linnet.service.in \
  | install -Dm644 /dev/stdin "$datadir/dbus-1/services/org.mpris.MediaPlayer2.linnet.service"
sed "s|@BINDIR@|$bindir|g" dbus/linnet.service.in \
  | install -Dm644 /dev/stdin "$datadir/systemd/user/linnet.service"
install -Dm644 dbus/linnet.desktop "$datadir/applications/linnet.desktop"

echo "Installed linnet into $prefix."
echo "Start it now and at every login:  systemctl --user daemon-reload && systemctl --user enable --now linnet"
echo "Or let D-Bus start it on demand:   playerctl -p linnet play"
