#!/usr/bin/env bash
# RSS after an N-minute bus fuzz (issue 18): the BusFuzz test (`make fuzz`) against a release
# linnet for N minutes, with RSS, the heap in use inside linnet (glibc's mallinfo2, read by
# Benchmarks/growth/heap_probe.c preloaded into linnet) and the queue length sampled every
# minute. The fuzzer adds and removes tracks, so the queue length says how much of the memory is
# what the calls asked linnet to hold; heap in use flat while RSS rises is the allocator keeping
# freed pages, not a leak.
#
#   Benchmarks/fuzz/run.sh LINNET_BINARY
#
# With LINNET_BENCH_BASELINE=<binary> the same fuzz (same seed) runs against that build after.
#   LINNET_BENCH_FUZZ_MINUTES  fuzz length (default 10, or 1 with LINNET_BENCH_ROUNDS below 3 as in
#                              the quick run; 0 skips; decimals work)
#   LINNET_BENCH_FUZZ_SEED     the fuzzer's seed (default: the test's own)
set -euo pipefail
cd "$(dirname "$0")/../.."
if ! command -v swift >/dev/null 2>&1; then export PATH="/opt/swift/usr/bin:$PATH"; fi
linnet=${1:?usage: Benchmarks/fuzz/run.sh LINNET_BINARY}
minutes=${LINNET_BENCH_FUZZ_MINUTES:-$(( ${LINNET_BENCH_ROUNDS:-3} < 3 ? 1 : 10 ))}
seconds=$(awk -v m="$minutes" 'BEGIN { printf "%d", m * 60 }')
(( seconds > 0 )) || exit 0

echo "fuzz-bench: building the test bundle (the fuzzer is the BusFuzz test)" >&2
swift build --build-tests >&2
bin=.build/bench
mkdir -p "$bin"
cc -O2 -Wall -shared -fPIC -o "$bin/heap-probe.so" Benchmarks/growth/heap_probe.c -lpthread
probe_library=$PWD/$bin/heap-probe.so

work=$(mktemp -d /tmp/linnet-fuzz-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT
mkfifo "$work/request" "$work/reply"
mkdir -p "$work/pids"

players=(linnet)
[[ -n ${LINNET_BENCH_BASELINE:-} ]] && players+=(baseline)
results=$work/results.txt
: > "$results"
for player in "${players[@]}"; do
  binary=$linnet
  [[ $player == baseline ]] && binary=$LINNET_BENCH_BASELINE
  echo "fuzz-bench: $player, $minutes min" >&2
  log=$work/$player.log
  # The fuzz's own verdict is not this figure's business: a failed run still reports its samples.
  env LINNET_TEST_BINARY="$binary" LINNET_FUZZ_SECONDS="$seconds" ${LINNET_BENCH_FUZZ_SEED:+LINNET_FUZZ_SEED=$LINNET_BENCH_FUZZ_SEED} \
    LD_PRELOAD="$probe_library" LINNET_HEAP_PROBE="$work" LINNET_TEST_PID_DIR="$work/pids" \
    SWIFT_BACKTRACE=enable=no timeout $((seconds + 600)) \
    swift test --skip-build --disable-xctest --filter BusFuzzTests > "$log" 2>&1 || echo "fuzz-bench: the $player fuzz failed (see its samples)" >&2
  grep -E '^BusFuzz (sample|final|report)' "$log" | sed "s/^/  $player: /" >&2 || true
  awk -v p="$player" '/^BusFuzz final:/ {
      for (i = 1; i <= NF; i++) {
        if ($i == "RSS") rss = $(i + 1)
        if ($i == "use") heap = $(i + 1)
        if ($i == "queue") queue = $(i + 1)
      }
      printf "fuzz %s rss_mib %.1f\nfuzz %s heap_in_use_mib %s\nfuzz %s queue_tracks %d\n", p, rss / 1024, p, heap == "unknown," ? "?" : sprintf("%.1f", heap / 1024), p, queue
    }' "$log" | tee -a "$results"
done

echo "RSS after a $minutes-minute bus fuzz (release build; heap in use inside linnet; queue length at the end):"
awk '$1 == "fuzz" { value[$2, $3] = $4; seen[$2] = 1 }
     END { for (p in seen) printf "  %-10s RSS %6s MiB   heap in use %6s MiB   queue %s tracks\n", p,
           value[p, "rss_mib"], value[p, "heap_in_use_mib"], value[p, "queue_tracks"] }' "$results"
