#!/usr/bin/env bash
# Installs the Debian packages listed in debian-packages.txt that are missing.
# As root: apt-get update once, then apt-get install. Otherwise: prints the command and fails.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
mapfile -t wanted < <(sed -e 's/#.*//' -e 's/[[:space:]]//g' "$here/debian-packages.txt" | grep -v '^$')
missing=()
for p in "${wanted[@]}"; do
    status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
    [[ "$status" == "install ok installed" ]] || missing+=("$p")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0
cmd="apt-get install -y --no-install-recommends ${missing[*]}"
if [[ $(id -u) -ne 0 ]]; then
    echo "framesync: missing Debian packages: ${missing[*]}" >&2
    echo "framesync: run as root:  apt-get update && $cmd" >&2
    exit 1
fi
echo "framesync: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >&2
# shellcheck disable=SC2086
$cmd >&2
