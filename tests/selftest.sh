#!/usr/bin/env bash
# make selftest: the fault matrix against fake-wm (tests/selftest.py), with its closing line.
set -uo pipefail
cd "$(dirname "$0")/.."
python3 tests/selftest.py "$@"
