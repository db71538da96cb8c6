#!/usr/bin/env bash
# `make bench`: linnet against mpv + mpv-mpris and a minimal C libdbus MPRIS service.
#
# Installs what is missing (mpv, mpv-mpris, a C compiler), builds linnet in release mode and the
# C driver and reference, generates the media, then runs rounds alternating the players
# (A B C A B C …), each on a fresh private dbus-daemon with a clock-synced null sink, and finally
# the 10 000-track queue test for linnet. Prints a table and writes it as Markdown.
#
# Settings (environment):
#   LINNET_BENCH_ROUNDS            rounds per player                   (default 3)
#   LINNET_BENCH_CALLS             sequential calls per latency series (default 2000)
#   LINNET_BENCH_REPS              PlayPause / Next repetitions        (default 30)
#   LINNET_BENCH_CPU_SECONDS       each CPU window, paused and playing (default 20)
#   LINNET_BENCH_THROUGHPUT_SECONDS the 8-client throughput window     (default 5)
#   LINNET_BENCH_QUEUE_TRACKS      the large queue (0 skips the test)  (default 10000)
#   LINNET_BENCH_PLAYERS           which players, linnet first         (default linnet,mpv,reference)
#   LINNET_BENCH_BASELINE          a linnet binary for the player "baseline" (e.g. a build of the parent commit)
#   LINNET_BENCH_OUT               the Markdown file                   (default Benchmarks/results.md)
# A quick run: LINNET_BENCH_ROUNDS=1 LINNET_BENCH_CPU_SECONDS=5 LINNET_BENCH_QUEUE_TRACKS=2000 make bench
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v swift >/dev/null 2>&1; then export PATH="/opt/swift/usr/bin:$PATH"; fi

rounds=${LINNET_BENCH_ROUNDS:-3}
calls=${LINNET_BENCH_CALLS:-2000}
reps=${LINNET_BENCH_REPS:-30}
cpu_seconds=${LINNET_BENCH_CPU_SECONDS:-20}
throughput_seconds=${LINNET_BENCH_THROUGHPUT_SECONDS:-5}
queue_tracks=${LINNET_BENCH_QUEUE_TRACKS:-10000}
players=${LINNET_BENCH_PLAYERS:-linnet,mpv,reference}
out=${LINNET_BENCH_OUT:-Benchmarks/results.md}
mpris_plugin=/usr/lib/mpv-mpris/mpris.so

scripts/install-deps.sh --bench
[[ -f $mpris_plugin ]] || { echo "bench: $mpris_plugin is missing after installing mpv-mpris" >&2; exit 1; }

