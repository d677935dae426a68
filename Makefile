# yarngym: `make demo` runs the main job, `make test` runs every test.
GO ?= go
BIN := bin/yarngym
# bash for pipefail in gotest
SHELL := /bin/bash

.PHONY: build demo test vet gotest bench fuzz clean oracle oracletest

build:
	$(GO) build -o $(BIN) ./cmd/yarngym

# The main job: OPERA's MapReduce experiment (Sec. IV-B) under Fair, with
# per-job and per-task results written to out/demo/opera-mr; then the quick
# benchmark suite with its HTML report in out/demo/quick. yarngym itself
# says where it wrote them (once).
DEMO_OUT ?= out/demo
demo: build
	$(BIN) run opera-mr --seed 1 --out $(DEMO_OUT)/opera-mr
	$(BIN) bench quick --out $(DEMO_OUT)/quick

vet:
	$(GO) vet ./...
	$(GO) vet -tags capifuzz ./bindings/capi
	@out=$$(gofmt -l .); if [ -n "$$out" ]; then echo "gofmt needed on: $$out"; exit 1; fi

# go test ./... through internal/testprogress: a line per package as it
# finishes, failures in full, and every 5 s of quiet a line saying which
# tests are running (env/scenario, which checks the invariants after every
# event of every built-in scenario, takes a while). The timeout is per
# package: policies' every-policy-on-every-scenario test alone outlasts go
# test's default 10 minutes on a loaded 2-core machine.
gotest: chromium
	@echo "go test ./... (a line per package; while one runs long, which tests it is running)"
	@set -o pipefail; $(GO) test -json -timeout 40m ./... | $(GO) run ./internal/testprogress
	$(GO) test -tags capifuzz -count=1 -run FuzzABI ./bindings/capi  # the C ABI fuzz target's seed inputs

test: vet gotest oracletest pytest

# The oracle (oracle/): a Maven module driving Hadoop 3.3.6's own
# FairScheduler and CapacityScheduler in simulated time. The first build
# resolves hadoop-yarn-server-resourcemanager and hadoop-common from Maven
# Central (~90 MB in ~/.m2, about a minute); later builds run offline.
# Its own JUnit tests run in the package phase.
MVN ?= mvn
oracle:
	@if [ -d $$HOME/.m2/repository/org/apache/hadoop/hadoop-yarn-server-resourcemanager/3.3.6 ]; then \
	  $(MVN) -q -f oracle/pom.xml -o package || $(MVN) -q -f oracle/pom.xml package; \
	else echo "oracle: resolving Hadoop 3.3.6 from Maven Central (first build)"; $(MVN) -q -f oracle/pom.xml package; fi

# The comparison suite: every scenario in oracle/scenarios under yarngym's
# fair and capacity beside Hadoop's own schedulers (go test -tags oracle).
oracletest: oracle
	$(GO) test -tags oracle -count=1 ./oracle/

# The Python package (bindings/python) in a virtualenv .venv, made if missing:
# installs the build tools, then yarngym itself (editable; its build hook runs
# go build -buildmode=c-shared and writes the task registry) with its extras:
# rl (stable-baselines3 and RLlib, which pull PyPI's torch, the CUDA build:
# about 5 GB and 2-3 minutes on a fresh machine), tune (Ray Tune, Optuna),
# notebooks (pandas, matplotlib, nbmake) and test; then runs the Python tests
# and executes every notebook (a cell that raises fails the build).
PYTHON ?= python3
VENV ?= .venv
.PHONY: pytest
pytest:
	@test -x $(VENV)/bin/python || $(PYTHON) -m venv $(VENV) || { rm -rf $(VENV); \
	  echo "cannot create $(VENV) with '$(PYTHON) -m venv' (on Debian/Ubuntu: apt-get install python3-venv)"; exit 1; }
	@echo "pip install: build tools, then yarngym[rl,tune,notebooks,test] (torch is large on a fresh machine)"
	$(VENV)/bin/python -m pip install -q --disable-pip-version-check numpy gymnasium cffi pytest hatchling
	$(VENV)/bin/python -m pip install -q --disable-pip-version-check --no-build-isolation -e ".[rl,tune,notebooks,test]"
	$(VENV)/bin/python -m pytest -q --durations=8 bindings/python/tests
	cd notebooks && ../$(VENV)/bin/python -m pytest -q --nbmake --durations=0 -p no:cacheprovider .

# The wheel for a machine without Go or a C compiler, in dist/:
# yarngym-<version>-py3-none-<platform>.whl, with the c-shared library built by
# the hook (it does not link libpython: one wheel per platform serves every
# Python 3 >= 3.10). Built with hatchling from $(VENV), made if missing; `pip
# install dist/yarngym-*.whl` installs it. bindings/python/tests/test_wheel.py
# runs this target and the wheel in a fresh virtualenv with no Go on PATH.
WHEEL_DIR ?= dist
.PHONY: wheel
wheel:
	@test -x $(VENV)/bin/python || $(PYTHON) -m venv $(VENV) || { rm -rf $(VENV); \
	  echo "cannot create $(VENV) with '$(PYTHON) -m venv' (on Debian/Ubuntu: apt-get install python3-venv)"; exit 1; }
	@$(VENV)/bin/python -c 'import hatchling' 2>/dev/null || $(VENV)/bin/python -m pip install -q --disable-pip-version-check hatchling
	$(VENV)/bin/python -m pip wheel -q --disable-pip-version-check --no-deps --no-build-isolation -w $(WHEEL_DIR) .

