#!/usr/bin/env bash
# framesync: installs what is missing (as root), builds, and runs the conformance suite.
#   ./run-tests.sh                      against the built-in reference compositor (fake-wm)
#   ./run-tests.sh --wm "openbox"       against another compositor
#   ./run-tests.sh --help               every option
set -euo pipefail
cd "$(dirname "$0")"
tools/install-deps.sh || exit 2
make -s -j"$(nproc)" >&2 || { echo "framesync: the build failed" >&2; exit 2; }
exec python3 -m runner "$@"
