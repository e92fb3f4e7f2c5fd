#!/usr/bin/env bash
# Installs what the end-to-end tests drive for real (bash, GNU make,
# python3, node) when it is missing, from Debian's packages.
set -euo pipefail
need=()
command -v bash    >/dev/null || need+=(bash)
command -v make    >/dev/null || need+=(make)
command -v python3 >/dev/null || need+=(python3)
command -v node    >/dev/null || need+=(nodejs)
command -v git     >/dev/null || need+=(git)
[ ${#need[@]} -eq 0 ] && exit 0
echo "installing test dependencies: ${need[*]}"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}" >/dev/null
