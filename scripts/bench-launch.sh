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

# Counts do not drift with the machine's speed the way times do: a change
# too small for the medians above (their noise here is 0.1-0.2 ms) still
# shows as fewer page faults (2-3 us each on this VM), system calls or
# threads. perf is Debian's linux-perf; without it this part is skipped.
events=page-faults,raw_syscalls:sys_enter,context-switches,syscalls:sys_enter_clone,syscalls:sys_enter_clone3
if command -v perf >/dev/null && perf stat -x, -e "$events" true >/dev/null 2>&1; then
  echo
  printf '%-64s %8s %9s %9s %7s\n' "per launch (perf stat, mean of 50)" faults syscalls switches clones
  counted=("sh -c true" "$bin --mode linux $log -c true" "$bin --mode local $log -c true" "$bin check -c true")
  command -v bwrap >/dev/null && counted+=("bwrap --ro-bind / / --dev /dev --bind /tmp /tmp sh -c true")
  for c in "${counted[@]}"; do
    # shellcheck disable=SC2086 # c is a command line to split
    perf stat -x, -r 50 -e "$events" $c 2>&1 >/dev/null | awk -F, -v c="$c" '
      { v[$3] = $1 }
      END {
        if (length(c) > 64) c = substr(c, 1, 63) "…"
        printf "%-64s %8d %9d %9d %7d\n", c, v["page-faults"], v["raw_syscalls:sys_enter"], v["context-switches"],
          v["syscalls:sys_enter_clone"] + v["syscalls:sys_enter_clone3"]
      }'
  done
else
  echo "(perf with tracepoints not available: no per-launch counts; apt-get install linux-perf)"
fi
