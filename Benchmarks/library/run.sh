#!/usr/bin/env bash
# The tag scanner and its cache on a large folder: `linnet FOLDER` with N small tagged Ogg files
# (distinct copies), timed from launch to the bus name and to every track's tags published, for
#   gstreamer  the former reader (GStreamer's discoverer alone), no cache
#   cold       TagLib with an empty cache (the first start)
#   warm       TagLib with the cache the cold start left (the second start)
# in one run, on one private bus. Prints `key value` lines and the cold/gstreamer ratio. The scan
# stage alone (the player's background read of the queue, from linnet's debug log) is printed as
# <mode>_scan_ms and <mode>_scan_files_per_s; <mode>_cpu_ms_to_all_tags is linnet's CPU time (user
# and system) until then (and <mode>_cpu_ms_to_name until the name), which a busy machine
# inflates far less than the wall times.
#
# Settings (environment):
#   LINNET_BENCH_LIBRARY_FILES   files in the folder                (default 10000)
#   LINNET_BENCH_LIBRARY_MODES   which starts, in order             (default gstreamer,cold,warm)
#   LINNET_BENCH_LIBRARY_ROUNDS  repetitions of the modes           (default 1)
#   LINNET_BENCH_LIBRARY_REFERENCE  another linnet binary (e.g. main's release build) started
#                                just before this one for every mode of every round, with a
#                                cache of its own; its lines are prefixed `ref_`, and the minima
#                                of both and their ratio are printed at the end (a shared,
#                                busy machine moves both alike)
# Needs dbus-next (PyPI; installed when missing).
set -euo pipefail
cd "$(dirname "$0")/../.."
if ! command -v swift >/dev/null 2>&1; then export PATH="/opt/swift/usr/bin:$PATH"; fi
files=${LINNET_BENCH_LIBRARY_FILES:-10000}
modes=${LINNET_BENCH_LIBRARY_MODES:-gstreamer,cold,warm}
rounds=${LINNET_BENCH_LIBRARY_ROUNDS:-1}
reference=${LINNET_BENCH_LIBRARY_REFERENCE:-}
python3 -c "import dbus_next" 2>/dev/null || pip install -q dbus-next

echo "library bench: building linnet (release)"
swift build -c release --product linnet >/dev/null
linnet=$(swift build -c release --show-bin-path)/linnet

work=$(mktemp -d /tmp/linnet-library-bench.XXXXXX)
bus_pid=
cleanup() { [[ -n $bus_pid ]] && kill "$bus_pid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT

echo "library bench: $files tagged Ogg files in $work/music"
mkdir -p "$work/music" "$work/home"
gst-launch-1.0 -q audiotestsrc num-buffers=20 ! audioconvert ! \
  taginject tags='title="Bench\ Track",artist="Bench\ Artist",album="Bench\ Album",track-number=(uint)1' ! \
  vorbisenc ! oggmux ! filesink location="$work/one.ogg"
python3 - "$work/one.ogg" "$work/music" "$files" <<'PY'
import shutil, sys
source, folder, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
for index in range(count):
    shutil.copyfile(source, f"{folder}/{index:06d}.ogg")
PY

dbus-daemon --session --nofork --print-address=1 --address="unix:tmpdir=$work" > "$work/bus-address" 2>/dev/null &
bus_pid=$!
for _ in $(seq 200); do [[ -s $work/bus-address ]] && break; sleep 0.05; done
export DBUS_SESSION_BUS_ADDRESS=$(head -n1 "$work/bus-address")
# A clean home and state per start; GStreamer's plugin registry kept apart, built once, as on a
# desktop.
export HOME=$work/home XDG_CONFIG_HOME=$work/home/.config XDG_STATE_HOME=$work/home/.local/state \
  XDG_DATA_HOME=$work/home/.local/share GST_REGISTRY=$work/gst-registry.bin
gst-inspect-1.0 playbin > /dev/null

IFS=, read -r -a mode_list <<< "$modes"
# One start of `binary` in `mode`; `prefix` names its lines and its cache.
start() {
  local prefix=$1 binary=$2 mode=$3 reader=taglib label=$1$3
  case $mode in
    gstreamer) reader=gstreamer; export XDG_CACHE_HOME=$work/${prefix}cache-gstreamer; rm -rf "$XDG_CACHE_HOME" ;;
    cold) export XDG_CACHE_HOME=$work/${prefix}cache; rm -rf "$XDG_CACHE_HOME" ;;
    warm) export XDG_CACHE_HOME=$work/${prefix}cache ;;
    *) echo "library bench: unknown mode $mode" >&2; exit 64 ;;
  esac
  rm -rf "$XDG_STATE_HOME"
  LINNET_TAG_READER=$reader python3 Benchmarks/library/measure.py "$label" "$files" "$work/linnet-$label.log" -- \
    "$binary" --no-resume --paused --audio-sink 'fakesink sync=true' --log-level debug "$work/music" \
    | tee -a "$work/figures.txt" || { echo "library bench: $label failed; linnet's log:" >&2; tail -n 20 "$work/linnet-$label.log" >&2; exit 1; }
  sed -n 's/.*scanned [0-9]* queued tracks in \([0-9]*\) ms (\([0-9]*\) per second).*/'"$label"'_scan_ms \1\n'"$label"'_scan_files_per_s \2/p' \
    "$work/linnet-$label.log" | tail -n 2 | tee -a "$work/figures.txt"
}
for round in $(seq "$rounds"); do
  for mode in "${mode_list[@]}"; do
    [[ -n $reference ]] && start ref_ "$reference" "$mode"
    start "" "$linnet" "$mode"
  done
done
if [[ -n $reference ]]; then
  for mode in $(printf '%s\n' "${mode_list[@]}" | awk '!seen[$0]++'); do
    for figure in launch_to_all_tags_ms cpu_ms_to_all_tags launch_to_name_ms; do
      awk -v this="${mode}_$figure" -v ref="ref_${mode}_$figure" '
        $1 == this && (t == "" || $2 + 0 < t) { t = $2 + 0 }
        $1 == ref && (r == "" || $2 + 0 < r) { r = $2 + 0 }
        END { if (t != "" && r != "") printf "min_%s %d\nmin_%s %d\n%s_over_ref_min_ratio %.2f\n", this, t, ref, r, this, (r > 0 ? t / r : 0) }' \
        "$work/figures.txt"
    done
  done
fi
if grep -q '^gstreamer_launch_to_all_tags_ms' "$work/figures.txt" && grep -q '^cold_launch_to_all_tags_ms' "$work/figures.txt"; then
  awk '$1 == "gstreamer_launch_to_all_tags_ms" { g += $2; gn++ } $1 == "cold_launch_to_all_tags_ms" { c += $2; cn++ }
       END { printf "gstreamer_over_cold_all_tags_ratio %.1f\n", (g / gn) / (c / cn) }' "$work/figures.txt"
fi
