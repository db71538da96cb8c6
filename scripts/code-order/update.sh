#!/usr/bin/env bash
# Regenerates linnet.order, the order the release link lays linnet's functions out in (lld's
# --symbol-ordering-file, set by flags.sh for the installed build): the functions that run while linnet starts,
# plays an Ogg and answers MPRIS calls, first, side by side. Playing touches code all over the
# binary and the kernel maps the 64 KiB around each page fault of a file mapping, so scattered
# hot functions keep most of the code resident; packed together they keep about their own size.
#
# Builds the installed (static) build, runs it three times on a private bus with pagetrace.c
# preloaded (it records the instruction that first touches each code page), makes the calls, and
# adds the functions seen to the list (order.py); then links by the new list and traces again,
# until a round finds fewer than 50 new functions (at most 8 rounds); a last pass under callgrind
# (valgrind, when installed) adds every function the page traces missed. Run it after large changes
# and commit the list; a stale list still links (names that no longer exist are skipped, new
# functions land after the listed ones) and only costs memory.
set -euo pipefail
cd "$(dirname "$0")/../.."
if ! command -v swift >/dev/null 2>&1; then export PATH="/opt/swift/usr/bin:$PATH"; fi
work=$(mktemp -d /tmp/linnet-code-order.XXXXXX)
order=scripts/code-order/linnet.order
source scripts/code-order/flags.sh
static=(-c release --static-swift-stdlib --scratch-path .build/static "${layout_flags[@]}")
binary="$(swift build "${static[@]}" --show-bin-path)/linnet"
bus_pid= linnet_pid= traced=
cleanup() {
  if [[ -n $linnet_pid ]]; then kill -9 "$linnet_pid" 2>/dev/null || true; fi
  if [[ -n $bus_pid ]]; then kill "$bus_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
cc -O2 -Wall -shared -fPIC -o "$work/pagetrace.so" scripts/code-order/pagetrace.c
for n in 1 2; do
  gst-launch-1.0 -q audiotestsrc num-buffers=400 ! audioconvert ! \
    taginject tags="title=\"Order\ $n\",artist=\"Linnet\",album=\"Layout\"" ! vorbisenc ! oggmux ! \
    filesink location="$work/$n.ogg" > /dev/null
done
dbus-daemon --session --nofork --print-address=1 --address="unix:tmpdir=$work" > "$work/address" 2>/dev/null &
bus_pid=$!
for _ in $(seq 200); do [[ -s $work/address ]] && break; sleep 0.05; done
export DBUS_SESSION_BUS_ADDRESS=$(head -n1 "$work/address")
mkdir -p "$work/runtime"
export HOME=$work/home XDG_CONFIG_HOME=$work/home/.config XDG_STATE_HOME=$work/home/.local/state \
  XDG_DATA_HOME=$work/home/.local/share XDG_CACHE_HOME=$work/cache XDG_RUNTIME_DIR=$work/runtime
# GStreamer's plugin registry built beforehand, as on a desktop: while it scans plugins it traps
# SIGSEGV itself, which would take the tracer's faults.
gst-inspect-1.0 playbin > /dev/null

name=org.mpris.MediaPlayer2.linnet
properties=org.freedesktop.DBus.Properties player=org.mpris.MediaPlayer2.Player
call() { gdbus call --session --dest "$name" --object-path /org/mpris/MediaPlayer2 --method "$@" > /dev/null; }
# One traced run: start, play, answer the calls a panel and playerctl make, change track.
# Traced by pagetrace.so, or with $launcher set (the callgrind pass below) by that command.
launcher=()
inputs=("$work/1.ogg" "$work/2.ogg")
trace_once() {
  rm -rf "$work/home" && mkdir -p "$work/home"
  if ((${#launcher[@]})); then
    SWIFT_BACKTRACE=enable=no "${launcher[@]}" --callgrind-out-file="$work/callgrind$1" "$traced" \
      --no-resume --audio-sink 'fakesink sync=true' --log-level error "${inputs[@]}" \
      > "$work/linnet.log" 2>&1 &
  else
    SWIFT_BACKTRACE=enable=no LINNET_PAGETRACE="$work/trace$1" LD_PRELOAD="$work/pagetrace.so" \
      "$binary" --no-resume --audio-sink 'fakesink sync=true' --log-level error "$work/1.ogg" "$work/2.ogg" \
      > "$work/linnet.log" 2>&1 &
  fi
  linnet_pid=$!
  for _ in $(seq 300); do
    gdbus call --session --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus \
      --method org.freedesktop.DBus.NameHasOwner "$name" | grep -q true && break
    kill -0 "$linnet_pid" 2>/dev/null || { echo "code-order: linnet exited:" >&2; cat "$work/linnet.log" >&2; exit 1; }
    sleep 0.1
  done
  sleep 2  # playing
  call $properties.GetAll org.mpris.MediaPlayer2
  call $properties.GetAll $player
  call $properties.Get $player Position
  call org.freedesktop.DBus.Introspectable.Introspect
  call $player.PlayPause
  call $player.PlayPause
  call $player.Seek 500000
  call $properties.Set $player Volume '<0.5>'
  call $player.Next
  local first
  first=$(gdbus call --session --dest "$name" --object-path /org/mpris/MediaPlayer2 \
    --method $properties.Get org.mpris.MediaPlayer2.TrackList Tracks | grep -o "objectpath '[^']*'" | head -n1 | cut -d"'" -f2)
  call org.mpris.MediaPlayer2.TrackList.GetTracksMetadata "['$first']"
  sleep 3  # the second track playing, the session saved
  call $properties.GetAll $player
  if ((${#launcher[@]})); then callgrind_control --dump "$linnet_pid" > /dev/null 2>&1; fi
  kill -9 "$linnet_pid"  # before shutdown: what runs while playing is what should be packed
  wait "$linnet_pid" 2>/dev/null || true
  linnet_pid=
}
# Which paths run depends on timing (a save, a settle timer): the union of a few runs per round.
echo "# rebuilt by update.sh" > "$order"
for round in $(seq 8); do
  rm -f "$binary"  # the list is not an input SwiftPM tracks
  swift build "${static[@]}" --product linnet -Xlinker "-Map=$work/linnet.map" 2> >(grep -v "prohibited flag" >&2) > /dev/null
  rm -f "$work"/trace?
  for run in 1 2 3; do trace_once $run; done
  before=$(grep -vc '^#' "$order" || true)
  python3 scripts/code-order/order.py "$binary" "$work/linnet.map" "$order" "$work"/trace? > "$work/next.order"
  mv "$work/next.order" "$order"
  after=$(grep -vc '^#' "$order")
  echo "code-order: round $round: $((after - before)) new functions, $after listed"
  (( after - before < 50 )) && break
done
# A page trace names one function per page and run (the instruction that first touches it), so
# the rounds above converge slowly: the last still finds 100-200 functions, each on a page of its
# own, and with the 64 KiB the kernel maps around each fault those pages kept over 1 MiB
# resident. callgrind names every function that runs: one pass of four runs under it (two files,
# then one, each first with an empty tag cache so that TagLib's path runs too) completes the
# list. valgrind 3.19 cannot read the toolchain's DWARF 5, so it runs a copy without debug
# information (the symbol table, which is what names the functions, stays).
if command -v valgrind > /dev/null && command -v callgrind_control > /dev/null; then
  traced=$work/linnet-nodebug
  objcopy --strip-debug "$binary" "$traced"
  launcher=(valgrind --tool=callgrind --dump-instr=no --compress-strings=no --demangle=no)
  rm -f "$work"/callgrind*
  for run in 1 2 3 4; do
    if ((run == 1 || run == 3)); then rm -rf "$work/cache/linnet"; fi
    if ((run > 2)); then inputs=("$work/1.ogg"); fi  # one file, as Benchmarks/startup plays
    trace_once $run
  done
  before=$(grep -vc '^#' "$order" || true)
  python3 scripts/code-order/order.py "$binary" "$work/linnet.map" "$order" "$work"/callgrind*.* > "$work/next.order"
  mv "$work/next.order" "$order"
  after=$(grep -vc '^#' "$order")
  echo "code-order: callgrind: $((after - before)) new functions, $after listed"
else
  echo "code-order: no valgrind: the list has only what the page traces found" >&2
fi
rm -f "$binary"  # linked with the map; the next build links it as usual
