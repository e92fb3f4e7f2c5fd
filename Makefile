# aar-exec: build, demo, tests, benchmarks, lint and cross-builds.
# Everything a target needs is installed by the target itself.

GO          ?= go
BIN         ?= bin/aar-exec
PREFIX      ?= /usr/local
STATICCHECK := $(shell $(GO) env GOPATH)/bin/staticcheck
export CGO_ENABLED := 0
LDFLAGS     := -s -w
PLATFORMS   := linux/amd64 linux/arm64 windows/amd64 windows/arm64 darwin/amd64 darwin/arm64

.PHONY: all build run test unit scripts wincheck lint bench bench-phases cross install deps wine-test fuzz clean

all: build

build:
	$(GO) build -trimpath -ldflags '$(LDFLAGS)' -o $(BIN) ./cmd/aar-exec

# A real session in a throw-away workspace: a write inside works, a write
# outside is refused by the kernel, a dangerous command is refused by the
# policy, and the audit log shows all three.
run: build
	@scripts/demo.sh $(BIN)

# Every test: lint, unit and end-to-end tests (the real binary under real
# Landlock), and the Windows build checks.
test: deps lint unit wincheck

deps:
	@scripts/install-test-deps.sh

unit:
	$(GO) test -count=1 ./...

# Windows code cannot run here: it must at least vet and compile, tests
# included, for both architectures.
wincheck:
	GOOS=windows GOARCH=amd64 $(GO) vet ./...
	@for p in $$($(GO) list ./...); do \
		GOOS=windows GOARCH=amd64 $(GO) test -c -o /dev/null $$p || exit 1; \
	done
	GOOS=windows GOARCH=amd64 $(GO) build -o /dev/null ./cmd/aar-exec
	GOOS=windows GOARCH=arm64 $(GO) build -o /dev/null ./cmd/aar-exec

$(STATICCHECK):
	$(GO) install honnef.co/go/tools/cmd/staticcheck@v0.8.2

lint: $(STATICCHECK)
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	$(GO) vet -tags phasetrace ./internal/phase ./cmd/aar-exec ./scripts/launchbench
	$(STATICCHECK) ./...
	GOOS=windows $(STATICCHECK) ./...

# Benchmarks: Go micro-benchmarks, launch overhead against sh and bwrap,
# then a make -j2 build with aar-exec as its shell.
bench: build
	$(GO) test -run '^$$' -bench . -benchmem ./policy/ ./redact/ ./audit/ ./shellargs/ ./launcher/linux/
	@scripts/bench-launch.sh $(BIN)
	@scripts/bench-make.sh $(BIN)

# Where a launch's time goes, phase by phase, from a measuring build.
bench-phases:
	@scripts/bench-phases.sh

fuzz:
	$(GO) test -run '^$$' -fuzz FuzzCheck -fuzztime 60s ./policy/
	$(GO) test -run '^$$' -fuzz FuzzString -fuzztime 60s ./redact/

cross:
	@for pf in $(PLATFORMS); do \
		os=$${pf%/*}; arch=$${pf#*/}; ext=; [ $$os = windows ] && ext=.exe; \
		echo "bin/aar-exec-$$os-$$arch$$ext"; \
		GOOS=$$os GOARCH=$$arch $(GO) build -trimpath -ldflags '$(LDFLAGS)' -o bin/aar-exec-$$os-$$arch$$ext ./cmd/aar-exec || exit 1; \
	done

install: build
	install -m 0755 $(BIN) $(PREFIX)/bin/aar-exec

# The Windows binary under Wine: startup, policy, audit and fail-closed.
wine-test:
	@scripts/wine-test.sh

clean:
	rm -rf bin

# Differential check of the policy against real bash: generated scripts
# run in bubblewrap with logging stubs; prints scripts that ran rm -r / or
# read ~/.ssh/id_rsa while the policy allowed them. Needs bwrap; not part
# of test.
.PHONY: bashdiff
bashdiff:
	$(GO) run ./scripts/bashdiff -n 20000
