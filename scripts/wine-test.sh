#!/usr/bin/env bash
# The Wine lane: run the Windows build of aar-exec under Wine from Linux.
#
#   1. GOOS=windows go test of the packages that must work on Windows, with
#      the test binaries run by Wine;
#   2. the real aar-exec.exe under Wine: version, a policy denial (126), and
#      the fail-closed path (125), because Wine accepts Job Object limits and
#      Low integrity calls but enforces neither, so an honest aar-exec must
#      refuse there.
#
# Needs root to install wine, wine64 and gcc-mingw-w64-x86-64 when missing.
# Everything else lives in a throw-away directory, removed on exit.
# Exits non-zero when a check fails. `make test` never needs this.
# GOTESTFLAGS adds flags to go test, e.g. GOTESTFLAGS=-v.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
start=$(date +%s)
step() { printf 'wine-test: [%3ss] %s\n' "$(($(date +%s) - start))" "$*"; }
fail() { printf 'wine-test: FAIL: %s\n' "$*" >&2; failures=$((failures + 1)); }
failures=0

need=()
command -v wine >/dev/null 2>&1 || need+=(wine)
[ -x /usr/lib/wine/wine64 ] || need+=(wine64)
command -v x86_64-w64-mingw32-gcc >/dev/null 2>&1 || need+=(gcc-mingw-w64-x86-64)
if ((${#need[@]})); then
	step "installing ${need[*]}"
	# A machine that cannot get Wine (no package mirror, a full disk) lacks
	# the platform this lane needs: say so and stop, rather than fail the
	# build that make test's Windows vet, test -c and build have checked.
	if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null; }; then
		step "SKIP: could not install ${need[*]} from Debian's packages (free space on /: $(df -h / | awk 'NR==2{print $4}')); the Windows build was vetted and compiled by make test, but not run under Wine"
		exit 0
	fi
fi

T=$(mktemp -d "${TMPDIR:-/tmp}/aar-wine.XXXXXX")
export WINEPREFIX="$T/prefix" WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml=" WINEARCH=win64
cleanup() {
	wineserver -k >/dev/null 2>&1 || true
	rm -rf "$T"
}
trap cleanup EXIT

step "creating the Wine prefix in $WINEPREFIX"
wine wineboot --init </dev/null >/dev/null 2>&1
# Go >= 1.22 needs ProcessPrng, which Wine 8.0 lacks; Go loads it from
# system32 only, so the shim goes there.
x86_64-w64-mingw32-gcc -O2 -shared -s -o "$WINEPREFIX/drive_c/windows/system32/bcryptprimitives.dll" \
	scripts/wine/bcryptprimitives.c -ladvapi32
wine winecfg -v win10 </dev/null >/dev/null 2>&1 || true
# Start wineserver and Wine's services now, detached from every pipe: if the
# first test binary started them, they would inherit its output pipe and
# hold go test for a minute.
wineserver -k >/dev/null 2>&1 || true # the one wineboot left, which is not persistent
wineserver -p
wine cmd /c exit </dev/null >/dev/null 2>&1 || true

# 1. Unit tests under Wine.
pkgs=()
for d in launcher/windows policy redact audit; do
	if compgen -G "$d/*.go" >/dev/null; then pkgs+=("./$d/"); fi
done
step "go test under wine: ${pkgs[*]}"
# shellcheck disable=SC2086 # GOTESTFLAGS (e.g. -v) is a list of flags
if ! GOOS=windows GOARCH=amd64 CGO_ENABLED=0 go test -count=1 -short ${GOTESTFLAGS:-} -exec "$root/scripts/wine/go_windows_exec" "${pkgs[@]}"; then
	fail "go test under wine"
fi

# 2. The real binary.
exe="$T/aar-exec.exe"
if ! GOOS=windows GOARCH=amd64 CGO_ENABLED=0 go build -o "$exe" ./cmd/aar-exec 2>"$T/build.log"; then
	step "SKIP part 2: cmd/aar-exec does not build for windows yet:"
	sed 's/^/    /' "$T/build.log" >&2
else
	ws="$T/ws"
	mkdir -p "$ws"
	cd "$ws"
	# Wine maps / to Z:, so this is the audit file's path as Windows sees it.
	audit_unix="$T/audit.jsonl"
	audit="Z:${audit_unix//\//\\}"
	run() { # run NAME WANT_RC ARGS...: run aar-exec.exe, keep stdout and stderr
		local name=$1 want=$2 rc=0
		shift 2
		wine "$exe" "$@" </dev/null >"$T/$name.out" 2>"$T/$name.err" || rc=$?
		if [ "$rc" -ne "$want" ]; then
			fail "aar-exec.exe $* exited $rc, want $want"
			sed 's/^/    stdout: /' "$T/$name.out" >&2
			sed 's/^/    stderr: /' "$T/$name.err" >&2
			return 1
		fi
		step "ok: aar-exec.exe $* -> $rc"
	}
	run version 0 version || true
	if run check 126 check -c "rm -rf /"; then
		grep -q deny "$T/check.out" || fail "check -c 'rm -rf /' printed no \"deny\": $(head -c 300 "$T/check.out")"
	fi
	if run windows 125 --mode windows --audit-log "$audit" -- cmd /c echo hi; then
		grep -q '^aar-exec: ' "$T/windows.err" || fail "no 'aar-exec: ' line on stderr: $(head -c 300 "$T/windows.err")"
		grep -q 'hi' "$T/windows.out" && fail "the command ran although aar-exec refused"
		[ -s "$audit_unix" ] || fail "no audit line was written to $audit"
		[ -s "$audit_unix" ] && step "audit line: $(tail -n 1 "$audit_unix" | head -c 400)"
		step "refusal: $(head -n 3 "$T/windows.err")"
	fi
	cd "$root"
fi

step "done, $failures failure(s)"
[ "$failures" -eq 0 ]
