#!/usr/bin/env bash
# The large-queue figures of issue 18: launch, RSS, GetTracksMetadata(20) (and a C libdbus floor
# answering the same rows, interleaved), GetAll / Get(Position),
# AddTrack / RemoveTrack p50/p99 (in natural order and shuffled), and RSS growth per queue edit and
# per track load, at each queue size in LINNET_BENCH_SCALE_SIZES (default "10000 99999": linnet
# queues at most 100 000, and the AddTrack figure needs room for one more).
#
#   Benchmarks/queue/run.sh LINNET_BINARY
#
# The queue is an M3U: two real Ogg files first (GoTo alternates them for the per-load growth),
# then stream entries with `#EXTINF` artist/title hints (30 artists, 600 albums' worth of titles)
# that linnet lists without reading, so the figures are the queue's and not the tag scanner's.
# With LINNET_BENCH_BASELINE=<binary> the same runs alternate with that build (e.g. main's).
#   LINNET_BENCH_SCALE_CALLS  calls per latency series (default 300)
#   LINNET_BENCH_SCALE_EDITS  edits for the growth figure (default 2000)
#   LINNET_BENCH_SCALE_LOADS  track loads for the growth figure (default 400)
#   LINNET_BENCH_SCALE_ADD    the URI AddTrack adds (default: a real file, which linnet then scans;
#                             a stream URI such as http://127.0.0.1:9/x.ogg leaves the scanner out)
set -euo pipefail
cd "$(dirname "$0")/../.."
linnet=${1:?usage: Benchmarks/queue/run.sh LINNET_BINARY}
sizes=${LINNET_BENCH_SCALE_SIZES:-10000 99999}
calls=${LINNET_BENCH_SCALE_CALLS:-300}
edits=${LINNET_BENCH_SCALE_EDITS:-2000}
loads=${LINNET_BENCH_SCALE_LOADS:-400}

bin=.build/bench
mkdir -p "$bin"
cc -O2 -Wall -o "$bin/queue-scale" Benchmarks/queue/queue_scale.c Benchmarks/queue/metadata_floor.c \
  Benchmarks/driver/support.c Benchmarks/driver/bus.c \
  $(pkg-config --cflags --libs dbus-1)

work=$(mktemp -d /tmp/linnet-queue-bench.XXXXXX)
bus_pid=
cleanup() {
  [[ -n $bus_pid ]] && kill "$bus_pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

for n in 1 2; do
  gst-launch-1.0 -q audiotestsrc num-buffers=430 wave=sine ! audioconvert ! \
    taginject tags="title=\"Scale\ $n\",artist=\"Bench\ Artist\",album=\"Bench\ Album\"" ! vorbisenc ! oggmux ! \
    filesink location="$work/real$n.ogg" >/dev/null
done

players=(linnet)
[[ -n ${LINNET_BENCH_BASELINE:-} ]] && players+=(baseline)
for size in $sizes; do
  playlist=$work/queue-$size.m3u
  {
    echo "#EXTM3U"
    echo "$work/real1.ogg"
    echo "$work/real2.ogg"
    awk -v n="$size" 'BEGIN { for (i = 3; i <= n; i++) {
      printf "#EXTINF:180,Artist %d - Album %d Song %d\nhttp://127.0.0.1:9/scale/%d.ogg\n", i % 30, i % 600, i % 13, i } }'
  } > "$playlist"
  for player in "${players[@]}"; do
    binary=$linnet
    [[ $player == baseline ]] && binary=$LINNET_BENCH_BASELINE
    rm -rf "$work/home" && mkdir -p "$work/home"
    address_file=$work/bus-address
    : > "$address_file"
    dbus-daemon --session --nofork --print-address=1 --address="unix:tmpdir=$work" > "$address_file" 2>/dev/null &
    bus_pid=$!
    for _ in $(seq 200); do [[ -s $address_file ]] && break; sleep 0.05; done
    echo "queue-bench: $player, $size tracks" >&2
    env DBUS_SESSION_BUS_ADDRESS="$(head -n1 "$address_file")" HOME="$work/home" XDG_CONFIG_HOME="$work/home/.config" \
      XDG_STATE_HOME="$work/home/.local/state" XDG_DATA_HOME="$work/home/.local/share" XDG_CACHE_HOME="$work/cache" \
      "$bin/queue-scale" --label "$player@$size" --tracks "$size" --file "${LINNET_BENCH_SCALE_ADD:-file://$work/real1.ogg}" --calls "$calls" \
      --edits "$edits" --loads "$loads" -- \
      "$binary" --no-resume --paused --audio-sink 'fakesink sync=true' --log-level error "$playlist"
    kill "$bus_pid" 2>/dev/null; wait "$bus_pid" 2>/dev/null || true; bus_pid=
  done
done
