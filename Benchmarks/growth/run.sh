#!/usr/bin/env bash
# Memory growth per track load (issue 18: "growth per track load, after warm-up ≤ 0.1 KB").
#
#   Benchmarks/growth/run.sh LINNET_BINARY
#
# Starts linnet playing three real 30 s Ogg files (--loop playlist, a clock-synced null sink) on
# a private bus and runs load cycles: GoTo or Next, wait until the new track plays, Seek 20 s
# (Benchmarks/growth/load_growth.c). After a warm-up, RSS and the heap in use inside linnet
# (glibc's mallinfo2, read by heap-probe.so preloaded into linnet) are sampled evenly; the
# figures are least-squares slopes in KiB per load. RSS growing while the heap in use stays flat
# is the allocator keeping freed pages, not memory linnet still holds.
# With LINNET_BENCH_BASELINE=<binary> the same runs alternate with that build (e.g. main's).
#   LINNET_BENCH_GROWTH_LOADS   loads measured after the warm-up (default 2000, or 500 with
#                               LINNET_BENCH_ROUNDS below 3 as in the quick run; 0 skips)
#   LINNET_BENCH_GROWTH_WARMUP  warm-up loads (default 500)
#   LINNET_BENCH_GROWTH_ROUNDS  runs per binary (default 1)
set -euo pipefail
cd "$(dirname "$0")/../.."
linnet=${1:?usage: Benchmarks/growth/run.sh LINNET_BINARY}
loads=${LINNET_BENCH_GROWTH_LOADS:-$(( ${LINNET_BENCH_ROUNDS:-3} < 3 ? 500 : 2000 ))}
warmup=${LINNET_BENCH_GROWTH_WARMUP:-500}
rounds=${LINNET_BENCH_GROWTH_ROUNDS:-1}
(( loads > 0 )) || exit 0

bin=.build/bench
mkdir -p "$bin"
cc -O2 -Wall -o "$bin/load-growth" Benchmarks/growth/load_growth.c Benchmarks/driver/support.c Benchmarks/driver/bus.c \
  $(pkg-config --cflags --libs dbus-1)
cc -O2 -Wall -shared -fPIC -o "$bin/heap-probe.so" Benchmarks/growth/heap_probe.c -lpthread
probe_library=$PWD/$bin/heap-probe.so

work=$(mktemp -d /tmp/linnet-growth-bench.XXXXXX)
bus_pid=
cleanup() {
  [[ -n $bus_pid ]] && kill "$bus_pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

for n in 1 2 3; do
  gst-launch-1.0 -q audiotestsrc num-buffers=$((30 * 44100 / 1024)) wave=sine freq=$((200 + 110 * n)) ! \
    taginject tags="title=\"Growth\ $n\",artist=\"Bench\ Artist\",album=\"Bench\ Album\"" ! audioconvert ! \
    vorbisenc ! oggmux ! filesink location="$work/track$n.ogg" >/dev/null
done
mkfifo "$work/request" "$work/reply"

players=(linnet)
[[ -n ${LINNET_BENCH_BASELINE:-} ]] && players+=(baseline)
results=$work/results.txt
: > "$results"
for round in $(seq "$rounds"); do
  for player in "${players[@]}"; do
    binary=$linnet
    [[ $player == baseline ]] && binary=$LINNET_BENCH_BASELINE
    rm -rf "$work/home" && mkdir -p "$work/home"
    address_file=$work/bus-address
    : > "$address_file"
    dbus-daemon --session --nofork --print-address=1 --address="unix:tmpdir=$work" > "$address_file" 2>/dev/null &
    bus_pid=$!
    for _ in $(seq 200); do [[ -s $address_file ]] && break; sleep 0.05; done
    echo "growth-bench: $player, round $round/$rounds: $warmup warm-up + $loads measured loads" >&2
    env DBUS_SESSION_BUS_ADDRESS="$(head -n1 "$address_file")" HOME="$work/home" XDG_CONFIG_HOME="$work/home/.config" \
      XDG_STATE_HOME="$work/home/.local/state" XDG_DATA_HOME="$work/home/.local/share" XDG_CACHE_HOME="$work/cache" \
      LD_PRELOAD="$probe_library" LINNET_HEAP_PROBE="$work" \
      "$bin/load-growth" --label "$player" --loads "$loads" --warmup "$warmup" --probe "$work" -- \
      "$binary" --no-resume --loop playlist --audio-sink 'fakesink sync=true' --log-level error \
      "$work/track1.ogg" "$work/track2.ogg" "$work/track3.ogg" | tee -a "$results"
    kill "$bus_pid" 2>/dev/null; wait "$bus_pid" 2>/dev/null || true; bus_pid=
  done
done

echo "growth per track load after $warmup warm-up loads ($loads loads, KiB per load; least-squares slope):"
awk '$2 == "growth_rss_kib_per_load" { rss[$1] = rss[$1] " " sprintf("%.3f", $3) }
     $2 == "growth_heap_kib_per_load" { heap[$1] = heap[$1] " " sprintf("%.3f", $3) }
     END { for (p in rss) printf "  %-10s RSS%s   heap in use%s\n", p, rss[p], heap[p] }' "$results"
