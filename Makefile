# Linnet: `make test` installs what is missing, builds and runs every test.
SHELL := /bin/bash
export PATH := $(PATH):/opt/swift/usr/bin

.PHONY: deps build test check fuzz bench bench-micro run install clean

deps:
	@scripts/install-deps.sh

build: deps
	swift build

test: deps
	scripts/run-tests.sh

# AddressSanitizer (with LeakSanitizer) and ThreadSanitizer builds running a playback + D-Bus
# subset of the tests; SANITIZERS=address or SANITIZERS=thread runs one.
check: deps
	scripts/check-sanitizers.sh $(SANITIZERS)

# The D-Bus fuzzer for five minutes (the test suite runs it briefly); LINNET_FUZZ_SEED replays a run,
# LINNET_FUZZ_SECONDS sets the length, LINNET_TEST_BINARY=.build/release/linnet fuzzes a release
# build, LINNET_FUZZ_GDB=1 prints a crash's backtrace.
fuzz: deps
	seconds=$${LINNET_FUZZ_SECONDS:-300}; SWIFT_BACKTRACE=enable=no LINNET_FUZZ_SECONDS=$$seconds \
		timeout $$((seconds + 900)) swift test --disable-xctest --filter BusFuzz

# linnet against mpv + mpv-mpris and a C libdbus floor; writes Benchmarks/results.md (settings: scripts/bench.sh).
bench:
	scripts/bench.sh

# In-process micro benchmarks with allocation and instruction counts (queue edits at 100k, the
# player's logic, Metadata encoding), from their own package in Benchmarks/micro.
bench-micro: deps
	cd Benchmarks/micro && swift package --disable-sandbox benchmark --no-progress $(BENCH_ARGS)

# Builds and starts linnet (under dbus-run-session when there is no session bus).
run:
	scripts/run.sh $(ARGS)

# PREFIX defaults to ~/.local.
install:
	scripts/install.sh

clean:
	rm -rf .build