# yarngym's PPO beside stable-baselines3's on one core, same task, budget and
# network: env steps/s, gradient steps/s, the split of each side's CPU time,
# throughput and test returns (minutes; not part of make test; README, Learners):
#   make compare-ppo [PPO_TASK=AutoAdmin-v0] [PPO_STEPS=20480]
PPO_TASK ?= AutoAdmin-v0
PPO_STEPS ?= 20480
.PHONY: compare-ppo
# Both sides step this tree's simulator: the Python side loads a library
# built here now (YARNGYM_LIBRARY), not the one the editable install built.
compare-ppo: build
	rm -rf out/compare-ppo
	mkdir -p out/compare-ppo
	$(GO) build -buildmode=c-shared -trimpath -o out/compare-ppo/libyarngym.so ./bindings/capi
	YARNGYM_LIBRARY=$(CURDIR)/out/compare-ppo/libyarngym.so $(VENV)/bin/python bindings/python/compare_ppo.py --task $(PPO_TASK) --steps $(PPO_STEPS) --go-dir out/compare-ppo/go

# Engine throughput (jobs/s, tasks/s, per CPU second too) and peak memory,
# each benchmark alone in its process on one core: the SWIM FB-2009 day,
# scale-50k, Decima's TPC-H mix and its linearity, a 1,000,000-job run, each
# policy on its papers; then the SWIM day, scale-50k and decima-tpch beside
# an earlier commit's, built and run here (about 15 minutes):
#   make bench [BASE=<commit>]     (default aa3544a, before issue 28)
bench:
	benchmarks/bench.sh $(BASE)

# This tree's engine benchmarks beside an earlier commit's, built and run in
# the same session on one core (ratios, as machines differ):
#   make bench-compare BASE=<commit> [BENCH='^BenchmarkQuick$$'] [COUNT=3]
BENCH ?= ^Benchmark(SWIMDay|Scale50k|TPCH)$$
COUNT ?= 3
.PHONY: bench-compare identical
# Whether this tree's runs give the same bytes as an earlier commit's (every
# built-in scenario under its own policy and the stock schedulers, seeds 1-2):
#   make identical BASE=<commit>
identical:
	@test -n "$(BASE)" || { echo "usage: make identical BASE=<commit>"; exit 2; }
	benchmarks/identical.sh "$(BASE)"

bench-compare:
	@test -n "$(BASE)" || { echo "usage: make bench-compare BASE=<commit> [BENCH=regex] [COUNT=n]"; exit 2; }
	benchmarks/compare.sh "$(BASE)" '$(BENCH)' "$(COUNT)"

# Each fuzz target for a minute.
fuzz:
	$(GO) test ./env/scenario -run '^$$' -fuzz FuzzParse -fuzztime 60s
	$(GO) test ./env/scenario -run '^$$' -fuzz FuzzSet -fuzztime 60s
	$(GO) test ./env/workload -run '^$$' -fuzz FuzzLoadSWIM -fuzztime 60s
	$(GO) test ./env/workload -run '^$$' -fuzz FuzzLoadAlibaba -fuzztime 60s
	$(GO) test ./env/workload -run '^$$' -fuzz FuzzLoadRumen -fuzztime 60s
	$(GO) test -tags capifuzz ./bindings/capi -run '^$$' -fuzz FuzzABI -fuzztime 60s

clean:
	rm -rf bin out

# Headless Chromium for the report's browser test (Debian's chromium), installed
# where missing; where it cannot be, that test skips and says why.
.PHONY: chromium
chromium:
	@command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || \
	  { echo "installing chromium (apt-get) for the report's browser test"; \
	    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium) >/dev/null 2>&1 || \
	    echo "chromium could not be installed: the report's browser test will skip"; }

# The echarts script the HTML reports inline is committed (Apache-2.0, with its
# LICENSE and NOTICE) in benchmarks/report/assets/echarts. This re-fetches the
# version named in benchmarks/report/assets.go from the npm registry into the
# gitignored .cache/ and checks it against the pinned sha256.
ECHARTS_VERSION = $(shell sed -n 's/.*EchartsVersion *= *"\(.*\)".*/\1/p' benchmarks/report/assets.go)
.PHONY: echarts
echarts:
	rm -rf .cache/echarts && mkdir -p .cache/echarts
	cd .cache/echarts && npm pack --silent echarts@$(ECHARTS_VERSION) >/dev/null && \
	  tar xzf echarts-$(ECHARTS_VERSION).tgz package/dist/echarts.min.js package/LICENSE package/NOTICE package/licenses/LICENSE-d3
	cp .cache/echarts/package/dist/echarts.min.js .cache/echarts/package/LICENSE .cache/echarts/package/NOTICE \
	  .cache/echarts/package/licenses/LICENSE-d3 benchmarks/report/assets/echarts/
	$(GO) test ./benchmarks/report -run TestVendoredEcharts
