# Workbench: the two commands a new user needs are `make run` and `make test`.
GO ?= go
BIN := bin/workbench
STATICCHECK ?= $(shell command -v staticcheck 2>/dev/null || echo $(HOME)/go/bin/staticcheck)

.PHONY: build run test bench bench-start bench-long bench-sandbox lint fuzz clean

# -buildvcs=auto stamps the commit into the binary (`workbench --version`
# prints it) even where GOFLAGS turns stamping off, and builds all the same
# where there is no repository.
build:
	$(GO) build -buildvcs=auto -o $(BIN) .

# `make run` starts the workbench in this directory (the built-in demo when
# no model is configured). ARGS passes flags: make run ARGS='--provider anthropic'.
run: build
	./$(BIN) $(ARGS)

test:
	$(GO) vet ./...
	$(GO) test -race -count=1 -timeout 30m ./...

bench:
	$(GO) test -run '^$$' -bench . -benchmem -benchtime 1x ./... 2>&1 | tee bench.out

# `make bench-start` measures how the real binary starts: the first full
# frame, idle memory and idle CPU (scripts/bench-start.sh; CRUSH=path adds
# Crush in the same run). Not part of `make test`.
bench-start: build
	BIN=$(BIN) ./scripts/bench-start.sh

# `make bench-long` measures the peak memory of a 2,000-turn headless
# session on the real binary (scripts/bench-long.sh; VS=path adds a second
# binary in the same run). Not part of `make test`.
bench-long: build
	BIN=$(BIN) ./scripts/bench-long.sh

# `make bench-sandbox` measures the sandbox's cost per command on the real
# binary: 200 Bash calls of `true` in one headless session, sandboxed and
# not (scripts/bench-sandbox.sh; VS=path adds a second binary).
bench-sandbox: build
	BIN=$(BIN) ./scripts/bench-sandbox.sh

lint:
	@test -z "$$(gofmt -l .)" || (gofmt -l .; echo 'gofmt: the files above need formatting'; exit 1)
	$(GO) vet ./...
	$(STATICCHECK) ./...

# Short fuzzing runs of every fuzz target (FUZZTIME=30s to go longer).
FUZZTIME ?= 10s
fuzz:
	$(GO) test -run '^$$' -fuzz FuzzParseRule -fuzztime $(FUZZTIME) ./permission/
	$(GO) test -run '^$$' -fuzz FuzzSplitCommand -fuzztime $(FUZZTIME) ./permission/
	$(GO) test -run '^$$' -fuzz FuzzH15_MarkerIsSeen -fuzztime $(FUZZTIME) ./permission/
	$(GO) test -run '^$$' -fuzz FuzzSchemaPrepare -fuzztime $(FUZZTIME) ./tools/
	$(GO) test -run '^$$' -fuzz FuzzFeedTerminal -fuzztime $(FUZZTIME) ./tasks/pty/
	$(GO) test -run '^$$' -fuzz FuzzKeyBytes -fuzztime $(FUZZTIME) ./tasks/pty/
	$(GO) test -run '^$$' -fuzz FuzzStageEventJSON -fuzztime $(FUZZTIME) ./agent/
	$(GO) test -run '^$$' -fuzz FuzzHighlight -fuzztime $(FUZZTIME) ./ui/highlight/
	$(GO) test -run '^$$' -fuzz FuzzRender -fuzztime $(FUZZTIME) ./ui/markdown/

clean:
	rm -rf bin bench.out
