# Linnet: `make test` installs what is missing, builds and runs every test.
SHELL := /bin/bash
export PATH := $(PATH):/opt/swift/usr/bin

.PHONY: deps build test check fuzz bench run install clean

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

# Builds and starts linnet (under dbus-run-session when there is no session bus).
run:
	scripts/run.sh $(ARGS)

# PREFIX defaults to ~/.local.
install:
	scripts/install.sh

clean:
	rm -rf .build
