# Linnet: `make test` installs what is missing, builds and runs every test.
SHELL := /bin/bash
export PATH := $(PATH):/opt/swift/usr/bin

.PHONY: deps build test run install clean

deps:
	@scripts/install-deps.sh

build: deps
	swift build

test: deps
	scripts/run-tests.sh

# Builds and starts linnet (under dbus-run-session when there is no session bus).
run:
	scripts/run.sh $(ARGS)

# PREFIX defaults to ~/.local.
install:
	scripts/install.sh

clean:
	rm -rf .build
