#!/usr/bin/env bash
# Installs what is missing, builds linnet in release mode and runs it. On a machine without a
# session bus (a server, a container) it starts one with dbus-run-session and says how to reach it.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v swift >/dev/null 2>&1; then export PATH="/opt/swift/usr/bin:$PATH"; fi

scripts/install-deps.sh
swift build -c release --product linnet 2> >(grep -v "prohibited flag" >&2)
binary="$(swift build -c release --show-bin-path)/linnet"

runtime_bus="${XDG_RUNTIME_DIR:-/run/user/$(id -u)}/bus"
if [[ -z "${DBUS_SESSION_BUS_ADDRESS:-}" && ! -S "$runtime_bus" ]]; then
  echo "No session bus here: starting a private one for linnet (dbus-run-session)."
  exec dbus-run-session -- bash -c '
    echo "Session bus: $DBUS_SESSION_BUS_ADDRESS"
    echo "From another terminal:  DBUS_SESSION_BUS_ADDRESS=\"$DBUS_SESSION_BUS_ADDRESS\" playerctl -p linnet metadata"
    exec "$0" "$@"' "$binary" "$@"
fi
exec "$binary" "$@"
