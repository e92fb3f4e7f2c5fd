#!/usr/bin/env bash
# make -j2 of N trivial recipe lines (default 2000) with /bin/sh, /bin/bash,
# bubblewrap and aar-exec as the shell; aar-exec runs in linux mode with its
# audit log on, and the script checks that every line was audited. Each
# recipe redirects, so make must start a shell for it, even /bin/sh.
set -euo pipefail
bin=$(cd "$(dirname "${1:-bin/aar-exec}")" && pwd)/$(basename "${1:-bin/aar-exec}")
n=${RECIPES:-2000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/ws"
cd "$tmp/ws"
{
  printf 'all:'
  for i in $(seq "$n"); do printf ' t%d' "$i"; done
  echo
  for i in $(seq "$n"); do printf 't%d:\n\t@echo %d >/dev/null\n' "$i" "$i"; done
} >Makefile

TIMEFORMAT=%R
secs() { { time make -s -j2 "$@" >/dev/null; } 2>&1 | tail -1; }

echo "machine: $(nproc) CPU, $(uname -r), load $(cut -d' ' -f1-3 /proc/loadavg); make -j2, $n recipe lines"
base=$(secs SHELL=/bin/sh)
printf '%-40s %7ss\n' "SHELL=/bin/sh" "$base"
printf '%-40s %7ss\n' "SHELL=/bin/bash" "$(secs SHELL=/bin/bash)"
if command -v bwrap >/dev/null; then
  printf '%-40s %7ss\n' "SHELL=bwrap (--ro-bind / /, --dev, /tmp)" \
    "$(secs SHELL="$(command -v bwrap)" .SHELLFLAGS='--ro-bind / / --dev /dev --bind /tmp /tmp /bin/sh -c')"
fi
log="$tmp/audit.jsonl"
t=$(secs SHELL="$bin" .SHELLFLAGS="--mode linux --audit-log=$log -c")
printf '%-40s %7ss  (%sx /bin/sh)\n' "SHELL=aar-exec (linux mode, audit on)" "$t" "$(awk -v a="$t" -v b="$base" 'BEGIN { printf "%.1f", a / b }')"
ends=$(grep -c '"event":"end"' "$log" || true)
echo "audit: $ends end lines for $n recipe lines"
[ "$ends" -eq "$n" ]
