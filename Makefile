# yarngym: `make demo` runs the main job, `make test` runs every test.
GO ?= go
BIN := bin/yarngym

.PHONY: build demo test vet gotest bench fuzz clean

build:
	$(GO) build -o $(BIN) ./cmd/yarngym

# The main job: OPERA's MapReduce experiment (Sec. IV-B) under Fair, with
# per-job and per-task results written to out/demo.
demo: build
	$(BIN) run opera-mr --seed 1 --out out/demo
	@echo "results: $(CURDIR)/out/demo (summary.json, jobs.csv, tasks.csv)"

vet:
	$(GO) vet ./...
	@out=$$(gofmt -l .); if [ -n "$$out" ]; then echo "gofmt needed on: $$out"; exit 1; fi

gotest:
	$(GO) test ./...

test: vet gotest

# Engine throughput on one simulated day of the SWIM FB-2009 trace (600 nodes).
bench:
	$(GO) test ./benchmarks ./env -run '^$$' -bench . -benchtime 1x

# Each fuzz target for a minute.
fuzz:
	$(GO) test ./env/scenario -run '^$$' -fuzz FuzzParse -fuzztime 60s
	$(GO) test ./env/scenario -run '^$$' -fuzz FuzzSet -fuzztime 60s
	$(GO) test ./env/workload -run '^$$' -fuzz FuzzLoadSWIM -fuzztime 60s
	$(GO) test ./env/workload -run '^$$' -fuzz FuzzLoadAlibaba -fuzztime 60s

clean:
	rm -rf bin out