echo "bench: building linnet (release) and the C driver and reference"
swift build -c release --product linnet
linnet=$(swift build -c release --show-bin-path)/linnet
bin=.build/bench
mkdir -p "$bin"
cc -O2 -Wall -o "$bin/mpris-bench" Benchmarks/driver/*.c $(pkg-config --cflags --libs dbus-1) -lpthread
cc -O2 -Wall -o "$bin/mpris-reference" Benchmarks/reference/mpris_reference.c $(pkg-config --cflags --libs dbus-1)
driver=$PWD/$bin/mpris-bench

work=$(mktemp -d /tmp/linnet-bench.XXXXXX)
bus_pid=
cleanup() {
  [[ -n $bus_pid ]] && kill "$bus_pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

echo "bench: generating media in $work/media"
mkdir -p "$work/media" "$work/queue"
make_track() {  # file seconds title
  local buffers=$(( $2 * 44100 / 1024 ))
  gst-launch-1.0 -q audiotestsrc num-buffers="$buffers" wave=sine freq=$((220 + RANDOM % 440)) ! audioconvert ! \
    taginject tags="title=\"$3\",artist=\"Bench\ Artist\",album=\"Bench\ Album\"" ! vorbisenc ! oggmux ! \
    filesink location="$1" >/dev/null
}
for n in 1 2 3 4; do make_track "$work/media/track$n.ogg" 60 "Bench\ Track\ $n"; done
tracks=("$work/media"/track*.ogg)

# One fresh private bus per run; sets DBUS_SESSION_BUS_ADDRESS and bus_pid.
start_bus() {
  local address_file=$work/bus-address
  : > "$address_file"
  dbus-daemon --session --nofork --print-address=1 --address="unix:tmpdir=$work" > "$address_file" 2>/dev/null &
  bus_pid=$!
  for _ in $(seq 200); do [[ -s $address_file ]] && break; sleep 0.05; done
  [[ -s $address_file ]] || { echo "bench: dbus-daemon did not start" >&2; exit 1; }
  export DBUS_SESSION_BUS_ADDRESS=$(head -n1 "$address_file")
}
stop_bus() { kill "$bus_pid" 2>/dev/null; wait "$bus_pid" 2>/dev/null || true; bus_pid=; }

# A clean home per run, so no saved session or user configuration leaks in. The cache persists
# across runs, as on a desktop: GStreamer's plugin registry lives there, and rebuilding it on
# every start (~100 ms here) is not what a user's launch costs.
fresh_home() {
  rm -rf "$work/home"; mkdir -p "$work/home"
  export HOME=$work/home XDG_CONFIG_HOME=$work/home/.config XDG_STATE_HOME=$work/home/.local/state \
    XDG_DATA_HOME=$work/home/.local/share XDG_CACHE_HOME=$work/cache XDG_MUSIC_DIR=$work/home/Music
}
fresh_home
gst-inspect-1.0 playbin > /dev/null  # builds the registry in $work/cache

player_command() {
  case $1 in
    linnet) command=("$linnet" --no-resume --audio-sink 'fakesink sync=true' --loop playlist --log-level warning
                     "${tracks[@]}"); name=org.mpris.MediaPlayer2.linnet ;;
    # ao=null is timed (--ao-null-untimed defaults to no): it consumes audio in real time.
    mpv) command=(mpv --no-config --no-terminal --no-video --ao=null --loop-playlist=inf --load-scripts=no
                  --script="$mpris_plugin" "${tracks[@]}"); name=org.mpris.MediaPlayer2.mpv ;;
    reference) command=("$PWD/$bin/mpris-reference"); name=org.mpris.MediaPlayer2.reference ;;
    # Another linnet build (LINNET_BENCH_BASELINE), so a change is measured against its parent
    # in the same run.
    baseline) command=("${LINNET_BENCH_BASELINE:?baseline needs LINNET_BENCH_BASELINE=<linnet binary>}" --no-resume
                       --audio-sink 'fakesink sync=true' --loop playlist --log-level warning "${tracks[@]}")
              name=org.mpris.MediaPlayer2.linnet ;;
    *) echo "bench: unknown player $1" >&2; exit 64 ;;
  esac
}

IFS=, read -r -a player_list <<< "$players"
results=$work/results.txt
: > "$results"
echo "bench: $rounds rounds of ${player_list[*]}: $calls calls, $reps reps, ${cpu_seconds}s CPU windows"
for round in $(seq "$rounds"); do
  for player in "${player_list[@]}"; do
    player_command "$player"
    echo "bench: round $round/$rounds: $player"
    fresh_home
    start_bus
    log=$work/$player-$round.log
    if ! "$driver" round --label "$player" --name "$name" --log "$log" --calls "$calls" --reps "$reps" \
        --cpu-seconds "$cpu_seconds" --throughput-seconds "$throughput_seconds" -- "${command[@]}" >> "$results"; then
      echo "bench: $player failed in round $round; its output:" >&2
      tail -n 30 "$log" >&2 || true
      exit 1
    fi
    stop_bus
  done
done

if (( queue_tracks > 0 )); then
  echo "bench: the $queue_tracks-track queue (linnet)"
  make_track "$work/one.ogg" 1 "Queued"
  "$driver" link "$work/one.ogg" "$work/queue" "$queue_tracks"
  fresh_home
  start_bus
  sink='fakesink sync=true'
  if ! "$driver" queue --label linnet --name org.mpris.MediaPlayer2.linnet --log "$work/queue.log" -- \
      "$linnet" --no-resume --paused --audio-sink "$sink" --log-level warning "${tracks[@]}" --- \
      "$linnet" --no-resume --paused --audio-sink "$sink" --log-level warning "$work/queue" >> "$results"; then
    echo "bench: the queue test failed; linnet's output:" >&2
    tail -n 30 "$work/queue.log" >&2 || true
    exit 1
  fi
  stop_bus
fi

[[ ${LINNET_BENCH_SCALE:-1} == 0 ]] || Benchmarks/queue/run.sh "$linnet"  # issue 18's queue figures (Benchmarks/queue/run.sh)
[[ ${LINNET_BENCH_SCALE:-1} == 0 ]] || { swift build -c release --product QueueEditBench >/dev/null && "$(swift build -c release --show-bin-path)/QueueEditBench"; }  # queue edits in process at 100k, shuffled and not
(( ${LINNET_BENCH_LIBRARY_FILES:-10000} > 0 )) && Benchmarks/library/run.sh  # tag scan and cache, 10k files
Benchmarks/startup/run.sh "$linnet"  # launch → bus name (1 file, a 10 000-file folder) and RSS playing, vs mpv and the C reference
Benchmarks/growth/run.sh "$linnet"  # memory growth per track load, RSS and heap in use (LINNET_BENCH_GROWTH_LOADS, default 2000)
Benchmarks/fuzz/run.sh "$linnet"  # RSS after an N-minute bus fuzz (LINNET_BENCH_FUZZ_MINUTES, default 10)
mkdir -p "$(dirname "$out")"
title="MPRIS benchmark, $(date -u +%Y-%m-%d), $(nproc) cores, $rounds rounds ($calls calls, $reps reps, ${cpu_seconds}s CPU windows, ${throughput_seconds}s throughput)"
"$driver" report --players "$players" --out "$out" --title "$title" "$results"
echo "bench: written to $out"
