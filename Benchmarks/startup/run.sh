#!/usr/bin/env bash
# Launch → bus name and RSS while playing, for linnet, mpv (+ mpv-mpris, where installed) and the
# C reference service. Prints "startup <player> <metric> <value>" lines and a summary.
#
#   Benchmarks/startup/run.sh [LINNET_BINARY]
# Settings (environment):
#   LINNET_STARTUP_ROUNDS   launches per player and case, interleaved (default 5)
#   LINNET_STARTUP_FOLDER   files in the large folder (default 10000)
#   LINNET_STARTUP_SECONDS  playing time before RSS is read (default 3)
#   LINNET_STARTUP_BASELINE another linnet binary, launched in the same rounds (labels baseline-*)
#   LINNET_STARTUP_RSS_ROUNDS RSS readings while playing per player, interleaved (default 1); the
#                           smaps breakdown is of the last
#   LINNET_STARTUP_COPY=1   run copies of linnet and the baseline made with cp in the work folder:
#                           on Linux 6.18 a fault maps whole page-cache folios, so the same bytes
#                           hold up to 1 MiB more or less by how the file entered the page cache
set -euo pipefail
cd "$(dirname "$0")/../.."
if ! command -v swift >/dev/null 2>&1; then export PATH="/opt/swift/usr/bin:$PATH"; fi
rounds=${LINNET_STARTUP_ROUNDS:-5}
folder_files=${LINNET_STARTUP_FOLDER:-10000}
seconds=${LINNET_STARTUP_SECONDS:-3}
rss_rounds=${LINNET_STARTUP_RSS_ROUNDS:-1}
mpris_plugin=/usr/lib/mpv-mpris/mpris.so

linnet=${1:-}
baseline=${LINNET_STARTUP_BASELINE:-}
if [[ -z $linnet ]]; then
  swift build -c release --product linnet >&2
  linnet=$(swift build -c release --show-bin-path)/linnet
