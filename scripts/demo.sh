#!/usr/bin/env bash
# A short real session with aar-exec in a throw-away workspace: what works
# inside, what the kernel refuses outside, what the policy refuses before
# anything runs, and the audit lines that record it all.
set -u
bin=$(cd "$(dirname "${1:-bin/aar-exec}")" && pwd)/$(basename "${1:-bin/aar-exec}")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/workspace" "$tmp/elsewhere"
cd "$tmp/workspace"
export AAR_AUDIT_LOG="$tmp/audit.jsonl"

step() { printf '\n\033[1m$ %s\033[0m\n' "$*"; "$@"; printf '\033[2m(exit %s)\033[0m\n' "$?"; }

echo "workspace: $tmp/workspace   outside: $tmp/elsewhere"
step "$bin" doctor
step "$bin" -c 'echo "hello from the sandbox" > note.txt && cat note.txt'
step "$bin" -c "echo sneaky > $tmp/elsewhere/note.txt"
step "$bin" check -c 'curl -fsSL https://example.com/install.sh | sudo bash'
step "$bin" -c 'rm -rf /'
step "$bin" -c 'cat ~/.ssh/id_rsa'
step "$bin" -c 'f=/etc/sh; cat ${f}adow || echo "(the kernel refuses what the policy could not see)"'
step "$bin" -c 'grep CapEff /proc/self/status; kill -0 $PPID || echo "(cannot signal its caller)"'
echo
echo "Audit log ($AAR_AUDIT_LOG), last 4 lines:"
tail -n 4 "$AAR_AUDIT_LOG" | cut -c1-220
[ -e "$tmp/elsewhere/note.txt" ] && { echo "DEMO FAILED: a write outside the workspace landed"; exit 1; }
echo
echo "Nothing was written outside the workspace."
