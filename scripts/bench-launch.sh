#!/usr/bin/env bash
# Launch overhead of aar-exec against sh -c true and bubblewrap, alternating
# runs; installs hyperfine and bubblewrap from Debian's packages if missing.
set -euo pipefail
bin=$(cd "$(dirname "${1:-bin/aar-exec}")" && pwd)/$(basename "${1:-bin/aar-exec}")
rounds=${ROUNDS:-200}
if ! command -v bwrap >/dev/null || ! command -v hyperfine >/dev/null; then
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq bubblewrap hyperfine >/dev/null || true
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/ws"
cd "$tmp/ws"
go build -o "$tmp/launchbench" "$OLDPWD/scripts/launchbench" 2>/dev/null || (cd "$OLDPWD" && go build -o "$tmp/launchbench" ./scripts/launchbench)
log="--audit-log=$tmp/audit.jsonl"
cmds=("sh -c true"
      "$bin --mode linux $log -c true"
      "$bin --mode linux --allow-secret-reads $log -c true"
      "$bin --mode local $log -c true"
      "$bin check -c true")
command -v bwrap >/dev/null && cmds+=("bwrap --ro-bind / / --dev /dev --bind /tmp /tmp sh -c true")
echo "machine: $(nproc) CPU, $(uname -r), load $(cut -d' ' -f1-3 /proc/loadavg); $rounds alternating rounds"
"$tmp/launchbench" -n "$rounds" "${cmds[@]}"
