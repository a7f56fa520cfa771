#!/bin/sh
# A compositor that brings its own X server, for the harness's `xserver: own` path (README,
# "Compositors that bring their own X server"): an Xvfb of its own on a display it picks, a WM on
# it (fake-wm, or any WM command), and the session command REPORT run with DISPLAY set, as
# kwin_wayland --exit-with-session or mutter -- CMD run theirs.  Like Xwayland under sway or
# weston, its server has no cookie.
#   tests/own-xserver-wm.sh REPORT WM-COMMAND...     e.g. {report} fake-wm/fake-wm --profile {profile}
# It ends when the WM ends, with its status, and takes its server along; SIGTERM ends all of it.
set -u
report=$1
shift
dir=$(mktemp -d) || exit 2
mkfifo "$dir/displayfd" || exit 2
Xvfb -displayfd 3 -nolisten tcp -noreset -screen 0 1280x1024x24 +extension Composite 3>"$dir/displayfd" \
    >"$dir/Xvfb.log" 2>&1 &
xvfb=$!
read -r display <"$dir/displayfd"   # blocks until Xvfb says which display it took
wm= session=
cleanup() {
    kill $session $wm 2>/dev/null
    kill $xvfb 2>/dev/null
    wait $xvfb 2>/dev/null
    rm -rf "$dir"
}
trap 'cleanup; exit 143' TERM INT
DISPLAY=":$display" "$@" &
wm=$!
DISPLAY=":$display" XAUTHORITY= "$report" &
session=$!
wait $wm
status=$?
cleanup
exit $status
