# Linnet: `make test` installs what is missing, builds and runs every test.
SHELL := /bin/bash
export PATH := $(PATH):/opt/swift/usr/bin

.PHONY: deps build test clean

deps:
	@scripts/install-deps.sh

build: deps
	swift build

test: deps
	scripts/run-tests.sh

clean:
	rm -rf .build
