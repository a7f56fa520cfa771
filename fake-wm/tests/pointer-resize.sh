#!/bin/bash
# Builds fake-wm/tests/pointer-resize.c and runs it against fake-wm on a private Xvfb.
#   fake-wm/tests/pointer-resize.sh [TEST-OPTIONS] [-- FAKE-WM-OPTIONS]
# e.g. fake-wm/tests/pointer-resize.sh --extended -- --profile de-facto
#      fake-wm/tests/pointer-resize.sh --expect-ignored -- --variant keyboard-only
# Exit status: the test's (0 passed, 1 failed, 2 could not run).  fake-wm's log is printed.
set -u
here=$(cd "$(dirname "$0")" && pwd)
fakewm=$here/../fake-wm
tmp=$(mktemp -d /tmp/fakewm-ptr.XXXXXX)
xpid= wpid= tpid=
cleanup() {
    for p in $tpid $wpid $xpid; do kill "$p" 2>/dev/null && wait "$p" 2>/dev/null; done
    rm -rf "$tmp"
}
trap cleanup EXIT INT TERM

test_args=() wm_args=()
while [ $# -gt 0 ]; do
    if [ "$1" = "--" ]; then shift; wm_args=("$@"); break; fi
    test_args+=("$1"); shift
done

cc -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -O1 -g -o "$tmp/pointer-resize" "$here/pointer-resize.c" \
    $(pkg-config --cflags --libs xcb xcb-sync xcb-xtest) || exit 2

# -displayfd: the server picks a free display and writes its number once it accepts clients;
# reading it through a FIFO waits for exactly that (at most 10 s)
mkfifo "$tmp/displayfd"
Xvfb -displayfd 3 -nolisten tcp -screen 0 1024x768x24 3>"$tmp/displayfd" 2>"$tmp/Xvfb.log" &
xpid=$!
exec 4<"$tmp/displayfd"
read -r -t 10 display <&4 || { cat "$tmp/Xvfb.log"; echo "no Xvfb"; exit 2; }
export DISPLAY=":$display"

# fake-wm is ready when it logs so: follow its log line by line (at most 10 s)
: >"$tmp/fake-wm.log"
"$fakewm" "${wm_args[@]}" 2>"$tmp/fake-wm.log" &
wpid=$!
exec 5< <(tail -n +1 -f "$tmp/fake-wm.log")
tpid=$!
ready=
while read -r -t 10 line <&5; do
    case $line in *"fake-wm: ready"*) ready=1; break ;; esac
done
[ -n "$ready" ] || { cat "$tmp/fake-wm.log"; echo "fake-wm not ready"; exit 2; }

"$tmp/pointer-resize" "${test_args[@]}"
rc=$?
echo "---- fake-wm's log"
cat "$tmp/fake-wm.log"
exit $rc
