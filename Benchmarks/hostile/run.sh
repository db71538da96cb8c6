#!/usr/bin/env bash
# A 64 MiB AddAlarm time string sent to linnet and to the C reference service on one private bus
# with a desktop's message limits, three rounds each, alternating, with a Get(PlaybackStatus)
# probe from a second client: prints the time to the refusal and the probe's longest wait.
# Needs `make bench` run once (it builds .build/bench/mpris-reference); installs dbus-next (PyPI).
set -euo pipefail
cd "$(dirname "$0")/../.."
if ! command -v swift >/dev/null 2>&1; then export PATH="/opt/swift/usr/bin:$PATH"; fi
python3 -c "import dbus_next" 2>/dev/null || pip install -q dbus-next
swift build --product linnet >/dev/null
linnet=$(swift build --show-bin-path)/linnet
reference=.build/bench/mpris-reference
[[ -x $reference ]] || { echo "build the C reference first: make bench" >&2; exit 1; }
work=$(mktemp -d /tmp/linnet-hostile.XXXXXX)
address=$(dbus-daemon --config-file=Tests/Fixtures/session-desktop-limits.conf --fork --print-address=1 --print-pid=3 3>"$work/bus.pid" 2>/dev/null)
pids=()
cleanup() { kill "${pids[@]}" "$(cat "$work/bus.pid")" 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
export DBUS_SESSION_BUS_ADDRESS=$address HOME=$work/home XDG_RUNTIME_DIR=$work/run
mkdir -p "$HOME" "$XDG_RUNTIME_DIR"
gst-launch-1.0 -q audiotestsrc num-buffers=200 ! audioconvert ! vorbisenc ! oggmux ! filesink location="$work/a.ogg"
"$linnet" --no-resume --paused --audio-sink 'fakesink sync=true' --log-level warning "$work/a.ogg" 2>"$work/linnet.log" &
pids+=($!)
"$reference" &
pids+=($!)
sleep 2
python3 Benchmarks/hostile/oversized_call.py
