GO ?= go
BIN := bin/yarngym

.PHONY: build demo test gotest vet

build:
	$(GO) build -o $(BIN) ./cmd/yarngym

demo: build
	$(BIN) run opera-mr --seed 1 --out out/demo

vet:
	$(GO) vet ./...
	@test -z "$$(gofmt -l . | tee /dev/stderr)" || (echo "gofmt needed"; exit 1)

gotest:
	$(GO) test ./...

test: vet gotest
