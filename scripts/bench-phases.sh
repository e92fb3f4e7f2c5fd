#!/usr/bin/env bash
# Where a launch's time goes: builds aar-exec with -tags phasetrace, whose
# phase marks launchbench reads from stderr, and runs it alternately in
# linux and local mode against sh -c true. A measuring build only: the
# marks cost a few microseconds each and the binary is thrown away.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
rounds=${ROUNDS:-200}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/ws"
(cd "$root" && CGO_ENABLED=0 go build -tags phasetrace -trimpath -ldflags '-s -w' -o "$tmp/aar-exec" ./cmd/aar-exec &&
  go build -o "$tmp/launchbench" ./scripts/launchbench)
cd "$tmp/ws"
log="--audit-log=$tmp/audit.jsonl"
echo "machine: $(nproc) CPU, $(uname -r), load $(cut -d' ' -f1-3 /proc/loadavg); $rounds alternating rounds"
"$tmp/launchbench" -phases -n "$rounds" "sh -c true" \
  "$tmp/aar-exec --mode linux $log -c true" \
  "$tmp/aar-exec --mode local $log -c true"
