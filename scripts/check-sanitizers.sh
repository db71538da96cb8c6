#!/usr/bin/env bash
# `make check`: builds the package and its tests with AddressSanitizer (LeakSanitizer on, GLib's
# slice allocator off so GObject leaks are visible) and with ThreadSanitizer, and runs a playback
# + D-Bus subset of the suite under each. The real `linnet` binary the black-box tests start is
# built with the same sanitizer and inherits the options, so the daemon is checked too.
#
# Every report from any process goes to a file under the report directory; the check fails if
# one appears, or if a test fails. Suppressions live in Tests/Sanitizers/, one commented entry
# per known problem that is not ours.
#
#   scripts/check-sanitizers.sh            both sanitizers
#   scripts/check-sanitizers.sh address    one of them (address | thread)
#   LINNET_SANITIZER_FILTER='…' overrides the test subset (a swift test --filter regex).
set -uo pipefail
cd "$(dirname "$0")/.."
if ! command -v swift >/dev/null 2>&1; then export PATH="/opt/swift/usr/bin:$PATH"; fi

# Playback through the engine, MPRIS and D-Bus in-process, and the daemon end to end (the
# scenario quits cleanly so the leak checker runs at linnet's exit).
FILTER=${LINNET_SANITIZER_FILTER:-'SanitizerScenarioTests|SpecRuleTests|ServerErrorTests|ConcurrencyTests|GaplessTests|FailureTests|busDaemonDying|corruptFileIsSkipped|quitReleasesTheName'}
SANITIZERS=("${@:-address thread}")
read -r -a SANITIZERS <<<"${SANITIZERS[*]}"
SUPPRESSIONS="$PWD/Tests/Sanitizers"

export LINNET_TEST_PID_DIR
LINNET_TEST_PID_DIR=$(mktemp -d /tmp/linnet-test-pids.XXXXXX)
REPORTS=$(mktemp -d /tmp/linnet-sanitizer-reports.XXXXXX)
cleanup() {
  for file in "$LINNET_TEST_PID_DIR"/*; do
    [[ -e "$file" ]] || continue
    kill -9 "$(basename "$file")" 2>/dev/null
  done
  rm -rf "$LINNET_TEST_PID_DIR"
}
trap cleanup EXIT

export SWIFT_BACKTRACE=enable=no
export G_DEBUG=fatal-criticals
export G_SLICE=always-malloc
# Sanitized builds run several times slower, more so on a loaded machine: the tests' waits
# (TestSupport's waitUntil/withTimeout, LinnetWorld's) stretch by this factor.
export LINNET_TEST_TIMEOUT_SCALE=${LINNET_TEST_TIMEOUT_SCALE:-3}

failed=0
for sanitizer in "${SANITIZERS[@]}"; do
  case "$sanitizer" in
    address)
      # Full unwinding: GLib and GStreamer are built without frame pointers.
      export ASAN_OPTIONS="detect_leaks=1:log_path=$REPORTS/asan:fast_unwind_on_malloc=0:malloc_context_size=40"
      export LSAN_OPTIONS="suppressions=$SUPPRESSIONS/lsan.supp:print_suppressions=0"
      ;;
    thread)
      export TSAN_OPTIONS="log_path=$REPORTS/tsan:suppressions=$SUPPRESSIONS/tsan.supp:halt_on_error=0:second_deadlock_stack=1"
      ;;
    *) echo "unknown sanitizer $sanitizer (address or thread)" >&2; exit 64 ;;
  esac
  build=".build-$sanitizer"
  echo "== $sanitizer: building into $build"
  if ! timeout --kill-after=30 "${LINNET_BUILD_TIMEOUT:-1800}" swift build --build-tests --sanitize="$sanitizer" --build-path "$build"; then
    echo "== $sanitizer: build failed" >&2
    failed=1
    continue
  fi
  echo "== $sanitizer: running tests matching $FILTER"
  started=$(date +%s)
  if ! timeout --kill-after=30 "${LINNET_TEST_TIMEOUT:-1800}" swift test --skip-build --sanitize="$sanitizer" \
      --build-path "$build" --disable-xctest --filter "$FILTER"; then
    echo "== $sanitizer: tests failed" >&2
    failed=1
  fi
  reports=$(find "$REPORTS" -type f -name "${sanitizer:0:1}san*" | sort)
  if [[ -n "$reports" ]]; then
    echo "== $sanitizer: reports:" >&2
    for report in $reports; do echo "--- $report" >&2; cat "$report" >&2; done
    failed=1
  else
    echo "== $sanitizer: no reports, no definite leaks ($(( $(date +%s) - started )) s of tests)"
  fi
  unset ASAN_OPTIONS LSAN_OPTIONS TSAN_OPTIONS
done
rm -rf "$REPORTS"
exit $failed