fi
bin=.build/bench
mkdir -p "$bin"
cc -O2 -Wall -o "$bin/startup-probe" Benchmarks/startup/startup-probe.c $(pkg-config --cflags --libs dbus-1)
cc -O2 -Wall -o "$bin/mpris-bench" Benchmarks/driver/*.c $(pkg-config --cflags --libs dbus-1) -lpthread
cc -O2 -Wall -o "$bin/mpris-reference" Benchmarks/reference/mpris_reference.c $(pkg-config --cflags --libs dbus-1)
probe=$PWD/$bin/startup-probe

work=$(mktemp -d /tmp/linnet-startup.XXXXXX)
bus_pid=
cleanup() { [[ -n $bus_pid ]] && kill "$bus_pid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
if [[ ${LINNET_STARTUP_COPY:-0} == 1 ]]; then
  cp "$linnet" "$work/linnet" && linnet=$work/linnet
  if [[ -n $baseline ]]; then cp "$baseline" "$work/linnet-baseline" && baseline=$work/linnet-baseline; fi
fi

# One private bus for the whole run; a clean home per launch, with GStreamer's registry cache
# kept across launches as on a desktop.
dbus-daemon --session --nofork --print-address=1 --address="unix:tmpdir=$work" > "$work/address" 2>/dev/null &
bus_pid=$!
for _ in $(seq 200); do [[ -s $work/address ]] && break; sleep 0.05; done
export DBUS_SESSION_BUS_ADDRESS=$(head -n1 "$work/address")
fresh_home() {
  rm -rf "$work/home"; mkdir -p "$work/home"
  export HOME=$work/home XDG_CONFIG_HOME=$work/home/.config XDG_STATE_HOME=$work/home/.local/state \
    XDG_DATA_HOME=$work/home/.local/share XDG_CACHE_HOME=$work/cache XDG_MUSIC_DIR=$work/home/Music
}
fresh_home

mkdir -p "$work/folder"
one=$work/one.ogg
gst-launch-1.0 -q audiotestsrc num-buffers=2600 wave=sine ! audioconvert ! \
  taginject tags="title=\"Startup\",artist=\"Bench\"" ! vorbisenc ! oggmux ! filesink location="$one" > /dev/null
# The large folder: hard links to one small tagged file, as `make bench` makes them.
"$bin/mpris-bench" link "$one" "$work/folder" "$folder_files"
gst-inspect-1.0 playbin > /dev/null  # builds the registry cache in $work/cache

sink='fakesink sync=true'
results=$work/results
: > "$results"
launch() {  # label name command...
  local label=$1 name=$2; shift 2
  fresh_home
  "$probe" launch "$name" -- "$@" | sed "s/^/startup $label /" | tee -a "$results"
}
have_mpv=0
[[ -x /usr/bin/mpv && -f $mpris_plugin ]] && have_mpv=1
for round in $(seq "$rounds"); do
  launch linnet-1-file org.mpris.MediaPlayer2.linnet "$linnet" --no-resume --paused --audio-sink "$sink" --log-level error "$one"
  launch linnet-folder org.mpris.MediaPlayer2.linnet "$linnet" --no-resume --paused --audio-sink "$sink" --log-level error "$work/folder"
  if [[ -n $baseline ]]; then
    launch baseline-1-file org.mpris.MediaPlayer2.linnet "$baseline" --no-resume --paused --audio-sink "$sink" --log-level error "$one"
    launch baseline-folder org.mpris.MediaPlayer2.linnet "$baseline" --no-resume --paused --audio-sink "$sink" --log-level error "$work/folder"
  fi
  launch reference org.mpris.MediaPlayer2.reference "$PWD/$bin/mpris-reference"
  if (( have_mpv )); then
    launch mpv-1-file org.mpris.MediaPlayer2.mpv mpv --no-config --no-terminal --no-video --ao=null --pause \
      --load-scripts=no --script="$mpris_plugin" "$one"
  fi
done

rss() {  # label name command...
  local label=$1 name=$2; shift 2
  fresh_home
  "$probe" rss "$name" "$seconds" -- "$@" > "$work/rss-$label"
  sed -n 's/^rss_kib /startup '"$label"' rss_kib /p' "$work/rss-$label" | tee -a "$results"
  sort -k2 -n -r "$work/rss-$label" | awk '$1 == "map_kib" && n++ < 8 { printf "  %6d KiB %s\n", $2, $3 }'
}
# Resident memory drifts by a few hundred KiB between runs of the same binary: the readings are
# interleaved, linnet, baseline, mpv, the reference and playbin in each round.
for reading in $(seq "$rss_rounds"); do
  STARTUP_PROBE_SMAPS=$work/smaps-linnet rss linnet-playing org.mpris.MediaPlayer2.linnet "$linnet" --no-resume --audio-sink "$sink" --log-level error "$one"
  if [[ -n $baseline ]]; then
    STARTUP_PROBE_SMAPS=$work/smaps-baseline rss baseline-playing org.mpris.MediaPlayer2.linnet "$baseline" --no-resume --audio-sink "$sink" --log-level error "$one"
  fi
  # SQLite and TagLib close 2 s after their last use (the scan of the one file): say whether they
  # were still mapped when RSS was read (the probe lists mappings of 256 KiB and more).
  awk '$1 == "map_kib" && $3 ~ /libsqlite3|libtag/ { printf "  still mapped: %s (%d KiB)\n", $3, $2; n++ }
       END { if (!n) print "  SQLite and TagLib: closed" }' "$work/rss-linnet-playing"
  if (( have_mpv )); then
    rss mpv-playing org.mpris.MediaPlayer2.mpv mpv --no-config --no-terminal --no-video --ao=null \
      --load-scripts=no --script="$mpris_plugin" "$one"
  fi
  rss reference org.mpris.MediaPlayer2.reference "$PWD/$bin/mpris-reference"
  # GStreamer's own floor: playbin playing the same file to the same sink.
  gst-launch-1.0 -q playbin uri="file://$one" audio-sink="$sink" video-sink=fakesink > /dev/null 2>&1 &
  gst_pid=$!
  sleep "$seconds"
  echo "startup gst-launch-playbin rss_kib $(awk '/^VmRSS/ {print $2}' /proc/$gst_pid/status)" | tee -a "$results"
  cp "/proc/$gst_pid/smaps" "$work/smaps-gst-launch" 2>/dev/null || true
  if (( reading < rss_rounds )); then kill "$gst_pid" 2>/dev/null; wait "$gst_pid" 2>/dev/null || true; fi
done
# Where each one's resident memory is (per kind of mapping; see smaps_breakdown.py).
for copy in linnet baseline gst-launch; do
  [[ -s $work/smaps-$copy ]] && python3 Benchmarks/startup/smaps_breakdown.py "$work/smaps-$copy" "$copy playing"
done
kill "$gst_pid" 2>/dev/null; wait "$gst_pid" 2>/dev/null || true

echo
echo "launch → bus name, $rounds launches each (ms: median, min, max; then the CPU time the player had"
echo "used when its name appeared, which a loaded machine disturbs less); RSS while playing:"
for label in $(awk '$3 == "launch_ms" { print $2 }' "$results" | sort -u); do
  for metric in launch_ms launch_cpu_ms; do
    awk -v l="$label" -v m="$metric" '$2 == l && $3 == m { print $4 }' "$results" | sort -n |
      awk '{ a[NR] = $1 } END { printf " %8.1f %8.1f %8.1f", a[int((NR + 1) / 2)], a[1], a[NR] }'
  done | awk -v l="$label" '{ printf "  %-22s %s\n", l, $0 }'
done
for label in $(awk '$3 == "rss_kib" { print $2 }' "$results" | awk '!seen[$0]++'); do
  awk -v l="$label" '$2 == l && $3 == "rss_kib" { print $4 / 1024 }' "$results" | sort -n |
    awk -v l="$label" '{ a[NR] = $1 } END { printf "  %-22s %8.1f MiB", l, a[int((NR + 1) / 2)];
      if (NR > 1) printf "  (min %.1f, max %.1f, %d readings)", a[1], a[NR], NR; print "" }'
done
