#!/bin/sh
# An X server whose screen a Wayland compositor shows, for the proof of the screen stream
# (tests/test_wayland_capture.py): run as the compositor's client (cage -- THIS REPORT WM...), it
# starts a rootful Xwayland (one Wayland toplevel for the whole X screen, which cage fills the
# output with: root coordinates are the output's), a WM on it (fake-wm, or any WM command), and the
# session command REPORT with DISPLAY set, as tests/own-xserver-wm.sh does with an Xvfb.  What the
# WM composites reaches the output through Xwayland's commits, so a screen-stream helper
# (tools/wlr-capture) sees it frame by frame.  Like Xwayland under sway, its server has no cookie.
#   tests/xwayland-rootful-wm.sh REPORT WM-COMMAND...   e.g. {report} fake-wm/fake-wm --profile P
# It ends when the WM ends, with its status, and takes its server along; SIGTERM ends all of it.
set -u
unset LD_PRELOAD   # the root shim of the conf is for cage alone
report=$1
shift
dir=$(mktemp -d) || exit 2
mkfifo "$dir/displayfd" || exit 2
# not -rootless: Debian's Xwayland 22.1 has no -geometry, and a rootful one takes the output's size
Xwayland -displayfd 3 -nolisten tcp -noreset 3>"$dir/displayfd" >"$dir/Xwayland.log" 2>&1 &
xwayland=$!
read -r display <"$dir/displayfd"   # blocks until Xwayland says which display it took
wm= session=
cleanup() {
    kill $session $wm 2>/dev/null
    kill $xwayland 2>/dev/null
    wait $xwayland 2>/dev/null
    rm -rf "$dir"
}
trap 'cleanup; exit 143' TERM INT
if [ -z "$display" ]; then
    cat "$dir/Xwayland.log" >&2
    cleanup
    exit 2
fi
DISPLAY=":$display" "$@" &
wm=$!
DISPLAY=":$display" XAUTHORITY= "$report" &
session=$!
wait $wm
status=$?
cleanup
exit $status
